/**
 * Starts work in slices, yielding to the event loop between them.
 *
 * A recalculation can hand the runtime thousands of formulas at once. Started
 * in one go, they hold the thread until the last one has started: the task
 * pane (which shares the thread) freezes, and no request, not even the one
 * every cell is about to wait for, leaves before then. In slices, the first
 * cells' requests are on the wire while the rest are still being started.
 */

/** Run `cb` as a new task: after pending I/O, not merely after the current microtasks. */
export function nextTask(cb: () => void): void {
  const g = globalThis as { setImmediate?: (cb: () => void) => unknown; MessageChannel?: typeof MessageChannel };
  if (typeof g.setImmediate === 'function') {
    g.setImmediate(cb);
  } else if (typeof g.MessageChannel === 'function') {
    // Browsers clamp nested setTimeout(0) to 4 ms; a message is a task without the clamp.
    const ch = new g.MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      cb();
    };
    ch.port2.postMessage(null);
  } else {
    setTimeout(cb, 0);
  }
}

export class Slices {
  readonly #size: number;
  #startedInSlice = 0;
  #sliceOpen = false;
  readonly #waiting: (() => void)[] = [];
  #head = 0;

  /** `size`: how many starts a slice takes before the rest wait for the next task. */
  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  /**
   * Resolves when the caller may start: at once while the current slice has
   * room, else in a later slice, in the order asked. Returns null when the
   * caller may start now (no promise to wait on).
   */
  turn(): Promise<void> | null {
    if (this.#waiting.length === this.#head && this.#startedInSlice < this.#size) {
      this.#startedInSlice++;
      this.#open();
      return null;
    }
    return new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      this.#open();
    });
  }

  /**
   * Runs `start` now while the current slice has room, else in a later slice,
   * in the order asked: one promise per call either way (turn() and a then()
   * on it cost two for each of thousands of cells).
   */
  run<T>(start: () => T | PromiseLike<T>): Promise<T> {
    if (this.#waiting.length === this.#head && this.#startedInSlice < this.#size) {
      this.#startedInSlice++;
      this.#open();
      try {
        return Promise.resolve(start());
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push(() => {
        try {
          resolve(start());
        } catch (e) {
          reject(e);
        }
      });
      this.#open();
    });
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
      this.#waiting[this.#head++]();
      this.#startedInSlice++;
    }
    if (this.#head === this.#waiting.length) {
      this.#waiting.length = 0;
      this.#head = 0;
    }
    if (this.#startedInSlice > 0) this.#open();
  }
}
