/**
 * What a tool of the ledger's MCP server is: its name, description and input schema (derived from
 * the API's schemas), the permission it needs, whether it writes, whether it is an expensive read,
 * and what it runs. The tool lists (tools.ts, bank-tools.ts) are made of these. A tool that is a
 * write use case (`commandTool`) is derived from the table (service/use-cases.ts): its name,
 * permission and call come from there, and its `dry_run` and `idempotency_key` arguments become the
 * command envelope's; it adds only its description, how its arguments name things (an account by
 * its number) and its text.
 */
import type { Static, TSchema } from 'typebox';
import type { PermissionKey } from '../service/actor.js';
import type { AnswerOf, DryRunOf, InputOf, Outcome, WriteUseCase } from '../service/use-case.js';
import { type ToolContext, writerOf } from './tool-context.js';

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


/** The command envelope's parts a tool call gives (the actor is the caller's). */
export interface ToolCommand<Input> {
  input: Input;
  dryRun?: boolean | undefined;
  idempotencyKey?: string | undefined;
}

export interface CommandToolDefinition<U extends WriteUseCase<TSchema, any, any, any>, S extends TSchema> {
  useCase: U;
  title: string;
  description: string;
  /** The tool's arguments: the use case's input as an agent gives it, with `dry_run` and `idempotency_key` where the use case has them. */
  input: S;
  /** The command from the arguments; by default `dry_run` and `idempotency_key` are taken off and the rest is the input. */
  command?: (context: ToolContext, args: Static<S>) => Promise<ToolCommand<InputOf<U>>>;
  /** The short text beside the answer. */
  text: (outcome: Outcome<AnswerOf<U>, DryRunOf<U>>) => string;
}

/** A tool that runs a write use case of the table through the executor, answering `{"data": ...}` as its route does. */
export function commandTool<U extends WriteUseCase<TSchema, any, any, any>, S extends TSchema>(definition: CommandToolDefinition<U, S>): LedgerTool {
  const { useCase } = definition;
  const commandOf = definition.command ?? (async (_context: ToolContext, args: Static<S>) => {
    const { dry_run: dryRun, idempotency_key: idempotencyKey, ...input } = args as { dry_run?: boolean; idempotency_key?: string };
    return { input: input as InputOf<U>, dryRun, idempotencyKey };
  });
  return tool({
    name: useCase.name, title: definition.title, description: definition.description, input: definition.input, writes: true,
    ...(useCase.permission === null ? {} : { permission: useCase.permission }),
    async run(context, args) {
      const actor = await writerOf(context);
      const command = await commandOf(context, args);
      const outcome = await context.service.execute(useCase, { actor, ...command }) as Outcome<AnswerOf<U>, DryRunOf<U>>;
      return { body: { data: outcome.data }, text: definition.text(outcome) };
    },
  });
}
