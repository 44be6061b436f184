/**
 * An error answer (any status outside 2xx) read into an ApiError: its code
 * (the body's, when it is one the service sends; else what the HTTP status means), the
 * service's words scrubbed of the key and clipped, when to ask again
 * (Retry-After, for the rows that read it), the plan that would serve it, and
 * whether a 404 is a missing route or a credit refusal names credits. The
 * per-code rules are columns of ERROR_RULES (error-rules.ts); what stays here
 * is read from one code's payload (requiredPlan, routeMissing, creditLimit).
 */
import * as v from 'valibot';
import { API_ERROR_CODES, ENDPOINTS, isPlan, isRouteMiss, planAllows, type ApiErrorCode, type Plan } from '../api/endpoints';
import { ErrorBody } from '../api/records';
import { ApiError, scrub } from './api-error';
import type { CanonicalRequest } from './canonical-request';
import { codeForStatus, errorRule, type ErrorCode } from './error-rules';

/** Server text as far as a message quotes it: the key scrubbed, one line, at most this long. */
const MAX_SERVER_TEXT = 200;

/** Server text fit to quote: the key scrubbed (as sent and URL-encoded), control characters out, clipped. */
export function serverText(text: string, apiKey: string, max = MAX_SERVER_TEXT): string {
  let t = scrub(scrub(text, apiKey), encodeURIComponent(apiKey));
  t = t.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The ApiError for an error answer of `name` (status outside 2xx), from its body and Retry-After header. */
export function errorFromResponse(
  name: CanonicalRequest['name'],
  status: number,
  text: string,
  retryAfterHeader: string | null,
  apiKey: string,
  now: number,
  keyPlan?: string,
): ApiError {
  let bodyCode: string | null = null;
  let serverMessage: string | null = null;
  try {
    const parsed = v.safeParse(ErrorBody, JSON.parse(text));
    if (parsed.success) {
      bodyCode = parsed.output.error.code;
      serverMessage = parsed.output.error.message ?? null;
    }
  } catch {
    // not JSON: classified by status below
  }
  // Only the service's codes: any other is server text (it may echo the key, or be "constructor"), and the
  // client's or formulas' own (ABORTED, NO_API_KEY, TIMEOUT…) would speak for the client: a 503 naming ABORTED
  // was a cancellation (review 2026-11-27). What its status means stands in.
  const apiCode = isApiErrorCode(bodyCode) ? bodyCode : codeForStatus(status);
  const code: ErrorCode = apiCode ?? 'UNEXPECTED_RESPONSE';
  const known = apiCode ? API_ERROR_CODES[apiCode] : undefined;
  const detail = serverText(serverMessage ?? known?.message ?? `HTTP ${status}`, apiKey);
  // When the rate window has room again, or the outage should end: the row says whether its answer's header counts.
  const rule = errorRule(code, status);
  const retryAfterMs = rule.retryAfter ? parseRetryAfter(retryAfterHeader, now) : undefined;
  // The table's plan; for a refused endpoint the key's plan already has, none: no higher plan is known to help.
  const tablePlan = ENDPOINTS[name].plan;
  const keyHasIt = code === 'ENDPOINT_NOT_AVAILABLE' && keyPlan !== undefined && isPlan(keyPlan) && planAllows(keyPlan, tablePlan);
  const requiredPlan: Plan | undefined = (code === 'ENDPOINT_NOT_AVAILABLE' || code === 'PLAN_LIMIT_EXCEEDED') && !keyHasIt ? tablePlan : undefined;
  return new ApiError({
    code,
    message: rule.tell(name, detail, requiredPlan),
    status,
    endpoint: name,
    requiredPlan,
    retryAfterMs,
    routeMissing: code === 'NOT_FOUND' && isRouteMiss(detail),
    // "Daily credit limit exceeded", "Monthly credit limit exceeded" (docs/emulator.md); a depth refusal names no credits.
    creditLimit: code === 'PLAN_LIMIT_EXCEEDED' && /credit/i.test(detail),
  });
}

/** Whether a server's code is one the service sends (own keys only: "constructor" is none). */
function isApiErrorCode(code: string | null): code is ApiErrorCode {
  return code !== null && Object.hasOwn(API_ERROR_CODES, code);
}

/** Retry-After: delta seconds or an HTTP date. */
export function parseRetryAfter(h: string | null, now: number): number | undefined {
  if (!h) return undefined;
  const s = h.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.ceil(Number(s) * 1000);
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
