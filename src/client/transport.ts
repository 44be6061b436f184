/**
 * One HTTP attempt: URL, X-Api-Key header, per-attempt timeout, cancellation,
 * JSON parse, envelope and `data` validation (valibot, with the endpoint
 * table's schema, checked in place: see api/validate.ts), error bodies mapped
 * to ApiError. No retry, no pacing, no cache: those wrap this.
 *
 * The key is sent only as the X-Api-Key header to baseUrl. Nothing this module
 * throws contains it: messages are ours, and server messages are scrubbed.
 */
import * as v from 'valibot';
import { API_ERROR_CODES, ENDPOINTS, type EndpointSpec, type Plan } from '../api/endpoints';
import { EnvelopeStatus, ErrorBody, PageMeta } from '../api/records';
import { readData, type DataReading, type RejectedItem } from '../api/read-data';
import { ApiError, abortedError, scrub } from './api-error';
import { codeForStatus, errorRule } from './error-rules';
import { guardMissing } from './missing-fields';
import type { CanonicalRequest } from './canonical-request';

export interface Attempt {
  baseUrl: string;
  request: CanonicalRequest;
  apiKey: string;
  fetch: typeof fetch;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Client clock, for Retry-After given as an HTTP date. */
  now: () => number;
}

export interface AttemptResult {
  data: unknown;
  meta?: Record<string, unknown>;
  /** status.usedCredits (0 for unwrapped, free endpoints). */
  usedCredits: number;
  /** status.timestamp, epoch ms, when the envelope has one. */
  timestamp: number | null;
  /** Items of a list answer that could not be read (each costs only itself); absent when none. */
  rejected?: RejectedItem[];
}

export function requestUrl(baseUrl: string, req: CanonicalRequest): string {
  const qs = new URLSearchParams(req.query as Record<string, string>).toString();
  return baseUrl.replace(/\/+$/, '') + req.path + (qs ? `?${qs}` : '');
}

export async function attempt(a: Attempt): Promise<AttemptResult> {
  const { request: req } = a;
  const name = req.name;
  if (a.signal?.aborted) throw abortedError(name);
  const timer = new AbortController();
  const onCallerAbort = () => timer.abort();
  a.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let timedOut = false;
  const t = setTimeout(() => {
    timedOut = true;
    timer.abort();
  }, a.timeoutMs);
  const failure = (e: unknown): ApiError => {
    if (e instanceof ApiError) return e;
    if (a.signal?.aborted) return abortedError(name);
    if (timedOut) {
      return new ApiError({ code: 'TIMEOUT', message: `${name}: no answer within ${Math.round(a.timeoutMs / 1000)} s.`, endpoint: name });
    }
    return new ApiError({ code: 'NETWORK_ERROR', message: `${name}: the service could not be reached.`, endpoint: name });
  };
  let status: number;
  let text: string;
  let retryAfterHeader: string | null;
  try {
    const res = await a.fetch(requestUrl(a.baseUrl, req), {
      method: 'GET',
      headers: { 'X-Api-Key': a.apiKey, Accept: 'application/json' },
      signal: timer.signal,
    });
    status = res.status;
    retryAfterHeader = res.headers.get('retry-after');
    text = await res.text();
  } catch (e) {
    throw failure(e);
  } finally {
    clearTimeout(t);
    a.signal?.removeEventListener('abort', onCallerAbort);
  }
  if (status < 200 || status >= 300) throw errorFromResponse(name, status, text, retryAfterHeader, a.apiKey, a.now());
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError({ code: 'MALFORMED_RESPONSE', message: `${name}: the answer was not valid JSON.`, endpoint: name, status });
  }
  return unwrap(name, body, status);
}

