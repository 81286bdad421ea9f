/**
 * The `ledger` command line. It works directly on a SQLite file through the same service as the
 * HTTP API. Heavy modules (the HTTP server) are loaded only by the commands that need them, so
 * read commands start fast.
 */
import { Command, CommanderError, Option } from 'commander';
import { CommandExit } from './command-exit.js';
import { EXIT } from './exit-codes.js';
import { registerAccountCommands } from './commands/accounts.js';
import { registerAuditLogCommand } from './commands/audit-log.js';
import { registerEventsCommand } from './commands/events.js';
import { registerWebhooksCommand } from './commands/webhooks.js';
import { registerBackupCommand } from './commands/backup.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerHealthCommand } from './commands/health.js';
import { registerBankCommands } from './commands/bank.js';
import { registerCopyCommand } from './commands/copy.js';
import { registerCurrencyCommands } from './commands/currencies.js';
import { registerExportCommand } from './commands/export.js';
import { registerJournalEntryCommands } from './commands/journal-entries.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerPeriodCommands } from './commands/periods.js';
import { registerRateCommands } from './commands/rates.js';
import { registerReconcileCommands } from './commands/reconcile.js';
import { registerReportCommands } from './commands/reports.js';
import { registerServeCommands } from './commands/serve.js';
import { registerSettingsCommands } from './commands/settings.js';
import { registerUserCommands } from './commands/users.js';
import { registerVerifyCommand } from './commands/verify.js';
import { packageVersion } from '../app/package-files.js';
import { reportFailure } from './output.js';

/** Under --json a usage error is the JSON error body too, so scripts parse every failure alike. */
function jsonUsageErrors(program: Command): Command {
  return program.configureOutput({
    outputError: (text, write) => write(`${JSON.stringify({
      code: 'VALIDATION_ERROR', message: text.trim().replace(/^error: /, ''), suggestion: 'See `ledger --help` or `ledger <command> --help`',
    })}\n`),
  });
}

export function buildProgram(json = process.argv.includes('--json')): Command {
  const program = new Command('ledger')
    .description('Double-entry bookkeeping on a local SQLite file or a PostgreSQL database, with an HTTP API and web UI (ledger serve).')
    .version(packageVersion(), '-V, --version', 'print the version')
    .addOption(new Option('--db <path|url>', 'SQLite database file, or postgres://user:pass@host:port/dbname').env('LEDGER_DB').default('./ledger.db'))
    .option('--json', 'print machine-readable JSON (the HTTP API\'s envelope)')
    .addOption(new Option('--api-key <key>', 'API key for write operations that are attributed to a user').env('LEDGER_API_KEY'))
    .exitOverride();
  if (json) jsonUsageErrors(program);
  else program.showHelpAfterError();
  registerServeCommands(program);
  registerCurrencyCommands(program);
  registerRateCommands(program);
  registerAccountCommands(program);
  registerJournalEntryCommands(program);
  registerPeriodCommands(program);
  registerReportCommands(program);
  registerBankCommands(program);
  registerReconcileCommands(program);
  registerUserCommands(program);
  registerSettingsCommands(program);
  registerAuditLogCommand(program);
  registerEventsCommand(program);
  registerWebhooksCommand(program);
  registerExportCommand(program);
  registerCopyCommand(program);
  registerBackupCommand(program);
  registerDoctorCommand(program);
  registerHealthCommand(program);
  registerVerifyCommand(program);
  registerMcpCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommandExit) return error.exitCode;
    if (error instanceof CommanderError) {
      // --help, --version and `help` end with exit code 0; a group command without its
      // subcommand (`ledger accounts`) prints help to stderr with exit code 1: a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return reportFailure(error, Boolean(program.opts().json));
  }
}

// A reader that stops early (`ledger journal-entries list | head`) is not a failure of the command:
// stop quietly instead of crashing on the broken pipe.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.ok);
  throw error;
});

const exitCode = await main(process.argv);
process.exitCode = exitCode;
