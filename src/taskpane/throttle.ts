/**
 * Trailing-edge throttle: `fn` runs at most once per `intervalMs`, and always
 * once after the last call (so the final state is shown). Timers are injectable.
 */
export interface Throttled {
  (): void;
  cancel(): void;
}

export function throttle(
  fn: () => void,
  intervalMs: number,
  timers: { now(): number; setTimeout(cb: () => void, ms: number): unknown; clearTimeout(h: unknown): void } = {
    now: () => Date.now(),
    setTimeout: (cb, ms) => setTimeout(cb, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  },
): Throttled {
  let last = Number.NEGATIVE_INFINITY;
  let pending: unknown = null;
  const run = () => {
    pending = null;
    last = timers.now();
    fn();
  };
  const t = (() => {
    if (pending !== null) return;
    const wait = last + intervalMs - timers.now();
    pending = timers.setTimeout(run, Math.max(0, wait));
  }) as Throttled;
  t.cancel = () => {
    if (pending !== null) timers.clearTimeout(pending);
    pending = null;
  };
  return t;
}
