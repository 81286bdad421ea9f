/**
 * A statement file in the browser: its format guessed from the name, its bytes for the import
 * (sent as `content_base64`, so the server decodes them as it documents), and its text for the
 * CSV preview. The column mapping chosen for an account is remembered in localStorage.
 */
import type { CsvMappingInput, StatementFormat } from '../../api/types.js';

export const FORMAT_LABELS: Record<StatementFormat, string> = {
  csv: 'CSV (columns mapped below)',
  ofx: 'OFX / QFX (Quicken, Money)',
  camt053: 'CAMT.053 (ISO 20022 XML)',
};

/** .csv and .txt are CSV, .ofx and .qfx OFX, .xml CAMT.053; anything else is left to the user (CSV first). */
export function guessFormat(fileName: string): StatementFormat {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension === 'ofx' || extension === 'qfx') return 'ofx';
  if (extension === 'xml' || extension === 'camt' || extension === 'c53') return 'camt053';
  return 'csv';
}

/** The bytes as base64, in chunks (a spread of a large file would overflow the call stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let index = 0; index < bytes.length; index += chunk) binary += String.fromCharCode(...bytes.subarray(index, index + chunk));
  return btoa(binary);
}

/** Text for the preview: UTF-8 (a BOM dropped) when the bytes are valid UTF-8, else Windows-1252, as the server reads them. */
export function decodeForPreview(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

const mappingKey = (accountId: string) => `ledger.bank.csv-mapping.${accountId}`;

export function rememberedMapping(accountId: string): CsvMappingInput | null {
  try {
    const text = localStorage.getItem(mappingKey(accountId));
    if (!text) return null;
    const value = JSON.parse(text) as CsvMappingInput;
    return value && typeof value === 'object' && value.date_format ? value : null;
  } catch {
    return null;
  }
}

export function rememberMapping(accountId: string, mapping: CsvMappingInput): void {
  try {
    localStorage.setItem(mappingKey(accountId), JSON.stringify(mapping));
  } catch {
    // Storage full or denied: the next import guesses again.
  }
}

/** Whether the browser writes dates month first (en-US), for a file whose dates read both ways. */
export function browserWritesMonthFirst(): boolean {
  const parts = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'numeric', year: 'numeric' }).formatToParts(new Date(2026, 0, 31));
  return parts.findIndex((part) => part.type === 'month') < parts.findIndex((part) => part.type === 'day');
}
