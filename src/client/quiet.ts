/**
 * When a batch goes out: once no one has asked for `quietMs` (a recalculation's
 * calls arrive in bursts, and waiting out a whole window after the last one is
 * pure delay), and nothing else that may add to it is still under way; at the
 * latest `maxMs` after the first, so a steady stream does not hold it back.
 * The quote batcher's and the list of currencies' batches go out this way.
 */

/** How long no one has asked before a batch goes out (ms): longer than the gaps inside one recalculation's burst. */
export const QUIET_MS = 3;
export function whenQuiet(send: () => void, o: { asked(): number; busy?(): boolean; quietMs: number; maxMs: number }): void {
  const start = performance.now();
  let seen = o.asked();
  const check = () => {
    const quiet = o.asked() === seen && !o.busy?.();
    if (quiet || performance.now() - start > o.maxMs) send();
    else {
      seen = o.asked();
      setTimeout(check, o.quietMs);
    }
  };
  setTimeout(check, o.quietMs);
}
