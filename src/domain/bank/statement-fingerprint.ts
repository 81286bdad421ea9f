/**
 * Fingerprints: how an import recognises a transaction it has already imported for the same
 * account, so that overlapping downloads import each transaction once. They are stored, so these
 * definitions must never change; a new definition needs a new prefix.
 *
 * - OFX: `ofx:` + FITID.
 * - CAMT.053: `camt:acctsvcrref:` + AcctSvcrRef, else `camt:ntryref:` + NtryRef, else a row
 *   fingerprint. (A reference `NONREF`, which banks write for "none", counts as none.)
 * - CSV: `csv:id:` + the `id_column` value when it is not empty, else a row fingerprint.
 * - A row fingerprint (any format without a reference): `row:` + the lower-case hex SHA-256 of the
 *   UTF-8 text `posted_date + "\n" + amount + "\n" + description + "\n" + occurrence`, where
 *   `amount` is the signed minor-unit integer (`-1230`), `description` is the line's description
 *   normalised, NFC and lower-cased (`fingerprintDescription`), and `occurrence` counts the
 *   lines of this file before it, plus one, that have a row fingerprint and the same date, amount
 *   and description. Two equal coffees on one day are occurrences 1 and 2; a later download
 *   holding the same two coffees gives them the same two fingerprints.
 * - A bank reference seen again within the same file (a bank reusing an id) gets `#2`, `#3`, ...
 *   after its second, third, ... line, so that no transaction of the file is taken for another.
 *
 * SHA-256 comes in as a function: the domain computes nothing with `node:crypto`, which lies
 * outside it, and the hash is the one step here that a table test need not see; everything it is
 * computed from (`rowFingerprintText`) is pure and tested here.
 */
import { fingerprintDescription } from './statement-description.js';
import type { ParsedStatementLine, StatementLineDraft } from './statement.js';

export type Sha256Hex = (text: string) => string;

export const FINGERPRINT_PREFIXES = {
  ofx: 'ofx:',
  camtAccountServicerReference: 'camt:acctsvcrref:',
  camtEntryReference: 'camt:ntryref:',
  csvId: 'csv:id:',
  row: 'row:',
} as const;

/** The text a row fingerprint hashes, without its occurrence: what makes two rows "identical". */
export function rowIdentityText(line: Pick<StatementLineDraft, 'posted_date' | 'amount' | 'description'>): string {
  return `${line.posted_date}\n${line.amount.toString()}\n${fingerprintDescription(line.description)}`;
}

/** The full text a row fingerprint hashes: the identity text and the row's occurrence (1, 2, ...). */
export function rowFingerprintText(line: Pick<StatementLineDraft, 'posted_date' | 'amount' | 'description'>, occurrence: number): string {
  return `${rowIdentityText(line)}\n${occurrence}`;
}

/** Gives every line of one file its fingerprint, in file order (occurrences count in that order). */
export function fingerprintLines(drafts: readonly StatementLineDraft[], sha256Hex: Sha256Hex): ParsedStatementLine[] {
  const rowOccurrences = new Map<string, number>();
  const identityOccurrences = new Map<string, number>();
  const lines: ParsedStatementLine[] = [];
  for (const draft of drafts) {
    let fingerprint: string;
    if (draft.identity !== null) {
      const occurrence = (identityOccurrences.get(draft.identity) ?? 0) + 1;
      identityOccurrences.set(draft.identity, occurrence);
      fingerprint = occurrence === 1 ? draft.identity : `${draft.identity}#${occurrence}`;
    } else {
      const identity = rowIdentityText(draft);
      const occurrence = (rowOccurrences.get(identity) ?? 0) + 1;
      rowOccurrences.set(identity, occurrence);
      fingerprint = FINGERPRINT_PREFIXES.row + sha256Hex(`${identity}\n${occurrence}`);
    }
    lines.push({
      line_number: draft.line_number,
      posted_date: draft.posted_date,
      amount: draft.amount,
      description: draft.description,
      external_id: draft.external_id,
      fingerprint,
    });
  }
  return lines;
}

/** A bank reference as a fingerprint's identity, or null when there is none. */
export function referenceIdentity(prefix: string, reference: string | null): string | null {
  return reference === null ? null : prefix + reference;
}

/** A reference as the file states it: trimmed; empty and the placeholder `NONREF` are none. */
export function bankReference(text: string | undefined): string | null {
  const reference = text?.trim() ?? '';
  return reference === '' || reference.toUpperCase() === 'NONREF' ? null : reference;
}
