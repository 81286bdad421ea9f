/**
 * The CSV mapping of the import page: the file's layout (delimiter, preamble, header row), each
 * column's role, and two previews: the raw rows with the chosen columns highlighted, and the
 * first rows as the import will read them (a row it cannot read shows why, as the server words it).
 */
import type { CurrencyView } from '../../api/types.js';
import { Badge, Checkbox, InputField, Money, SelectField } from '../../components/ui.js';
import { formatDate } from '../../lib/dates.js';
import { fieldError } from '../../lib/form-errors.js';
import { displayMinor } from '../../lib/money.js';
import { Amount, unsignedDisplay } from './bank-shared.js';
import { type ColumnRole, type CsvPreview, DATE_FORMATS, DELIMITERS, type MappingDraft } from './csv-preview.js';

const ROLE_LABELS: Record<ColumnRole, string> = {
  date: 'Date', description: 'Description', amount: 'Amount', debit: 'Money out', credit: 'Money in', balance: 'Balance', id: 'Transaction id',
};

interface Props {
  text: string;
  draft: MappingDraft;
  preview: CsvPreview;
  currency: CurrencyView | undefined;
  /** The import's error, shown beside the field it names (`csv.date_column`). */
  error: unknown;
  onChange: (draft: MappingDraft) => void;
}

