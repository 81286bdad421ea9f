/**
 * The month-end close prompt: the steps an agent follows to close a period safely, using only the
 * server's tools (check the books, look at the period's figures, preview the close, then close).
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { validationError } from '../domain/errors.js';

export const MONTH_END_CLOSE: Prompt = {
  name: 'month_end_close',
  title: 'Month-end close',
  description: 'Check the books, preview the closing entry of a period, and close it once the preview has been reviewed',
  arguments: [{ name: 'period_id', description: 'Id of the period to close (list_periods gives the ids)', required: true }],
};

export function monthEndClosePrompt(args: Record<string, string> | undefined): GetPromptResult {
  const periodId = args?.period_id;
  if (periodId === undefined || periodId === '') throw validationError('period_id is required', 'period_id');
  const text = [
    `Close the period ${periodId} of the ledger. Use only the ledger's tools, and follow these steps in order:`,
    '',
    `1. Call list_periods and find period ${periodId}: note its name and dates, and stop if its status is already closed.`,
    '2. Call verify. If ok is false, stop and report the problems: a period must not be closed on broken books.',
    `3. Call trial_balance with {"period_id": "${periodId}"} and check that is_balanced is true.`,
    `4. Call income_statement with {"period_id": "${periodId}"} and summarise revenue, expenses and net income.`,
    `5. Call close_period with {"id": "${periodId}", "preview": true}. Show the closing entry it would post: each line, `
      + 'and the amount moved to retained earnings (amounts are minor-unit strings; quote the display strings).',
    '6. Ask me to confirm. Only after I confirm, call close_period with '
      + `{"id": "${periodId}"} (no preview): closing is permanent and the period then refuses new entries.`,
    '',
    'If a tool returns an error, its text is a JSON object with code, message, field and suggestion: report it and follow the suggestion.',
  ].join('\n');
  return { description: `Month-end close of period ${periodId}`, messages: [{ role: 'user', content: { type: 'text', text } }] };
}
