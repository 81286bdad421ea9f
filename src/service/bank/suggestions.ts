/**
 * Suggestions for unmatched bank lines, as the rules are now: each unmatched line's suggestion is
 * the first rule that matches it (domain/bank/rules.ts), with the counter account it would post to
 * and why. Computed when lines are read, on the reader's snapshot, so a rule changed a moment ago
 * shows at once; nothing is ever posted by a suggestion until someone posts or accepts it.
 */
import type { BankLine } from '../../domain/bank/banking.js';
import { type CompiledRule, compileRule, firstMatchingRule } from '../../domain/bank/rules.js';
import type { Account } from '../../domain/types.js';
import type { ServiceContext } from '../context.js';
import type { LedgerReads } from '../ports/ledger-store.js';
import type { SuggestionView } from './bank-views.js';

export interface Suggester {
  scaleOf(accountId: string): Promise<number>;
  /** The line's suggestion, or null (a line that is not unmatched has none). */
  suggestion(line: BankLine): Promise<SuggestionView | null>;
}

/** Compiled rules are kept per rule and version of its text: compiling is the costly part of a suggestion. */
const compiledRules = new Map<string, { key: string; compiled: CompiledRule }>();

function compiledOf(rules: Awaited<ReturnType<LedgerReads['allBankRules']>>): CompiledRule[] {
  return rules.map((rule) => {
    const key = JSON.stringify([rule.match.description_regex, rule.match.description_contains]);
    const known = compiledRules.get(rule.id);
    if (known !== undefined && known.key === key) return { ...known.compiled, rule };
    const compiled = compileRule(rule);
    compiledRules.set(rule.id, { key, compiled });
    return compiled;
  });
}

export async function suggestionsFor(ctx: ServiceContext, reads: LedgerReads): Promise<Suggester> {
  const rules = compiledOf(await reads.allBankRules());
  const accounts = new Map<string, Account | undefined>();
  const accountOf = async (id: string) => {
    if (!accounts.has(id)) accounts.set(id, await reads.getAccount(id));
    return accounts.get(id);
  };
  const scaleOf = async (accountId: string) => ctx.scaleOf((await accountOf(accountId))!.currency_id, reads);
  return {
    scaleOf,
    async suggestion(line) {
      if (line.status !== 'unmatched' || rules.length === 0) return null;
      // Only rules whose counter account is in the line's currency: an entry has one currency.
      const currencyId = (await accountOf(line.account_id))!.currency_id;
      const usable: CompiledRule[] = [];
      for (const compiled of rules) {
        if ((await accountOf(compiled.rule.counter_account_id))?.currency_id === currencyId) usable.push(compiled);
      }
      const found = firstMatchingRule(usable, line, await scaleOf(line.account_id));
      if (found === undefined) return null;
      const counter = (await accountOf(found.rule.counter_account_id))!;
      return {
        counter_account_id: counter.id, counter_account_number: counter.account_number, counter_account_name: counter.name,
        rule_id: found.rule.id, rule_name: found.rule.name, description: found.rule.description ?? line.description, reason: found.reason,
      };
    },
  };
}
