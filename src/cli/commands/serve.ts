import type { Command } from 'commander';
import { globals } from '../global-options.js';

export function registerServeCommands(program: Command): void {
  program.command('init')
    .description('Create the database file and run migrations')
    .addHelpText('after', '\nExample:\n  $ ledger init --db books.db')
    .action(async (_options, command: Command) => {
      const { db, json } = globals(command);
      const { initLedger } = await import('../../app/open-ledger.js');
      await initLedger(db);
      if (json) process.stdout.write(`${JSON.stringify({ data: { database: db, initialized: true } })}\n`);
      else process.stdout.write(`Initialised ledger database ${db}\n`);
    });

  program.command('serve')
    .description('Start the HTTP API (and web UI); initialises a missing database file')
    .option('--port <port>', 'port to listen on (default 3000, or PORT)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1, or LEDGER_HOST)')
    .addHelpText('after', '\nExample:\n  $ ledger serve --port 8080')
    .action(async (options: { port?: string; host?: string }, command: Command) => {
      const { db } = globals(command);
      const { startServer } = await import('../../app/start-server.js');
      await startServer({
        dbPath: db,
        port: Number(options.port ?? process.env.PORT ?? 3000),
        host: options.host ?? process.env.LEDGER_HOST ?? '127.0.0.1',
      });
    });
}
