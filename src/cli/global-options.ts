import type { Command } from 'commander';

export interface GlobalOptions {
  db: string;
  json?: boolean;
  apiKey?: string;
}

export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}
