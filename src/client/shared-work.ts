/**
 * Work many callers wait on (a batch of quotes, the coin map, a batch of
 * historical items): its signal aborts once every caller that joined it has
 * gone, as ResponseCache.share does for one request. So the retries of a batch
 * stop when the cells that asked for it have settled or run out of time, and
 * one cancelled cell never fails the others.
 *
 * Waiters are counted by signal, not one by one: a recalculation's calls share
 * a signal per deadline window (formulas/call-deadline.ts), so a batch of
 * thousands of coins has a few. A caller without a signal stays to the end.
 */
import { onAbort } from './cancellation';

export class SharedWork {
  readonly #controller = new AbortController();
  readonly #waiting = new Set<AbortSignal>();
  #pinned = false;
  #abandoned = false;

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  #abandon(): void {
    this.#abandoned = true;
    this.#controller.abort();
  }

  /** Every caller has gone: nothing may join, start anew. */
  get abandoned(): boolean {
    return this.#abandoned; // a field, not signal.aborted: a getter with brand checks, asked for every cell of a batch
  }

  /** Count a caller among the waiters until its signal aborts. */
  join(signal: AbortSignal | undefined): void {
    if (this.abandoned) return;
    if (!signal) {
      this.#pinned = true;
      return;
    }
    if (this.#waiting.has(signal)) return;
    if (signal.aborted) {
      if (this.#waiting.size === 0 && !this.#pinned) this.#abandon(); // gone before it began
      return;
    }
    this.#waiting.add(signal);
    onAbort(signal, () => {
      this.#waiting.delete(signal);
      if (this.#waiting.size === 0 && !this.#pinned) this.#abandon();
    });
  }
}

/**
 * The work of a DataLoader batch while it gathers keys (the quote batcher's,
 * the historical batcher's): every load until the batch is sent joins it; a
 * batch every caller left before it was sent is not joined again.
 */
export class GatheringWork {
  #open: SharedWork | null = null;

  /** Whether a batch is gathering (not yet sent). */
  get gathering(): boolean {
    return this.#open !== null;
  }

  /** The gathering batch's work, for a load joining it now. */
  current(): SharedWork {
    if (!this.#open || this.#open.abandoned) this.#open = new SharedWork();
    return this.#open;
  }

  /** The batch was sent: loads from now on go in the next one. */
  sent(): void {
    this.#open = null;
  }
}

/** The work a sent batch's requests run under: its keys share one, unless an earlier one was given up before the batch was sent. */
export function liveWork(works: readonly SharedWork[]): SharedWork {
  return works.find((w) => !w.abandoned) ?? works[0];
}
