/**
 * The pure analytics (src/analytics): worked examples by hand, and properties
 * that hold on any generated price series (fast-check).
 *
 *   node --import tsx --test test/analytics.test.ts
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import * as A from '../src/analytics';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
const bars = (closes: number[], start = T0, gapsAt: number[] = []): A.DailyBar[] => {
  const out: A.DailyBar[] = [];
  let day = 0;
  closes.forEach((close, i) => {
    if (gapsAt.includes(i)) day++; // a missing day before this close
    out.push({ time: start + day * DAY, close, avg: close, volume: 1000 + i });
    day++;
  });
  return out;
};
const close = (a: number | null, b: number, rel = 1e-9) => {
  assert.ok(a !== null, `expected ${b}, got null`);
  assert.ok(Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b)), `${a} ≉ ${b}`);
};

describe('worked examples', () => {
  const s = bars([100, 110, 99, 121]);
  test('return, cagr, max drawdown', () => {
    close(A.totalReturn(s), 0.21);
    assert.equal(A.cagr(s), null, '3 days: not annualized');
    close(A.maxDrawdown(s), 99 / 110 - 1);
    assert.equal(A.maxDrawdown(bars([1, 2, 3])), 0, 'never below a peak: 0');
  });
  test('volatility: sample stdev of daily log returns × √365', () => {
    const r = [Math.log(1.1), Math.log(0.9), Math.log(121 / 99)];
    const m = (r[0] + r[1] + r[2]) / 3;
    const sd = Math.sqrt(r.reduce((a, x) => a + (x - m) ** 2, 0) / 2);
    close(A.volatility(s), sd * Math.sqrt(365));
  });
  test('sharpe: 365 × mean simple daily return above the daily risk-free rate, over volatility', () => {
    const R = [0.1, -0.1, 121 / 99 - 1];
    const vol = A.volatility(s)!;
    close(A.sharpe(s), (365 * (R[0] + R[1] + R[2])) / 3 / vol);
    const rfd = 1.05 ** (1 / 365) - 1;
    close(A.sharpe(s, 0.05), (365 * ((R[0] + R[1] + R[2]) / 3 - rfd)) / vol);
  });
  test('cagr annualizes a year or more, and nothing shorter (GIPS: no annualized return under a year)', () => {
    // 365 closes after the first: 365 days, the exponent is 1, cagr is the return.
    const year = bars(Array.from({ length: 366 }, (_, i) => 100 + i));
    assert.equal(A.spanDays(year), 365);
    close(A.cagr(year), 465 / 100 - 1);
    // Two years: the yearly rate compounds to the return.
    const two = bars(Array.from({ length: 731 }, (_, i) => 100 * 1.001 ** i));
    close((1 + A.cagr(two)!) ** 2, 1 + A.totalReturn(two)!);
    // A day short of a year, or two days (the review's 11,802 %): null, not annualized.
    const short = year.slice(0, 365);
    assert.equal(A.spanDays(short), 364);
    assert.equal(A.cagr(short), null);
    assert.equal(A.cagr(bars([100, 101, 102.6])), null);
    assert.equal(A.MIN_CAGR_DAYS, 365);
  });
  test('a period is measured from the open of its first day: that day\'s move counts (as CRYPTO.RETURNS)', () => {
    // Open 90 on day 1, closes 100, 110, 99, 121.
    const candles = bars([100, 110, 99, 121]).map((b, i) => (i === 0 ? { ...b, open: 90 } : { ...b, open: 1e9 }));
    const p = A.periodBars(candles);
    assert.deepEqual(p.map((b) => b.close), [90, 100, 110, 99, 121], 'the first open, then the closes; later opens unused');
    assert.equal(p[0].time, T0 - DAY, 'the open stands a day before the first close');
    close(A.totalReturn(p), 121 / 90 - 1);
    assert.equal(A.spanDays(p), 4, 'four days covered');
    assert.deepEqual(A.dailyReturns(p, 'simple').values.length, 4, 'the first day\'s return counted');
    close(A.dailyReturns(p, 'log').values[0], Math.log(100 / 90));
    close(A.maxDrawdown(p), 99 / 110 - 1);
    assert.equal(A.vwap(p), A.vwap(candles), 'the open carries no volume');
    // No usable open: the first close stays the base.
    assert.deepEqual(A.periodBars(bars([100, 110])).map((b) => b.close), [100, 110]);
    assert.deepEqual(A.periodBars(bars([100, 110]).map((b) => ({ ...b, open: 0 }))).map((b) => b.close), [100, 110]);
  });
  test('a missing day gives no return across it', () => {
    const g = A.dailyReturns(bars([100, 110, 121], T0, [2]), 'log');
    assert.deepEqual(g.values, [Math.log(1.1)]);
  });
  test('beta and correlation on the days both have; a doubled move is beta 2, correlation 1', () => {
    const x = A.dailyReturns(bars([100, 110, 99, 121, 100]));
    const y = A.dailyReturns(bars([50, 60.5, 49.005, 72.60, 49.5]));
    const b = A.beta(y, x)!;
    assert.ok(b > 1.5, `beta ${b}`);
    // Exactly twice the log returns: beta 2, correlation 1.
    const twice: A.DailyReturns = { days: x.days, values: x.values.map((v) => 2 * v) };
    close(A.beta(twice, x), 2);
    close(A.correlation(twice, x), 1);
    const shifted: A.DailyReturns = { days: x.days.map((d) => d + 2), values: x.values };
    assert.equal(A.aligned(x, shifted)[0].length, 2, 'two days in common');
  });
  test('vwap: Σ(avg × volume) / Σ volume', () => {
    const v = [{ time: T0, close: 1, avg: 10, volume: 1 }, { time: T0 + DAY, close: 1, avg: 20, volume: 3 }];
    close(A.vwap(v), (10 + 60) / 4);
    assert.equal(A.vwap([{ time: T0, close: 1, avg: 10, volume: 0 }]), null);
  });
  test('undefined is null, never 0 or NaN: one close, a flat price, a flat benchmark', () => {
    const one = bars([5]);
    assert.equal(A.totalReturn(one), null);
    assert.equal(A.spanDays(one), 0);
    assert.equal(A.cagr(one), null);
    assert.equal(A.volatility(one), null);
    const flat = bars([5, 5, 5, 5]);
    assert.equal(A.volatility(flat), 0);
    assert.equal(A.sharpe(flat), null);
    const fr = A.dailyReturns(flat);
    assert.equal(A.beta(A.dailyReturns(s), fr), null);
    assert.equal(A.correlation(fr, A.dailyReturns(s)), null);
    assert.deepEqual(A.correlationMatrix([fr]), [[null]]);
  });
});

// ---------------------------------------------------------------- properties

/** A daily series: a start price, log steps, and some missing days. */
const series = fc
  .record({
    start: fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
    steps: fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), { minLength: 3, maxLength: 120 }),
    offset: fc.integer({ min: 0, max: 10 }),
    gaps: fc.array(fc.integer({ min: 1, max: 119 }), { maxLength: 5 }),
  })
  .map(({ start, steps, offset, gaps }) => {
    const closes = [start];
    for (const s of steps) closes.push(closes[closes.length - 1] * Math.exp(s));
    return bars(closes, T0 + offset * DAY, gaps);
  });
