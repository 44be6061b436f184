/*
 * CRYPTO.* functions for price history: OHLCV, HISTORICAL, RETURNS, SPARKLINE,
 * PERFORMANCE. Thin, documented wrappers: the JSDoc here becomes functions.json,
 * the work happens in src/formulas/history.ts through the calculation host.
 * Function ids are stable once shipped: Excel caches them.
 */
import { run } from '../office/custom-functions';

// Custom enums (@customenum): the values Excel offers in AutoComplete for a choice argument; older builds ignore them and the argument takes text as before (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-custom-enums). The formulas still accept every spelling they list in their errors; test/custom-enums.test.ts keeps these lists and theirs in step. Values in double quotes: the generator reads them as JSON.

/**
 * Candle intervals for CRYPTO.OHLCV; STOCKHISTORY's 0, 1, 2 work too.
 * @customenum {string}
 */
enum OhlcvInterval {
  /** One candle a day (default) */
  daily = "daily",
  /** One candle a week */
  weekly = "weekly",
  /** One candle a month */
  monthly = "monthly",
  /** One candle an hour (recent days: the plan sets how far back) */
  hourly = "hourly",
}

/**
 * Columns of CRYPTO.OHLCV; STOCKHISTORY's 0-5 work too.
 * @customenum {string}
 */
enum OhlcvField {
  /** Column: date */
  date = "date",
  /** Column: open */
  open = "open",
  /** Column: high */
  high = "high",
  /** Column: low */
  low = "low",
  /** Column: close */
  close = "close",
  /** Column: avg */
  avg = "avg",
  /** Column: volume */
  volume = "volume",
  /** Column: circulatingSupply */
  circulatingSupply = "circulatingSupply",
  /** Column: priceChangePercent */
  priceChangePercent = "priceChangePercent",
  /** Column: volumeChangePercent */
  volumeChangePercent = "volumeChangePercent",
  /** Column: circulatingSupplyChangePercent */
  circulatingSupplyChangePercent = "circulatingSupplyChangePercent",
}

/**
 * Values of CRYPTO.HISTORICAL.
 * @customenum {string}
 */
enum HistoricalField {
  /** Value: price */
  price = "price",
  /** Value: marketCap */
  marketCap = "marketCap",
  /** Value: volume24h */
  volume24h = "volume24h",
  /** Value: volume24hBase */
  volume24hBase = "volume24hBase",
  /** Value: circulatingSupply */
  circulatingSupply = "circulatingSupply",
  /** Value: storedTime */
  storedTime = "storedTime",
}

/**
 * Quote currencies.
 * @customenum {string}
 */
enum HistoryCurrency {
  /** US dollars (default) */
  USD = "USD",
  /** Euros */
  EUR = "EUR",
}

/**
 * Periods of CRYPTO.RETURNS.
 * @customenum {string}
 */
enum ReturnsPeriod {
  /** Each month */
  monthly = "monthly",
  /** Each quarter */
  quarterly = "quarterly",
  /** Each year */
  yearly = "yearly",
}

/**
 * Point intervals of CRYPTO.SPARKLINE.
 * @customenum {string}
 */
enum SparklineInterval {
  /** Every 5 minutes */
  minutes5 = "5m",
  /** Every 15 minutes */
  minutes15 = "15m",
  /** Every hour (default) */
  hourly = "1h",
  /** Every day */
  daily = "1d",
}

/**
 * Fields of CRYPTO.PERFORMANCE.
 * @customenum {string}
 */
enum PerformanceField {
  /** Field: athPriceUsd */
  athPriceUsd = "athPriceUsd",
  /** Field: athDate */
  athDate = "athDate",
  /** Field: atlPriceUsd */
  atlPriceUsd = "atlPriceUsd",
  /** Field: atlDate */
  atlDate = "atlDate",
  /** Field: athMarketCapUsd */
  athMarketCapUsd = "athMarketCapUsd",
  /** Field: fromAthPercent */
  fromAthPercent = "fromAthPercent",
  /** Field: fromAtlPercent */
  fromAtlPercent = "fromAtlPercent",
  /** Field: vcAvgRoi */
  vcAvgRoi = "vcAvgRoi",
  /** Field: icoRoi */
  icoRoi = "icoRoi",
}

/**
 * Price history as a table, like STOCKHISTORY: one row per day, week, month or hour, oldest first. Default columns Date, Open, High, Low, Close, Volume; dates are Excel dates (UTC, the candle's open time).
 * @customfunction OHLCV
 * @helpurl https://localhost:3000/help/ohlcv.html
 * @param coin Coin id, slug, symbol or name, e.g. "bitcoin", "BTC" or 1.
 * @param start First date: an Excel date, "2024-03-15", a period such as "2024", "2024Q1" or "2024-03" (alone it means that whole period), or a look-back such as "30D" or "1Y". A start before the coin's first day gives the candles from its first day, as STOCKHISTORY starts at the first trading day; a range wholly before it is #N/A naming the day its history starts.
 * @param [end] Last date, included. Omitted: up to today (STOCKHISTORY would return the start day only). A weekly or monthly row covers its whole period: the last row is the period containing end, so its High, Low, Close and Volume include the days of that period after end (as the first row may start before start). For prices as of end, use daily candles.
 * @param [interval] "daily" (default), "weekly", "monthly" or "hourly"; STOCKHISTORY's 0, 1, 2 also work. Hourly candles reach back as far as your plan gives (about 30 days): a start before that is #N/A naming the reach, never a shorter table; a start on the reach's first day gives its hours from the first one.
 * @param [headers] 1 (default) shows a header row, 0 hides it (2 is read as 1).
 * @param [fields] Columns in any order: STOCKHISTORY's numbers 0 Date, 1 Close, 2 Volume, 3 Open, 4 High, 5 Low, or names date, open, high, low, close, avg, volume, circulatingSupply, priceChangePercent, volumeChangePercent, circulatingSupplyChangePercent. Default Date, Open, High, Low, Close, Volume. Prices and volume are USD, and with a default currency other than USD their headers say so ("Close (USD)"): "USD" here is allowed, another currency code is #VALUE! (past prices are never converted at today's rate). A blank cell here is 0, Date, on older desktop builds: leave it out and name the columns.
 * @param invocation Invocation
 * @returns A table, one row per candle, oldest first.
 * @cancelable
 * @requiresAddress
 */
