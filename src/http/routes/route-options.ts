import { ErrorBody } from '../../schemas/common.js';
import type { LedgerService } from '../../service/ledger-service.js';

export interface RouteOptions {
  service: LedgerService;
}

/** Documented error answers shared by every route (the body is always ErrorBody). */
export const errorResponses = {
  '4xx': ErrorBody,
  '5xx': ErrorBody,
} as const;
