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
