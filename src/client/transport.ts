/**
 * One HTTP attempt: URL, X-Api-Key header, per-attempt timeout, cancellation,
 * JSON parse, envelope and `data` validation (valibot, with the endpoint
 * table's schema, checked in place: see api/validate.ts); an error answer is
 * read into an ApiError by error-answer.ts. No retry, no pacing, no cache:
 * those wrap this.
 *
 * The key is sent only as the X-Api-Key header to baseUrl, never across a
 * redirect: `redirect: 'manual'` and any 3xx refused (fetch keeps custom
 * headers on a redirect to another origin; only a page's CSP would stop it, and
 * Node has none). Nothing this module throws contains the key: messages are
 * ours, server text is scrubbed and clipped, and a server's error code outside
 * our vocabulary is replaced by what its HTTP status means.
 */
import * as v from 'valibot';
import { ENDPOINTS, type EndpointSpec } from '../api/endpoints';
import { EnvelopeStatus, PageMeta } from '../api/records';
import { expectation, readData, type DataReading, type RejectedItem } from '../api/read-data';
import { ApiError, abortedError, scrub } from './api-error';
import { onAbort } from './cancellation';
import { errorFromResponse, serverText } from './error-answer';
import { guardReading } from './missing-fields';
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
  /** The largest body read (decompressed); default MAX_RESPONSE_BYTES. */
  maxBytes?: number;
  /** The key's plan, when known: a refusal of what that plan has by the table names no plan to upgrade to. */
  keyPlan?: string;
  /**
   * What the answer's reading waits for, if anything: requests just handed to fetch reach the wire before
   * this answer's body is read, parsed and checked (cold-start.ts wiring()).
   */
  readAfter?: () => Promise<void> | undefined;
}

/**
 * The largest answer read, counted after decompression while it streams in.
 * The largest real answers are the currency map (a few MB for every listed
 * coin) and a 5,000-point candle history (about 1 MB); a body past this is not
 * data a cell can use, and inflating it whole (a 300 KB gzip bomb becomes
 * 300 MB) would take the add-in's memory and its deadline.
 */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** What a list item cannot go without besides what it is filed under (api/read-data.ts, rule 4): a quote is its price. */
const ITEM_NEEDS: Partial<Record<CanonicalRequest['name'], readonly string[]>> = { markets: ['price'], currencyList: ['price'] };

/** A rejected item's slug or name as its cell's message names it: a coin's slug is far shorter. */
const MAX_ITEM_LABEL = 60;

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

function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return 'the configured API address';
  }
}

/** The body as text, refused once it passes `max` bytes (decompressed), without reading the rest. */
async function readCapped(res: Response, max: number, name: CanonicalRequest['name']): Promise<string> {
  const tooLarge = () =>
    new ApiError({ code: 'UNEXPECTED_RESPONSE', message: `${name}: the answer is larger than ${Math.round(max / 1024 / 1024)} MB and was not read.`, endpoint: name, status: res.status });
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max && !res.headers.get('content-encoding')) {
    void res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return res.text();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
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
  const stopWatching = a.signal ? onAbort(a.signal, () => timer.abort()) : undefined;
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
      redirect: 'manual',
      signal: timer.signal,
    });
    status = res.status;
    // A browser reports a redirect not followed as an opaque response of status 0.
    if (res.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
      void res.body?.cancel().catch(() => undefined);
      throw new ApiError({
        code: 'UNEXPECTED_RESPONSE',
        message: `${name}: the service answered with a redirect${status ? ` (HTTP ${status})` : ''}, not followed: the key goes only to ${originOf(a.baseUrl)}. Check the API address in the task pane.`,
        endpoint: name,
        status: status || null,
      });
    }
    retryAfterHeader = res.headers.get('retry-after');
    const first = a.readAfter?.();
    if (first) await first;
    text = await readCapped(res, a.maxBytes ?? MAX_RESPONSE_BYTES, name);
  } catch (e) {
    throw failure(e);
  } finally {
    clearTimeout(t);
    stopWatching?.();
  }
  if (status < 200 || status >= 300) throw errorFromResponse(name, status, text, retryAfterHeader, a.apiKey, a.now(), a.keyPlan);
  let body: unknown;
  try {
    body = JSON.parse(withoutKey(text, a.apiKey));
  } catch {
    throw new ApiError({ code: 'MALFORMED_RESPONSE', message: `${name}: the answer was not valid JSON.`, endpoint: name, status });
  }
  const out = cutToLimit(unwrap(name, body, status), req);
  // A rejected item's slug or name goes into its cell's message: server text like any other, so scrubbed
  // of the key and clipped (it had reached cells whole: 5,180 characters with the key, review of 2026-11-26).
  for (const x of out.rejected ?? []) if (x.label !== null) x.label = serverText(x.label, a.apiKey, MAX_ITEM_LABEL);
  return out;
}

/**
 * An answer's text with the key taken out, as sent and URL-encoded, in any
 * letter case, before anything reads it: a string of the data that echoes it (a
 * profile's name, a website with the key in its query) would be a cell value,
 * saved with the workbook (review 2026-11-27). Error text and an unreadable
 * item's label are scrubbed the same way (error-answer.ts serverText). Only
 * text inside JSON strings can hold it, and '***' keeps them valid.
 */
function withoutKey(text: string, apiKey: string): string {
  const encoded = encodeURIComponent(apiKey);
  const once = scrub(text, apiKey);
  return encoded === apiKey ? once : scrub(once, encoded);
}

/** A list longer than the `limit` asked is cut to it: the items past it belong to the next page (whose offset says where they are). */
function cutToLimit(r: AttemptResult, req: CanonicalRequest): AttemptResult {
  // The canonical query leaves out defaults: no limit there is the endpoint's default limit.
  const params = ENDPOINTS[req.name].params as Record<string, { default?: unknown } | undefined>;
  const limit = Number(req.query.limit ?? params.limit?.default);
  if (Array.isArray(r.data) && Number.isInteger(limit) && limit > 0 && r.data.length > limit) r.data = r.data.slice(0, limit);
  return r;
}

/** Check the envelope and `data` against the endpoint table. */
export function unwrap(name: CanonicalRequest['name'], body: unknown, status: number): AttemptResult {
  const spec = ENDPOINTS[name] as EndpointSpec;
  const unexpected = (where: string, issues: v.BaseIssue<unknown>[]): ApiError => {
    const first = issues[0];
    const path = v.getDotPath(first);
    return new ApiError({
      code: 'UNEXPECTED_RESPONSE',
      message: `${name}: unexpected answer at ${where}${path ? '.' + path : ''}: ${expectation(first)}.`,
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
  const dataOf = (r: Extract<DataReading, { ok: true }>): unknown => guardReading(r, name, spec.path);
  const needed = ITEM_NEEDS[name] ?? [];
  if (spec.wrapped === false) {
    const r = readData(spec.data, body, spec.variant, spec.answerVariant, partial, needed);
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
  const d = readData(spec.data, env.data, spec.variant, spec.answerVariant, partial, needed);
  if (!d.ok) throw unreadable('data', d);
  return withRejected({ data: dataOf(d), meta, usedCredits: st.output.usedCredits, timestamp: st.output.timestamp }, d.rejected, spec.path);
}

function withRejected(r: AttemptResult, rejected: RejectedItem[] | null, source: string): AttemptResult {
  if (rejected && rejected.length > 0) r.rejected = rejected.map((x) => ({ ...x, source }));
  return r;
}
