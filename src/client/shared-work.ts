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

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Every caller has gone: nothing may join, start anew. */
  get abandoned(): boolean {
    return this.#controller.signal.aborted;
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
      if (this.#waiting.size === 0 && !this.#pinned) this.#controller.abort(); // gone before it began
      return;
    }
    this.#waiting.add(signal);
    onAbort(signal, () => {
      this.#waiting.delete(signal);
      if (this.#waiting.size === 0 && !this.#pinned) this.#controller.abort();
    });
  }
}
