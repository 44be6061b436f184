/**
 * Per-key request rate limit: a sliding window (60 s by default) over the time
 * the server gives it. Every request that reaches the check and is let through
 * counts; a refused request does not take a slot.
 */
export type RateDecision =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfter: number };

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(readonly windowMs = 60_000) {}

  /**
   * Take a slot for `key` at time `now` if fewer than `limit` were taken in the
   * window ending at `now`. When refused, `retryAfter` is the whole seconds
   * (at least 1) until the oldest slot in the window frees.
   */
  take(key: string, limit: number, now: number): RateDecision {
    let list = this.hits.get(key);
    if (!list) this.hits.set(key, (list = []));
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < list.length && list[drop] <= cutoff) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length < limit) {
      list.push(now);
      return { allowed: true, remaining: limit - list.length };
    }
    // Time until the oldest slot leaves the window (the list is kept in arrival
    // order; if the clock went backwards, the earliest entry is still the minimum
    // in practice and the result is clamped to at least 1 s).
    const oldest = list[list.length - limit];
    const waitMs = oldest + this.windowMs - now;
    return { allowed: false, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Slots taken by `key` in the window ending at `now`. */
  count(key: string, now: number): number {
    const list = this.hits.get(key) ?? [];
    return list.filter((t) => t > now - this.windowMs).length;
  }

  reset(key?: string): void {
    if (key === undefined) this.hits.clear();
    else this.hits.delete(key);
  }
}
