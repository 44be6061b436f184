/**
 * Risk and return statistics of daily closes, each defined once here (and in
 * the help pages in the same words). Fractions: 0.42 is 42 %. A statistic
 * that is undefined for the data (too few days, a price that never moved) is
 * null, never 0 or NaN: the formula layer says why in the cell.
 *
 * With prices c_0..c_n on UTC days t_0..t_n (oldest first), daily log returns
 * r_t = ln(c_t / c_{t-1}) and simple returns R_t = c_t / c_{t-1} - 1 between
 * consecutive days (series.ts). The formulas hand in a period's prices
 * (periodBars): c_0 is the first day's open, c_1..c_n the daily closes.
 * - return      = c_n / c_0 - 1
 * - cagr        = (c_n / c_0) ^ (365 / (t_n - t_0 in days)) - 1, only when t_n - t_0 ≥ 365:
 *                 GIPS: "Returns for periods of less than one year must not be annualized"
 *                 (GIPS standards Q&A, GIPS Handbook 3rd ed., gipsstandards.org/?GIPSID=370)
 * - volatility  = sample standard deviation of r × √365
 * - maxDrawdown = min over t of (c_t / max_{s ≤ t} c_s - 1), in [-1, 0]
 * - sharpe      = 365 × mean(R_t - rf_d) / volatility, rf_d = (1 + riskFree)^(1/365) - 1
 *                 (riskFree: an annual rate, compounded daily into rf_d)
 * - beta        = cov(r, r_b) / var(r_b)      on the days both the coin and the benchmark have
 * - correlation = cov(r, r_b) / (sd(r) sd(r_b)) on those days
 * - vwap        = Σ(avg × volume) / Σ volume over the daily candles: an approximation of the true
 *                 VWAP (each day's average price stands for all of its trades; the API's candle
 *                 volume is the day's 24 h USD volume, so days weigh by their traded value).
 */
import { DAY_MS } from '../api/utc-day';
import { aligned, cleanBars, dailyReturns, DAYS_PER_YEAR, spanDays, type DailyBar, type DailyReturns } from './series';

export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Sample covariance (n - 1), two-pass; null with fewer than two pairs. */
export function covariance(x: readonly number[], y: readonly number[]): number | null {
  const n = Math.min(x.length, y.length);
  if (n < 2) return null;
  const mx = mean(x.slice(0, n));
  const my = mean(y.slice(0, n));
  let s = 0;
  for (let i = 0; i < n; i++) s += (x[i] - mx) * (y[i] - my);
  return s / (n - 1);
}

export const variance = (x: readonly number[]): number | null => covariance(x, x);

/** Below this a variance is a price that did not move (rounding noise of a constant series). */
const FLAT = 1e-20;

export function totalReturn(bars: readonly DailyBar[]): number | null {
  const c = cleanBars(bars);
  if (c.length < 2) return null;
  return c[c.length - 1].close / c[0].close - 1;
}

/** The shortest span cagr annualizes: a year. A shorter one's compounding would turn 2 % in 2 days into 11,802 % a year. */
export const MIN_CAGR_DAYS = DAYS_PER_YEAR;

/** null under a year (MIN_CAGR_DAYS): GIPS forbids annualizing it (header above); the cumulative return is totalReturn. */
export function cagr(bars: readonly DailyBar[]): number | null {
  const c = cleanBars(bars);
  if (spanDays(c) < MIN_CAGR_DAYS) return null;
  const days = (c[c.length - 1].time - c[0].time) / DAY_MS;
  return (c[c.length - 1].close / c[0].close) ** (DAYS_PER_YEAR / days) - 1;
}

/** Annualized volatility of a series of daily log returns. */
export function volatilityOf(logReturns: readonly number[]): number | null {
  const v = variance(logReturns);
  return v === null ? null : Math.sqrt(Math.max(0, v) * DAYS_PER_YEAR);
}

export const volatility = (bars: readonly DailyBar[]): number | null => volatilityOf(dailyReturns(bars, 'log').values);

export function maxDrawdown(bars: readonly DailyBar[]): number | null {
  const c = cleanBars(bars);
  if (c.length === 0) return null;
  let peak = c[0].close;
  let worst = 0;
  for (const b of c) {
    if (b.close > peak) peak = b.close;
    else worst = Math.min(worst, b.close / peak - 1);
  }
  return Math.max(-1, worst);
}

export function sharpe(bars: readonly DailyBar[], riskFree = 0): number | null {
  const vol = volatility(bars);
  const simple = dailyReturns(bars, 'simple').values;
  if (vol === null || vol * vol < FLAT || simple.length === 0) return null;
  const rfDaily = (1 + riskFree) ** (1 / DAYS_PER_YEAR) - 1;
  return (DAYS_PER_YEAR * (mean(simple) - rfDaily)) / vol;
}

/** Correlation of two return series on their common days; null when either did not move or fewer than two days are shared. */
export function correlation(a: DailyReturns, b: DailyReturns): number | null {
  const [x, y] = aligned(a, b);
  const c = covariance(x, y);
  const vx = variance(x);
  const vy = variance(y);
  if (c === null || vx === null || vy === null || vx < FLAT || vy < FLAT) return null;
  return Math.max(-1, Math.min(1, c / Math.sqrt(vx * vy)));
}

/** Beta of `a` against the benchmark `b` on their common days; null when the benchmark did not move. */
export function beta(a: DailyReturns, b: DailyReturns): number | null {
  const [x, y] = aligned(a, b);
  const c = covariance(x, y);
  const vy = variance(y);
  if (c === null || vy === null || vy < FLAT) return null;
  return c / vy;
}

export function vwap(bars: readonly DailyBar[]): number | null {
  let value = 0;
  let volume = 0;
  for (const b of bars) {
    const avg = b.avg ?? NaN;
    const vol = b.volume ?? NaN;
    if (!Number.isFinite(avg) || !Number.isFinite(vol) || vol < 0) continue;
    value += avg * vol;
    volume += vol;
  }
  return volume > 0 ? value / volume : null;
}

/** The correlation matrix of several return series, each pair on the days both have: symmetric, 1 on the diagonal where a series moved. */
export function correlationMatrix(series: readonly DailyReturns[]): (number | null)[][] {
  const m: (number | null)[][] = series.map(() => series.map(() => null));
  for (let i = 0; i < series.length; i++) {
    for (let j = i; j < series.length; j++) {
      const c = i === j ? (correlation(series[i], series[i]) === null ? null : 1) : correlation(series[i], series[j]);
      m[i][j] = c;
      m[j][i] = c;
    }
  }
  return m;
}
