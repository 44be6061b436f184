/**
 * ApiError: the one error type the client rejects with. `code` is either an
 * API error code (../api/endpoints API_ERROR_CODES) or a client code. Nothing in
 * an ApiError ever carries the API key: messages are written here, and a
 * server-supplied message is scrubbed of the key before it is kept.
 */
import type { CoinRef } from './coin-ref';
import { ENDPOINTS, type EndpointName, type Plan } from '../api/endpoints';
import type { RejectedItem } from '../api/read-data';

/** Codes the client itself produces (no HTTP response, or an unusable one). */
export const CLIENT_ERROR_CODES = [
  'NO_API_KEY',
  'UNKNOWN_COIN',
  'TIMEOUT',
  'NETWORK_ERROR',
  'MALFORMED_RESPONSE',
  'UNEXPECTED_RESPONSE',
  'ABORTED',
  'BUDGET_EXCEEDED',
  /** The answer lacks a field the formula needs ("The API answered without closingPrice"). */
  'MISSING_FIELD',
] as const;

/**
 * THE rules per error code, read by the transport and retry (retry), the
 * client, the quote batcher and the formula host (lastGood), the formula
 * failure mapping (transient) and the plan check (fixKey):
 * - retry: another attempt may succeed (the service or the network failed);
 * - lastGood: the last good value may stand in, marked stale;
 * - transient: the condition passes by itself (a cell says so and updates later);
 * - fixKey: only the user can fix it, with another key or subscription.
 */
export interface ErrorRule {
  retry: boolean;
  lastGood: boolean;
  transient: boolean;
  fixKey: boolean;
}
const rule = (retry: boolean, lastGood: boolean, transient: boolean, fixKey = false): ErrorRule => ({ retry, lastGood, transient, fixKey });
const OUTAGE = rule(true, true, true);
const ANSWER = rule(false, false, false);
const KEY = rule(false, false, false, true);
export const ERROR_RULES: Readonly<Record<string, ErrorRule>> = {
  // API codes (spec and [doc])
  VALIDATION_ERROR: ANSWER,
  API_KEY_MISSING: KEY,
  API_KEY_INVALID: KEY,
  NO_ACTIVE_SUBSCRIPTION: KEY,
  ENDPOINT_NOT_AVAILABLE: ANSWER,
  /** Credits or depth over the plan: the credits come back with the next day or period. */
  PLAN_LIMIT_EXCEEDED: rule(false, true, true),
  NOT_FOUND: ANSWER,
  RATE_LIMIT_EXCEEDED: OUTAGE,
  INTERNAL_ERROR: OUTAGE,
  // client codes
  NO_API_KEY: KEY,
  UNKNOWN_COIN: ANSWER,
  TIMEOUT: OUTAGE,
  NETWORK_ERROR: OUTAGE,
  MALFORMED_RESPONSE: OUTAGE,
  /** An answer of the wrong shape: asking again gives the same answer, but the last good one is still right. */
  UNEXPECTED_RESPONSE: rule(false, true, true),
  MISSING_FIELD: rule(false, true, true),
  BUDGET_EXCEEDED: rule(false, true, true),
  ABORTED: ANSWER,
};

/** The rule of a code; an unknown code is an outage when the status is 5xx, else an answer. */
export function errorRule(code: string, status?: number | null): ErrorRule {
  return ERROR_RULES[code] ?? (status != null && status >= 500 ? OUTAGE : ANSWER);
}

export interface ApiErrorInit {
  code: string;
  message: string;
  status?: number | null;
  endpoint?: EndpointName;
  requiredPlan?: Plan;
  suggestions?: CoinRef[];
  retryAfterMs?: number;
}

export class ApiError extends Error {
  code: string;
  status: number | null;
  endpoint?: EndpointName;
  requiredPlan?: Plan;
  suggestions?: CoinRef[];
  retryAfterMs?: number;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status ?? null;
    if (init.endpoint !== undefined) this.endpoint = init.endpoint;
    if (init.requiredPlan !== undefined) this.requiredPlan = init.requiredPlan;
    if (init.suggestions !== undefined) this.suggestions = init.suggestions;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  /** Whether another attempt may succeed: ERROR_RULES. */
  get retryable(): boolean {
    return errorRule(this.code, this.status).retry;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status,
      retryable: this.retryable,
      endpoint: this.endpoint,
      requiredPlan: this.requiredPlan,
      suggestions: this.suggestions,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** The error of one item of a list answer that could not be read: it costs that item (that coin) only. */
export function unreadableItemError(r: RejectedItem, endpoint: EndpointName): ApiError {
  const which = r.label ?? (r.id !== null ? `id ${r.id}` : `item ${r.index + 1}`);
  return new ApiError({
    code: r.missing ? 'MISSING_FIELD' : 'UNEXPECTED_RESPONSE',
    message: `${r.message} (${which}, ${r.source ?? ENDPOINTS[endpoint].path})`,
    endpoint,
  });
}

export function abortedError(endpoint?: EndpointName): ApiError {
  return new ApiError({ code: 'ABORTED', message: 'The request was cancelled.', endpoint });
}

/** Whether the last good value may still be served (stale) after this failure: ERROR_RULES. */
export function allowsStaleFallback(e: unknown): boolean {
  return e instanceof ApiError && errorRule(e.code, e.status).lastGood;
}

/** Replace every occurrence of `secret` in a text (server messages are not trusted to omit it). */
export function scrub(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  return text.split(secret).join('***');
}