/** Check the envelope and `data` against the endpoint table. */
export function unwrap(name: CanonicalRequest['name'], body: unknown, status: number): AttemptResult {
  const spec = ENDPOINTS[name] as EndpointSpec;
  const unexpected = (where: string, issues: v.BaseIssue<unknown>[]): ApiError => {
    const first = issues[0];
    const path = v.getDotPath(first);
    return new ApiError({
      code: 'UNEXPECTED_RESPONSE',
      message: `${name}: unexpected answer at ${where}${path ? '.' + path : ''}: ${first?.message ?? 'invalid'}.`,
      endpoint: name,
      status,
    });
  };
  /** A record the formulas cannot use: a missing field is named; a wrong one keeps valibot's words. */
  const unreadable = (where: string, r: Extract<DataReading, { ok: false }>): ApiError =>
    r.missing
      ? new ApiError({ code: 'MISSING_FIELD', message: `${r.message} (${spec.path})`, endpoint: name, status })
      : new ApiError({
          code: 'UNEXPECTED_RESPONSE',
          message: `${name}: unexpected answer at ${where}${r.field === 'data' ? '' : '.' + r.field}: ${r.message}.`,
          endpoint: name,
          status,
        });
  // A record missing some fields still serves its other fields, except the status the client itself reads (plan, rate).
  const partial = name !== 'status';
  /** The data, with a getter that throws MISSING_FIELD in each missing field's place. */
  const dataOf = (r: Extract<DataReading, { ok: true }>): unknown =>
    r.missing ? guardMissing(r.data as Record<string, unknown>, r.missing, name, spec.path) : r.data;
  if (spec.wrapped === false) {
    const r = readData(spec.data, body, spec.variant, spec.answerVariant, partial);
    if (!r.ok) throw unreadable('body', r);
    return withRejected({ data: dataOf(r), usedCredits: 0, timestamp: null }, r.rejected, spec.path);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError({ code: 'UNEXPECTED_RESPONSE', message: `${name}: unexpected answer: no envelope.`, endpoint: name, status });
  }
  const env = body as Record<string, unknown>;
  if (!('data' in env)) throw new ApiError({ code: 'UNEXPECTED_RESPONSE', message: `${name}: unexpected answer: no data.`, endpoint: name, status });
  const st = v.safeParse(EnvelopeStatus, env.status);
  if (!st.success) throw unexpected('status', st.issues);
  let meta: Record<string, unknown> | undefined;
  // Page-numbered endpoints must say whether there is a next page; offset-paged markets may omit meta.
  const metaSchema = spec.meta ?? (spec.pageSize !== undefined ? PageMeta : undefined);
  const metaRequired = spec.pageSize !== undefined && 'page' in spec.params;
  if (metaSchema && (metaRequired || env.meta !== undefined)) {
    const m = v.safeParse(metaSchema, env.meta);
    if (!m.success) throw unexpected('meta', m.issues);
    meta = m.output as Record<string, unknown>;
  } else if (env.meta && typeof env.meta === 'object') {
    meta = env.meta as Record<string, unknown>;
  }
  const d = readData(spec.data, env.data, spec.variant, spec.answerVariant, partial);
  if (!d.ok) throw unreadable('data', d);
  return withRejected({ data: dataOf(d), meta, usedCredits: st.output.usedCredits, timestamp: st.output.timestamp }, d.rejected, spec.path);
}

function withRejected(r: AttemptResult, rejected: RejectedItem[] | null, source: string): AttemptResult {
  if (rejected && rejected.length > 0) r.rejected = rejected.map((x) => ({ ...x, source }));
  return r;
}

function errorFromResponse(
  name: CanonicalRequest['name'],
  status: number,
  text: string,
  retryAfterHeader: string | null,
  apiKey: string,
  now: number,
): ApiError {
  let code: string | null = null;
  let serverMessage: string | null = null;
  try {
    const parsed = v.safeParse(ErrorBody, JSON.parse(text));
    if (parsed.success) {
      code = parsed.output.error.code;
      serverMessage = parsed.output.error.message;
    }
  } catch {
    // not JSON: classified by status below
  }
  if (!code) code = codeForStatus(status) ?? 'UNEXPECTED_RESPONSE';
  const known = Object.hasOwn(API_ERROR_CODES, code) ? (API_ERROR_CODES as Record<string, { message: string }>)[code] : undefined;
  const detail = scrub(serverMessage ?? known?.message ?? `HTTP ${status}`, apiKey);
  const retryAfterMs = status === 429 ? parseRetryAfter(retryAfterHeader, now) : undefined;
  const requiredPlan: Plan | undefined = code === 'ENDPOINT_NOT_AVAILABLE' || code === 'PLAN_LIMIT_EXCEEDED' ? ENDPOINTS[name].plan : undefined;
  return new ApiError({
    code,
    message: errorRule(code, status).tell(name, detail, requiredPlan),
    status,
    endpoint: name,
    requiredPlan,
    retryAfterMs,
  });
}

/** Retry-After: delta seconds or an HTTP date. */
export function parseRetryAfter(h: string | null, now: number): number | undefined {
  if (!h) return undefined;
  const s = h.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.ceil(Number(s) * 1000);
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
