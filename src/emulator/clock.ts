/**
 * The emulator's clock: what handlers, envelopes and credit days read, moved
 * by tests (advance, set), and the time the rate-limit window runs on.
 */
import { parseNow, type EmulatorOptions } from './options';

export interface EmulatorClock {
  /** The emulator's time, epoch ms: what handlers, envelopes and credit days use. */
  now(): number;
  /** Move the clock (and the rate-limit window) forward by `ms`. */
  advance(ms: number): void;
  /** Set the emulator's time. */
  set(ms: number): void;
  /** True when the clock is frozen (`now` option without a `clock` function). */
  readonly fixed: boolean;
}

/** The clock startEmulator's options ask for, and the one its rate limiter reads. */
export function emulatorClock(opts: Pick<EmulatorOptions, 'now' | 'clock'>): { clock: EmulatorClock; rateNow: () => number } {
  // Clock: the emulator's time, and the time the rate-limit window runs on. With a
  // frozen clock (`now` without `clock`) the window runs on real elapsed time, so
  // the CLI with --now still lets a client recover from a 429.
  const base: () => number = opts.clock ?? (opts.now !== undefined ? constant(parseNow(opts.now)) : Date.now);
  const fixed = opts.clock === undefined && opts.now !== undefined;
  let offset = 0;
  let advanced = 0;
  const clock: EmulatorClock = {
    now: () => base() + offset,
    advance(ms: number) {
      offset += ms;
      advanced += ms;
    },
    set(ms: number) {
      offset = ms - base();
    },
    fixed,
  };
  const rateNow = fixed ? () => Date.now() + advanced : clock.now;
  return { clock, rateNow };
}

function constant(ms: number): () => number {
  return () => ms;
}
