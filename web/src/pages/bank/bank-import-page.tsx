/**
 * Importing a bank or card statement (`/bank/import`): the account, the file (sent as its bytes)
 * and the format, guessed from the file's extension. A CSV file gets a mapping preview: its first
 * rows split into columns, each column's role chosen (or remembered from the last import into
 * the account), and the rows as the import will read them. "Check the file" asks the server for
 * the import's dry run (how many lines are new and how many were imported before, the period and
 * balances; nothing is stored). The server is the authority: its refusal, which names the file's
 * line, is shown as it comes.
 */
import { type ChangeEvent, type FormEvent, useMemo, useState } from 'react';
import { isApiError } from '../../api/client.js';
import { bankStatements } from '../../api/endpoints.js';
import type { BankStatementView, CsvMappingInput, StatementFormat } from '../../api/types.js';
import { useUser } from '../../auth/auth.js';
import { Button, ButtonLink, Card, ErrorNotice, Field, Notice, PageHeader, SelectField } from '../../components/ui.js';
import { formatDate, formatRange, formatTimestamp } from '../../lib/dates.js';
import { fieldError, isFieldError } from '../../lib/form-errors.js';
import { useSearchParams } from '../../lib/router.js';
import { toast } from '../../lib/toast.js';
import { invalidate, useApi } from '../../lib/use-api.js';
import { useSubmit } from '../../lib/use-submit.js';
import { Amount, BankAccountSelect, lastBankAccount, rememberBankAccount, useAccountAndCurrency, useBankAccounts } from './bank-shared.js';
import { CsvMappingForm } from './csv-mapping-form.js';
import { fromCsvMapping, guessMapping, type MappingDraft, previewCsv, readCsvRecords, toCsvMapping } from './csv-preview.js';
import {
  browserWritesMonthFirst, decodeForPreview, FORMAT_LABELS, guessFormat, rememberedMapping, rememberMapping, toBase64,
} from './statement-file.js';
import './bank.css';

interface LoadedFile {
  name: string;
  size: number;
  bytes: Uint8Array;
  text: string;
}

const IMPORT_FIELDS = ['account_id', 'format'];

/** The form's mapping for a file: the one remembered for the account, else a guess. */
function initialDraft(text: string, accountId: string): { draft: MappingDraft; remembered: boolean } {
  const remembered = accountId ? rememberedMapping(accountId) : null;
  if (remembered) {
    const draft = fromCsvMapping(remembered as Parameters<typeof fromCsvMapping>[0], null);
    const records = readCsvRecords(text, draft.delimiter, draft.skipRows, 1);
    const header = draft.header ? records[0]?.cells ?? null : null;
    return { draft: fromCsvMapping(remembered as Parameters<typeof fromCsvMapping>[0], header), remembered: true };
  }
  return { draft: guessMapping(text, browserWritesMonthFirst()), remembered: false };
}

