/**
 * What a tool of the ledger's MCP server is: its name, description and input schema (derived from
 * the API's schemas), the permission it needs, whether it writes, whether it is an expensive read,
 * and what it runs. The tool lists (tools.ts, bank-tools.ts) are made of these.
 */
import type { Static, TSchema } from 'typebox';
import type { PermissionKey } from '../service/actor.js';
import type { ToolContext } from './tool-context.js';

export interface ToolAnswer {
  /** The HTTP API's response body for the same request. */
  body: Record<string, unknown>;
  text: string;
}

export interface LedgerTool<S extends TSchema = TSchema> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** The permission the call needs, checked before the arguments are validated. */
  permission?: PermissionKey;
  /** Whether the tool can change the ledger (its previews and dry runs change nothing). */
  writes: boolean;
  /** A report or a long list: it runs in one of the caller's bounded slots, as over /api/v1 (service/context.ts). */
  expensive?: boolean;
  run(context: ToolContext, args: Static<S>): Promise<ToolAnswer>;
}

export function tool<S extends TSchema>(definition: LedgerTool<S>): LedgerTool {
  return definition as unknown as LedgerTool;
}

export const AMOUNTS = 'Amounts are integer strings in the currency\'s smallest unit (minor units: "25000" is 250.00 in a currency '
  + 'with 2 decimals), with display strings beside them.';

