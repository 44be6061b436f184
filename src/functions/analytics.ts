/*
 * CRYPTO.* functions added for the analyst's toolkit: one value of one coin
 * (DATA), risk and return statistics (STATS) and a correlation matrix
 * (CORREL). Thin, documented wrappers: the JSDoc here becomes functions.json,
 * the work happens in src/formulas (market.ts, analytics.ts) through the
 * calculation host. Function ids are stable once shipped: Excel caches them.
 */
import { run } from '../office/custom-functions';

/**
 * CRYPTO.QUOTE's fields, for CRYPTO.DATA (src/formulas/market.ts QUOTE_FIELDS; test/custom-enums.test.ts holds the two together).
 * @customenum {string}
 */
enum DataField {
  /** Field: id */
  id = "id",
  /** Field: slug */
  slug = "slug",
  /** Field: symbol */
  symbol = "symbol",
  /** Field: name */
  name = "name",
  /** Field: rank */
  rank = "rank",
  /** Field: price */
  price = "price",
  /** Field: marketCap */
  marketCap = "marketCap",
  /** Field: volume24h */
  volume24h = "volume24h",
  /** Field: volume24hBase */
  volume24hBase = "volume24hBase",
  /** Field: fullyDilutedValuation */
  fullyDilutedValuation = "fullyDilutedValuation",
  /** Field: high24h */
  high24h = "high24h",
  /** Field: low24h */
  low24h = "low24h",
  /** Field: percentChange.h24 */
  percentChangeH24 = "percentChange.h24",
  /** Field: percentChange.d7 */
  percentChangeD7 = "percentChange.d7",
  /** Field: percentChange.d30 */
  percentChangeD30 = "percentChange.d30",
  /** Field: percentChange.m3 */
  percentChangeM3 = "percentChange.m3",
  /** Field: percentChange.ytd */
  percentChangeYtd = "percentChange.ytd",
  /** Field: circulatingSupply */
  circulatingSupply = "circulatingSupply",
  /** Field: totalSupply */
  totalSupply = "totalSupply",
  /** Field: maxSupply */
  maxSupply = "maxSupply",
  /** Field: isTraded */
  isTraded = "isTraded",
  /** Field: lastUpdated */
  lastUpdated = "lastUpdated",
}

/**
 * Currencies: a suggestion list (SUGGESTED_CURRENCIES in src/formulas/args.ts); any code of the provider's fiat list is taken.
 * @customenum {string}
 */
enum AnalyticsCurrency {
  /** US dollars (default) */
  USD = "USD",
  /** Euros */
  EUR = "EUR",
  /** British pounds, at today's rate from the fiat list */
  GBP = "GBP",
  /** Japanese yen, at today's rate from the fiat list */
  JPY = "JPY",
}

/**
 * One market field of one coin, in one cell (like Bloomberg's BDP): any field CRYPTO.QUOTE offers. Cells of many coins share the same few requests as CRYPTO.PRICE.
 * @customfunction DATA
 * @helpurl https://localhost:3000/help/data.html
 * @param coin Coin id, slug, symbol or name, e.g. "bitcoin", "BTC" or 1.
 * @param field A CRYPTO.QUOTE field: price, marketCap, volume24h, percentChange.h24 (or change24h), percentChange.d7, rank, circulatingSupply, maxSupply, fullyDilutedValuation, high24h, low24h, lastUpdated... Changes are percent points (0.84 is 0.84 %), as the API gives them; a CRYPTO.COIN card's Change 24h is the fraction 0.0084.
 * @param [currency] "USD", "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate; applies to price, market cap, volume, FDV, high and low. Left out: the task pane's default currency (USD unless changed).
 * @param invocation Invocation
 * @returns The value; #N/A when the coin has none (e.g. no max supply).
 * @cancelable
 * @requiresAddress
 */
export function data(coin: any, field: DataField, currency?: AnalyticsCurrency, invocation?: CustomFunctions.CancelableInvocation): Promise<any> {
  return run('DATA', invocation, [coin, field, currency]);
}

/**
 * Risk and return from daily prices over a date range, per coin: return, cagr, volatility and maxDrawdown as fractions (0.42 = 42 %), sharpe, beta and correlation against a benchmark, vwap. The range runs from the open of its first day to its last close, as CRYPTO.RETURNS; a coin listed within it is measured from its first day. Reads the same daily candles as CRYPTO.OHLCV, so both over the same range cost the candles once. One coin and one field is one value.
 * @customfunction STATS
 * @helpurl https://localhost:3000/help/stats.html
 * @param coins A coin or a range of coins (id, slug, symbol or name); a blank cell keeps an empty row.
 * @param start First date: an Excel date, "2024-03-15", a period such as "2024" (alone it means that whole year) or a look-back such as "1Y".
 * @param [end] Last date, included (default: today).
 * @param [benchmark] The coin beta and correlation are measured against (default "bitcoin").
 * @param [fields] Any of return (last close / the first day's open - 1, as CRYPTO.RETURNS), cagr (compounded yearly; #N/A for a range under a year, which is not annualized), volatility (stdev of daily log returns × √365), maxDrawdown (largest fall from a peak, ≤ 0), sharpe (365 × mean daily return above the daily risk-free rate, / volatility), beta, correlation (daily log returns on the days both coins have), vwap (Σ average price × volume / Σ volume of the daily candles: an approximation). Comma-separated or a range; default all.
 * @param [riskFree] Annual risk-free rate for sharpe, as a fraction: 0.05 (or 5%) for 5 % (default 0).
 * @param [headers] 1 shows a header row (the default for a table), 0 hides it.
 * @param [currency] Currency of vwap: "USD" (default, the candles' own) or any fiat code, converted at today's rate, in a table whose header says so (a lone vwap cell takes USD only). The fractions do not depend on it.
 * @param invocation Invocation
 * @returns A row per coin: Coin and the statistics (fractions: 0.42 is 42 %).
 * @cancelable
 * @requiresAddress
 */
export function stats(coins: any[][], start: any, end?: any, benchmark?: any, fields?: any[][], riskFree?: any, headers?: any, currency?: AnalyticsCurrency, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('STATS', invocation, [coins, start, end, benchmark, fields, riskFree, headers, currency]);
}

/**
 * Correlation matrix of daily log returns between coins over a date range (the first from the first day's open; each pair on the days both have), from the same daily candles as CRYPTO.OHLCV. Values from -1 to 1; 1 on the diagonal.
 * @customfunction CORREL
 * @helpurl https://localhost:3000/help/correl.html
 * @param coins A range of coins (id, slug, symbol or name), up to 200; a blank cell keeps an empty row and column.
 * @param start First date: an Excel date, "2024-03-15", a period such as "2024" (alone it means that whole year) or a look-back such as "1Y".
 * @param [end] Last date, included (default: today).
 * @param [headers] 1 (default) shows the coins as row and column headers, 0 hides them.
 * @param invocation Invocation
 * @returns A square matrix, coins as row and column headers.
 * @cancelable
 * @requiresAddress
 */
export function correl(coins: any[][], start: any, end?: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('CORREL', invocation, [coins, start, end, headers]);
}
