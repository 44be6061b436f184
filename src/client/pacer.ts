/**
 * Keeps requests under the plan's requests/minute with a sliding window: at
 * most `rpm` sends in any window of WINDOW_MS (60 s plus a small margin for
 * network jitter, so the server's own window, which sees a request slightly
 * later than we sent it, never counts more). Every HTTP request takes a slot,
 * /v3/status and retries included; /v3/status goes first. A 429 holds the whole pacer until its
 * Retry-After, at most MAX_HOLD_MS. Waiters are served in order; an aborted waiter leaves the queue
 * at once with ABORTED. A clock set back takes the send times and the hold back with it (#clock).
 */
import { abortedError } from './api-error';
import { onAbort } from './cancellation';
import type { Sleep } from './clock';

export const WINDOW_MS = 60_000;
/**
 * The longest a 429 holds every request: one rate window. The service's limits
 * are per minute (PLAN_LIMITS), so a minute always frees a slot; a longer
 * Retry-After (a server's 999999 s, an HTTP date in 2100) would stop the
 * add-in for the session, since every formula's deadline (45 s) ends first and
 * no recalculation could send again. It also keeps every timer far below
 * setTimeout's 2^31-1 ms limit, past which Node fires at once.
 */
export const MAX_HOLD_MS = WINDOW_MS;

interface Waiter {
  /** With the send time the slot was taken at (refund() gives it back). */
  resolve: (sentAt: number) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  /** Stops listening to the signal once the slot is granted. */
  stopWatching?: () => void;
  /** Aborted while queued: left in the queue and skipped when it comes up. */
  gone?: boolean;
}

export interface PacerOptions {
  rpm: number;
  now: () => number;
  sleep: Sleep;
  /** Added to the 60 s window; default 1 s. */
  marginMs?: number;
  /** The longest hold a 429 may ask for; default MAX_HOLD_MS. */
  maxHoldMs?: number;
}

export class Pacer {
  #rpm: number;
  /** Read through #clock(). */
  readonly #now: () => number;
  readonly #sleep: Sleep;
  readonly #windowMs: number;
  readonly #maxHoldMs: number;
  /** Send times within the window, oldest first. */
  readonly #sent: number[] = [];
  readonly #queue: Waiter[] = [];
  /** Waiters in the queue that aborted (skipped, not spliced out: aborting n of them costs O(n), not O(n²)). */
  #gone = 0;
  #holdUntil = 0;
  /** Slots handed to the next `first` waiter (passToFirst). */
  #reserved = 0;
  #pumping = false;
  #wake: AbortController | null = null;
  /** The latest clock reading (#clock). */
  #seen = -Infinity;

  constructor(o: PacerOptions) {
    this.#rpm = Math.max(1, Math.floor(o.rpm));
    this.#now = o.now;
    this.#sleep = o.sleep;
    this.#windowMs = WINDOW_MS + (o.marginMs ?? 1_000);
    this.#maxHoldMs = o.maxHoldMs ?? MAX_HOLD_MS;
  }

  get rpm(): number {
    return this.#rpm;
  }

  setRpm(rpm: number): void {
    if (!Number.isFinite(rpm) || rpm < 1) return;
    this.#rpm = Math.floor(rpm);
    this.#wake?.abort();
  }

  /** Hold every request until `at` (client clock), e.g. after a 429 with Retry-After; never longer than the cap from now. */
  holdUntil(at: number): void {
    const capped = Math.min(at, this.#clock() + this.#maxHoldMs);
    if (capped > this.#holdUntil) this.#holdUntil = capped;
  }

  /** Drop any hold (a new key, new settings, Refresh all data: the 429 was about the old state, or the user asked). */
  clearHold(): void {
    this.#holdUntil = 0;
    this.#wake?.abort();
  }

  /**
   * Give back the slot taken at `sentAt`: an attempt that failed at once while
   * the plan is unknown (retry.ts) did not use the service's window the way the
   * lowest plan's pacing assumes, and spending slots on it starved the cold
   * start (docs/reliability.md).
   */
  refund(sentAt: number): void {
    const i = this.#sent.lastIndexOf(sentAt);
    if (i < 0) return;
    this.#sent.splice(i, 1);
    this.#wake?.abort();
  }

  /**
   * A granted slot handed to the next request that goes first (/v3/status
   * being asked again): it is still counted in the window, and that request
   * takes it without waiting, ahead of everyone queued.
   */
  passToFirst(): void {
    this.#reserved++;
  }

  /** Requests waiting for a slot. */
  get waiting(): number {
    return this.#queue.length - this.#gone;
  }

  /** Send times in the current window (for diagnostics and tests). */
  recentSends(): number[] {
    this.#prune(this.#clock());
    return [...this.#sent];
  }

  /**
   * Wait for a slot and take it. `first`: go ahead of the queue (/v3/status,
   * whose answer sets the rate everyone else waits under).
   */
  acquire(signal?: AbortSignal, first = false): Promise<number> {
    if (signal?.aborted) return Promise.reject(abortedError());
    if (first && this.#reserved > 0 && this.#holdUntil <= this.#clock()) {
      this.#reserved--;
      return Promise.resolve(this.#clock());
    }
    return new Promise<number>((resolve, reject) => {
      const w: Waiter = { resolve, reject, signal };
      if (signal) {
        w.stopWatching = onAbort(signal, () => {
          w.gone = true;
          this.#gone++;
          if (this.waiting === 0) this.#wake?.abort(); // nobody left waiting: stop the pump's sleep
          reject(abortedError());
        });
      }
      if (first) this.#queue.unshift(w);
      else this.#queue.push(w);
      void this.#pump();
    });
  }

  /** How long the next request must wait, 0 when a slot is free now. */
  delayMs(): number {
    const now = this.#clock();
    this.#prune(now);
    let wait = Math.max(0, this.#holdUntil - now);
    if (this.#sent.length >= this.#rpm) {
      const oldestThatMustLeave = this.#sent[this.#sent.length - this.#rpm];
      wait = Math.max(wait, oldestThatMustLeave + this.#windowMs - now);
    }
    return wait;
  }

  /**
   * The client clock, with the send times and the hold moved back as far as it went back: they are
   * wall-clock times, and a clock set back an hour made every request wait the hour (review
   * 2026-11-27). Each wait stays what it was at the last reading, so never longer than the window or
   * the hold as given; a slot moved so is no longer found by refund() (kept: the safe side).
   */
  #clock(): number {
    const now = this.#now();
    const back = this.#seen - now;
    if (back > 0) {
      for (let i = 0; i < this.#sent.length; i++) this.#sent[i] -= back;
      this.#holdUntil -= back;
    }
    this.#seen = now;
    return now;
  }

  #prune(now: number): void {
    while (this.#sent.length > 0 && this.#sent[0] <= now - this.#windowMs) this.#sent.shift();
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (;;) {
        // Aborted waiters at the head are dropped as they come up.
        while (this.#queue.length > 0 && this.#queue[0].gone) {
          this.#queue.shift();
          this.#gone--;
        }
        if (this.#queue.length === 0) break;
        const wait = this.delayMs();
        if (wait > 0) {
          this.#wake = new AbortController();
          try {
            await this.#sleep(wait, this.#wake.signal);
          } catch {
            // woken early (rpm changed): re-evaluate
          }
          this.#wake = null;
          continue;
        }
        const w = this.#queue.shift()!;
        w.stopWatching?.();
        const at = this.#clock();
        this.#sent.push(at);
        w.resolve(at);
      }
    } finally {
      this.#pumping = false;
    }
  }
}
