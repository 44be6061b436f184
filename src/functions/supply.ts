/*
 * CRYPTO.* functions for supply: TOKENOMICS, VESTING, UNLOCKS, VCPRESSURE,
 * HOLDERS. Thin, documented wrappers: the JSDoc here becomes functions.json,
 * the work happens in src/formulas/supply.ts through the calculation host.
 * Function ids are stable once shipped: Excel caches them.
 */
import { run } from '../office/custom-functions';

// Custom enums (@customenum): the values Excel offers in AutoComplete for a choice argument; older builds ignore them and the argument takes text as before (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-custom-enums). The formulas still accept every spelling they list in their errors; test/custom-enums.test.ts keeps these lists and theirs in step. Values in double quotes: the generator reads them as JSON.

/**
 * Fields of CRYPTO.TOKENOMICS.
 * @customenum {string}
 */
enum TokenomicsField {
  /** Field: totalSupply */
  totalSupply = "totalSupply",
  /** Field: maxSupply */
  maxSupply = "maxSupply",
  /** Field: circulatingSupply */
  circulatingSupply = "circulatingSupply",
  /** Field: circulatingPercent */
  circulatingPercent = "circulatingPercent",
  /** Field: fullyDilutedValuation */
  fullyDilutedValuation = "fullyDilutedValuation",
  /** Field: totalUnlockedAmount */
  totalUnlockedAmount = "totalUnlockedAmount",
  /** Field: totalUnlockedPercent */
  totalUnlockedPercent = "totalUnlockedPercent",
  /** Field: totalLockedAmount */
  totalLockedAmount = "totalLockedAmount",
  /** Field: totalLockedPercent */
  totalLockedPercent = "totalLockedPercent",
  /** Field: untrackedAmount */
  untrackedAmount = "untrackedAmount",
  /** Field: untrackedPercent */
  untrackedPercent = "untrackedPercent",
  /** Field: nextUnlockDate */
  nextUnlockDate = "nextUnlockDate",
  /** Field: nextUnlockTokenAmount */
  nextUnlockTokenAmount = "nextUnlockTokenAmount",
  /** Field: nextUnlockValue */
  nextUnlockValue = "nextUnlockValue",
  /** Field: nextUnlockPercentOfMcap */
  nextUnlockPercentOfMcap = "nextUnlockPercentOfMcap",
  /** Field: nextUnlockPercentOfSupply */
  nextUnlockPercentOfSupply = "nextUnlockPercentOfSupply",
  /** Field: vestingSourceUrls */
  vestingSourceUrls = "vestingSourceUrls",
}

/**
 * Orders of CRYPTO.UNLOCKS.
 * @customenum {string}
 */
enum UnlocksSortBy {
  /** By date (default) */
  date = "date",
  /** By USD amount */
  usdAmount = "usdAmount",
  /** By share of market cap */
  percentOfMcap = "percentOfMcap",
}

/**
 * Sort directions.
 * @customenum {string}
 */
enum UnlocksSortOrder {
  /** Ascending */
  asc = "asc",
  /** Descending */
  desc = "desc",
}

/**
 * Fields of CRYPTO.VCPRESSURE.
 * @customenum {string}
 */
enum VcPressureField {
  /** Field: dumpPressure */
  dumpPressure = "dumpPressure",
  /** Field: dominance */
  dominance = "dominance",
  /** Field: profit */
  profit = "profit",
  /** Field: nextUnlockDate */
  nextUnlockDate = "nextUnlockDate",
  /** Field: unlocked30d */
  unlocked30d = "unlocked30d",
  /** Field: circulatingSupply */
  circulatingSupply = "circulatingSupply",
  /** Field: priceChangePercent24h */
  priceChangePercent24h = "priceChangePercent24h",
  /** Field: investorsCount */
  investorsCount = "investorsCount",
  /** Field: investors */
  investors = "investors",
  /** Field: unlock.date */
  unlockDate = "unlock.date",
  /** Field: unlock.tokenAmount */
  unlockTokenAmount = "unlock.tokenAmount",
  /** Field: unlock.usdAmount */
  unlockUsdAmount = "unlock.usdAmount",
  /** Field: unlock.percentOfSupply */
  unlockPercentOfSupply = "unlock.percentOfSupply",
}

/**
 * Views of CRYPTO.HOLDERS.
 * @customenum {string}
 */
enum HoldersView {
  /** The 100 largest holders (default) */
  top = "top",
  /** Shares of the top 1-5 ... outside the top 100 */
  concentration = "concentration",
  /** Whale ... shrimp tiers */
  tiers = "tiers",
  /** Holder count and snapshot */
  summary = "summary",
}

