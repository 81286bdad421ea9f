/**
 * The parts the two webhooks pages share: the endpoint's form (create and edit), its choice of
 * event types, its status badge, and the secret shown once after a create or a rotation.
 */
import { type FormEvent, useState } from 'react';
import { webhookEndpoints } from '../api/endpoints.js';
import type { WebhookEndpointCreatedView, WebhookEndpointView } from '../api/types.js';
import { Badge, Button, Checkbox, ErrorNotice, InputField, Notice } from '../components/ui.js';
import { fieldError, isFieldError } from '../lib/form-errors.js';
import { toast } from '../lib/toast.js';
import { invalidate } from '../lib/use-api.js';
import { useSubmit } from '../lib/use-submit.js';
import { ALL_EVENTS, EVENT_TYPE_GROUPS, receivesAll } from '../lib/webhooks.js';

const ENDPOINT_FIELDS = ['url', 'event_types', 'description'];
const KNOWN_TYPES = new Set(EVENT_TYPE_GROUPS.flatMap((group) => group.types));

/** All events, or a chosen set; a type the list lacks (set through the API) is kept and shown. */
function EventTypesField({ all, chosen, onChange, error }: {
  all: boolean; chosen: readonly string[]; onChange: (all: boolean, chosen: string[]) => void; error: string | undefined;
}) {
  const extra = chosen.filter((type) => !KNOWN_TYPES.has(type));
  const groups = extra.length > 0 ? [...EVENT_TYPE_GROUPS, { label: 'Other', types: extra }] : EVENT_TYPE_GROUPS;
  const toggle = (type: string, on: boolean) => onChange(false, on ? [...chosen, type] : chosen.filter((item) => item !== type));
  return (
    <fieldset className="event-types" data-testid="webhook-event-types">
      <legend className="field__label">Events</legend>
      <div className="segmented">
        <label><input type="radio" name="webhook-events" checked={all} onChange={() => onChange(true, [...chosen])}
          data-testid="webhook-events-all" /> All events</label>
        <label><input type="radio" name="webhook-events" checked={!all} onChange={() => onChange(false, [...chosen])}
          data-testid="webhook-events-chosen" /> Only the events I choose</label>
      </div>
      {!all ? (
        <div className="event-types__groups">
          {groups.map((group) => (
            <div key={group.label} className="event-types__group">
              <p className="event-types__heading">{group.label}</p>
              {group.types.map((type) => (
                <Checkbox key={type} label={<code>{type}</code>} checked={chosen.includes(type)}
                  onChange={(event) => toggle(type, event.target.checked)} data-testid={`webhook-type-${type}`} />
              ))}
            </div>
          ))}
        </div>
      ) : null}
      {!all && chosen.length === 0 ? <p className="field__hint">Choose at least one event, or all events.</p> : null}
      {error ? <p className="field__error" role="alert">{error}</p> : null}
    </fieldset>
  );
}

/**
 * Creates an endpoint (`endpoint` undefined; `onCreated` gets the answer with its secret) or edits
 * one. The URL is sent as typed: the server says what is wrong with it, under the field.
 */
export function WebhookEndpointForm({ endpoint, onDone, onCreated }: {
  endpoint?: WebhookEndpointView; onDone: () => void; onCreated?: (created: WebhookEndpointCreatedView) => void;
}) {
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [all, setAll] = useState(endpoint ? receivesAll(endpoint.event_types) : true);
  const [chosen, setChosen] = useState<string[]>(endpoint && !receivesAll(endpoint.event_types) ? endpoint.event_types : []);
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const { busy, error, run } = useSubmit();
  const noneChosen = !all && chosen.length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (noneChosen) return;
    const body = { url: url.trim(), event_types: all ? [ALL_EVENTS] : chosen, description: description.trim() === '' ? null : description.trim() };
    void run(async () => {
      if (endpoint) {
        await webhookEndpoints.update(endpoint.id, body);
        toast('Endpoint saved');
        invalidate();
        onDone();
      } else {
        const created = await webhookEndpoints.create(body);
        invalidate();
        onCreated?.(created);
      }
    });
  };

  return (
    <form className="form" onSubmit={submit} noValidate data-testid="webhook-form">
      <InputField label="URL" type="url" value={url} onChange={(event) => setUrl(event.target.value)} required maxLength={2000} autoFocus
        placeholder="https://example.com/ledger-events" hint="https:// or http://; the ledger POSTs each event here, signed with the endpoint's secret."
        autoComplete="off" spellCheck={false} error={fieldError(error, 'url')} data-testid="webhook-url" />
      <EventTypesField all={all} chosen={chosen} onChange={(nextAll, nextChosen) => { setAll(nextAll); setChosen(nextChosen); }}
        error={fieldError(error, 'event_types')} />
      <InputField label="Description" value={description} onChange={(event) => setDescription(event.target.value)} maxLength={500}
        hint="Optional: who receives it and why." error={fieldError(error, 'description')} data-testid="webhook-description" />
      {error && !isFieldError(error, ENDPOINT_FIELDS) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={noneChosen || url.trim() === ''} data-testid="webhook-save">
          {endpoint ? 'Save' : 'Create endpoint'}
        </Button>
      </div>
    </form>
  );
}

/** The signing secret, once: after a create or a rotation. Nothing shows it again. */
export function SecretReveal({ secret, rotated, onDone }: { secret: string; rotated: boolean; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // No clipboard (permission refused): select the text, for the keyboard's copy.
      const field = document.getElementById('webhook-secret-value') as HTMLInputElement | null;
      field?.select();
    }
  };
  return (
    <div className="form" data-testid="webhook-secret">
      <Notice tone="warning" title="Copy the secret now: you will not see it again">
        The receiver checks each delivery's signature with it. If it is lost, rotate the secret.
        {rotated ? ' The old secret keeps signing beside the new one for 24 hours, so the receiver can switch in its own time.' : null}
      </Notice>
      <label className="field__label" htmlFor="webhook-secret-value">{rotated ? 'New signing secret' : 'Signing secret'}</label>
      <div className="copy-row">
        <input id="webhook-secret-value" className="input mono" readOnly value={secret} onFocus={(event) => event.target.select()}
          data-testid="webhook-secret-value" />
        <Button variant="primary" onClick={() => void copy()} data-testid="webhook-secret-copy">{copied ? 'Copied ✓' : 'Copy'}</Button>
      </div>
      <p className="muted small">Deliveries follow Standard Webhooks: check <code>webhook-signature</code> with this secret (docs/events.md).</p>
      <div className="form-actions">
        <Button onClick={onDone} data-testid="webhook-secret-done">I have stored the secret</Button>
      </div>
    </div>
  );
}

export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpointView }) {
  return endpoint.is_active ? <Badge tone="good">active</Badge> : <Badge tone="bad">disabled</Badge>;
}