export function BankImportPage() {
  const { can } = useUser();
  const search = useSearchParams();
  const [chosenAccountId, setAccountId] = useState(search.get('account') ?? lastBankAccount() ?? '');
  const { accounts: bankAccounts } = useBankAccounts();
  // Until one is chosen, the account last worked on, else the first bank account (most books have one).
  const accountId = bankAccounts?.some((row) => row.id === chosenAccountId) ? chosenAccountId : bankAccounts?.[0]?.id ?? '';
  const { account, currency } = useAccountAndCurrency(accountId || undefined);
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [format, setFormat] = useState<StatementFormat>('csv');
  const [mapping, setMapping] = useState<{ draft: MappingDraft; remembered: boolean } | null>(null);
  const [result, setResult] = useState<BankStatementView | null>(null);
  /** The last dry run's answer and what it was asked about: shown only while all of that is what the form holds. */
  const [checked, setChecked] = useState<{ statement: BankStatementView; asked: readonly unknown[] } | null>(null);
  const [fileInputKey, setFileInputKey] = useState(0);
  const { busy, error, setError, run } = useSubmit();
  const canImport = can('bank:write');

  const preview = useMemo(() => (file && mapping && format === 'csv'
    ? previewCsv(file.text, mapping.draft, { scale: currency?.asset_scale ?? 2, currencyCode: currency?.code ?? '' }) : null),
  [file, mapping, format, currency]);

  const chooseAccount = (value: string) => {
    setAccountId(value);
    setResult(null);
    setError(undefined);
    if (value) rememberBankAccount(value);
    // A mapping remembered for the newly chosen account replaces the guess.
    if (file && value && rememberedMapping(value)) setMapping(initialDraft(file.text, value));
  };

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setResult(null);
    setError(undefined);
    setFileError(undefined);
    if (!chosen) { setFile(null); setMapping(null); return; }
    try {
      const bytes = new Uint8Array(await chosen.arrayBuffer());
      const text = decodeForPreview(bytes);
      const guessed = guessFormat(chosen.name);
      setFile({ name: chosen.name, size: chosen.size, bytes, text });
      setFormat(guessed);
      setMapping(initialDraft(text, accountId));
    } catch (caught) {
      setFile(null);
      setFileError(`The file could not be read: ${caught instanceof Error ? caught.message : String(caught)}`);
    }
  };

  /** What is sent: the file's bytes, and a CSV file's columns. */
  const importInput = (loaded: LoadedFile) => {
    const csv = format === 'csv' && mapping ? toCsvMapping(mapping.draft, preview?.header ?? null) as CsvMappingInput : undefined;
    return { csv, input: { account_id: accountId, format, content_base64: toBase64(loaded.bytes), ...(csv ? { csv } : {}) } };
  };

  // What a check is about; any change to it (a later answer's too) hides the answer.
  const asking = [file, accountId, format, mapping];
  const checkedNow = checked?.asked.every((value, index) => value === asking[index]) === true ? checked.statement : null;

  const check = () => {
    if (!file || !accountId) return;
    const asked = asking;
    void run(async () => {
      setChecked({ statement: (await bankStatements.check(importInput(file).input)).statement, asked });
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !accountId) return;
    void run(async () => {
      const { csv, input } = importInput(file);
      const statement = await bankStatements.import(input);
      if (csv) rememberMapping(accountId, csv);
      setResult(statement);
      invalidate();
      toast(`Imported ${statement.new_count} new line${statement.new_count === 1 ? '' : 's'}`);
    });
  };

  const startOver = () => {
    setResult(null);
    setFile(null);
    setMapping(null);
    setFileInputKey((key) => key + 1);
  };

  const duplicate = isApiError(error) && error.code === 'DUPLICATE' && error.field === 'content';
  const rowsUnreadable = preview?.rows.filter((row) => row.error !== undefined).length ?? 0;
  const blocked = !file || !accountId || (format === 'csv' && (preview === null || preview.mappingError !== undefined));

  return (
    <div className="bank-page">
      <PageHeader title="Import a bank statement"
        subtitle="CSV, OFX/QFX or CAMT.053 files from your bank or card provider. Lines already imported are skipped."
        actions={accountId ? <ButtonLink to={`/bank/${accountId}`}>Go to matching</ButtonLink> : undefined} />
      {!canImport ? (
        <Notice tone="warning" title="You cannot import statements" data-testid="bank-import-forbidden">
          Importing needs the bank:write permission. Ask an administrator. The statements imported so far are listed below.
        </Notice>
      ) : null}
      {result ? <ImportResult statement={result} onAnother={startOver} /> : null}
      {canImport && !result ? (
        <form onSubmit={submit} className="bank-import" data-testid="bank-import-form">
          <Card title="1. The statement file">
            <div className="form-row">
              <BankAccountSelect value={accountId} onChange={chooseAccount} error={fieldError(error, 'account_id')} data-testid="import-account" />
              <Field label="Statement file" error={fileError} hint={file ? `${file.name} · ${formatSize(file.size)}` : 'CSV, OFX, QFX or XML'}>
                {({ id, describedBy }) => (
                  <input key={fileInputKey} id={id} className="input input--file" type="file" accept=".csv,.txt,.ofx,.qfx,.xml,text/csv,application/xml"
                    aria-describedby={describedBy} onChange={(event) => void chooseFile(event)} data-testid="import-file" />
                )}
              </Field>
              <SelectField label="Format" value={format} onChange={(event) => setFormat(event.target.value as StatementFormat)}
                hint={file ? `Guessed from the file name; change it if it is wrong` : undefined} error={fieldError(error, 'format')}
                data-testid="import-format">
                {(Object.keys(FORMAT_LABELS) as StatementFormat[]).map((value) => <option key={value} value={value}>{FORMAT_LABELS[value]}</option>)}
              </SelectField>
            </div>
          </Card>
          {file && format === 'csv' && mapping && preview ? (
            <Card title="2. The columns" data-testid="csv-mapping">
              {mapping.remembered ? (
                <Notice tone="info" data-testid="mapping-remembered">
                  These are the columns chosen for {account?.name ?? 'this account'} last time.{' '}
                  <Button variant="ghost" className="button--small" onClick={() => setMapping({ draft: guessMapping(file.text, browserWritesMonthFirst()), remembered: false })}>
                    Guess again from this file
                  </Button>
                </Notice>
              ) : null}
              <CsvMappingForm text={file.text} draft={mapping.draft} preview={preview} currency={currency} error={error}
                onChange={(draft) => setMapping({ draft, remembered: mapping.remembered })} />
            </Card>
          ) : null}
          {duplicate ? (
            <Notice tone="info" title="This file was imported already" data-testid="import-duplicate">
              <p>The same file was imported into {account?.name ?? 'this account'} before, so nothing was imported again: its lines are
                waiting on the matching screen. A newer download from your bank, even one that overlaps this one, imports only the lines that are new.</p>
              <ButtonLink to={`/bank/${accountId}`}>Go to matching</ButtonLink>
            </Notice>
          ) : null}
          {checkedNow && !error ? <CheckResult statement={checkedNow} /> : null}
          {error && !duplicate && !isFieldError(error, [...IMPORT_FIELDS, ...CSV_FIELDS]) ? (
            <div data-testid="import-error"><ErrorNotice error={error} /></div>
          ) : null}
          <div className="form-actions">
            {rowsUnreadable > 0 ? (
              <p className="form-actions__reason field__error" data-testid="import-warning">
                {rowsUnreadable} of the first rows cannot be read as the columns stand; the import would refuse the file.
              </p>
            ) : null}
            <Button onClick={check} disabled={blocked || busy} data-testid="import-check">Check the file</Button>
            <Button type="submit" variant="primary" busy={busy} disabled={blocked} data-testid="import-submit">Import statement</Button>
          </div>
        </form>
      ) : null}
      {accountId ? <StatementHistory accountId={accountId} /> : null}
    </div>
  );
}

