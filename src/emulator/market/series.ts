/**
 * The price model: ONE daily series per coin from which every endpoint derives.
 *
 * - ln close(d) = ln anchorPrice + trend(d) + beta * (M(d) - M(A)) + idio * (I(d) - I(A)) + vol * noise(d),
 *   where M is the common market factor and I the coin's own slow noise (value noise), A the anchor
 *   day. Every term is a pure function of (seed, coin, day): a past day's value never depends on `now`.
 * - Each day has an hourly path P(d, 0..24): P(d, 0) = close(d-1) (the day's open), P(d, 24) = close(d),
 *   a Brownian bridge in between. Hourly candle h runs from P(d, h) to P(d, h+1); the day's high/low
 *   are the max/min of its hours; the day's volume is the sum of its hourly volume increments.
 * - Circulating supply is a function of the day (emission curve, stablecoin float, or vesting schedule).
 *
 * The current price at instant t (hour H = d*24 + h) is P(d, h+1): constant within an hour, so that the
 * candle containing `now` is the incomplete one and its close is the current price.
 */
import { ANCHOR_DAY } from './calendar';
import { fractalNoise, type Octave } from './noise';
import { gauss4, unit4 } from './prng';
import type { Coin, Universe } from './universe';
import { vestingCirculating } from './vesting';

const MARKET_OCTAVES: readonly Octave[] = [
  { period: 1400, amp: 1.0 }, { period: 400, amp: 0.5 }, { period: 120, amp: 0.3 }, { period: 30, amp: 0.15 }, { period: 8, amp: 0.06 },
];
const IDIO_OCTAVES: readonly Octave[] = [
  { period: 700, amp: 1 }, { period: 180, amp: 0.6 }, { period: 45, amp: 0.35 }, { period: 10, amp: 0.2 },
];
const MARKET_KEY = 0x4d4b54;
/** Days covered by the precomputed market factor (2015-2039); outside it is computed on the fly. */
const FACTOR_DAYS = 9200;
const SQRT24 = Math.sqrt(24);

/** Price at hour boundary h of a day's Brownian bridge from ln open lo0 to ln close lc. */
function bridge(lo0: number, lc: number, sig: number, wh: number, w24: number, h: number): number {
  return Math.exp(lo0 + (h / 24) * (lc - lo0) + sig * (wh - (h / 24) * w24));
}

/**
 * A day's hourly path in one array (one allocation): [P0 .. P24] prices at hour boundaries
 * (P0 = open, P24 = close), then 24 hourly highs (HI + h), 24 lows (LO + h) and 24 hourly
 * volume increments in USD (VOL + h; they sum to the day's volume).
 */
export type DayPath = Float64Array;
export const HI = 25;
export const LO = 49;
export const VOL = 73;
const PATH_LEN = 97;
const scratch = new Float64Array(25);

/** One candle's numbers. */
export interface Bar {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  s: number;
}

interface DailyArrays {
  start: number;
  /** Complete days stored: start .. start + filled - 1. */
  filled: number;
  o: Float64Array;
  h: Float64Array;
  l: Float64Array;
  c: Float64Array;
  v: Float64Array;
}

export class PriceSeries {
  private readonly seed: number;
  private readonly factor: Float64Array;
  private readonly factorAtAnchor: number;
  private readonly idioAtAnchor: Float64Array;
  private readonly paths = new Map<number, DayPath>();
  private readonly daily = new Map<number, DailyArrays>();
  static readonly PATH_CACHE = 12_000;
  static readonly DAILY_CACHE = 48;

  constructor(universe: Universe) {
    this.seed = universe.seed;
    this.factor = new Float64Array(FACTOR_DAYS);
    for (let d = 0; d < FACTOR_DAYS; d++) this.factor[d] = fractalNoise(this.seed, MARKET_KEY, MARKET_OCTAVES, d);
    this.factorAtAnchor = this.factor[ANCHOR_DAY];
    this.idioAtAnchor = new Float64Array(universe.coins.length).fill(NaN);
  }

  /** The common market factor on day d. */
  market(d: number): number {
    return d >= 0 && d < FACTOR_DAYS ? this.factor[d] : fractalNoise(this.seed, MARKET_KEY, MARKET_OCTAVES, d);
  }

  /** Market factor relative to the anchor day. */
  marketMove(d: number): number {
    return this.market(d) - this.factorAtAnchor;
  }

