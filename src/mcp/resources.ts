/**
 * Readable MCP resources: the chart of accounts and the open periods, as the API's JSON. They let
 * an agent load the account numbers and period ids it posts with before its first tool call.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PeriodView } from '../schemas/period.js';
import type { LedgerService } from '../service/ledger-service.js';
import type { ToolContext } from './tool-context.js';

export const CHART_OF_ACCOUNTS_URI = 'ledger://accounts';
export const OPEN_PERIODS_URI = 'ledger://periods/open';

const JSON_TYPE = 'application/json';

export function registerResources(server: McpServer, context: ToolContext): void {
  server.registerResource('chart-of-accounts', CHART_OF_ACCOUNTS_URI, {
    title: 'Chart of accounts', mimeType: JSON_TYPE,
    description: 'Every account (id, account_number, name, account_type, normal_balance, currency_id, parent_id, is_active), '
      + 'ordered by account_number, as {"data": [...]}',
  }, async (uri) => {
    await context.authenticate();
    const accounts = await context.service.chartOfAccounts();
    return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify({ data: accounts }) }] };
  });

  server.registerResource('open-periods', OPEN_PERIODS_URI, {
    title: 'Open periods', mimeType: JSON_TYPE,
    description: 'The periods that still take entries (status open), ordered by start_date, as {"data": [...]}',
  }, async (uri) => {
    await context.authenticate();
    const periods = await openPeriods(context.service);
    return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify({ data: periods }) }] };
  });
}

async function openPeriods(service: LedgerService): Promise<PeriodView[]> {
  const open: PeriodView[] = [];
  let cursor: string | undefined;
  do {
    const page = await service.listPeriods({ limit: 200, cursor });
    open.push(...page.data.filter((period) => period.status === 'open'));
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return open;
}