/** A series whose price moves on at least two days (so variances are not zero). */
const moving = series.filter((b) => {
  const r = A.dailyReturns(b).values;
  return r.length >= 3 && (A.variance(r) ?? 0) > 1e-12;
});
const RUNS = { numRuns: 300, seed: Number(process.env.FC_SEED ?? 24) };
const near = (a: number | null, b: number | null, rel = 1e-9) =>
  a === null || b === null ? a === b : Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));

describe('properties on generated series', () => {
  test("a coin's correlation with itself is 1 and its beta against itself is 1", () => {
    fc.assert(fc.property(moving, (b) => {
      const r = A.dailyReturns(b);
      return near(A.correlation(r, r), 1, 1e-12) && near(A.beta(r, r), 1, 1e-12);
    }), RUNS);
  });
  test('the correlation matrix is symmetric, in [-1, 1], 1 on the diagonal', () => {
    fc.assert(fc.property(fc.array(moving, { minLength: 1, maxLength: 6 }), (list) => {
      const m = A.correlationMatrix(list.map((b) => A.dailyReturns(b)));
      return m.every((row, i) => row.every((x, j) => x === m[j][i] && (x === null || (x >= -1 && x <= 1)) && (i !== j || x === 1)));
    }), RUNS);
  });
  test('maxDrawdown is in [-1, 0]', () => {
    fc.assert(fc.property(series, (b) => {
      const d = A.maxDrawdown(b)!;
      return d >= -1 && d <= 0;
    }), RUNS);
  });
  test('volatility (and every fraction, beta and correlation) is unchanged when all prices are scaled; vwap scales', () => {
    fc.assert(fc.property(moving, moving, fc.double({ min: 1e-4, max: 1e4, noNaN: true }), (b, bench, k) => {
      const scaled = b.map((x) => ({ ...x, close: x.close * k, avg: x.avg! * k }));
      const [r, rs, rb] = [A.dailyReturns(b), A.dailyReturns(scaled), A.dailyReturns(bench)];
      return near(A.volatility(scaled), A.volatility(b), 1e-7)
        && near(A.totalReturn(scaled), A.totalReturn(b), 1e-9)
        && near(A.maxDrawdown(scaled), A.maxDrawdown(b), 1e-9)
        && near(A.sharpe(scaled), A.sharpe(b), 1e-6)
        && near(A.beta(rs, rb), A.beta(r, rb), 1e-6)
        && near(A.correlation(rs, rb), A.correlation(r, rb), 1e-6)
        && near(A.vwap(scaled), k * A.vwap(b)!, 1e-9);
    }), RUNS);
  });
  test('beta = correlation × sd(coin) / sd(benchmark) on the shared days', () => {
    fc.assert(fc.property(moving, moving, (a, b) => {
      const [x, y] = A.aligned(A.dailyReturns(a), A.dailyReturns(b));
      const vx = A.variance(x), vy = A.variance(y);
      if (vx === null || vy === null || vx < 1e-12 || vy < 1e-12) return true;
      const beta = A.beta(A.dailyReturns(a), A.dailyReturns(b))!;
      const corr = A.correlation(A.dailyReturns(a), A.dailyReturns(b))!;
      return near(beta, corr * Math.sqrt(vx / vy), 1e-6);
    }), RUNS);
  });
});
