/*
 * CRYPTO.* functions for the market as a whole: movers, global figures and
 * indices. Thin documented wrappers (JSDoc → functions.json); the work happens
 * in src/formulas/global.ts (the movers in src/formulas/movers.ts) through the calculation host.
 * Function ids are stable once shipped: Excel caches them.
 */
import { run } from '../office/custom-functions';

// Custom enums (@customenum): the values Excel offers in AutoComplete for a choice argument; older builds ignore them and the argument takes text as before (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-custom-enums). The formulas still accept every spelling they list in their errors; test/custom-enums.test.ts keeps these lists and theirs in step. Values in double quotes: the generator reads them as JSON.

/**
 * Periods of CRYPTO.GAINERS and CRYPTO.LOSERS.
 * @customenum {string}
 */
enum MoversPeriod {
  /** 24 hours (default) */
  hours24 = "24h",
  /** 7 days */
  days7 = "7d",
  /** 30 days */
  days30 = "30d",
}

/**
 * Fields of CRYPTO.GLOBAL.
 * @customenum {string}
 */
enum GlobalField {
  /** Field: totalMarketCap */
  totalMarketCap = "totalMarketCap",
  /** Field: totalVolume24h */
  totalVolume24h = "totalVolume24h",
  /** Field: btcMarketCap */
  btcMarketCap = "btcMarketCap",
  /** Field: ethMarketCap */
  ethMarketCap = "ethMarketCap",
  /** Field: activeCurrencies */
  activeCurrencies = "activeCurrencies",
  /** Field: activeTickers */
  activeTickers = "activeTickers",
  /** Field: activeExchanges */
  activeExchanges = "activeExchanges",
  /** Field: marketCapChangePercent24h */
  marketCapChangePercent24h = "marketCapChangePercent24h",
  /** Every field, as a table */
  all = "all",
}

/**
 * Fields of CRYPTO.DERIVATIVES.
 * @customenum {string}
 */
enum DerivativesField {
  /** Field: totalOpenInterest */
  totalOpenInterest = "totalOpenInterest",
  /** Field: totalVolume24h */
  totalVolume24h = "totalVolume24h",
  /** Field: perpetualShare */
  perpetualShare = "perpetualShare",
  /** Field: futuresShare */
  futuresShare = "futuresShare",
  /** Field: activeDerivativesExchangesCount */
  activeDerivativesExchangesCount = "activeDerivativesExchangesCount",
  /** Every field, as a table */
  all = "all",
}

/**
 * Fields of the current Fear & Greed reading.
 * @customenum {string}
 */
enum FearGreedField {
  /** The index, 0-100 (default) */
  value = "value",
  /** Its classification */
  classification = "classification",
  /** Both, as a table */
  all = "all",
}

/**
 * Fields of the current Altcoin Season reading.
 * @customenum {string}
 */
enum AltSeasonField {
  /** The index, 0-100 (default) */
  value = "value",
  /** Its classification */
  classification = "classification",
  /** The year's high */
  yearlyHigh = "yearlyHigh",
  /** When */
  yearlyHighDate = "yearlyHighDate",
  /** The year's low */
  yearlyLow = "yearlyLow",
  /** When */
  yearlyLowDate = "yearlyLowDate",
  /** Yesterday's value */
  yesterday = "yesterday",
  /** Last week's value */
  lastWeek = "lastWeek",
  /** Last month's value */
  lastMonth = "lastMonth",
  /** Every field, as a table */
  all = "all",
}

/**
 * What CRYPTO.DOMINANCE measures.
 * @customenum {string}
 */
enum DominanceAsset {
  /** Bitcoin (default) */
  btc = "btc",
  /** Ethereum */
  eth = "eth",
  /** Tether */
  usdt = "usdt",
  /** All but BTC and ETH */
  others = "others",
  /** The current snapshot */
  all = "all",
}

/**
 * Trending coins right now, as a table; price, market cap and volume in USD.
 * @customfunction TRENDING
 * @helpurl https://localhost:3000/help/trending.html
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns Trending # (the place in the trending list, not the market-cap rank), Name, Symbol, Price, Change 24h %, Market cap, Volume 24h, Category, Slug and Id per coin; the money columns are USD, headed "Price (USD)" when the default currency is not USD.
 * @cancelable
 * @requiresAddress
 */
export function trending(headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('TRENDING', invocation, [headers]);
}

/**
 * The coins that rose most over a period, as the service lists them: its own choice of coins (it may include leveraged tokens), not the whole market; MARKETS(n,"change24h") ranks the markets list instead. Price, market cap and volume in USD.
 * @customfunction GAINERS
 * @helpurl https://localhost:3000/help/gainers.html
 * @param [period] "24h" (default), "7d" or "30d".
 * @param [count] How many coins, 1 to 100 (default 20).
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns Rank (market-cap rank), Name, Symbol, Price, Change 24h % (or 7d, 30d: the period's), Market cap, Volume 24h, Category, Slug and Id per coin, biggest gain first; the money columns are USD, headed "Price (USD)" when the default currency is not USD.
 * @cancelable
 * @requiresAddress
 */
// Which coins the service ranks is undocumented (the spec's gainer/loser item only); the local API
// server ranks the top 1,000 by market cap, so MARKETS(3,"change24h") can list a coin GAINERS leaves
// out (review-r3 #14); its 30d list is topped by leveraged tokens (Category "Derivatives"). Guess: the live list is chosen alike.
export function gainers(period?: MoversPeriod, count?: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('GAINERS', invocation, [period, count, headers]);
}

