/**
 * `ledger verify`: checks every invariant of the books (service/verify-ledger.ts) and lists each
 * problem. Exit 0 when the books are sound, 1 when any problem was found; under --json the answer
 * is `GET /api/v1/verify`'s either way.
 */
import type { Command } from 'commander';
import type { VerifyProblemView, VerifyResultView } from '../../schemas/verify.js';
import { LOCAL_OPERATOR } from '../../service/actor.js';
import { CommandExit } from '../command-exit.js';
import { EXIT } from '../exit-codes.js';
import { printJson } from '../output.js';
import { type ProgressBar, progressBar } from '../progress-bar.js';
import { printTable } from '../render/table.js';
import { withService } from '../with-service.js';
import { type CurrencyCodes, currencyCodes } from '../currency-codes.js';

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : nouns}`;
}

function where(problem: VerifyProblemView, codes: CurrencyCodes): string {
  const parts: string[] = [];
  if (problem.entry_id !== undefined) parts.push(`entry ${problem.entry_id}`);
  if (problem.account_id !== undefined) parts.push(`account ${problem.account_id}`);
  if (problem.period_id !== undefined) parts.push(`period ${problem.period_id}`);
  if (problem.currency_id !== undefined) parts.push(`currency ${codes(problem.currency_id)}`);
  if (problem.date !== undefined) parts.push(`date ${problem.date}`);
  return parts.join(', ') || '-';
}

function describe(problem: VerifyProblemView): string {
  const detail = [
    problem.expected === undefined ? undefined : `expected ${problem.expected}`,
    problem.found === undefined ? undefined : `found ${problem.found}`,
  ].filter((part) => part !== undefined);
  return detail.length === 0 ? problem.message : `${problem.message} (${detail.join('; ')})`;
}

function printResult(result: VerifyResultView, codes: CurrencyCodes): void {
  const { checked } = result;
  const scope = `${plural(checked.entries, 'entry', 'entries')} (${plural(checked.lines, 'line')}), ${plural(checked.accounts, 'account')}, `
    + `${plural(checked.periods, 'period')}, ${plural(checked.currencies, 'currency', 'currencies')}; ${plural(result.checks.length, 'check')}`;
  if (result.ok) {
    process.stdout.write(`Verified ${scope}: no problems.\n`);
    return;
  }
  process.stdout.write(`Verified ${scope}: ${plural(result.problems.length, 'problem')} found.\n\n`);
  printTable(['Check', 'Where', 'Problem'], result.problems.map((problem) => [problem.check, where(problem, codes), describe(problem)]));
}

export function registerVerifyCommand(program: Command): void {
  program.command('verify')
    .description('Check every invariant of the books (balances, totals, periods, closes, reversals); exit 1 if any problem is found')
    .addHelpText('after', '\nExamples:\n  $ ledger verify\n  $ ledger verify --json')
    .action(withService(async (service, { json }) => {
      let bar: ProgressBar | undefined;
      let result: VerifyResultView;
      try {
        result = await service.verifyLedger(LOCAL_OPERATOR, (checked, total) => {
          bar ??= progressBar(total);
          bar.update(checked);
        });
      } finally {
        bar?.done();
      }
      if (json) printJson({ data: result });
      else printResult(result, await currencyCodes(service));
      if (!result.ok) throw new CommandExit(EXIT.rejected);
    }));
}
