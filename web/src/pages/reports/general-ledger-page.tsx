/** General ledger report: one account, a period or date range, oldest or newest first. */
import { useState } from 'react';
import { exportLedgerCsv, LedgerTable } from '../../components/ledger-table.js';
import { AccountSelect, PeriodSelect } from '../../components/pickers.js';
import { EmptyState, ErrorNotice, InputField, SelectField } from '../../components/ui.js';
import { formatDate } from '../../lib/dates.js';
import { accountLabel, useAccounts, useCurrencyMap, usePeriods } from '../../lib/reference.js';
import { setSearchParams, useSearchParams } from '../../lib/router.js';
import { ReportFrame } from './report-frame.js';

export function GeneralLedgerPage() {
  const search = useSearchParams();
  const accountId = search.get('account') ?? '';
  const periodId = search.get('period') ?? '';
  const start = search.get('start') ?? '';
  const end = search.get('end') ?? '';
  const sort = search.get('sort') === 'desc' ? 'desc' : 'asc';
  const accounts = useAccounts();
  const periods = usePeriods();
  const currencies = useCurrencyMap();
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>();
  const account = accounts.data?.find((row) => row.id === accountId);
  const period = periods.data?.find((row) => row.id === periodId);
  const update = (changes: Record<string, string>) =>
    setSearchParams({ account: accountId, period: periodId, start, end, sort: sort === 'desc' ? 'desc' : '', ...changes });
  const params = {
    account_id: accountId, sort,
    ...(periodId ? { period_id: periodId } : {}), ...(start ? { start_date: start } : {}), ...(end ? { end_date: end } : {}),
  } as const;
  const range = period ? period.name : start || end ? `${start ? formatDate(start) : 'beginning'} – ${end ? formatDate(end) : 'today'}` : 'All time';
  const scope = account ? `${accountLabel(account)} · ${range} · ${currencies.get(account.currency_id)?.code ?? ''}` : 'Choose an account';

  const exportCsv = async () => {
    setExporting(true);
    setExportError(undefined);
    try {
      await exportLedgerCsv(params);
    } catch (error) {
      setExportError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <ReportFrame title="General ledger" scope={scope} testId="report-general-ledger"
      onCsv={accountId ? () => void exportCsv() : undefined} csvBusy={exporting}
      parameters={<>
        <AccountSelect label="Account" accounts={accounts.data} value={accountId} onChange={(value) => update({ account: value })}
          className="field--grow" data-testid="report-account" />
        <PeriodSelect label="Period" periods={periods.data} value={periodId} onChange={(value) => update({ period: value, start: '', end: '' })}
          data-testid="report-period" />
        <InputField label="From" type="date" value={start} onChange={(event) => update({ start: event.target.value, period: '' })} data-testid="report-start" />
        <InputField label="To" type="date" value={end} onChange={(event) => update({ end: event.target.value, period: '' })} data-testid="report-end" />
        <SelectField label="Order" value={sort} onChange={(event) => update({ sort: event.target.value === 'desc' ? 'desc' : '' })} data-testid="report-sort">
          <option value="asc">Oldest first</option>
          <option value="desc">Newest first</option>
        </SelectField>
      </>}>
      {exportError ? <ErrorNotice error={exportError} /> : null}
      {!accountId ? <EmptyState title="Choose an account">The general ledger lists one account's lines with a running balance.</EmptyState> : (
        <div className="card card--flush report__section">
          <LedgerTable params={params} currency={account ? currencies.get(account.currency_id) : undefined} showAccount={account?.has_subledger ?? false} showExport={false} />
        </div>
      )}
    </ReportFrame>
  );
}
