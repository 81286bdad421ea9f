/**
 * What the ledger holds, read through the API with an admin key: every row of every collection,
 * the settings, the audit records of ledger writes, and the verify report. The fuzz test compares
 * a snapshot from before a run with one from after it, and accounts for every difference by the
 * answers that said 2xx.
 */
export interface LedgerSnapshot {
  /** Collection path -> id -> the row as JSON text. */
  rows: Record<string, Map<string, string>>;
  settings: string;
  /** Audit records of writes (logins and failed logins are recorded for every attempt, not only 2xx). */
  writeAudit: Map<string, { action: string; target_id: string | null }>;
  verify: string;
}

const COLLECTIONS = ['/api/v1/currencies', '/api/v1/accounts', '/api/v1/periods', '/api/v1/journal-entries', '/api/v1/users'];

async function getJson(baseUrl: string, apiKey: string, path: string): Promise<any> {
  const response = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${apiKey}` } });
  if (response.status !== 200) throw new Error(`snapshot: GET ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

async function listAll(baseUrl: string, apiKey: string, path: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: any = await getJson(baseUrl, apiKey, `${path}${separator}limit=200${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    rows.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor !== null);
  return rows;
}

/**
 * A row without what it copies from other rows: a journal line shows its account's number and
 * name, which change when the account is renamed (the account's own row shows that change).
 */
function ownFields(row: any): unknown {
  if (!Array.isArray(row.lines)) return row;
  return { ...row, lines: row.lines.map(({ account_name: _name, account_number: _number, ...line }: any) => line) };
}

export async function takeSnapshot(baseUrl: string, apiKey: string): Promise<LedgerSnapshot> {
  const rows: LedgerSnapshot['rows'] = {};
  for (const collection of COLLECTIONS) {
    rows[collection] = new Map((await listAll(baseUrl, apiKey, collection)).map((row) => [row.id, JSON.stringify(ownFields(row))]));
  }
  const writeAudit = new Map<string, { action: string; target_id: string | null }>();
  for (const record of await listAll(baseUrl, apiKey, '/api/v1/audit-log')) {
    if (!String(record.action).startsWith('auth.')) writeAudit.set(record.id, { action: record.action, target_id: record.target_id ?? null });
  }
  const settings = JSON.stringify((await getJson(baseUrl, apiKey, '/api/v1/settings')).data);
  const verify = JSON.stringify((await getJson(baseUrl, apiKey, '/api/v1/verify')).data);
  return { rows, settings, writeAudit, verify };
}

/** What the 2xx answers to writes said: every string they carried (ids of what they made or changed). */
export interface Acknowledged {
  strings: Set<string>;
  settingsChanged: boolean;
  /** The ids in the paths of DELETEs answered 2xx: only these may disappear. */
  deleted: Set<string>;
}

export function acknowledge(acknowledged: Acknowledged, method: string, path: string, body: unknown): void {
  if (path.startsWith('/api/v1/settings')) acknowledged.settingsChanged = true;
  const walk = (value: unknown): void => {
    if (typeof value === 'string') acknowledged.strings.add(value);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  walk(body);
  // The id in the path of a write that succeeded (PATCH /accounts/{id}, POST /periods/{id}/close).
  for (const segment of path.split('?')[0]!.split('/')) {
    acknowledged.strings.add(decodeURIComponent(segment));
    if (method === 'DELETE') acknowledged.deleted.add(decodeURIComponent(segment));
  }
}

function changedFields(before: string, after: string): string {
  const old = JSON.parse(before) as Record<string, unknown>;
  const now = JSON.parse(after) as Record<string, unknown>;
  return Object.keys({ ...old, ...now }).filter((key) => JSON.stringify(old[key]) !== JSON.stringify(now[key]))
    .map((key) => `${key}: ${JSON.stringify(old[key])?.slice(0, 200)} -> ${JSON.stringify(now[key])?.slice(0, 200)}`).join('; ');
}

/**
 * Every difference between two snapshots that no 2xx answer accounts for: a row that appeared or
 * changed whose id no 2xx answer named, a row that disappeared without a 2xx DELETE of it, settings changed without a 2xx
 * PATCH, an audit record of a write to something no 2xx answer named.
 */
export function unexplainedChanges(before: LedgerSnapshot, after: LedgerSnapshot, acknowledged: Acknowledged): string[] {
  const problems: string[] = [];
  for (const [collection, rowsAfter] of Object.entries(after.rows)) {
    const rowsBefore = before.rows[collection]!;
    for (const [id, row] of rowsAfter) {
      const previous = rowsBefore.get(id);
      if (previous === row) continue;
      if (!acknowledged.strings.has(id)) problems.push(`${collection}: ${previous === undefined ? `new row ${row.slice(0, 400)}` : `row ${id} changed: ${changedFields(previous, row)}`}`);
    }
    for (const id of rowsBefore.keys()) if (!rowsAfter.has(id) && !acknowledged.deleted.has(id)) problems.push(`${collection}: row ${id} disappeared`);
  }
  if (before.settings !== after.settings && !acknowledged.settingsChanged) problems.push(`settings changed: ${before.settings} -> ${after.settings}`);
  for (const [id, record] of after.writeAudit) {
    if (before.writeAudit.has(id)) continue;
    const explained = record.target_id === null ? acknowledged.settingsChanged : acknowledged.strings.has(record.target_id);
    if (!explained) problems.push(`audit record ${record.action} on ${record.target_id} without a 2xx answer naming it`);
  }
  return problems;
}
