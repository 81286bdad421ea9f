/**
 * The committed types (src/schema.ts) and amount map (src/amount-fields.ts) are what the server's
 * current OpenAPI document generates: a change to a route or a schema without
 * `npm run client:generate` fails here.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { AMOUNT_FIELDS_FILE, amountShape, generateClientFiles, SCHEMA_FILE } from '../scripts/generate.js';
import { servedOpenApiDocument } from '../scripts/served-openapi.js';

describe('generated client files', () => {
  it('match what the served OpenAPI document generates (else run npm run client:generate)', async () => {
    const generated = await generateClientFiles(await servedOpenApiDocument());
    const committedSchema = await readFile(SCHEMA_FILE, 'utf8');
    const committedAmounts = await readFile(AMOUNT_FIELDS_FILE, 'utf8');
    expect(committedSchema === generated.schema, 'src/schema.ts is stale: run npm run client:generate').toBe(true);
    expect(committedAmounts === generated.amountFields, 'src/amount-fields.ts is stale: run npm run client:generate').toBe(true);
  });

  it('takes the two amount patterns for amounts, nullable or in arrays, and leaves the event seq a string', () => {
    const amount = { type: 'string', pattern: '^-?(0|[1-9][0-9]*)$' };
    const input = { type: 'string', pattern: '^(0|[1-9][0-9]*)$' };
    const seq = { type: 'string', pattern: '^(0|[1-9][0-9]{0,15})$' };
    expect(amountShape({ type: 'object', properties: {
      seq, total: amount, debit_amount: { anyOf: [input, { type: 'null' }] }, rows: { type: 'array', items: { type: 'object', properties: { balance: amount, seq } } },
    } })).toEqual({ properties: { total: 'amount', debit_amount: 'amount', rows: { items: { properties: { balance: 'amount' } } } } });
  });
});
