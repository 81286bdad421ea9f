/**
 * Bank rules as data: which rule suggests how to post an unmatched bank line, and why. A rule's
 * every given condition must hold: the description contains a text, or matches a regular
 * expression (both case-insensitive), the absolute amount lies within [amount_min, amount_max],
 * the money goes in or out; and the rule is for the line's account or for every account. The
 * first rule that matches, by priority then creation order, is the line's suggestion; its reason
 * names the rule and what matched. Regular expressions are checked for safety before a rule is
 * saved (service/bank/bank-rules.ts); here they are only run.
 */
import { formatAmount } from '../money/amount.js';
import type { BankRule } from './banking.js';

/** The facts of a line a rule looks at. */
export interface RuleSubject {
  account_id: string;
  amount: bigint;
  description: string;
}

export interface CompiledRule {
  rule: BankRule;
  regex: RegExp | null;
  containsLower: string | null;
}

export interface RuleMatch {
  rule: BankRule;
  reason: string;
}

export function compileRule(rule: BankRule): CompiledRule {
  return {
    rule,
    regex: rule.match.description_regex === undefined ? null : new RegExp(rule.match.description_regex, 'iu'),
    containsLower: rule.match.description_contains === undefined ? null : rule.match.description_contains.toLowerCase(),
  };
}

/** What matched, in words, or undefined when a condition fails. `scale` formats the amounts. */
export function ruleReason(compiled: CompiledRule, line: RuleSubject, scale: number): string | undefined {
  const { rule, regex, containsLower } = compiled;
  if (rule.account_id !== null && rule.account_id !== line.account_id) return undefined;
  const parts: string[] = [];
  if (containsLower !== null) {
    if (!line.description.toLowerCase().includes(containsLower)) return undefined;
    parts.push(`description contains "${rule.match.description_contains}"`);
  }
  if (regex !== null) {
    const found = regex.exec(line.description);
    if (found === null) return undefined;
    parts.push(`description matches /${rule.match.description_regex}/ ("${found[0]}")`);
  }
  const direction = line.amount >= 0n ? 'in' : 'out';
  if (rule.match.direction !== undefined) {
    if (rule.match.direction !== direction) return undefined;
    parts.push(`money ${direction}`);
  }
  const size = line.amount < 0n ? -line.amount : line.amount;
  const { amount_min: min, amount_max: max } = rule.match;
  if (min !== undefined && size < min) return undefined;
  if (max !== undefined && size > max) return undefined;
  if (min !== undefined || max !== undefined) {
    const bounds = [min === undefined ? undefined : `at least ${formatAmount(min, scale)}`,
      max === undefined ? undefined : `at most ${formatAmount(max, scale)}`].filter((bound) => bound !== undefined);
    parts.push(`amount ${formatAmount(size, scale)} is ${bounds.join(' and ')}`);
  }
  if (parts.length === 0) parts.push('it applies to every line');
  return `Rule "${rule.name}" (priority ${rule.priority}): ${parts.join(', ')}`;
}

/** The first rule (in the order given: priority, then creation) that matches the line. */
export function firstMatchingRule(rules: readonly CompiledRule[], line: RuleSubject, scale: number): RuleMatch | undefined {
  for (const compiled of rules) {
    const reason = ruleReason(compiled, line, scale);
    if (reason !== undefined) return { rule: compiled.rule, reason };
  }
  return undefined;
}
