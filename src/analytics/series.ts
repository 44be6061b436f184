/**
 * A coin's daily series as the statistics read it: one close per UTC day,
 * oldest first, and the daily returns between closes of consecutive days.
 * Pure: no Office, no client; numbers in, numbers out.
 */

import { DAY_MS, dayOf } from '../api/utc-day';
/** Crypto trades every day: a year is 365 daily returns (annualizing uses this, not 252). */
export const DAYS_PER_YEAR = 365;

/** One daily candle, as the statistics need it. */
export interface DailyBar {
  /** Start of the candle's UTC day, epoch ms. */
  time: number;
  /** The day's first price: the base of a period that starts on this day (periodBars). */
  open?: number | null;
  close: number;
  /** The day's average price and volume (VWAP); null when the candle lacks them. */
  avg?: number | null;
  volume?: number | null;
}

/** Daily returns keyed by the UTC day index they end on. */
export interface DailyReturns {
  /** UTC day index (epoch ms / DAY_MS) of the later close of each pair, ascending. */
  days: number[];
  values: number[];
}


/**
 * The bars a series is made of: finite, positive closes, one per UTC day (the
 * last one given wins), oldest first. Anything else cannot enter a log return.
 */
export function cleanBars(bars: readonly DailyBar[]): DailyBar[] {
  // Already clean (every statistic cleans the series it is handed, and the formulas hand in a clean one):
  // a copy, without the map and the sort that made a warm STATS recalculation a quarter slower.
  if (isClean(bars)) return bars.slice();
  const byDay = new Map<number, DailyBar>();
  for (const b of bars) if (usable(b)) byDay.set(dayOf(b.time), b);
  return [...byDay.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
}

const usable = (b: DailyBar) => Number.isFinite(b.time) && Number.isFinite(b.close) && b.close > 0;

/** Usable bars, one per UTC day, days ascending: what cleanBars returns. */
function isClean(bars: readonly DailyBar[]): boolean {
  let last = Number.NEGATIVE_INFINITY;
  for (const b of bars) {
    if (!usable(b)) return false;
    const d = dayOf(b.time);
    if (d <= last) return false;
    last = d;
  }
  return true;
}

/**
 * The prices a period is measured on: the first day's open as the base price c_0, then every
 * day's close. The period begins at the open of its first day, so that day's move counts: a
 * period's return is last close / period open − 1, the definition CRYPTO.RETURNS gives
 * (/analytics/returns: a period's close against its open; 2024: 31.49 %, where the first close
 * as base gave 33.33 %), and volatility, sharpe, beta, correlation and maxDrawdown take the first
 * day's return too. The open stands a day before the first close, as the close of the instant
 * before the period (a daily open is the previous day's close where trading is continuous), so
 * every pair is one day apart and `t_n − t_0` counts the days the period covers (366 in 2024).
 * No request beyond the range's candles. Without a usable open the first close stays the base.
 */
export function periodBars(bars: readonly DailyBar[]): DailyBar[] {
  const clean = cleanBars(bars);
  const first = clean[0];
  const open = first?.open ?? NaN;
  if (!Number.isFinite(open) || open <= 0) return clean;
  return [{ time: first.time - DAY_MS, close: open, avg: null, volume: null }, ...clean];
}

/** Calendar days from the first price of a series to its last (periodBars: the days its period covers); 0 with fewer than two. */
export function spanDays(bars: readonly DailyBar[]): number {
  const c = cleanBars(bars);
  return c.length < 2 ? 0 : Math.round((c[c.length - 1].time - c[0].time) / DAY_MS);
}

/**
 * Returns between the closes of consecutive UTC days: log (ln(c_t / c_{t-1}))
 * or simple (c_t / c_{t-1} - 1). A pair more than a day apart (a missing day)
 * gives no return: a two-day move counted as one day would inflate volatility.
 */
export function dailyReturns(bars: readonly DailyBar[], kind: 'log' | 'simple' = 'log'): DailyReturns {
  const clean = cleanBars(bars);
  const days: number[] = [];
  const values: number[] = [];
  for (let i = 1; i < clean.length; i++) {
    const d = dayOf(clean[i].time);
    if (d - dayOf(clean[i - 1].time) !== 1) continue;
    const ratio = clean[i].close / clean[i - 1].close;
    days.push(d);
    values.push(kind === 'log' ? Math.log(ratio) : ratio - 1);
  }
  return { days, values };
}

/** The values of two return series on the days both have, in day order. */
export function aligned(a: DailyReturns, b: DailyReturns): [number[], number[]] {
  const x: number[] = [];
  const y: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.days.length && j < b.days.length) {
    if (a.days[i] === b.days[j]) {
      x.push(a.values[i++]);
      y.push(b.values[j++]);
    } else if (a.days[i] < b.days[j]) i++;
    else j++;
  }
  return [x, y];
}
