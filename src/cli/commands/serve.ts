import type { Command } from 'commander';
import { globals } from '../global-options.js';

export function registerServeCommands(program: Command): void {
  program.command('init')
    .description('Create the database (a SQLite file, or the schema in a PostgreSQL database) and run migrations')
    .addHelpText('after', '\nExamples:\n  $ ledger init --db books.db\n  $ ledger init --db postgres://ledger:secret@127.0.0.1:5432/books')
    .action(async (_options, command: Command) => {
      const { db, json } = globals(command);
      const { initLedger } = await import('../../app/open-ledger.js');
      await initLedger(db);
      const { describeDatabaseLocation, parseDatabaseLocation } = await import('../../app/database-location.js');
      const shown = describeDatabaseLocation(parseDatabaseLocation(db));
      if (json) process.stdout.write(`${JSON.stringify({ data: { database: shown, initialized: true } })}\n`);
      else process.stdout.write(`Initialised ledger database ${shown}\n`);
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
        database: db,
        port: Number(options.port ?? process.env.PORT ?? 3000),
        host: options.host ?? process.env.LEDGER_HOST ?? '127.0.0.1',
      });
    });
}
