/**
 * Listening to an AbortSignal for many waiters at once. A recalculation's
 * calls share one signal per deadline window (formulas/call-deadline.ts), so a
 * signal can have thousands of waiters; an event listener each would make
 * adding and removing them cost O(waiters) apiece (EventTarget keeps a list
 * and looks for duplicates: the DOM standard's "add an event listener", and
 * Node's lib/internal/event_target.js). Here a signal gets one listener and its
 * waiters a Set, whose add and delete cost O(1).
 */
import { abortedError } from './api-error';

const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/** Call `cb` once when `signal` aborts; the returned function stops watching. Nothing happens for an already aborted signal. */
export function onAbort(signal: AbortSignal, cb: () => void): () => void {
  let set = watchers.get(signal);
  if (!set) {
    const fresh = new Set<() => void>();
    watchers.set(signal, (set = fresh));
    signal.addEventListener(
      'abort',
      () => {
        watchers.delete(signal);
        for (const f of fresh) f();
      },
      { once: true },
    );
  }
  const own = set;
  const once = () => void cb();
  own.add(once);
  return () => void own.delete(once);
}

const aborted = new WeakMap<AbortSignal, Promise<never>>();
const noop = (): void => undefined;

/** One promise per signal that rejects ABORTED when it aborts (its error shared: errors are not changed once made). */
function abortOf(signal: AbortSignal): Promise<never> {
  let p = aborted.get(signal);
  if (!p) {
    p = new Promise<never>((_, reject) => void onAbort(signal, () => reject(abortedError())));
    p.catch(noop);
    aborted.set(signal, p);
  }
  return p;
}

/**
 * Settle with `p`, or reject ABORTED as soon as `signal` aborts (p keeps running
 * for others; `whenAborted` is told, e.g. to cancel work nobody else waits for).
 * Without `whenAborted`, a race with the signal's one abort promise: thousands
 * of cells waiting on one signal cost a promise each, not a listener and three
 * closures each.
 */
export function abortable<T>(p: Promise<T>, signal?: AbortSignal, whenAborted?: () => void): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    p.catch(noop); // nobody waits for it: its failure is not an unhandled one
    return Promise.reject(abortedError());
  }
  if (!whenAborted) return Promise.race([p, abortOf(signal)]);
  return new Promise<T>((resolve, reject) => {
    const stop = onAbort(signal, () => {
      reject(abortedError());
      whenAborted?.();
    });
    p.then(
      (x) => {
        stop();
        resolve(x);
      },
      (e: unknown) => {
        stop();
        reject(e);
      },
    );
  });
}
