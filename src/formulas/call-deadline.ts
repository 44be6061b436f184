/**
 * One deadline per formula call, covering everything the call waits for:
 * the coin map, pacing under the rate limit, retries and their backoff, every
 * page of paged history. When it passes, the call settles (the host serves the
 * last good value, else #N/A saying what failed) and its work is cancelled, so
 * no cell stays #BUSY! however the service fails.
 *
 * The same 45 s bound each client request has (DEFAULT_REQUEST_DEADLINE_MS):
 * under the ~60 s after which some Office hosts fail a custom function's fetch,
 * and room for two of the client's 20 s attempts.
 */
import { DEFAULT_REQUEST_DEADLINE_MS, type AttemptFailure } from '../client/client';
import type { FormulaError } from './cells';
import { formulaError } from './failure';

export const CALL_DEADLINE_MS = DEFAULT_REQUEST_DEADLINE_MS;

/** What the client can say about why a call is still waiting. */
export interface WaitDiagnosis {
  lastFailure(caller?: string): AttemptFailure | null;
  readonly queuedForRate: number;
  readonly rateLimitPerMinute: number;
}

/** The #N/A of a call that ran out of time: what failed (or what it waited for), and that a recalculation retries. */
export function deadlineError(ms: number, startedAt: number, client: WaitDiagnosis, formula?: string): FormulaError {
  const f = client.lastFailure(formula);
  const why =
    f && f.at >= startedAt
      ? `last failure: ${f.message.replace(/\.$/, '')}`
      : client.queuedForRate > 0
        ? `requests are queued under the plan's limit of ${client.rateLimitPerMinute} a minute`
        : 'the service did not answer';
  return formulaError('DEADLINE', `No answer within ${Math.ceil(ms / 1000)} s (${why}); the next recalculation retries`);
}

/** What a bucket's `expired` rejects with: the host turns it into deadlineError for each call. */
export const EXPIRED = Symbol('deadline passed');

/** Calls that started within the same short window share one timer. */
export interface DeadlineBucket {
  /** Rejects with EXPIRED once the deadline of every call in the bucket has passed. */
  readonly expired: Promise<never>;
  /** When the bucket opened (host clock): failures since then explain its calls. */
  readonly openedAt: number;
}

interface OpenBucket extends DeadlineBucket {
  pending: number;
  closed: boolean;
  openedReal: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const noop = () => undefined;

/**
 * Deadlines for thousands of calls without a timer and a wrapper promise each:
 * calls starting within `widthMs` of each other share one bucket whose timer
 * fires `ms + widthMs` after it opened (so every call gets at least `ms`), and
 * is cleared as soon as its last call settles.
 */
export class Deadlines {
  #current: OpenBucket | null = null;

  constructor(
    readonly ms: number,
    private readonly now: () => number,
    private readonly widthMs = 100,
  ) {}

  /** The bucket for a call starting now; give it back with leave() when the call settles. */
  join(): DeadlineBucket {
    const real = Date.now();
    let b = this.#current;
    if (!b || b.closed || real - b.openedReal >= this.widthMs) {
      let reject!: (e: unknown) => void;
      const expired = new Promise<never>((_, r) => (reject = r));
      expired.catch(noop); // a bucket whose calls all settled first rejects unobserved
      b = { expired, openedAt: this.now(), openedReal: real, pending: 0, closed: false, timer: undefined };
      const bucket = b;
      bucket.timer = setTimeout(() => {
        bucket.closed = true;
        reject(EXPIRED);
      }, this.ms + this.widthMs);
      this.#current = b;
    }
    b.pending++;
    return b;
  }

  leave(bucket: DeadlineBucket): void {
    const b = bucket as OpenBucket;
    if (--b.pending > 0 || b.closed) return;
    b.closed = true;
    clearTimeout(b.timer);
    if (this.#current === b) this.#current = null;
  }
}
