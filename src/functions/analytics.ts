/*
 * CRYPTO.* functions added for the analyst's toolkit: one value of one coin
 * (DATA), risk and return statistics (STATS) and a correlation matrix
 * (CORREL). Thin, documented wrappers: the JSDoc here becomes functions.json,
 * the work happens in src/formulas (market.ts, analytics.ts) through the
 * calculation host. Function ids are stable once shipped: Excel caches them.
 */
import { run } from '../office/custom-functions';

/**
 * One market field of one coin, in one cell (like Bloomberg's BDP): any field CRYPTO.QUOTE offers. Cells of many coins share the same few requests as CRYPTO.PRICE.
 * @customfunction DATA
 * @helpurl https://localhost:3000/help/data.html
 * @param coin Coin id, slug, symbol or name, e.g. "bitcoin", "BTC" or 1.
 * @param field A CRYPTO.QUOTE field: price, marketCap, volume24h, percentChange.h24 (or change24h), percentChange.d7, rank, circulatingSupply, maxSupply, fullyDilutedValuation, high24h, low24h, lastUpdated...
 * @param [currency] "USD" (default), "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate; applies to price, market cap, volume, FDV, high and low.
 * @param invocation Invocation
 * @returns The value; #N/A when the coin has none (e.g. no max supply).
 * @cancelable
 */
export function data(coin: any, field: any, currency?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any> {
  return run('DATA', invocation, [coin, field, currency]);
}

/**
 * Risk and return from daily closes over a date range, per coin: return, cagr, volatility and maxDrawdown as fractions (0.42 = 42 %), sharpe, beta and correlation against a benchmark, vwap. Reads the same daily candles as CRYPTO.OHLCV, so both over the same range cost the candles once. One coin and one field is one value.
 * @customfunction STATS
 * @helpurl https://localhost:3000/help/stats.html
 * @param coins A coin or a range of coins (id, slug, symbol or name).
 * @param start First date: an Excel date, "2024-03-15", a period such as "2024" (alone it means that whole year) or a look-back such as "1Y".
 * @param [end] Last date, included (default: today).
 * @param [benchmark] The coin beta and correlation are measured against (default "bitcoin").
 * @param [fields] Any of return (last close / first close - 1), cagr (compounded yearly), volatility (stdev of daily log returns × √365), maxDrawdown (largest fall from a peak, ≤ 0), sharpe (365 × mean daily return above the daily risk-free rate, / volatility), beta, correlation (daily log returns on the days both coins have), vwap (Σ average price × volume / Σ volume of the daily candles: an approximation). Comma-separated or a range; default all.
 * @param [riskFree] Annual risk-free rate for sharpe, as a fraction: 0.05 (or 5%) for 5 % (default 0).
 * @param [headers] 1 shows a header row (the default for a table), 0 hides it.
 * @param [currency] Currency of vwap: "USD" (default, the candles' own) or any fiat code, converted at today's rate. The fractions do not depend on it.
 * @param invocation Invocation
 * @returns A row per coin: Coin and the statistics (fractions: 0.42 is 42 %).
 * @cancelable
 */
export function stats(coins: any[][], start: any, end?: any, benchmark?: any, fields?: any[][], riskFree?: any, headers?: any, currency?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('STATS', invocation, [coins, start, end, benchmark, fields, riskFree, headers, currency]);
}

/**
 * Correlation matrix of daily log returns between coins over a date range (each pair on the days both have), from the same daily candles as CRYPTO.OHLCV. Values from -1 to 1; 1 on the diagonal.
 * @customfunction CORREL
 * @helpurl https://localhost:3000/help/correl.html
 * @param coins A range of coins (id, slug, symbol or name), up to 200.
 * @param start First date: an Excel date, "2024-03-15", a period such as "2024" (alone it means that whole year) or a look-back such as "1Y".
 * @param [end] Last date, included (default: today).
 * @param [headers] 1 (default) shows the coins as row and column headers, 0 hides them.
 * @param invocation Invocation
 * @returns A square matrix, coins as row and column headers.
 * @cancelable
 */
export function correl(coins: any[][], start: any, end?: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('CORREL', invocation, [coins, start, end, headers]);
}
