/**
 * Retry policy: 429, 500/502/503/504, network errors, timeouts and malformed
 * JSON are retried up to `maxRetries` times; other errors (4xx, validation,
 * schema mismatch, abort) never. An answer whose row reads Retry-After (the rate
 * limit, an outage: error-rules.ts `retryAfter`) and carries it holds the
 * whole pacer until then; every retry also waits exponential backoff with full
 * jitter, so it waits the longer of the two.
 */
import { ApiError, abortedError } from './api-error';
import { errorRule } from './error-rules';
import type { Sleep } from './clock';
import type { Pacer } from './pacer';

export interface RetryOptions {
  maxRetries: number;
  pacer: Pacer;
  sleep: Sleep;
  now: () => number;
  random: () => number;
  signal?: AbortSignal;
  /** Take the pacer's next slot ahead of everyone queued (see Pacer.acquire). */
  first?: boolean;
  /** Called with each granted slot: true hands it to the next request that goes first, and waits again. */
  yieldSlot?: () => boolean;
  /** Whether a failed attempt gives its pacing slot back (`ms`: how long it took). */
  refundSlot?: (e: ApiError, ms: number) => boolean;
  /** Called before each attempt after the pacer granted a slot (attempt 0 is the first). */
  onAttempt?: (attemptNo: number) => void;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 10_000;

/** Full jitter: uniform in [0, min(max, base * 2^n)]. */
export function backoffMs(retryNo: number, random: () => number, base = BACKOFF_BASE_MS, max = BACKOFF_MAX_MS): number {
  return Math.floor(random() * Math.min(max, base * 2 ** retryNo));
}

export async function withRetries<T>(run: (signal?: AbortSignal) => Promise<T>, o: RetryOptions): Promise<T> {
  for (let attemptNo = 0; ; attemptNo++) {
    const sentAt = await o.pacer.acquire(o.signal, o.first);
    if (o.yieldSlot?.()) {
      o.pacer.passToFirst();
      attemptNo--; // not an attempt
      continue;
    }
    o.onAttempt?.(attemptNo);
    try {
      return await run(o.signal);
    } catch (e) {
      if (o.signal?.aborted) throw abortedError(e instanceof ApiError ? e.endpoint : undefined);
      if (e instanceof ApiError && o.refundSlot?.(e, o.now() - sentAt)) o.pacer.refund(sentAt);
      if (e instanceof ApiError && e.retryAfterMs !== undefined) {
        // Everyone waits: the server said when the window has room again (429) or when its outage should
        // be over (an outage; transport.ts reads the header of the rows marked `retryAfter` only). Asking sooner spends tries on
        // answers it already gave; the hold is capped at MAX_HOLD_MS (pacer.ts) and cells keep their deadline.
        // The answer that ends the tries holds too: the next request would be refused as well (review 2026-11-27).
        o.pacer.holdUntil(o.now() + e.retryAfterMs);
      }
      if (!(e instanceof ApiError) || !e.retryable || attemptNo >= o.maxRetries) throw e;
      // The backoff still applies: a Retry-After shorter than it (a proxy's 0, a past date) sent 41 tries of an
      // outage back to back (review 2026-11-27). The wait is the longer of the two: the hold above stands
      // whatever the backoff adds to it, and the backoff ends inside a longer hold.
      const delay = backoffMs(attemptNo, o.random, o.baseDelayMs, o.maxDelayMs);
      if (errorRule(e.code, e.status).pacer === 'rate-limit') o.pacer.holdUntil(o.now() + delay);
      else await o.sleep(delay, o.signal);
    }
  }
}
