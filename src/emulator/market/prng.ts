/**
 * Seeded randomness for the synthetic market. Two tools, never Math.random:
 * - stateless hashes of integer tuples (random access: the value for (seed, coin, day) is
 *   the same whatever else was computed before), used by every time series;
 * - a sequential mulberry32 generator, used once to build the universe.
 */

/** 32-bit avalanche mix (the finaliser of "lowbias32"). */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of up to four integers to an unsigned 32-bit integer. */
export function hash4(a: number, b: number, c: number, d: number): number {
  let h = mix32((a | 0) ^ 0x9e3779b9);
  h = mix32(h ^ Math.imul(b | 0, 0x85ebca6b));
  h = mix32(h ^ Math.imul(c | 0, 0xc2b2ae35));
  h = mix32(h ^ Math.imul(d | 0, 0x27d4eb2f));
  return h;
}

const TWO32 = 4294967296;

/** Uniform in [0, 1) from four integers. */
export function unit4(a: number, b: number, c: number, d: number): number {
  return hash4(a, b, c, d) / TWO32;
}

/** Standard normal from four integers (Box-Muller on two derived hashes). */
export function gauss4(a: number, b: number, c: number, d: number): number {
  const h1 = hash4(a, b, c, d);
  const h2 = mix32(h1 ^ 0x5bd1e995);
  const u1 = (h1 + 1) / (TWO32 + 1);
  const u2 = h2 / TWO32;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Hash of a text, for salts ("fear-greed", a slug). */
export function hashText(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/** Sequential generator (mulberry32) for building the universe. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / TWO32;
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }
  /** Log-uniform in [lo, hi]. */
  logRange(lo: number, hi: number): number {
    return Math.exp(this.range(Math.log(lo), Math.log(hi)));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Pick by weights (same length as items). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i];
      if (r < 0) return items[i];
    }
    return items[items.length - 1];
  }
}
