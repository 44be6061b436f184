/** Time as the client sees it: injectable for tests (a controlled clock that sleeps by advancing). */
import { abortedError } from './api-error';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout-based sleep that rejects with ApiError ABORTED when the signal aborts. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(t);
      reject(abortedError());
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Settle with `p`, or reject ABORTED as soon as `signal` aborts (p keeps running
 * for others; `onAbort` is told, e.g. to cancel work nobody else waits for).
 */
export function abortable<T>(p: Promise<T>, signal?: AbortSignal, onAbort?: () => void): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise<T>((resolve, reject) => {
    const aborted = () => {
      reject(abortedError());
      onAbort?.();
    };
    signal.addEventListener('abort', aborted, { once: true });
    p.then(
      (x) => {
        signal.removeEventListener('abort', aborted);
        resolve(x);
      },
      (e) => {
        signal.removeEventListener('abort', aborted);
        reject(e);
      },
    );
  });
}
