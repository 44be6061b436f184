/**
 * Starts work in slices, yielding to the event loop between them.
 *
 * A recalculation can hand the runtime thousands of formulas at once. Started
 * in one go, they hold the thread until the last one has started: the task
 * pane (which shares the thread) freezes, and no request, not even the one
 * every cell is about to wait for, leaves before then. In slices, the first
 * cells' requests are on the wire while the rest are still being started.
 */
import { nextTask } from '../client/next-task';

/**
 * Items started by one handler, `size` per task. The first slice starts at
 * once; the rest wait in a queue, in the order offered. An item and a handler,
 * not a promise and a closure per waiting call: a recalculation offers
 * thousands at once, and everything that waits is memory the garbage
 * collector keeps copying.
 */
export class Slices<T> {
  readonly #size: number;
  readonly #start: (item: T) => void;
  #startedInSlice = 0;
  #sliceOpen = false;
  readonly #waiting: T[] = [];
  #head = 0;

  /** `size`: how many starts a slice takes before the rest wait for the next task. */
  constructor(size: number, start: (item: T) => void) {
    this.#size = Math.max(1, size);
    this.#start = start;
  }

  /**
   * Starts `item` now while the current slice has room (true), else queues it
   * for a later slice (false). The handler settles its item's outcome itself
   * and does not throw; if it does (a bug), the error surfaces as uncaught and
   * the slice goes on.
   */
  offer(item: T): boolean {
    if (this.#waiting.length === this.#head && this.#startedInSlice < this.#size) {
      this.#startedInSlice++;
      this.#open();
      this.#start(item);
      return true;
    }
    this.#waiting.push(item);
    this.#open();
    return false;
  }

  /** A slice lasts until the next task; then the next `size` waiters go. */
  #open(): void {
    if (this.#sliceOpen) return;
    this.#sliceOpen = true;
    nextTask(() => this.#nextSlice());
  }

  #nextSlice(): void {
    this.#sliceOpen = false;
    this.#startedInSlice = 0;
    while (this.#head < this.#waiting.length && this.#startedInSlice < this.#size) {
      const item = this.#waiting[this.#head];
      this.#waiting[this.#head++] = undefined as T; // started: no longer held here
      this.#startedInSlice++;
      try {
        this.#start(item);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
    if (this.#head === this.#waiting.length) {
      this.#waiting.length = 0;
      this.#head = 0;
    }
    if (this.#startedInSlice > 0) this.#open();
  }
}
