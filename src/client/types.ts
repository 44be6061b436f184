/**
 * The shapes the client's layers share: what a caller asks with, what comes
 * back, and the request lifecycle as the policies under the façade see it
 * (Requester). Types only, so every layer can import them without importing
 * each other.
 */
import type { RejectedItem } from '../api/read-data';
import type { CanonicalRequest, QueryInput } from './canonical-request';
import type { CacheEntry } from './response-cache';

/** Who asks (credits are attributed to them) and until when they wait. */
export interface CallOptions {
  /** The formula's id, e.g. "PRICE"; absent for the client's own requests. */
  caller?: string;
  signal?: AbortSignal;
  /**
   * The caller settles itself when its signal aborts (the calculation host's
   * deadline and Excel's cancel do): the signal then only counts it among the
   * waiters of the shared work, which stops once they have all gone, and no
   * race per call wraps the answer. Read where thousands of cells wait on one
   * batch: quotes and historical items.
   */
  settlesItself?: boolean;
}

export interface RequestOptions extends CallOptions {
  id?: number;
  query?: QueryInput;
}

export interface Fetched<T> {
  data: T;
  meta?: Record<string, unknown>;
  /** Items of a list the service answered but that could not be read; each costs only itself. Absent when none. */
  rejected?: RejectedItem[];
  stale: boolean;
  fetchedAt: number;
  fromCache: boolean;
  /**
   * An answer fetched now: one object shared by every caller of the call in flight, so its credits are counted
   * once (as HistoricalAnswer's). Absent from the cache or stale.
   */
  charged?: { done: boolean };
}

/** One answer of the lifecycle: the cached entry, and whether it is a stale stand-in or came from the cache. */
export interface Answer {
  entry: CacheEntry;
  stale: boolean;
  fromCache: boolean;
  /** Fetched now: shared by every caller of the one call (Fetched.charged). */
  charged?: { done: boolean };
}

export interface RequestFlags extends CallOptions {
  /** Skip the fresh-cache check (status({force})). */
  force?: boolean;
  /** Do not keep the answer in the response cache (the currency map lives in its own store). */
  store?: boolean;
}

/**
 * The request lifecycle (MarketClient): cache, sharing, plan gate, pacing,
 * attempts, learners. The batcher, the resolver, the map store and the paging
 * loops ask it for what they need and get their answers back.
 */
export interface Requester {
  request(cr: CanonicalRequest, f: RequestFlags): Promise<Answer>;
  now(): number;
}

export interface AttemptFailure {
  code: string;
  message: string;
  /** Client clock. */
  at: number;
}

export function toFetched<T>(a: Answer): Fetched<T> {
  const f: Fetched<T> = { data: a.entry.data as T, stale: a.stale, fetchedAt: a.entry.fetchedAt, fromCache: a.fromCache };
  if (a.entry.meta) f.meta = a.entry.meta;
  if (a.entry.rejected) f.rejected = a.entry.rejected;
  if (a.charged) f.charged = a.charged;
  return f;
}