export function ohlcv(coin: any, start: any, end?: any, interval?: OhlcvInterval, headers?: any, fields?: OhlcvField[], invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('OHLCV', invocation, [coin, start, end, interval, headers, fields]);
}

/**
 * One value of a coin at a past date: price by default. Many cells for the same date share one request.
 * @customfunction HISTORICAL
 * @helpurl https://localhost:3000/help/historical.html
 * @param coin Coin id, slug, symbol or name.
 * @param date The date: an Excel date or "2024-03-15" (UTC day).
 * @param [field] "price" (default), "marketCap", "volume24h", "volume24hBase", "circulatingSupply" or "storedTime" (the exact time of the values, as an Excel date).
 * @param [currency] "USD" or "EUR"; left out, the task pane's default currency (USD unless changed). Past prices in another currency are #VALUE!: today's rate would misstate them.
 * @param invocation Invocation
 * @returns The value at that date.
 * @cancelable
 * @requiresAddress
 */
export function historical(coin: any, date: any, field?: HistoricalField, currency?: HistoryCurrency, invocation?: CustomFunctions.CancelableInvocation): Promise<any> {
  return run('HISTORICAL', invocation, [coin, date, field, currency]);
}

/**
 * Periodic returns: closing price and open-to-close return of every month, quarter or year, oldest first; the last period may be incomplete.
 * @customfunction RETURNS
 * @helpurl https://localhost:3000/help/returns.html
 * @param coin Coin id, slug, symbol or name.
 * @param period "monthly", "quarterly" or "yearly".
 * @param [headers] 1 (default) shows a header row, 0 hides it. It comes before start here (unlike OHLCV and STOCKHISTORY): =CRYPTO.RETURNS("bitcoin","monthly",1,"2024-01-01").
 * @param [start] First date: the periods from the one containing it (an Excel date, "2024-03-15", "2024" alone for that whole year, or a look-back such as "2Y"). Default: from the coin's first period.
 * @param [end] Last date, included (default: today).
 * @param [currency] "USD" (default): closing prices are USD (headed "Closing price (USD)" when the default currency is not USD); another currency is #VALUE! (past prices are never converted at today's rate).
 * @param invocation Invocation
 * @returns Date (period start), Closing price, Return %.
 * @cancelable
 * @requiresAddress
 */
export function returns(coin: any, period: ReturnsPeriod, headers?: any, start?: any, end?: any, currency?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('RETURNS', invocation, [coin, period, headers, start, end, currency]);
}

/**
 * Price and volume points for charts and sparklines: by default the last 7 days hourly; any range at 5m, 15m, 1h or 1d within the plan's depth.
 * @customfunction SPARKLINE
 * @helpurl https://localhost:3000/help/sparkline.html
 * @param coin Coin id, slug, symbol or name.
 * @param [headers] 1 (default) shows a header row, 0 hides it. It comes before start here (unlike OHLCV and STOCKHISTORY): =CRYPTO.SPARKLINE("bitcoin",1,"30D").
 * @param [start] Start date, period ("2025Q1") or look-back ("30D"); default the last 7 days.
 * @param [end] End date (default: now).
 * @param [interval] "5m", "15m", "1h" (default) or "1d". How far back by plan: Basic 30 days at 5m-1h and 1 year at 1d; Advanced 30 days and 2 years; Pro 90 days and 5 years; Business 1 year and the full history. A deeper start is #N/A naming the reach; a start before the coin's first point gives the points from it.
 * @param invocation Invocation
 * @returns Time (Excel date), Price, Volume; oldest first.
 * @cancelable
 * @requiresAddress
 */
export function sparkline(coin: any, headers?: any, start?: any, end?: any, interval?: SparklineInterval, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('SPARKLINE', invocation, [coin, headers, start, end, interval]);
}

/**
 * All-time high and low, distance from them, and investor ROI: one field, or every field as a two-column table.
 * @customfunction PERFORMANCE
 * @helpurl https://localhost:3000/help/performance.html
 * @param coin Coin id, slug, symbol or name.
 * @param [field] athPriceUsd, athDate, atlPriceUsd, atlDate, athMarketCapUsd, fromAthPercent, fromAtlPercent, vcAvgRoi or icoRoi. Omit for all fields.
 * @param invocation Invocation
 * @returns The field's value, or a field/value table.
 * @cancelable
 * @requiresAddress
 */
export function performance(coin: any, field?: PerformanceField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('PERFORMANCE', invocation, [coin, field]);
}
