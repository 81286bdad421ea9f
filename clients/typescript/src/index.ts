export { type Answer, createLedgerClient, type GeneralLedgerLine, type GeneralLedgerQuery, type LedgerClient, type LedgerClientOptions, type ListItem, type ListPath, type SuccessBody } from './client.js';
export { LedgerApiError } from './errors.js';
export { type EventStreamOptions, type LedgerEvent } from './events.js';
export { type Page } from './pagination.js';
export { type RetryOptions } from './retries.js';
export type { components, operations, paths } from './schema.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions } from './webhooks.js';
