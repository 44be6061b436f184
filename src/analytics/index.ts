/** Risk and return analytics of daily closes: pure, Office-free, tested in Node. */
export { aligned, cleanBars, dailyReturns, DAYS_PER_YEAR, periodBars, spanDays } from './series';
export type { DailyBar, DailyReturns } from './series';
export {
  beta, cagr, correlation, correlationMatrix, covariance, maxDrawdown, mean, MIN_CAGR_DAYS, sharpe, totalReturn, variance, volatility, volatilityOf, vwap,
} from './stats';
