/** `ledger doctor`: checks the configuration and the database, and says what to fix (app/doctor.ts). */
import type { Command } from 'commander';
import { CommandExit } from '../command-exit.js';
import { EXIT } from '../exit-codes.js';
import { globals } from '../global-options.js';
import { printJson } from '../output.js';

const MARK = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;

export function registerDoctorCommand(program: Command): void {
  program.command('doctor')
    .description('Check the configuration (LEDGER_* settings) and the database, and say what to fix; changes nothing')
    .addHelpText('after', '\nExamples:\n  $ ledger doctor\n  $ LEDGER_PG_POOL_SIZE=20 ledger --db "postgres://ledger@db1,db2/books?target_session_attrs=read-write" doctor --json'
      + '\n\nExit code 0 when nothing fails (warnings allowed), 1 when a check fails.')
    .action(async (_options: object, command: Command) => {
      const { db, json } = globals(command);
      const { runDoctor } = await import('../../app/doctor.js');
      const findings = await runDoctor(db, process.env);
      const failed = findings.some((finding) => finding.status === 'fail');
      if (json) {
        printJson({ data: { ok: !failed, findings } });
      } else {
        for (const finding of findings) {
          process.stdout.write(`${MARK[finding.status]}  ${finding.check}: ${finding.detail}\n`);
          if (finding.fix !== undefined && finding.status !== 'ok') process.stdout.write(`      fix: ${finding.fix}\n`);
        }
        const warnings = findings.filter((finding) => finding.status === 'warn').length;
        process.stdout.write(failed ? 'Some checks failed.\n' : `All checks passed${warnings > 0 ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}.\n`);
      }
      if (failed) throw new CommandExit(EXIT.rejected);
    });
}
