/** Currencies: list, create (fiat from ISO 4217 via Intl, or crypto by hand), rename. */
import { type FormEvent, useMemo, useState } from 'react';
import { currencies as currenciesApi } from '../api/endpoints.js';
import type { CurrencyView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { Badge, Button, Dialog, EmptyState, ErrorNotice, InputField, Loading, PageHeader, SelectField } from '../components/ui.js';
import { fieldError, isFieldError } from '../lib/form-errors.js';
import { fiatCaip19, fiatCurrencies } from '../lib/iso4217.js';
import { useCurrencies } from '../lib/reference.js';
import { toast } from '../lib/toast.js';
import { invalidate } from '../lib/use-api.js';
import { useSubmit } from '../lib/use-submit.js';

export function CurrenciesPage() {
  const { can } = useUser();
  const list = useCurrencies();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<CurrencyView | null>(null);

  return (
    <>
      <PageHeader title="Currencies" subtitle="Amounts are kept in each currency's smallest unit; decimals are fixed once created."
        actions={can('currencies:write') ? <Button variant="primary" onClick={() => setCreating(true)} data-testid="currency-new">New currency</Button> : undefined} />
      {list.error ? <ErrorNotice error={list.error} onRetry={list.reload} /> : null}
      {list.loading && !list.data ? <Loading /> : null}
      {list.data && list.data.length === 0 ? <EmptyState title="No currencies yet">Add the currency your books are kept in.</EmptyState> : null}
      {list.data && list.data.length > 0 ? (
        <div className="card card--flush">
          <div className="table-wrap">
            <table className="table table--stack" data-testid="currencies-table">
              <thead>
                <tr>
                  <th scope="col">Code</th><th scope="col">Name</th><th scope="col">Symbol</th><th scope="col" className="num">Decimals</th>
                  <th scope="col">Type</th><th scope="col" className="hide-narrow">CAIP-19</th>
                  {can('currencies:write') ? <th scope="col" className="col-actions"><span className="visually-hidden">Actions</span></th> : null}
                </tr>
              </thead>
              <tbody>
                {list.data.map((currency) => (
                  <tr key={currency.id} data-testid="currency-row">
                    <td className="mono"><strong>{currency.code}</strong></td>
                    <td className="cell-key">{currency.name}</td>
                    <td>{currency.symbol}</td>
                    <td className="num">{currency.asset_scale}<span className="show-narrow muted"> decimals</span></td>
                    <td><Badge tone={currency.asset_type === 'fiat' ? 'neutral' : 'info'}>{currency.asset_type}</Badge></td>
                    <td className="hide-narrow mono muted">{currency.caip19_id}</td>
                    {can('currencies:write') ? (
                      <td className="col-actions">
                        <Button variant="ghost" className="button--small" onClick={() => setEditing(currency)} aria-label={`Edit ${currency.code}`}
                          data-testid="currency-edit">Edit</Button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
      <Dialog open={creating} title="New currency" onClose={() => setCreating(false)} data-testid="currency-dialog">
        {creating ? <CreateCurrencyForm existing={list.data ?? []} onDone={() => setCreating(false)} /> : null}
      </Dialog>
      <Dialog open={editing !== null} title={editing ? `Edit ${editing.code}` : 'Edit currency'} onClose={() => setEditing(null)}>
        {editing ? <EditCurrencyForm currency={editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
    </>
  );
}

function CreateCurrencyForm({ existing, onDone }: { existing: CurrencyView[]; onDone: () => void }) {
  const fiat = useMemo(() => fiatCurrencies(), []);
  const taken = new Set(existing.map((currency) => currency.code.toUpperCase()));
  const [type, setType] = useState<'fiat' | 'crypto'>('fiat');
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [symbol, setSymbol] = useState('');
  const [scale, setScale] = useState('2');
  const [caip19, setCaip19] = useState('');
  const { busy, error, run } = useSubmit();

  const pickFiat = (picked: string) => {
    const row = fiat.find((candidate) => candidate.code === picked);
    setCode(picked);
    setName(row?.name ?? '');
    setSymbol(row?.symbol ?? '');
    setScale(String(row?.scale ?? 2));
    setCaip19(picked ? fiatCaip19(picked) : '');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const created = await currenciesApi.create({
        code: code.trim(), name: name.trim(), symbol: symbol.trim(), asset_scale: Number.parseInt(scale, 10), asset_type: type, caip19_id: caip19.trim(),
      });
      invalidate();
      toast(`${created.code} added`);
      onDone();
    });
  };

  return (
    <form className="form" onSubmit={submit} data-testid="currency-form">
      <fieldset className="segmented">
        <legend className="field__label">Kind</legend>
        <label><input type="radio" name="currency-type" checked={type === 'fiat'} onChange={() => { setType('fiat'); pickFiat(''); }}
          data-testid="currency-type-fiat" /> Fiat (ISO 4217)</label>
        <label><input type="radio" name="currency-type" checked={type === 'crypto'} onChange={() => { setType('crypto'); pickFiat(''); setScale('8'); }}
          data-testid="currency-type-crypto" /> Crypto or other asset</label>
      </fieldset>
      {type === 'fiat' ? (
        <SelectField label="Currency" value={code} onChange={(event) => pickFiat(event.target.value)} required autoFocus
          error={fieldError(error, 'code')} data-testid="currency-fiat-picker" hint="Type the code to jump to it.">
          <option value="">Choose a currency…</option>
          {fiat.map((row) => (
            <option key={row.code} value={row.code} disabled={taken.has(row.code)}>
              {row.code} · {row.name}{taken.has(row.code) ? ' (added)' : ''}
            </option>
          ))}
        </SelectField>
      ) : (
        <InputField label="Code" value={code} onChange={(event) => setCode(event.target.value)} required maxLength={32} pattern="[A-Za-z0-9._\-]{1,32}"
          placeholder="BTC" autoFocus error={fieldError(error, 'code')} data-testid="currency-code" />
      )}
      <div className="form-row">
        <InputField label="Name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={200}
          error={fieldError(error, 'name')} data-testid="currency-name" />
        <InputField label="Symbol" value={symbol} onChange={(event) => setSymbol(event.target.value)} required maxLength={20}
          error={fieldError(error, 'symbol')} data-testid="currency-symbol" />
      </div>
      <div className="form-row">
        <InputField label="Decimal places" type="number" min={0} max={38} step={1} value={scale} onChange={(event) => setScale(event.target.value)} required
          hint="Digits of the smallest unit: 2 for cents, 8 for satoshi, 18 for wei." error={fieldError(error, 'asset_scale')} data-testid="currency-scale" />
        <InputField label="CAIP-19 id" value={caip19} onChange={(event) => setCaip19(event.target.value)} required readOnly={type === 'fiat'}
          placeholder="bip122:000000000019d6689c085ae165831e93/slip44:0" error={fieldError(error, 'caip19_id')} data-testid="currency-caip19"
          className="field--grow" />
      </div>
      {error && !isFieldError(error, ['code', 'name', 'symbol', 'asset_scale', 'caip19_id']) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} data-testid="currency-save">Add currency</Button>
      </div>
    </form>
  );
}

function EditCurrencyForm({ currency, onDone }: { currency: CurrencyView; onDone: () => void }) {
  const [name, setName] = useState(currency.name);
  const [symbol, setSymbol] = useState(currency.symbol);
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await currenciesApi.update(currency.id, { name: name.trim(), symbol: symbol.trim() });
      invalidate();
      toast(`${currency.code} saved`);
      onDone();
    });
  };

  return (
    <form className="form" onSubmit={submit}>
      <p className="muted">Code, decimal places, type and CAIP-19 id are fixed.</p>
      <InputField label="Name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} autoFocus
        error={fieldError(error, 'name')} />
      <InputField label="Symbol" value={symbol} onChange={(event) => setSymbol(event.target.value)} required maxLength={20}
        error={fieldError(error, 'symbol')} />
      {error && !isFieldError(error, ['name', 'symbol']) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>Save</Button>
      </div>
    </form>
  );
}
