/**
 * Builds the single-page app into dist/web, where `ledger serve` picks it up. `vite dev` (run from
 * the repository root with `npx vite --config web/vite.config.ts`) proxies the API to a server on
 * port 3000, or to LEDGER_API_URL.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiUrl = process.env.LEDGER_API_URL ?? 'http://127.0.0.1:3000';
const proxied = { target: apiUrl, changeOrigin: false };

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No source maps in the served build: they would publish the UI's source (`ledger serve` also refuses *.map).
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: { '/api': proxied, '/auth': proxied, '/health': proxied, '/docs': proxied },
  },
});