/**
 * A coin's tokenomics: supply, locked and unlocked shares, next unlock. One field, or every field as a two-column table. A field the service does not report (the documented API has no untracked figures) is #N/A naming it.
 * @customfunction TOKENOMICS
 * @helpurl https://localhost:3000/help/tokenomics.html
 * @param coin Coin id, slug, symbol or name.
 * @param [field] e.g. totalSupply, maxSupply, circulatingPercent, totalLockedPercent, totalUnlockedPercent, untrackedPercent, nextUnlockDate, nextUnlockValue, vestingSourceUrls. Omit for all fields.
 * @param invocation Invocation
 * @returns The field's value (dates as Excel dates), or a field/value table.
 * @cancelable
 * @requiresAddress
 */
export function tokenomics(coin: any, field?: TokenomicsField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('TOKENOMICS', invocation, [coin, field]);
}

/**
 * Vesting allocations of a coin: locked and unlocked shares and tokens, unlock type, the next unlock (date, tokens, USD) and end date per allocation. A field the service does not report (the documented API has no end date) is #N/A naming it.
 * @customfunction VESTING
 * @helpurl https://localhost:3000/help/vesting.html
 * @param coin Coin id, slug, symbol or name.
 * @param [includeUntracked] TRUE asks also for allocations without a known unlock schedule, where the service offers them (its documented API lists tracked allocations only: then #N/A says so); FALSE (default) leaves them out.
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns Allocation, Tracked, Group dominance %, Locked %, Unlocked %, Tokens, % of supply, Unlock type, Next unlock, End date, Unlocked tokens, Locked tokens, Next unlock tokens, Next unlock USD.
 * @cancelable
 * @requiresAddress
 */
export function vesting(coin: any, includeUntracked?: any, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('VESTING', invocation, [coin, includeUntracked, headers]);
}

/**
 * Every token unlock across all coins within daysAhead, soonest first by default, 200 per request, up to 1,000 rows: when more exist, a last row says so and names the date reached. Slug and Id columns feed other formulas.
 * @customfunction UNLOCKS
 * @helpurl https://localhost:3000/help/unlocks.html
 * @param [daysAhead] How many days ahead, 1 to 365 (default 30).
 * @param [sortBy] "date" (default), "usdAmount" or "percentOfMcap".
 * @param [sortOrder] "asc" or "desc" (default: asc for date, desc otherwise).
 * @param [minUsdAmount] Only unlocks worth at least this many USD.
 * @param [minPercentOfMcap] Only unlocks of at least this % of market cap (whole number, 0 to 100).
 * @param [count] At most this many unlocks, 1 to 1000, without a note row (default: all of them, up to 1,000).
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns Date, Coin, Symbol, Tokens, Value USD, % of market cap, % of supply, Price, Market cap, Slug, Id.
 * @cancelable
 * @requiresAddress
 */
export function unlocks(daysAhead?: number, sortBy?: UnlocksSortBy, sortOrder?: UnlocksSortOrder, minUsdAmount?: number, minPercentOfMcap?: number, count?: number, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('UNLOCKS', invocation, [daysAhead, sortBy, sortOrder, minUsdAmount, minPercentOfMcap, count, headers]);
}

/**
 * Investor (VC) selling pressure on a coin: dump pressure, investor dominance and profit, the next VC unlock. One field, or every field as a two-column table.
 * @customfunction VCPRESSURE
 * @helpurl https://localhost:3000/help/vcpressure.html
 * @param coin Coin id, slug, symbol or name.
 * @param [field] dumpPressure, dominance, profit, nextUnlockDate, unlocked30d, circulatingSupply, priceChangePercent24h, investorsCount, investors, unlock.date, unlock.tokenAmount, unlock.usdAmount or unlock.percentOfSupply. Omit for all fields.
 * @param invocation Invocation
 * @returns The field's value, or a field/value table.
 * @cancelable
 * @requiresAddress
 */
export function vcpressure(coin: any, field?: VcPressureField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('VCPRESSURE', invocation, [coin, field]);
}

/**
 * Who holds a token: the top 100 holders, concentration buckets, holder tiers, or a summary.
 * @customfunction HOLDERS
 * @helpurl https://localhost:3000/help/holders.html
 * @param coin Coin id, slug, symbol or name.
 * @param [view] "top" (default: the 100 largest holders), "concentration" (top 1-5 ... outside the top 100), "tiers" (whale ... shrimp) or "summary".
 * @param [headers] 1 (default) shows a header row, 0 hides it.
 * @param invocation Invocation
 * @returns A table for the view chosen.
 * @cancelable
 * @requiresAddress
 */
export function holders(coin: any, view?: HoldersView, headers?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('HOLDERS', invocation, [coin, view, headers]);
}
