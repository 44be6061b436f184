/*
 * CRYPTO.* functions for currencies and markets. Each is a thin, documented
 * wrapper: the JSDoc here becomes functions.json (custom-functions-metadata-plugin),
 * the work happens in src/formulas through the calculation host.
 * Function ids are stable once shipped: Excel caches them.
 */
import { run } from '../office/custom-functions';

// Custom enums (@customenum): the values Excel offers in AutoComplete for a choice argument; older builds ignore them and the argument takes text as before (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-custom-enums). The formulas still accept every spelling they list in their errors; test/custom-enums.test.ts keeps these lists and theirs in step. Values in double quotes: the generator reads them as JSON.

/**
 * Quote currencies: a suggestion list (SUGGESTED_CURRENCIES in src/formulas/args.ts); any code of the provider's fiat list is taken.
 * @customenum {string}
 */
enum Currency {
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
 * Orders of CRYPTO.MARKETS.
 * @customenum {string}
 */
enum MarketsSortBy {
  /** By rank (default) */
  rank = "rank",
  /** By market cap */
  marketCap = "marketCap",
  /** By 24 h volume */
  volume24h = "volume24h",
  /** By 24 h change */
  change24h = "change24h",
  /** By 7 d change */
  change7d = "change7d",
}

/**
 * Sort directions.
 * @customenum {string}
 */
enum MarketsSortOrder {
  /** Ascending */
  asc = "asc",
  /** Descending */
  desc = "desc",
}

/**
 * Which coins CRYPTO.MARKETS lists.
 * @customenum {string}
 */
enum MarketsLifecycle {
  /** Traded coins (default) */
  traded = "traded",
  /** Upcoming coins */
  upcoming = "upcoming",
}

/**
 * Fields of CRYPTO.PROFILE.
 * @customenum {string}
 */
enum ProfileField {
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
  /** Field: type */
  type = "type",
  /** Field: lifecycle */
  lifecycle = "lifecycle",
  /** Field: category */
  category = "category",
  /** Field: tags */
  tags = "tags",
  /** Field: imageUrl */
  imageUrl = "imageUrl",
  /** Field: description */
  description = "description",
  /** Field: listingDate */
  listingDate = "listingDate",
  /** Field: links */
  links = "links",
  /** Field: price */
  price = "price",
  /** Field: pricePercentChange.h24 */
  pricePercentChangeH24 = "pricePercentChange.h24",
  /** Field: pricePercentChange.d7 */
  pricePercentChangeD7 = "pricePercentChange.d7",
  /** Field: pricePercentChange.d30 */
  pricePercentChangeD30 = "pricePercentChange.d30",
  /** Field: pricePercentChange.m3 */
  pricePercentChangeM3 = "pricePercentChange.m3",
  /** Field: pricePercentChange.ytd */
  pricePercentChangeYtd = "pricePercentChange.ytd",
  /** Field: volume24h */
  volume24h = "volume24h",
  /** Field: marketCap */
  marketCap = "marketCap",
  /** Field: volMcapRatio */
  volMcapRatio = "volMcapRatio",
  /** Field: volatility */
  volatility = "volatility",
  /** Field: high24hUsd */
  high24hUsd = "high24hUsd",
  /** Field: low24hUsd */
  low24hUsd = "low24hUsd",
  /** Field: fullyDilutedValuation */
  fullyDilutedValuation = "fullyDilutedValuation",
  /** Field: circulatingPercent */
  circulatingPercent = "circulatingPercent",
  /** Field: circulatingSupply */
  circulatingSupply = "circulatingSupply",
  /** Field: totalSupply */
  totalSupply = "totalSupply",
  /** Field: maxSupply */
  maxSupply = "maxSupply",
}

/**
 * Latest price of a coin.
 * @customfunction PRICE
 * @helpurl https://localhost:3000/help/price.html
 * @param coin Coin id, slug, symbol or name, e.g. "bitcoin", "BTC" or 1.
 * @param [currency] "USD", "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate. Left out: the task pane's default currency (USD unless changed).
 * @param invocation Invocation
 * @returns The price.
 * @cancelable
 * @requiresAddress
 */
// Promise<any>, not <number>: a price kept after a failure goes back marked "(stale)" as a formatted number on
// CustomFunctionsRuntime 1.4 (formulas/provenance.ts markStale), an object a result typed number may refuse.
// Microsoft's formatted-number example declares no type (learn.microsoft.com/office/dev/add-ins/excel/
// custom-functions-data-types-concepts, "Output a formatted number"); what a typed result does is not stated.
export function price(coin: any, currency?: Currency, invocation?: CustomFunctions.CancelableInvocation): Promise<any> {
  return run('PRICE', invocation, [coin, currency]);
}

/**
 * Market fields for one coin or a range of coins, as a grid.
 * @customfunction QUOTE
 * @helpurl https://localhost:3000/help/quote.html
 * @param coins A coin or a range of coins (id, slug, symbol or name).
 * @param [fields] Field names, a range or comma-separated: price, marketCap, volume24h, percentChange.h24, rank, circulatingSupply...; CRYPTO.PROFILE's names for the same figures work too (pricePercentChange.h24; high24hUsd in USD).
 * @param [currency] "USD", "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate. Left out: the task pane's default currency (USD unless changed).
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns A row per coin.
 * @cancelable
 * @requiresAddress
 */
export function quote(coins: any[][], fields?: any[][], currency?: Currency, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
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
 * @param [ecosystem] Ecosystem id: a number, as the service's coin records list a coin's ecosystems (no formula lists them yet).
 * @param [lifecycle] "traded" (default) or "upcoming".
 * @param [currency] "USD", "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate. Left out: the task pane's default currency (USD unless changed).
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param [fields] Columns: CRYPTO.QUOTE's field names, comma-separated or a range, e.g. "name,price,percentChange.d7". Default rank, name, symbol, slug, id, price, changes, market cap, volume, supplies, FDV, last updated.
 * @param [excludeStablecoins] TRUE leaves out coins in the API's Stablecoin category and fills the count with the next ones; FALSE (default) lists every coin.
 * @param invocation Invocation
 * @returns A table, one row per coin.
 * @cancelable
 * @requiresAddress
 */
export function markets(count?: number, sortBy?: MarketsSortBy, sortOrder?: MarketsSortOrder, category?: any, tag?: any, ecosystem?: number, lifecycle?: MarketsLifecycle, currency?: Currency, headers?: any, fields?: any[][], excludeStablecoins?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('MARKETS', invocation, [count, sortBy, sortOrder, category, tag, ecosystem, lifecycle, currency, headers, fields, excludeStablecoins]);
}

/**
 * Search coins by name, slug or symbol: up to 50 matches, best first. On a plan without the search endpoint (Sandbox), from the coin list the add-in keeps.
 * @customfunction SEARCH
 * @helpurl https://localhost:3000/help/search.html
 * @param query Text to search for, e.g. "sol".
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns Matching coins with rank, name, symbol, slug and id; a last row says when more may match. From the coin list, a rank not yet known is blank and the last row says so.
 * @cancelable
 * @requiresAddress
 */
export function search(query: string, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('SEARCH', invocation, [query, headers]);
}

/**
 * A coin's profile: one field, or every field as a two-column table.
 * @customfunction PROFILE
 * @helpurl https://localhost:3000/help/profile.html
 * @param coin Coin id, slug, symbol or name.
 * @param [field] A profile field, e.g. "id", "rank", "lifecycle", "maxSupply", "listingDate"; CRYPTO.QUOTE's names for the same figures work too ("percentChange.h24", "high24h" in USD). Omit for all fields.
 * @param [currency] For price, volume, market cap and FDV: "USD", "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate. Left out: the task pane's default currency (USD unless changed).
 * @param invocation Invocation
 * @returns The field's value, or a field/value table.
 * @cancelable
 * @requiresAddress
 */
export function profile(coin: any, field?: ProfileField, currency?: Currency, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
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
 * @requiresAddress
 */
export function contracts(coin: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('CONTRACTS', invocation, [coin, headers]);
}
