/**
 * The client's options, their documented defaults, checked once (as
 * DataLoader checks its options in its constructor).
 */
import { DEFAULT_FRESHNESS_MS, type Freshness } from '../api/endpoints';
import { realSleep, type Sleep } from './clock';
import { MAX_HOLD_MS } from './pacer';
import { MAX_RESPONSE_BYTES } from './transport';
import type { KeyStore } from './key-store';
import type { KvStore } from './kv-store';

export interface ClientOptions {
  /** Host root, e.g. 'https://api.cryptorank.io' or 'http://127.0.0.1:4010'; endpoint paths start with /v3. */
  baseUrl: string;
  keyStore: KeyStore;
  /** Where the currency map and learned ranks persist across sessions; default memory. */
  storage?: KvStore;
  now?: () => number;
  fetch?: typeof fetch;
  /** Per attempt; default 20 s (well under Excel's ~60 s). */
  timeoutMs?: number;
  /**
   * One request's whole life (pacing, attempts, backoff); default 45 s, the
   * formula deadline. Shared work no single cell can cancel (the coin map,
   * /v3/status, quote batches) ends by then too, waited for or not.
   */
  requestDeadlineMs?: number;
  /** Retries of a failed request; default 3. */
  maxRetries?: number;
  /**
   * Retries of the requests many cells wait on (the map, /v3/status, a markets
   * page: sender.ts SHARED); default MAP_MAX_RETRIES, or none when maxRetries
   * is 0. The pane's key check asks for one: its answer must come quickly.
   */
  sharedMaxRetries?: number;
  /** Per freshness class; defaults from the endpoint table (DEFAULT_FRESHNESS_MS). */
  freshnessMs?: Partial<Record<Freshness, number>>;
  /** Bounded memory; default 5 000 responses (and 4x as many per-coin quotes). */
  maxCacheEntries?: number;
  /** Quote coalescing window; default 15 ms. */
  batchWindowMs?: number;
  /** The longest a Retry-After (the rate limit, an outage: error-rules.ts `retryAfter`) holds every request; default one rate window, 60 s (pacer.ts MAX_HOLD_MS). */
  maxRateLimitWaitMs?: number;
  /** The largest answer read, decompressed; default 32 MB (transport.ts MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  sleep?: Sleep;
  random?: () => number;
}

export type ResolvedOptions = Required<Omit<ClientOptions, 'freshnessMs' | 'storage'>> & { freshnessMs: Record<Freshness, number> };

export { DEFAULT_FRESHNESS_MS };
export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_REQUEST_DEADLINE_MS = 45_000;
export const DEFAULT_MAX_RETRIES = 3;
/**
 * The currency map and /v3/status get more tries than other requests, closer
 * together: every coin typed as text waits on the map, so its failure fails a
 * whole sheet, and without the plan every request is paced at the lowest
 * plan's 10 a minute. They are tried until the request deadline (45 s) rather
 * than a few times: with waits of at most 2 s (about 1 s on average, full
 * jitter) that is some 40 attempts, and at 80 % failures all of them fail about
 * once in 7,000 loads (sixteen attempts: once in 35, which `npm run chaos` met
 * as a cold sheet with no right cell about one run in four; nine: once in 7).
 * Tries nobody waits for stop with their waiters (shared-work.ts).
 */
export const MAP_MAX_RETRIES = 40;
/** The longest wait between two tries of the currency map. */
export const MAP_MAX_DELAY_MS = 2_000;
export const DEFAULT_MAX_CACHE_ENTRIES = 5_000;
export const DEFAULT_BATCH_WINDOW_MS = 15;

export function resolveOptions(opts: ClientOptions): ResolvedOptions {
  return {
    baseUrl: opts.baseUrl,
    keyStore: opts.keyStore,
    now: opts.now ?? Date.now,
    fetch: opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init)),
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    requestDeadlineMs: opts.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS,
    maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
    sharedMaxRetries: opts.sharedMaxRetries ?? (opts.maxRetries === 0 ? 0 : MAP_MAX_RETRIES),
    freshnessMs: { ...DEFAULT_FRESHNESS_MS, ...opts.freshnessMs },
    maxCacheEntries: opts.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES,
    batchWindowMs: opts.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS,
    maxRateLimitWaitMs: opts.maxRateLimitWaitMs ?? MAX_HOLD_MS,
    maxResponseBytes: opts.maxResponseBytes ?? MAX_RESPONSE_BYTES,
    sleep: opts.sleep ?? realSleep,
    random: opts.random ?? Math.random,
  };
}
