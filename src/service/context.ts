/** The pieces every use case shares, built once by `createLedgerService`. */
import { notFound } from '../domain/errors.js';
import type { Currency } from '../domain/types.js';
import type { AccessTokens } from './auth/access-tokens.js';
import { CredentialCache } from './auth/credential-cache.js';
import type { LoginThrottle } from './auth/login-throttle.js';
import { CursorCodec, pageSize } from './cursor.js';
import type { Keyset, LedgerReads, LedgerStore, PageRequest, StorePage } from './ports/ledger-store.js';
import type { Runtime } from './ports/runtime.js';
import { SlotsByKey } from './slots.js';

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface PageInput {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface ServiceOptions {
  /** scrypt cost parameter N for new password hashes (a power of two). */
  scryptCost?: number | undefined;
  /** JWT signing secret; when absent one is generated once and kept in the database. */
  jwtSecret?: string | undefined;
  /** Webhook delivery settings (LEDGER_WEBHOOK_ALLOW_PRIVATE, LEDGER_WEBHOOK_RETRY_DELAYS_MS; webhooks/settings.ts). */
  webhooks?: WebhookSettings | undefined;
  /** Told what the service does, for the metrics (ports/observer.ts); silent by default. */
  observer?: LedgerObserver | undefined;
}

import type { WebhookSettings } from './webhooks/settings.js';
import { type LedgerObserver, SILENT_OBSERVER } from './ports/observer.js';

export const EXPENSIVE_READS_PER_USER = 2;
export const EXPENSIVE_READS_WAITING_PER_USER = 8;

export class ServiceContext {
  /**
   * code and asset_scale never change after creation, so currencies are cached for formatting;
   * name and symbol can change (PATCH), so read those from the store, not from this cache.
   */
  private readonly currencies = new Map<string, Currency>();
  /** API keys this process has checked (auth/authenticate.ts). */
  readonly credentials = new CredentialCache();
  /**
   * Reports and long lists a user may run at once in this process, and how many more may wait:
   * one key looping the heaviest report holds two slices of the event loop, not all of them.
   */
  readonly expensiveReads = new SlotsByKey(EXPENSIVE_READS_PER_USER, EXPENSIVE_READS_WAITING_PER_USER,
    'Too many reports of this user are running at once; try again in 1 second');

  constructor(
    readonly store: LedgerStore,
    readonly runtime: Runtime,
    readonly cursors: CursorCodec,
    readonly accessTokens: AccessTokens,
    readonly loginThrottle: LoginThrottle,
    readonly options: ServiceOptions,
  ) {}

  get observer(): LedgerObserver {
    return this.options.observer ?? SILENT_OBSERVER;
  }

  now(): string {
    return this.runtime.clock.now().toISOString();
  }

  today(): string {
    return this.now().slice(0, 10);
  }

  pageRequest(list: string, input: PageInput): PageRequest {
    return { limit: pageSize(input.limit), after: this.cursors.decode(list, input.cursor) };
  }

  toPage<A, B>(list: string, page: StorePage<A>, view: (item: A) => B): Page<B> {
    return {
      data: page.items.map(view),
      has_more: page.next !== undefined,
      next_cursor: page.next === undefined ? null : this.cursors.encode(list, page.next as Keyset),
    };
  }

  async currency(id: string, reads: LedgerReads = this.store): Promise<Currency> {
    const cached = this.currencies.get(id);
    if (cached) return cached;
    const currency = await reads.getCurrency(id);
    if (!currency) throw notFound('Currency', id);
    this.currencies.set(id, currency);
    return currency;
  }

  /** The currencies of the given accounts by id (code and scale, for messages that name amounts). */
  async currenciesOf(accounts: Iterable<{ currency_id: string }>, reads: LedgerReads = this.store): Promise<Map<string, Currency>> {
    const currencies = new Map<string, Currency>();
    for (const { currency_id: id } of accounts) {
      if (!currencies.has(id)) currencies.set(id, await this.currency(id, reads));
    }
    return currencies;
  }

  async scaleOf(currencyId: string, reads: LedgerReads = this.store): Promise<number> {
    return (await this.currency(currencyId, reads)).asset_scale;
  }
}