/**
 * The coins that fell most over a period, as the service lists them: its own choice of coins (it may include leveraged tokens), not the whole market; MARKETS(n,"change24h","asc") ranks the markets list instead. Price, market cap and volume in USD.
 * @customfunction LOSERS
 * @helpurl https://localhost:3000/help/losers.html
 * @param [period] "24h" (default), "7d" or "30d".
 * @param [count] How many coins, 1 to 100 (default 20).
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns Rank (market-cap rank), Name, Symbol, Price, Change 24h % (or 7d, 30d: the period's), Market cap, Volume 24h, Category, Slug and Id per coin, biggest loss first; the money columns are USD, headed "Price (USD)" when the default currency is not USD.
 * @cancelable
 * @requiresAddress
 */
export function losers(period?: MoversPeriod, count?: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('LOSERS', invocation, [period, count, headers]);
}

/**
 * Global market figures: total market cap, 24h volume, BTC and ETH market caps (USD), active coins, tickers and exchanges.
 * @customfunction GLOBAL
 * @helpurl https://localhost:3000/help/global.html
 * @param [field] totalMarketCap, totalVolume24h, btcMarketCap, ethMarketCap, activeCurrencies, activeTickers, activeExchanges or marketCapChangePercent24h. Omit, or "all", for all fields.
 * @param invocation Invocation
 * @returns The field's value, or a field/value table. Market caps and volume are USD whatever the default currency; in the table their fields read "totalMarketCap (USD)" when it is not USD.
 * @cancelable
 * @requiresAddress
 */
export function globalMarket(field?: GlobalField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('GLOBAL', invocation, [field]);
}

/**
 * Global derivatives snapshot: open interest and volume (USD), perpetual and futures shares, active exchanges.
 * @customfunction DERIVATIVES
 * @helpurl https://localhost:3000/help/derivatives.html
 * @param [field] totalOpenInterest, totalVolume24h, perpetualShare, futuresShare or activeDerivativesExchangesCount. Omit, or "all", for all fields.
 * @param invocation Invocation
 * @returns The field's value, or a field/value table. Open interest and volume are USD whatever the default currency; in the table their fields read "totalOpenInterest (USD)" when it is not USD.
 * @cancelable
 * @requiresAddress
 */
export function derivatives(field?: DerivativesField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('DERIVATIVES', invocation, [field]);
}

/**
 * Fear & Greed Index (0-100): the current value or its classification, or its history between two dates.
 * @customfunction FEARGREED
 * @helpurl https://localhost:3000/help/feargreed.html
 * @param [start] Omit for the current value. A date, a period ("2024", "2024Q1", "2024-03") or a look-back ("30D", "6M") for the history.
 * @param [end] End date of the history (default: now).
 * @param [headers] For the history: 1 (default) shows a header row, 0 hides it.
 * @param [field] For the current reading: "value" (default), "classification", or "all" for both as a table.
 * @param invocation Invocation
 * @returns The current value, or a table of Date, Value, Classification.
 * @cancelable
 * @requiresAddress
 */
export function fearGreed(start?: any, end?: any, headers?: any, field?: FearGreedField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('FEARGREED', invocation, [start, end, headers, field]);
}

/**
 * Altcoin Season Index (0-100): the current value, its classification, yearly high and low and recent values, or its history between two dates.
 * @customfunction ALTSEASON
 * @helpurl https://localhost:3000/help/altseason.html
 * @param [start] Omit for the current value. A date, a period ("2024", "2024Q1", "2024-03") or a look-back ("30D", "6M") for the history.
 * @param [end] End date of the history (default: now).
 * @param [headers] For the history: 1 (default) shows a header row, 0 hides it.
 * @param [field] For the current reading: "value" (default), "classification", "yearlyHigh", "yearlyHighDate", "yearlyLow", "yearlyLowDate", "yesterday", "lastWeek", "lastMonth", or "all" as a table.
 * @param invocation Invocation
 * @returns The current value, or a table of Date, Value, Classification, Altcoins market cap (USD; headed so when the default currency is not USD).
 * @cancelable
 * @requiresAddress
 */
export function altSeason(start?: any, end?: any, headers?: any, field?: AltSeasonField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('ALTSEASON', invocation, [start, end, headers, field]);
}

/**
 * Market cap dominance in percent: the current value, the current snapshot with 24h changes, or its history between two dates.
 * @customfunction DOMINANCE
 * @helpurl https://localhost:3000/help/dominance.html
 * @param [asset] "btc" (default), "eth", "usdt", "others" (all but BTC and ETH), or "all" for the current snapshot: BTC, ETH and others, and btcChange24hPercent and ethChange24hPercent, the 24h change in percent of the share's own value (63.63 to 63.22 is -0.64), not in percentage points.
 * @param [start] Omit for the current value. A date, a period ("2024", "2024Q1", "2024-03") or a look-back ("30D", "6M") for the history.
 * @param [end] End date of the history (default: now).
 * @param [headers] For the history: 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns The current dominance %, or a table of Date, Dominance %.
 * @cancelable
 * @requiresAddress
 */
export function dominance(asset?: DominanceAsset, start?: any, end?: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('DOMINANCE', invocation, [asset, start, end, headers]);
}
