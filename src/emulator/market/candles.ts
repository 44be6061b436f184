/**
 * Candles built from the daily series: daily/weekly/monthly (and quarterly/yearly for
 * returns) aggregate the daily candles exactly; hourly candles are the day paths' hours;
 * the sparkline samples the hourly closes (see sparkline()).
 *
 * Rules: candles are oldest first; the first is the one whose period contains `from`
 * (or the coin's first period when `from` is earlier); the last is the one containing
 * min(`to`, now), which, when it contains now, is the incomplete current candle (its close
 * is the current price). `time` is the period start (weeks start Monday 00:00 UTC, months
 * on the 1st) even when the coin's first day is later in the period. volumeChangePercent and
 * circulatingSupplyChangePercent compare with the previous candle IN TIME (computed even when
 * it is not returned); null for the coin's very first candle.
 */
import type { Candle, SparklinePoint } from '../../api/records';
import { dayIndex, dayStart, hourIndex, hourStart, nextPeriodStart, periodStart, prevPeriodStart, type Period } from './calendar';
import { price as fmtPrice, round4, tokens, usd } from './decimal';
import { HI, LO, type Bar, type PriceSeries } from './series';
import type { Snapshot } from './snapshot';
import type { Coin } from './universe';

/** Aggregate the days of the period starting at `ps` (clipped to the coin's series and today). */
export function periodBar(series: PriceSeries, c: Coin, ps: number, period: Period, snap: Snapshot): Bar | null {
  const first = Math.max(dayIndex(ps), c.startDay!);
  const last = Math.min(dayIndex(nextPeriodStart(ps, period)) - 1, snap.today);
  if (first > last) return null;
  let out: Bar | null = null;
  for (let d = first; d <= last; d++) {
    const b = series.dayBar(c, d, d === snap.today ? snap.hour : 23);
    if (!out) out = { ...b };
    else {
      if (b.h > out.h) out.h = b.h;
      if (b.l < out.l) out.l = b.l;
      out.c = b.c;
      out.v += b.v;
      out.s = b.s;
    }
  }
  return out;
}

const change = (prev: number | null | undefined, cur: number): number | null =>
  prev === null || prev === undefined || prev === 0 ? null : round4((cur / prev - 1) * 100);

export function formatCandle(time: number, b: Bar, prev: Bar | null): Candle {
  return {
    time,
    open: fmtPrice(b.o),
    high: fmtPrice(b.h),
    low: fmtPrice(b.l),
    close: fmtPrice(b.c),
    avg: fmtPrice((b.o + b.h + b.l + b.c) / 4),
    volume: usd(b.v),
    circulatingSupply: tokens(b.s),
    priceChangePercent: change(b.o, b.c),
    volumeChangePercent: change(prev?.v, b.v),
    circulatingSupplyChangePercent: change(prev?.s, b.s),
  };
}

export interface TimedBar {
  time: number;
  bar: Bar;
}

/** Period bars from the one containing `from` to the one containing `to` (already clamped to now), at most `limit`. */
export function periodBars(series: PriceSeries, c: Coin, period: Period, from: number, to: number, limit: number, snap: Snapshot): { bars: TimedBar[]; prev: Bar | null } {
  if (c.startDay === null || c.startDay > snap.today) return { bars: [], prev: null };
  const seriesStart = dayStart(c.startDay);
  let ps = periodStart(Math.max(from, seriesStart), period);
  const prevStart = prevPeriodStart(ps, period);
  const prev = nextPeriodStart(prevStart, period) > seriesStart ? periodBar(series, c, prevStart, period, snap) : null;
  const bars: TimedBar[] = [];
  while (ps <= to && bars.length < limit) {
    const bar = periodBar(series, c, ps, period, snap);
    if (bar) bars.push({ time: ps, bar });
    ps = nextPeriodStart(ps, period);
  }
  return { bars, prev };
}

export function candleList(series: PriceSeries, c: Coin, period: Period, from: number, to: number, limit: number, snap: Snapshot): Candle[] {
  const { bars, prev } = periodBars(series, c, period, from, to, limit, snap);
  let before = prev;
  return bars.map(({ time, bar }) => {
    const out = formatCandle(time, bar, before);
    before = bar;
    return out;
  });
}

/** Hourly candle of hour bucket H: volume is the 24h rolling volume at its close. */
export function hourBar(series: PriceSeries, c: Coin, H: number): Bar {
  const d = Math.floor(H / 24);
  const h = H - d * 24;
  const path = series.dayPath(c, d);
  return { o: path[h], h: path[HI + h], l: path[LO + h], c: path[h + 1], v: series.rollingVolume(c, H), s: series.circ(c, d) };
}

/** Hourly candles for hour buckets Hfrom..Hto (already clamped), at most `limit`. */
export function hourlyCandles(series: PriceSeries, c: Coin, Hfrom: number, Hto: number, limit: number): Candle[] {
  const first = Math.max(Hfrom, c.startDay! * 24);
  const out: Candle[] = [];
  let prev = first - 1 >= c.startDay! * 24 ? hourBar(series, c, first - 1) : null;
  for (let H = first; H <= Hto && out.length < limit; H++) {
    const bar = hourBar(series, c, H);
    out.push(formatCandle(hourStart(H), bar, prev));
    prev = bar;
  }
  return out;
}

export type SparkInterval = '5m' | '15m' | '1h' | '1d';
const STEP: Record<SparkInterval, number> = { '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '1d': 86_400_000 };

/**
 * Sparkline points from `from` to `to` (both epoch ms, to ≤ now) every `interval`,
 * oldest first unless `desc`. Hours: the hourly close; days: the close at the
 * day's last hour (the current price today); 5m/15m: between two hourly closes,
 * on the straight line (the synthetic market has no finer path). Volume is the
 * 24 h rolling volume at the point's hour. Buckets start on multiples of the
 * interval (UTC), the first containing `from`.
 */
export function sparkline(series: PriceSeries, c: Coin, snap: Snapshot, from: number, to: number, interval: SparkInterval, desc = false): SparklinePoint[] {
  if (c.startDay === null || c.startDay > snap.today) return [];
  const step = STEP[interval];
  const firstHour = c.startDay * 24;
  const out: SparklinePoint[] = [];
  for (let t = Math.max(Math.floor(from / step) * step, hourStart(firstHour)); t <= to; t += step) {
    const H = Math.min(hourIndex(interval === '1d' ? t + 23 * 3_600_000 : t), snap.H);
    const p0 = series.priceAtHour(c, H);
    let price = p0;
    const within = (t - hourStart(hourIndex(t))) / 3_600_000;
    if (within > 0 && H + 1 <= snap.H) price = p0 + (series.priceAtHour(c, H + 1) - p0) * within;
    out.push({ time: t, price: fmtPrice(price), volume: usd(series.rollingVolume(c, H)) });
  }
  return desc ? out.reverse() : out;
}
