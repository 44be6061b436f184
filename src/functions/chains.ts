/*
 * CRYPTO.* functions for blockchains and persons. Thin documented wrappers
 * (JSDoc → functions.json); the work happens in src/formulas/chains.ts.
 * Function ids are stable once shipped: Excel caches them.
 */
import { run } from '../office/custom-functions';

// Custom enums (@customenum): the values Excel offers in AutoComplete for a choice argument; older builds ignore them and the argument takes text as before (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-custom-enums). The formulas still accept every spelling they list in their errors; test/custom-enums.test.ts keeps these lists and theirs in step. Values in double quotes: the generator reads them as JSON.

/**
 * Periods of CRYPTO.TVLCHANGE.
 * @customenum {string}
 */
enum TvlPeriod {
  /** 1 day (default) */
  daily = "1d",
  /** 7 days */
  days7 = "7d",
  /** 30 days */
  days30 = "30d",
  /** 90 days */
  days90 = "90d",
  /** 1 year */
  year1 = "1y",
}

/**
 * Fields of CRYPTO.BLOCKCHAIN.
 * @customenum {string}
 */
enum BlockchainField {
  /** Field: id */
  id = "id",
  /** Field: slug */
  slug = "slug",
  /** Field: name */
  name = "name",
  /** Field: symbol */
  symbol = "symbol",
  /** Field: nativeCurrencyId */
  nativeCurrencyId = "nativeCurrencyId",
  /** Field: explorerUrl */
  explorerUrl = "explorerUrl",
  /** Field: marketCap */
  marketCap = "marketCap",
  /** Field: marketCapDominance */
  marketCapDominance = "marketCapDominance",
  /** Field: volume24h */
  volume24h = "volume24h",
  /** Field: gainers */
  gainers = "gainers",
  /** Field: losers */
  losers = "losers",
  /** Field: imageUrl */
  imageUrl = "imageUrl",
  /** Every field, as a table */
  all = "all",
}

/**
 * Every supported blockchain with its market cap (USD) and dominance.
 * @customfunction BLOCKCHAINS
 * @helpurl https://localhost:3000/help/blockchains.html
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns Name, Slug, Symbol, Id, Market cap, Dominance %, Native coin id and Explorer (the block explorer's home page) per blockchain; Market cap is USD, headed "Market cap (USD)" when the default currency is not USD.
 * @cancelable
 * @requiresAddress
 */
export function blockchains(headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('BLOCKCHAINS', invocation, [headers]);
}

/**
 * One blockchain's market data: one field, or every field as a two-column table.
 * @customfunction BLOCKCHAIN
 * @helpurl https://localhost:3000/help/blockchain.html
 * @param chain Blockchain id, slug or name, e.g. "ethereum" or "BNB Chain".
 * @param [field] id, slug, name, symbol, nativeCurrencyId, explorerUrl (the explorer's link prefix, to append an address to), marketCap, marketCapDominance, volume24h, gainers, losers or imageUrl. Omit, or "all", for all fields.
 * @param invocation Invocation
 * @returns The field's value, or a field/value table. marketCap and volume24h are USD whatever the default currency; in the table they read "marketCap (USD)" when it is not USD.
 * @cancelable
 * @requiresAddress
 */
export function blockchain(chain: any, field?: BlockchainField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('BLOCKCHAIN', invocation, [chain, field]);
}

/**
 * Total value locked (TVL) of a blockchain over time, beside the TVL of all blockchains.
 * @customfunction TVL
 * @helpurl https://localhost:3000/help/tvl.html
 * @param chain Blockchain id, slug or name.
 * @param [start] A date, a period ("2024", "2024Q1", "2024-03") or a look-back ("90D", "6M"). Omit for the last 30 days.
 * @param [end] End date (default: now).
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns A table of Date, TVL, Total TVL.
 * @cancelable
 * @requiresAddress
 */
export function tvl(chain: any, start?: any, end?: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('TVL', invocation, [chain, start, end, headers]);
}

/**
 * Change of a blockchain's TVL over a period, in percent.
 * @customfunction TVLCHANGE
 * @helpurl https://localhost:3000/help/tvlchange.html
 * @param chain Blockchain id, slug or name.
 * @param [period] "1d" (default), "7d", "30d", "90d" or "1y".
 * @param invocation Invocation
 * @returns The TVL change in percent (2.5 means 2.5%).
 * @cancelable
 * @requiresAddress
 */
// Promise<any>, not <number>: a kept value goes back as a formatted number marked "(stale)" (see PRICE, market.ts).
export function tvlChange(chain: any, period?: TvlPeriod, invocation?: CustomFunctions.CancelableInvocation): Promise<any> {
  return run('TVLCHANGE', invocation, [chain, period]);
}

/**
 * People in the crypto industry (founders, investors), optionally filtered by name.
 * @customfunction PERSONS
 * @helpurl https://localhost:3000/help/persons.html
 * @param [query] Part of a name or slug, e.g. "vitalik". Omit for everyone.
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns A table of Name, Slug, Id.
 * @cancelable
 * @requiresAddress
 */
export function persons(query?: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('PERSONS', invocation, [query, headers]);
}