  private idio(c: Coin, d: number): number {
    return fractalNoise(this.seed, c.id, IDIO_OCTAVES, d);
  }

  logClose(c: Coin, d: number): number {
    const m = c.price!;
    if (m.stable) return Math.log(1 + 0.001 * gauss4(this.seed, c.id, 7, d));
    let ia = this.idioAtAnchor[c.index];
    if (Number.isNaN(ia)) ia = this.idioAtAnchor[c.index] = this.idio(c, ANCHOR_DAY);
    const y = (d - ANCHOR_DAY) / 365.25;
    const trend = y < 0 ? m.trendPre * y : m.trendPost * y;
    return m.logAnchor + trend + m.beta * this.marketMove(d) + m.idio * (this.idio(c, d) - ia) + 0.7 * m.vol * gauss4(this.seed, c.id, 8, d);
  }

  /** Close of day d (also the open of day d + 1). */
  close(c: Coin, d: number): number {
    return Math.exp(this.logClose(c, d));
  }

  /** Circulating supply on day d. */
  circ(c: Coin, d: number): number {
    const s = c.supply!;
    switch (s.kind) {
      case 'vesting':
        return vestingCirculating(s.plan, d);
      case 'stable': {
        const y = (d - ANCHOR_DAY) / 365.25;
        return s.anchor * Math.exp(0.8 * this.marketMove(d) + (y < 0 ? s.trendPre * y : s.trendPost * y));
      }
      case 'emission': {
        if (s.max === null) return s.anchor * Math.max(0.1, 1 + (s.inflation * (d - ANCHOR_DAY)) / 365.25);
        return s.max * (1 - s.k * Math.exp(-(d - c.startDay!) / s.tau));
      }
    }
  }

  /** Total supply on day d (issued minus burned). */
  totalSupply(c: Coin, d: number): number {
    const s = c.supply!;
    switch (s.kind) {
      case 'vesting':
        return s.plan.total;
      case 'stable':
        return this.circ(c, d);
      case 'emission': {
        const t = this.circ(c, d) * (1 + s.held);
        return s.max === null ? t : Math.min(s.max, t);
      }
    }
  }

  maxSupply(c: Coin): number | null {
    const s = c.supply;
    if (!s) return null;
    if (s.kind === 'vesting') return s.plan.total;
    if (s.kind === 'emission') return s.max;
    return null;
  }

  /** Target 24h volume of day d (USD), before the hourly split. */
  private volumeTarget(c: Coin, d: number): number {
    const circ = Math.max(1, this.circ(c, d));
    return c.price!.volRatio * circ * this.close(c, d) * Math.exp(0.3 * gauss4(this.seed, c.id, 9, d));
  }

  /** The day's hourly path (cached, bounded). */
  dayPath(c: Coin, d: number): DayPath {
    const key = c.index * 65536 + d;
    const hit = this.paths.get(key);
    if (hit) return hit;
    const lo0 = this.logClose(c, d - 1);
    const lc = this.logClose(c, d);
    const sig = this.hourSigma(c);
    const w = scratch;
    w[0] = 0;
    for (let h = 1; h <= 24; h++) w[h] = w[h - 1] + gauss4(this.seed, c.id, 11, d * 32 + h);
    const path = new Float64Array(PATH_LEN);
    path[0] = Math.exp(lo0);
    path[24] = Math.exp(lc);
    for (let h = 1; h < 24; h++) path[h] = bridge(lo0, lc, sig, w[h], w[24], h);
    let wsum = 0;
    for (let h = 0; h < 24; h++) {
      path[HI + h] = Math.max(path[h], path[h + 1]) * Math.exp(sig * 0.5 * Math.abs(gauss4(this.seed, c.id, 12, d * 32 + h)));
      path[LO + h] = Math.min(path[h], path[h + 1]) * Math.exp(-sig * 0.5 * Math.abs(gauss4(this.seed, c.id, 13, d * 32 + h)));
      const x = 0.5 + unit4(this.seed, c.id, 14, d * 32 + h);
      path[VOL + h] = x;
      wsum += x;
    }
    const target = this.volumeTarget(c, d);
    for (let h = 0; h < 24; h++) path[VOL + h] = (target * path[VOL + h]) / wsum;
    if (this.paths.size >= PriceSeries.PATH_CACHE) this.paths.delete(this.paths.keys().next().value!);
    this.paths.set(key, path);
    return path;
  }

