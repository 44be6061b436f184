/** Time as the client sees it: injectable for tests (a controlled clock that sleeps by advancing). */
import { abortedError } from './api-error';
import { onAbort } from './cancellation';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout-based sleep that rejects with ApiError ABORTED when the signal aborts. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const t = setTimeout(() => {
      stop?.();
      resolve();
    }, Math.max(0, ms));
    const stop = signal
      ? onAbort(signal, () => {
          clearTimeout(t);
          reject(abortedError());
        })
      : undefined;
  });

/**
 * Whether something noted at `at` is still within `ms` of `now`. A time ahead of now (the clock
 * moved back: an NTP step, a user's change) counts as past it: what was held is asked again, not
 * kept as fresh for as long as the clock takes to catch up (review-r2 #7). One rule for every age
 * the client keeps: cached answers and quotes, a bad answer's span, refusals, a failed status read.
 */
export const within = (now: number, at: number, ms: number): boolean => now >= at && now - at < ms;
