/**
 * New tasks, not microtasks: work that runs after pending I/O has had its turn.
 * The host starts thousands of formulas in slices this way (formulas/slices.ts),
 * and the coin map's waiters wake once the cold start's requests are on the
 * wire (afterWire: map-store.ts).
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

/** Resolves after `n` tasks in turn: pending I/O gets `n` turns first. */
export function afterTasks(n: number): Promise<void> {
  return new Promise((resolve) => {
    const step = (left: number): void => (left <= 0 ? resolve() : nextTask(() => step(left - 1)));
    step(n);
  });
}

/**
 * Tasks a request just handed to fetch() gets to reach the wire before a burst
 * of work holds the thread. In Node a new connection needs its connect event
 * and then its write, each a turn of the event loop: test/client-quotes.test.ts
 * watches the writes of a cold start's pages (after one task most were written
 * 20-40 ms late, after two all were on time; four leave room). A browser's
 * network stack does not wait for the page's thread: there these are task hops.
 */
export const WIRE_TASKS = 4;

/** Resolves once requests just sent have had their WIRE_TASKS turns. */
export function afterWire(): Promise<void> {
  return afterTasks(WIRE_TASKS);
}