export function CsvMappingForm({ text, draft, preview, currency, error, onChange }: Props) {
  const set = (changes: Partial<MappingDraft>) => onChange({ ...draft, ...changes });
  const setColumn = (role: ColumnRole, value: string) => onChange({ ...draft, columns: { ...draft.columns, [role]: value === '' ? null : Number(value) } });
  const columnNames = Array.from({ length: preview.width }, (_, index) => {
    const name = preview.header?.[index]?.trim();
    const sample = preview.rows[0]?.cells[index]?.trim();
    return name ? `${index + 1} · ${name}` : `Column ${index + 1}${sample ? ` (${sample.length > 24 ? `${sample.slice(0, 23)}…` : sample})` : ''}`;
  });
  const rolesOf = (index: number) => (Object.keys(draft.columns) as ColumnRole[]).filter((role) => {
    if (draft.columns[role] !== index + 1) return false;
    if (role === 'amount') return draft.amountMode === 'single';
    if (role === 'debit' || role === 'credit') return draft.amountMode === 'split';
    return true;
  });
  const mappingMessage = (field: string) => fieldError(error, field) ?? (preview.mappingError?.field === field ? preview.mappingError.message : undefined);

  const columnSelect = (role: ColumnRole, label: string, optional = false) => (
    <SelectField label={label} value={draft.columns[role] === null ? '' : String(draft.columns[role])} onChange={(event) => setColumn(role, event.target.value)}
      error={mappingMessage(`csv.${role}_column`)} data-testid={`mapping-${role}`}>
      <option value="">{optional ? 'None' : 'Choose a column…'}</option>
      {columnNames.map((name, index) => <option key={name} value={index + 1}>{name}</option>)}
    </SelectField>
  );

  const skipped = text.split(/\r\n|\n|\r/).slice(0, Math.min(draft.skipRows, 12));

  return (
    <div className="csv-mapping">
      <fieldset className="csv-mapping__group">
        <legend className="field__label">How the file is laid out</legend>
        <div className="form-row">
          <SelectField label="Delimiter" value={draft.delimiter} onChange={(event) => set({ delimiter: event.target.value as MappingDraft['delimiter'] })}
            error={mappingMessage('csv.delimiter')} data-testid="mapping-delimiter">
            {DELIMITERS.map((option) => <option key={option.label} value={option.value}>{option.label}</option>)}
          </SelectField>
          <InputField label="Lines to skip before the header" type="number" min={0} max={1000} value={draft.skipRows}
            onChange={(event) => set({ skipRows: Math.max(0, Math.min(1000, Number(event.target.value) || 0)) })}
            hint="The bank's preamble (account number, period…)" error={mappingMessage('csv.skip_rows')} data-testid="mapping-skip-rows" />
          <SelectField label="Decimal separator" value={draft.decimalSeparator}
            onChange={(event) => set({ decimalSeparator: event.target.value as MappingDraft['decimalSeparator'] })}
            error={mappingMessage('csv.decimal_separator')} data-testid="mapping-decimal">
            <option value=".">Point (1,234.56)</option>
            <option value=",">Comma (1.234,56)</option>
          </SelectField>
          <div className="csv-mapping__check">
            <Checkbox label="The first row names the columns" checked={draft.header} onChange={(event) => set({ header: event.target.checked })}
              data-testid="mapping-header" />
          </div>
        </div>
      </fieldset>
      <fieldset className="csv-mapping__group">
        <legend className="field__label">What each column holds</legend>
        <div className="form-row">
          {columnSelect('date', 'Date column')}
          <SelectField label="Date format" value={draft.dateFormat} onChange={(event) => set({ dateFormat: event.target.value as MappingDraft['dateFormat'] })}
            error={mappingMessage('csv.date_format')} data-testid="mapping-date-format">
            {DATE_FORMATS.map((format) => <option key={format} value={format}>{format}</option>)}
          </SelectField>
          {columnSelect('description', 'Description column')}
        </div>
        <div className="segmented csv-mapping__mode" role="radiogroup" aria-label="Amounts">
          <label>
            <input type="radio" name="amount-mode" checked={draft.amountMode === 'single'} onChange={() => set({ amountMode: 'single' })}
              data-testid="mapping-mode-single" />
            One amount column (negative = money out)
          </label>
          <label>
            <input type="radio" name="amount-mode" checked={draft.amountMode === 'split'} onChange={() => set({ amountMode: 'split' })}
              data-testid="mapping-mode-split" />
            Separate money out and money in columns
          </label>
        </div>
        <div className="form-row">
          {draft.amountMode === 'single' ? columnSelect('amount', 'Amount column') : (
            <>
              {columnSelect('debit', 'Money out column (debit)')}
              {columnSelect('credit', 'Money in column (credit)')}
            </>
          )}
          {columnSelect('balance', 'Balance column (optional)', true)}
          {columnSelect('id', 'Transaction id column (optional)', true)}
        </div>
        {preview.mappingError && !fieldError(error, preview.mappingError.field) && !preview.mappingError.field.endsWith('_column') ? (
          <p className="field__error" role="alert">{preview.mappingError.message}</p>
        ) : null}
      </fieldset>

      {skipped.length > 0 ? (
        <div className="csv-mapping__skipped" data-testid="mapping-skipped">
          <p className="field__label">Skipped lines</p>
          <ol className="csv-mapping__skipped-lines">
            {skipped.map((line, index) => <li key={index}><span className="muted">{index + 1}</span> <code>{line.length > 120 ? `${line.slice(0, 119)}…` : line}</code></li>)}
          </ol>
        </div>
      ) : null}

      <h3 className="csv-mapping__title">The file's first rows</h3>
      <div className="table-wrap csv-raw" data-testid="mapping-raw">
        <table className="table table--compact">
          <thead>
            <tr>
              <th scope="col" className="num">Line</th>
              {columnNames.map((name, index) => (
                <th scope="col" key={name} className={rolesOf(index).length > 0 ? 'csv-raw__role' : ''}>
                  <span className="csv-raw__name">{preview.header?.[index]?.trim() || `Column ${index + 1}`}</span>
                  {rolesOf(index).map((role) => <Badge key={role} tone="info">{ROLE_LABELS[role]}</Badge>)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.slice(0, 8).map((row) => (
              <tr key={row.lineNumber}>
                <td className="num muted">{row.lineNumber}</td>
                {columnNames.map((name, index) => (
                  <td key={name} className={rolesOf(index).length > 0 ? 'csv-raw__role' : 'muted'} title={row.cells[index] ?? ''}>
                    {row.cells[index] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3 className="csv-mapping__title">How they will be imported</h3>
      {preview.mappingError ? (
        <p className="muted" data-testid="mapping-incomplete">Choose the columns above to see how the rows read: {preview.mappingError.message}.</p>
      ) : (
        <div className="table-wrap" data-testid="mapping-preview">
          <table className="table table--compact">
            <thead>
              <tr>
                <th scope="col" className="num hide-narrow">Line</th>
                <th scope="col" className="col-date hide-narrow">Date</th>
                <th scope="col">Description</th>
                <th scope="col" className="num hide-narrow">In</th>
                <th scope="col" className="num hide-narrow">Out</th>
                <th scope="col" className="num show-narrow-cell">Amount</th>
                {draft.columns.balance !== null ? <th scope="col" className="num hide-narrow">Balance</th> : null}
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row) => row.error !== undefined ? (
                <tr key={row.lineNumber} className="csv-preview__bad" data-testid="mapping-preview-row" data-line={row.lineNumber}>
                  <td className="num hide-narrow">{row.lineNumber}</td>
                  <td className="hide-narrow" />
                  <td colSpan={draft.columns.balance !== null ? 5 : 4} className="field__error">line {row.lineNumber}: {row.error}</td>
                </tr>
              ) : (
                <tr key={row.lineNumber} data-testid="mapping-preview-row" data-line={row.lineNumber}>
                  <td className="num muted hide-narrow">{row.lineNumber}</td>
                  <td className="nowrap hide-narrow">{formatDate(row.date)}</td>
                  <td className="bank-description"><span className="show-narrow muted small">{formatDate(row.date)}<br /></span>{row.description}</td>
                  <td className="num hide-narrow">{row.amount !== undefined && row.amount > 0n ? <span className="money money--in">{unsignedDisplay(row.amount, currency)}</span> : null}</td>
                  <td className="num hide-narrow">{row.amount !== undefined && row.amount < 0n ? <span className="money">{unsignedDisplay(row.amount, currency)}</span> : null}</td>
                  <td className="num show-narrow-cell">{row.amount !== undefined ? <Money value={row.amount} display={displayMinor(row.amount, currency?.asset_scale ?? 0)} /> : null}</td>
                  {draft.columns.balance !== null ? (
                    <td className="num hide-narrow">{row.balance !== undefined && row.balance !== null ? <Amount value={row.balance} currency={currency} /> : ''}</td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small csv-mapping__note">
            The first {preview.rows.length} row{preview.rows.length === 1 ? '' : 's'}{currency ? `, in ${currency.code}` : ''}. The server reads the whole file the same way
            and imports nothing if any line cannot be read.
          </p>
        </div>
      )}
    </div>
  );
}