const CSV_FIELDS = ['csv', 'csv.delimiter', 'csv.header', 'csv.skip_rows', 'csv.date_column', 'csv.date_format', 'csv.description_column',
  'csv.amount_column', 'csv.debit_column', 'csv.credit_column', 'csv.decimal_separator', 'csv.id_column', 'csv.balance_column'];

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The import's dry run: what importing the file would do, before anything is stored. */
function CheckResult({ statement }: { statement: BankStatementView }) {
  const { currency } = useAccountAndCurrency(statement.account_id);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return (
    <Notice tone="info" title="The file reads well. Nothing is imported yet." data-testid="import-check-result">
      <p>
        Importing it would add <strong data-testid="check-new-count">{plural(statement.new_count, 'new line')}</strong>
        {statement.duplicate_count > 0 ? <> and skip <strong data-testid="check-duplicate-count">{plural(statement.duplicate_count, 'line')}</strong> imported before</> : null}
        {statement.start_date && statement.end_date ? <>, for {formatRange(statement.start_date, statement.end_date)}</> : null}
        {statement.closing_balance !== null ? <>; the file's closing balance is <Amount value={statement.closing_balance} currency={currency} /></> : null}.
      </p>
    </Notice>
  );
}

function ImportResult({ statement, onAnother }: { statement: BankStatementView; onAnother: () => void }) {
  const { account, currency } = useAccountAndCurrency(statement.account_id);
  const balance = (value: string | null) => (value === null ? <span className="muted">not in the file</span> : <Amount value={value} currency={currency} />);
  return (
    <Card title="Statement imported" data-testid="import-result">
      <dl className="details bank-summary">
        <div><dt>Account</dt><dd>{account ? `${account.account_number} · ${account.name}` : statement.account_id}</dd></div>
        <div><dt>Period</dt><dd data-testid="import-period">
          {statement.start_date && statement.end_date ? formatRange(statement.start_date, statement.end_date) : 'no lines'}
        </dd></div>
        <div><dt>New lines</dt><dd data-testid="import-new-count">{statement.new_count}</dd></div>
        <div><dt>Already imported</dt><dd data-testid="import-duplicate-count">
          {statement.duplicate_count}{statement.duplicate_count > 0 ? <span className="muted"> (skipped)</span> : null}
        </dd></div>
        <div><dt>Opening balance</dt><dd data-testid="import-opening">{balance(statement.opening_balance)}</dd></div>
        <div><dt>Closing balance</dt><dd data-testid="import-closing">{balance(statement.closing_balance)}</dd></div>
      </dl>
      <div className="form-actions">
        <Button onClick={onAnother} data-testid="import-another">Import another file</Button>
        <ButtonLink to={`/bank/${statement.account_id}`} variant="primary" data-testid="import-go-matching">
          Match {statement.new_count} new line{statement.new_count === 1 ? '' : 's'}
        </ButtonLink>
      </div>
    </Card>
  );
}

/** The statements imported into the account, newest first. */
function StatementHistory({ accountId }: { accountId: string }) {
  const statements = useApi(`bank-statements:${accountId}`, () => bankStatements.all(accountId));
  const { currency } = useAccountAndCurrency(accountId);
  const rows = [...(statements.data ?? [])].reverse();
  if (statements.error) return <ErrorNotice error={statements.error} onRetry={statements.reload} />;
  if (rows.length === 0) return null;
  return (
    <Card title="Imported into this account" className="card--flush" data-testid="statement-history">
      <div className="table-wrap">
        <table className="table table--stack">
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col" className="hide-narrow">Format</th>
              <th scope="col" className="num">New</th>
              <th scope="col" className="num hide-narrow">Skipped</th>
              <th scope="col" className="num">Closing balance</th>
              <th scope="col" className="hide-narrow">Imported</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 20).map((statement) => (
              <tr key={statement.id} data-testid="statement-row">
                <td className="cell-key nowrap">
                  {statement.start_date && statement.end_date ? formatRange(statement.start_date, statement.end_date) : formatDate(statement.imported_at)}
                </td>
                <td className="hide-narrow">{statement.format.toUpperCase()}</td>
                <td className="num">{statement.new_count}</td>
                <td className="num hide-narrow">{statement.duplicate_count}</td>
                <td className="num">{statement.closing_balance !== null ? <Amount value={statement.closing_balance} currency={currency} /> : '—'}</td>
                <td className="hide-narrow muted nowrap">{formatTimestamp(statement.imported_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