  /** Candle of day d using hours 0..lastHour (23 = the complete day). */
  dayBar(c: Coin, d: number, lastHour = 23): Bar {
    if (lastHour === 23) {
      const a = this.dailyArrays(c, d);
      if (a) {
        const i = d - a.start;
        return { o: a.o[i], h: a.h[i], l: a.l[i], c: a.c[i], v: a.v[i], s: this.circ(c, d) };
      }
    }
    return this.barFromPath(c, d, lastHour);
  }

  private barFromPath(c: Coin, d: number, lastHour: number): Bar {
    const path = this.dayPath(c, d);
    let h = -Infinity;
    let l = Infinity;
    let v = 0;
    for (let i = 0; i <= lastHour; i++) {
      if (path[HI + i] > h) h = path[HI + i];
      if (path[LO + i] < l) l = path[LO + i];
      v += path[VOL + i];
    }
    return { o: path[0], h, l, c: path[lastHour + 1], v, s: this.circ(c, d) };
  }

  /** Complete daily candles start..d stored in typed arrays (cached per coin, bounded). */
  private dailyArrays(c: Coin, d: number): DailyArrays | null {
    const start = c.startDay;
    if (start === null || d < start) return null;
    let a = this.daily.get(c.index);
    if (a) {
      this.daily.delete(c.index);
      this.daily.set(c.index, a);
    }
    if (!a || d - start >= a.o.length) {
      const cap = Math.max(d - start + 1 + 400, a ? a.o.length * 2 : 0);
      const grown: DailyArrays = {
        start, filled: a ? a.filled : 0,
        o: new Float64Array(cap), h: new Float64Array(cap), l: new Float64Array(cap), c: new Float64Array(cap), v: new Float64Array(cap),
      };
      if (a) {
        grown.o.set(a.o); grown.h.set(a.h); grown.l.set(a.l); grown.c.set(a.c); grown.v.set(a.v);
      }
      a = grown;
      if (this.daily.size >= PriceSeries.DAILY_CACHE) this.daily.delete(this.daily.keys().next().value!);
      this.daily.set(c.index, a);
    }
    while (a.filled <= d - start) {
      const day = start + a.filled;
      const b = this.barFromPathUncached(c, day);
      const i = a.filled;
      a.o[i] = b.o; a.h[i] = b.h; a.l[i] = b.l; a.c[i] = b.c; a.v[i] = b.v;
      a.filled++;
    }
    return a;
  }

  /** Same as barFromPath for a complete day, without filling the path cache (bulk history). */
  private barFromPathUncached(c: Coin, d: number): Bar {
    const key = c.index * 65536 + d;
    const had = this.paths.has(key);
    const b = this.barFromPath(c, d, 23);
    if (!had) this.paths.delete(key);
    return b;
  }

  private hourSigma(c: Coin): number {
    const m = c.price!;
    return (m.stable ? 0.0008 : m.vol * 0.8) / SQRT24;
  }

  /**
   * Price at the end of hour bucket H (hour index from EPOCH): the close of that hourly candle.
   * Same number as dayPath(...)[h + 1], without building (or caching) the whole path.
   */
  priceAtHour(c: Coin, H: number): number {
    const d = Math.floor(H / 24);
    const h = H - d * 24;
    if (h === 23) return this.close(c, d);
    const hit = this.paths.get(c.index * 65536 + d);
    if (hit) return hit[h + 1];
    let w = 0;
    let wh = 0;
    for (let k = 1; k <= 24; k++) {
      w = w + gauss4(this.seed, c.id, 11, d * 32 + k);
      if (k === h + 1) wh = w;
    }
    return bridge(this.logClose(c, d - 1), this.logClose(c, d), this.hourSigma(c), wh, w, h + 1);
  }

  /** Rolling 24h volume at the end of hour bucket H. */
  rollingVolume(c: Coin, H: number): number {
    const d = Math.floor(H / 24);
    const h = H - d * 24;
    const today = this.dayPath(c, d);
    let v = 0;
    for (let i = 0; i <= h; i++) v += today[VOL + i];
    if (h < 23 && d - 1 >= c.startDay!) {
      const y = this.dayPath(c, d - 1);
      for (let i = h + 1; i < 24; i++) v += y[VOL + i];
    }
    return v;
  }
}
