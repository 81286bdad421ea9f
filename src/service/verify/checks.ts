/**
 * Every check `verify` runs, in the order their problems are listed. Each is independent of the
 * others; adding an invariant is adding its definition here.
 */
import type { CheckDefinition } from './check.js';
import { auditChainCheck } from './audit-chain-check.js';
import { bankMatchesCheck, reconciliationsCheck } from './bank-checks.js';
import { closingEntryCheck } from './closing-check.js';
import {
  entryBalanceCheck, entryCurrencyCheck, entryLinesCheck, entryNumbersCheck, entryPeriodCheck, periodsCheck, postedAfterCloseCheck,
} from './entry-checks.js';
import { eventFeedCheck } from './event-feed-check.js';
import { hashChainCheck } from './hash-chain-check.js';
import { reversalCheck } from './reversal-check.js';
import { accountTotalsCheck, currencyTotalsCheck, dailyTotalsCheck, periodTotalsCheck } from './totals-checks.js';

export const LEDGER_CHECKS: readonly CheckDefinition[] = [
  entryLinesCheck,
  entryBalanceCheck,
  entryCurrencyCheck,
  entryNumbersCheck,
  periodsCheck,
  entryPeriodCheck,
  postedAfterCloseCheck,
  reversalCheck,
  closingEntryCheck,
  accountTotalsCheck,
  periodTotalsCheck,
  dailyTotalsCheck,
  currencyTotalsCheck,
  hashChainCheck,
  auditChainCheck,
  bankMatchesCheck,
  reconciliationsCheck,
  eventFeedCheck,
];
