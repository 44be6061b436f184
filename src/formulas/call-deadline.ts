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

/** Calls that started within the same short window share one timer and one signal. */
export interface DeadlineBucket {
  /** Rejects with EXPIRED once the deadline of every call in the bucket has passed. */
  readonly expired: Promise<never>;
  /** When the bucket opened (host clock): failures since then explain its calls. */
  readonly openedAt: number;
  /**
   * Aborts when the deadline passes, or when the bucket's last call has
   * settled: the requests of its calls stop once nobody waits for them. One
   * signal for the bucket, not one per call (see client/cancellation.ts).
   */
  readonly signal: AbortSignal;
}

const noop = () => undefined;

class Bucket implements DeadlineBucket {
  readonly expired: Promise<never>;
  readonly openedReal = Date.now();
  pending = 0;
  closed = false;
  timer: ReturnType<typeof setTimeout> | undefined;
  #controller: AbortController | null = null;
  readonly #reject: (e: unknown) => void;

  constructor(readonly openedAt: number) {
    let reject!: (e: unknown) => void;
    this.expired = new Promise<never>((_, r) => (reject = r));
    this.expired.catch(noop); // a bucket whose calls all settled first rejects unobserved
    this.#reject = reject;
  }

  /** Made on first use: a warm recalculation's calls, all answered at once, need none. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.closed) this.#controller.abort();
    return this.#controller.signal;
  }

  close(expired: boolean): void {
    this.closed = true;
    clearTimeout(this.timer);
    if (expired) this.#reject(EXPIRED); // first: the calls settle as expired, not as aborted
    this.#controller?.abort();
  }
}

/**
 * Deadlines for thousands of calls without a timer and a wrapper promise each:
 * calls starting within `widthMs` of each other share one bucket whose timer
 * fires `ms + widthMs` after it opened (so every call gets at least `ms`), and
 * is cleared as soon as its last call settles.
 */
export class Deadlines {
  #current: Bucket | null = null;

  constructor(
    readonly ms: number,
    private readonly now: () => number,
    private readonly widthMs = 100,
  ) {}

  /** The bucket a call starting now belongs to (its signal is the call's); join() it if the call waits. */
  open(): DeadlineBucket {
    const b = this.#current;
    if (b && !b.closed && Date.now() - b.openedReal < this.widthMs) return b;
    return (this.#current = new Bucket(this.now()));
  }

  /** Count a waiting call in `bucket` (from open(), in the same turn); give it back with leave() when the call settles. */
  join(bucket: DeadlineBucket): void {
    const b = bucket as Bucket;
    b.pending++;
    b.timer ??= setTimeout(() => b.close(true), this.ms + this.widthMs);
  }

  leave(bucket: DeadlineBucket): void {
    const b = bucket as Bucket;
    if (--b.pending > 0 || b.closed) return;
    b.close(false);
    if (this.#current === b) this.#current = null;
  }
}
