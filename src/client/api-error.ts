/**
 * ApiError: the one error type the client rejects with. `code` is a row of
 * ERROR_RULES (error-rules.ts), or a code the service sent that we do not know
 * (its rule then follows its HTTP status). Nothing in an ApiError ever carries
 * the API key: messages are written here, and a server-supplied message is
 * scrubbed of the key before it is kept.
 */
import type { CoinRef } from './coin-ref';
import { ENDPOINTS, type EndpointName, type Plan } from '../api/endpoints';
import type { RejectedItem } from '../api/read-data';
import { errorRule, type ErrorCode } from './error-rules';

export interface ApiErrorInit {
  /** A known code, or (from the transport only) whatever the service sent. */
  code: ErrorCode | (string & {});
  message: string;
  status?: number | null;
  endpoint?: EndpointName;
  requiredPlan?: Plan;
  suggestions?: CoinRef[];
  retryAfterMs?: number;
  /** A 404 whose words say the service has no such route ("Cannot GET …", isRouteMiss), not that a thing asked for does not exist. */
  routeMissing?: boolean;
  /** A PLAN_LIMIT_EXCEEDED whose words name credits (spent for the day or month), not a range deeper than the plan. */
  creditLimit?: boolean;
}

export class ApiError extends Error {
  code: string;
  status: number | null;
  endpoint?: EndpointName;
  requiredPlan?: Plan;
  suggestions?: CoinRef[];
  retryAfterMs?: number;
  routeMissing?: boolean;
  creditLimit?: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status ?? null;
    if (init.endpoint !== undefined) this.endpoint = init.endpoint;
    if (init.requiredPlan !== undefined) this.requiredPlan = init.requiredPlan;
    if (init.suggestions !== undefined) this.suggestions = init.suggestions;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.routeMissing) this.routeMissing = true;
    if (init.creditLimit) this.creditLimit = true;
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

/** Whether `e` is a client error with one of these codes: the one guard, instead of reading `.code` off anything. */
export function hasCode<C extends ErrorCode>(e: unknown, ...codes: C[]): e is ApiError & { code: C } {
  return e instanceof ApiError && (codes as string[]).includes(e.code);
}

/** An unreadable item as a message names it: its slug or name, else its id, else its place in the list. */
export function itemName(r: Pick<RejectedItem, 'label' | 'id' | 'index'>): string {
  return r.label ?? (r.id !== null ? `id ${r.id}` : `item ${r.index + 1}`);
}

/** The error of one item of a list answer that could not be read: it costs that item (that coin) only. */
export function unreadableItemError(r: RejectedItem, endpoint: EndpointName): ApiError {
  return new ApiError({
    code: r.missing ? 'MISSING_FIELD' : 'UNEXPECTED_RESPONSE',
    message: `${r.message} (${itemName(r)}, ${r.source ?? ENDPOINTS[endpoint].path})`,
    endpoint,
  });
}

export function abortedError(endpoint?: EndpointName): ApiError {
  return new ApiError({ code: 'ABORTED', message: 'The request was cancelled.', endpoint });
}

/** Whether the last good value may still be served (stale) after this failure: the rule's `lastGood`. */
export function allowsLastGood(e: unknown): boolean {
  return e instanceof ApiError && errorRule(e.code, e.status).lastGood;
}

/**
 * A plan limit that is the depth of history (a range deeper than the plan reaches), not credits
 * spent: the one place that tells them apart (the transport marks a credit limit by its words).
 */
export function isDepthLimit(e: unknown): e is ApiError & { code: 'PLAN_LIMIT_EXCEEDED' } {
  return hasCode(e, 'PLAN_LIMIT_EXCEEDED') && e.creditLimit !== true;
}

/**
 * The service has no such route for this key: refused by plan (403
 * ENDPOINT_NOT_AVAILABLE), or unknown to it (404 "Cannot GET <path>", the live
 * wording of a missing route: api-notes "Round two"; a coin id that does not
 * exist answers another text). The transport reads the service's words once
 * (isRouteMiss) and the error carries the fact. Learned for a while
 * (plan-gate.ts, REFUSAL_MEMORY_MS), until Refresh all data or the next /v3/status.
 */
export function routeUnavailable(e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  return e.code === 'ENDPOINT_NOT_AVAILABLE' || e.routeMissing === true;
}

/**
 * Replace every occurrence of `secret` in a text, in any letter case (server messages are not trusted to
 * omit it, nor to echo it as sent: a hex key may come back upper-cased).
 */
export function scrub(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  return text.replace(new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '***');
}
