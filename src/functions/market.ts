/*
 * CRYPTO.* functions for currencies and markets. Each is a thin, documented
 * wrapper: the JSDoc here becomes functions.json (custom-functions-metadata-plugin),
 * the work happens in src/formulas through the calculation host.
 * Function ids are stable once shipped: Excel caches them.
 */
import { run } from '../office/custom-functions';

/**
 * Latest price of a coin.
 * @customfunction PRICE
 * @helpurl https://localhost:3000/help/price.html
 * @param coin Coin id, slug, symbol or name, e.g. "bitcoin", "BTC" or 1.
 * @param [currency] "USD" (default), "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate.
 * @param invocation Invocation
 * @returns The price.
 * @cancelable
 */
export function price(coin: any, currency?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<number> {
  return run('PRICE', invocation, [coin, currency]);
}

/**
 * Market fields for one coin or a range of coins, as a grid.
 * @customfunction QUOTE
 * @helpurl https://localhost:3000/help/quote.html
 * @param coins A coin or a range of coins (id, slug, symbol or name).
 * @param [fields] Field names, a range or comma-separated: price, marketCap, volume24h, percentChange.h24, rank, circulatingSupply...
 * @param [currency] "USD" (default), "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate.
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns A row per coin.
 * @cancelable
 */
export function quote(coins: any[][], fields?: any[][], currency?: string, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('QUOTE', invocation, [coins, fields, currency, headers]);
}

/**
 * The markets list: top coins with price, changes, market cap and volume; any count, fetched in pages of 250.
 * @customfunction MARKETS
 * @helpurl https://localhost:3000/help/markets.html
 * @param [count] How many coins, 1 to 5000 (default 100).
 * @param [sortBy] "rank" (default), "marketCap", "volume24h", "change24h" or "change7d".
 * @param [sortOrder] "asc" or "desc" (default: asc for rank, desc otherwise).
 * @param [category] Category id, slug or name.
 * @param [tag] Tag id, slug or name.
 * @param [ecosystem] Ecosystem id.
 * @param [lifecycle] "traded" (default) or "upcoming".
 * @param [currency] "USD" (default), "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate.
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param [fields] Columns: CRYPTO.QUOTE's field names, comma-separated or a range, e.g. "name,price,percentChange.d7". Default rank, name, symbol, slug, id, price, changes, market cap, volume, supplies, FDV, last updated.
 * @param [includeStablecoins] TRUE (default) lists every coin; FALSE leaves out coins in the API's Stablecoin category and fills the count with the next ones.
 * @param invocation Invocation
 * @returns A table, one row per coin.
 * @cancelable
 */
export function markets(count?: number, sortBy?: string, sortOrder?: string, category?: any, tag?: any, ecosystem?: number, lifecycle?: string, currency?: string, headers?: any, fields?: any[][], includeStablecoins?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('MARKETS', invocation, [count, sortBy, sortOrder, category, tag, ecosystem, lifecycle, currency, headers, fields, includeStablecoins]);
}

/**
 * Search coins by name, slug or symbol.
 * @customfunction SEARCH
 * @helpurl https://localhost:3000/help/search.html
 * @param query Text to search for, e.g. "sol".
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns Matching coins with rank, name, symbol, slug and id.
 * @cancelable
 */
export function search(query: string, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('SEARCH', invocation, [query, headers]);
}

/**
 * A coin's profile: one field, or every field as a two-column table.
 * @customfunction PROFILE
 * @helpurl https://localhost:3000/help/profile.html
 * @param coin Coin id, slug, symbol or name.
 * @param [field] A profile field, e.g. "id", "rank", "lifecycle", "maxSupply", "listingDate". Omit for all fields.
 * @param [currency] For price, volume, market cap and FDV: "USD" (default), "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate.
 * @param invocation Invocation
 * @returns The field's value, or a field/value table.
 * @cancelable
 */
export function profile(coin: any, field?: string, currency?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('PROFILE', invocation, [coin, field, currency]);
}

/**
 * Token contracts of a coin on each blockchain.
 * @customfunction CONTRACTS
 * @helpurl https://localhost:3000/help/contracts.html
 * @param coin Coin id, slug, symbol or name.
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns Blockchain, address, decimals and explorer link per contract.
 * @cancelable
 */
export function contracts(coin: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('CONTRACTS', invocation, [coin, headers]);
}
