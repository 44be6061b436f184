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
import { formulaError } from './cells';

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

/** Calls that started within the same short window share one timer and one signal. */
export interface DeadlineBucket {
  /** When the bucket opened (host clock): failures since then explain its calls. */
  readonly openedAt: number;
  /**
   * Aborts when the deadline passes, or when the bucket's last call has
   * settled: the requests of its calls stop once nobody waits for them. One
   * signal for the bucket, not one per call (see client/cancellation.ts).
   */
  readonly signal: AbortSignal;
}

class Bucket<T> implements DeadlineBucket {
  readonly openedReal = Date.now();
  /** Its calls still waiting. */
  readonly calls = new Set<T>();
  closed = false;
  timer: ReturnType<typeof setTimeout> | undefined;
  #controller: AbortController | null = null;

  constructor(readonly openedAt: number) {}

  /** Made on first use: a warm recalculation's calls, all answered at once, need none. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.closed) this.#controller.abort();
    return this.#controller.signal;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.#controller?.abort();
  }
}

/**
 * Deadlines for thousands of calls without a timer or a wrapper promise each:
 * calls starting within `widthMs` of each other share one bucket whose timer
 * fires `ms + widthMs` after it opened (so every call gets at least `ms`), and
 * is cleared as soon as its last call settles. When it fires, `expired` is
 * told of each call still waiting, before the bucket's signal aborts (the
 * calls settle as out of time, not as cancelled).
 */
export class Deadlines<T> {
  #current: Bucket<T> | null = null;

  constructor(
    readonly ms: number,
    private readonly now: () => number,
    private readonly expired: (call: T, bucket: DeadlineBucket) => void,
    private readonly widthMs = 100,
  ) {}

  /** The bucket a call starting now belongs to (its signal is the call's); join() it if the call waits. */
  open(): DeadlineBucket {
    const b = this.#current;
    if (b && !b.closed && Date.now() - b.openedReal < this.widthMs) return b;
    return (this.#current = new Bucket<T>(this.now()));
  }

  /** Count a waiting call in `bucket` (from open(), in the same turn); give it back with leave() when it settles. */
  join(bucket: DeadlineBucket, call: T): void {
    const b = bucket as Bucket<T>;
    b.calls.add(call);
    b.timer ??= setTimeout(() => this.#expire(b), this.ms + this.widthMs);
  }

  leave(bucket: DeadlineBucket, call: T): void {
    const b = bucket as Bucket<T>;
    if (!b.calls.delete(call) || b.calls.size > 0 || b.closed) return;
    this.#close(b);
  }

  #expire(b: Bucket<T>): void {
    b.closed = true; // first: its calls settle as out of time, then its signal aborts
    const late = [...b.calls];
    b.calls.clear();
    for (const call of late) this.expired(call, b);
    this.#close(b);
  }

  #close(b: Bucket<T>): void {
    b.close();
    if (this.#current === b) this.#current = null;
  }
}
