/**
 * One request in canonical form: the endpoint, its `{id}` and a query with
 * null/undefined dropped, values stringified, time values normalised to epoch
 * ms and defaults removed. Two requests that mean the same thing have the same
 * canonical form, hence the same cache key (`limit=100` and no limit are one
 * key). The API key is never part of it.
 */
import {
  ENDPOINTS,
  endpointPath,
  parseTimeParam,
  validateQuery,
  type EndpointName,
  type Freshness,
  type ParamSpec,
} from '../api/endpoints';
import { startOfUtcDay } from '../api/utc-day';
import { ApiError } from './api-error';

export type QueryInput = Record<string, string | number | boolean | null | undefined>;

export interface CanonicalRequest {
  name: EndpointName;
  id?: number;
  /** Path with `{id}` filled in. */
  path: string;
  /** Sorted, defaults removed: what is sent and what keys the cache. */
  query: Readonly<Record<string, string>>;
  /** The cache key: endpoint, id and query; no key, no caller. */
  key: string;
}

/** Build and validate (with the endpoint table's validateQuery); a bad request is a VALIDATION_ERROR, and nothing is sent. */
export function canonicalRequest(name: EndpointName, id: number | undefined, input: QueryInput | undefined): CanonicalRequest {
  const spec = ENDPOINTS[name];
  if (!spec) throw new ApiError({ code: 'VALIDATION_ERROR', message: `Unknown endpoint "${String(name)}".` });
  const needsId = spec.path.includes('{id}');
  if (needsId && (id === undefined || !Number.isSafeInteger(id) || id < 1)) {
    throw new ApiError({ code: 'VALIDATION_ERROR', message: `${name}: a positive integer id is required.`, endpoint: name });
  }
  if (!needsId && id !== undefined) {
    throw new ApiError({ code: 'VALIDATION_ERROR', message: `${name}: this endpoint takes no id.`, endpoint: name });
  }
  const raw: Record<string, string> = {};
  for (const [k, val] of Object.entries(input ?? {})) {
    if (val === null || val === undefined) continue;
    raw[k] = typeof val === 'string' ? val.trim() : String(val);
  }
  const problems = validateQuery(name, raw);
  if (problems.length > 0) {
    throw new ApiError({ code: 'VALIDATION_ERROR', message: `${name}: ${problems.join('; ')}.`, endpoint: name, status: null });
  }
  const params: Readonly<Record<string, ParamSpec>> = spec.params;
  const query: Record<string, string> = {};
  for (const k of Object.keys(raw).sort()) {
    const p = params[k];
    let val = raw[k];
    if (p.kind === 'time') val = String(parseTimeParam(val));
    else if (p.kind === 'int' || p.kind === 'number') val = String(Number(val));
    if ('default' in p && p.default !== undefined && String(p.default) === val) continue;
    query[k] = val;
  }
  const path = endpointPath(name, id);
  const qs = Object.entries(query).map(([k, val]) => `${k}=${encodeURIComponent(val)}`).join('&');
  return { name, id, path, query, key: `${name}|${path}|${qs}` };
}

/**
 * The freshness class a request is cached by, decided per endpoint in this one
 * place:
 * - non-history endpoints: their class in the endpoint table;
 * - `historicalItem`: history when `date` is before the start of the current UTC day, else live;
 * - other history endpoints (candles, ohlcv, charts): history when the range has
 *   an explicit `to` before the start of the current UTC day; no `to` means
 *   "up to now", which is live;
 * - but one daily candle from a day on, with no `to` (formulas/reach.ts: where a coin's
 *   history starts): reference. Its answer is a day that does not move; live, the cells
 *   before a coin's history paid a credit for it on every recalculation a minute apart
 *   (review 2026-11-27: history #5);
 * - and one hourly candle from a day on, with no `to` (reach.ts: where this key's hours start):
 *   window, an hour. Live, a cell asking hours before the reach paid a credit for it on every
 *   recalculation a minute apart (review 2026-11-27: hourly reach check); a day, its #N/A named the
 *   reach of up to a day before (a day early and a day longer, hourlyReachMessage counting to now).
 *   The plan's window moves an hour per hour: kept an hour, the day it names is at most an hour late.
 */
export function freshnessOf(req: CanonicalRequest, now: number): Freshness {
  const declared: Freshness = ENDPOINTS[req.name].freshness;
  if (declared !== 'history') return declared;
  const oneFromADay = req.query.limit === '1' && req.query.to === undefined;
  if (oneFromADay && req.name === 'candles' && req.query.interval === undefined) return 'reference';
  if (oneFromADay && req.name === 'ohlcv') return 'window';
  const end = req.name === 'historicalItem' ? req.query.date : req.query.to;
  if (end === undefined) return 'live';
  const endMs = Number(end);
  return Number.isFinite(endMs) && endMs < startOfUtcDay(now) ? 'history' : 'live';
}
