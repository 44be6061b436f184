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

export interface ApiErrorInit {
  code: string;
  message: string;
  status?: number | null;
  retryable?: boolean;
  endpoint?: EndpointName;
  requiredPlan?: Plan;
  suggestions?: CoinRef[];
  retryAfterMs?: number;
}

export class ApiError extends Error {
  code: string;
  status: number | null;
  retryable: boolean;
  endpoint?: EndpointName;
  requiredPlan?: Plan;
  suggestions?: CoinRef[];
  retryAfterMs?: number;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status ?? null;
    this.retryable = init.retryable ?? false;
    if (init.endpoint !== undefined) this.endpoint = init.endpoint;
    if (init.requiredPlan !== undefined) this.requiredPlan = init.requiredPlan;
    if (init.suggestions !== undefined) this.suggestions = init.suggestions;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
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

/**
 * Failures after which the last good value may still be served (stale): the
 * service or the network failed, not the request. Auth, plan, validation and
 * not-found errors are answers, and are passed on.
 */
export function allowsStaleFallback(e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  switch (e.code) {
    case 'NETWORK_ERROR':
    case 'TIMEOUT':
    case 'MALFORMED_RESPONSE':
    case 'UNEXPECTED_RESPONSE':
    case 'MISSING_FIELD':
    case 'RATE_LIMIT_EXCEEDED':
    case 'INTERNAL_ERROR':
      return true;
    default:
      return e.status !== null && e.status >= 500;
  }
}

/** Replace every occurrence of `secret` in a text (server messages are not trusted to omit it). */
export function scrub(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  return text.split(secret).join('***');
}
