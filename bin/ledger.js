#!/usr/bin/env node
// dist/bundle/ is dist/cli/main.js and what it imports, bundled (scripts/bundle-cli.mjs).
import '../dist/bundle/main.js';
