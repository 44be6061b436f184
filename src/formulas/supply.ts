/**
 * Supply: TOKENOMICS, VESTING, UNLOCKS, VCPRESSURE, HOLDERS.
 * Dates go out as Excel serial dates (UTC); a missing value is an empty cell.
 */
import { ENDPOINTS } from '../api/endpoints';
import { hasCode } from '../client/api-error';
import {
  HOLDER_BUCKETS, HOLDER_TIERS,
  type HolderBucket, type HolderItem, type HolderTier, type HoldersSummary, type Tokenomics, type UpcomingUnlock,
  type VcPressure, type VestingAllocation,
} from '../api/records';
import { boolArg, choiceArg, choicesOf, coinArg, fieldArg, headersArg, intArg, isBlank, numberArg, scalar, textArg, type Arg } from './args';
import { dateCell, decimalCell, fieldTable, invalidValue, recordCells, notAvailable, numberCell, table, textCell, type Cell, type Column, type Grid } from './cells';
import type { Catalog, FormulaContext } from './host';

const resolveCoin = (ctx: FormulaContext, input: string | number) =>
  ctx.client.resolveCoin(input);

// ---------------------------------------------------------------- TOKENOMICS

export const TOKENOMICS_FIELDS = {
  totalSupply: (t: Tokenomics) => decimalCell(t.totalSupply),
  maxSupply: (t: Tokenomics) => decimalCell(t.maxSupply),
  circulatingSupply: (t: Tokenomics) => decimalCell(t.circulatingSupply),
  circulatingPercent: (t: Tokenomics) => numberCell(t.circulatingPercent),
  fullyDilutedValuation: (t: Tokenomics) => decimalCell(t.fullyDilutedValuation),
  totalUnlockedAmount: (t: Tokenomics) => decimalCell(t.totalUnlockedAmount),
  totalUnlockedPercent: (t: Tokenomics) => numberCell(t.totalUnlockedPercent),
  totalLockedAmount: (t: Tokenomics) => decimalCell(t.totalLockedAmount),
  totalLockedPercent: (t: Tokenomics) => numberCell(t.totalLockedPercent),
  untrackedAmount: (t: Tokenomics) => decimalCell(t.untrackedAmount),
  untrackedPercent: (t: Tokenomics) => numberCell(t.untrackedPercent),
  nextUnlockDate: (t: Tokenomics) => dateCell(t.nextUnlockDate),
  nextUnlockTokenAmount: (t: Tokenomics) => decimalCell(t.nextUnlockTokenAmount),
  nextUnlockValue: (t: Tokenomics) => decimalCell(t.nextUnlockValue),
  nextUnlockPercentOfMcap: (t: Tokenomics) => numberCell(t.nextUnlockPercentOfMcap),
  nextUnlockPercentOfSupply: (t: Tokenomics) => numberCell(t.nextUnlockPercentOfSupply),
  vestingSourceUrls: (t: Tokenomics) => t.vestingSourceUrls.join(', '),
} as const satisfies Record<string, (t: Tokenomics) => Cell>;
const TOKENOMICS_FIELD_NAMES = Object.keys(TOKENOMICS_FIELDS);

async function tokenomics(ctx: FormulaContext, coin: Arg, field: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const f = fieldArg(field, TOKENOMICS_FIELD_NAMES);
  const ref = await resolveCoin(ctx, input);
  const res = await ctx.client.get('tokenomics', { id: ref.id });
  return recordCells(TOKENOMICS_FIELDS, res.data, f);
}

// ---------------------------------------------------------------- VESTING

export const VESTING_COLUMNS: Column<VestingAllocation>[] = [
  { header: 'Allocation', cell: (a) => a.allocationName },
  { header: 'Tracked', cell: (a) => a.isTracked },
  { header: 'Group dominance %', cell: (a) => numberCell(a.groupDominance) },
  { header: 'Locked %', cell: (a) => numberCell(a.lockedPercent) },
  { header: 'Unlocked %', cell: (a) => numberCell(a.unlockedPercent) },
  { header: 'Tokens', cell: (a) => decimalCell(a.tokens) },
  { header: '% of supply', cell: (a) => numberCell(a.percentOfSupply) },
  { header: 'Unlock type', cell: (a) => textCell(a.unlockType) },
  { header: 'Next unlock', cell: (a) => dateCell(a.nextUnlockDate) },
  { header: 'End date', cell: (a) => dateCell(a.endDate) },
];

async function vesting(ctx: FormulaContext, coin: Arg, includeUntracked: Arg, headers: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const untracked = boolArg(includeUntracked, 'includeUntracked', false);
  const showHeaders = headersArg(headers);
  const ref = await resolveCoin(ctx, input);
  const res = await ctx.client.get('vestingAllocations', {
    id: ref.id, query: { includeUntracked: untracked ? true : undefined },
  });
  // Empty by rule (the spec allows a coin without vesting data): say so, not a header row over nothing.
  if (res.data.length === 0 && !res.rejected) throw notAvailable(`${ref.name} has no vesting data`, 'NO_DATA');
  return table(res.data, VESTING_COLUMNS, showHeaders, `${ref.name} has no vesting allocations`, res.rejected);
}

// ---------------------------------------------------------------- UNLOCKS

const UNLOCK_PARAMS = ENDPOINTS.upcomingUnlocks.params;
const UNLOCK_SORT: Record<string, string> = {
  ...choicesOf(UNLOCK_PARAMS.sortBy.values),
  value: 'usdAmount', usd: 'usdAmount', amount: 'usdAmount', unlockvalue: 'usdAmount',
  mcap: 'percentOfMcap', percentofmarketcap: 'percentOfMcap',
};
export const UNLOCK_COLUMNS: Column<UpcomingUnlock>[] = [
  { header: 'Date', cell: (u) => dateCell(u.time) },
  { header: 'Coin', cell: (u) => u.name },
  { header: 'Symbol', cell: (u) => textCell(u.symbol) },
  { header: 'Tokens', cell: (u) => decimalCell(u.unlockTokens) },
  { header: 'Value USD', cell: (u) => decimalCell(u.unlockValue) },
  { header: '% of market cap', cell: (u) => numberCell(u.percentOfMcap) },
  { header: '% of supply', cell: (u) => numberCell(u.percentOfSupply) },
  { header: 'Price', cell: (u) => decimalCell(u.price) },
  { header: 'Market cap', cell: (u) => decimalCell(u.marketCap) },
];
export const MAX_UNLOCKS = 1000;
const DAY = 86_400_000;

async function unlocks(
  ctx: FormulaContext, daysAhead: Arg, sortBy: Arg, sortOrder: Arg, minUsdAmount: Arg, minPercentOfMcap: Arg, count: Arg, headers: Arg,
): Promise<Grid> {
  const days = intArg(daysAhead, 'daysAhead', UNLOCK_PARAMS.daysAhead.min, UNLOCK_PARAMS.daysAhead.max, UNLOCK_PARAMS.daysAhead.default);
  const sort = choiceArg(sortBy, 'sortBy', UNLOCK_SORT, 'date', UNLOCK_PARAMS.sortBy.values.map((x) => `"${x}"`).join(', '));
  const order = textArg(sortOrder, 'sortOrder') === null
    ? null
    : choiceArg(sortOrder, 'sortOrder', choicesOf(UNLOCK_PARAMS.sortOrder.values), undefined, '"asc" or "desc"');
  const minUsd = isBlank(scalar(minUsdAmount)) // 0 is a value here: a minimum that filters nothing
    ? undefined
    : intArg(minUsdAmount, 'minUsdAmount', UNLOCK_PARAMS.minUsdAmount.min, UNLOCK_PARAMS.minUsdAmount.max, undefined);
  const minPct = numberArg(minPercentOfMcap, 'minPercentOfMcap', undefined);
  const pctRange = UNLOCK_PARAMS.minPercentOfMcap;
  if (minPct !== undefined && (minPct < pctRange.min || minPct > pctRange.max)) {
    throw invalidValue(`minPercentOfMcap must be a percentage from ${pctRange.min} to ${pctRange.max}; got ${minPct}`);
  }
  const n = intArg(count, 'count', 1, MAX_UNLOCKS, ENDPOINTS.upcomingUnlocks.pageSize);
  const showHeaders = headersArg(headers);
  const empty = `No token unlocks in the next ${days} days match these filters`;
  // More than one page of 25, soonest first and unfiltered: /v3/token-unlocks/upcoming
  // answers the same list 200 a request, so a credit buys 8 times as many rows.
  if (n > ENDPOINTS.upcomingUnlocks.pageSize && sort === 'date' && (order ?? 'asc') === 'asc' && minUsd === undefined && minPct === undefined) {
    const horizon = Math.floor(ctx.now() / DAY) * DAY + (days + 1) * DAY;
    const soonest = await ctx.client
      .getPages('tokenUnlocks', { maxItems: n, takeWhile: (u) => (u as UpcomingUnlock).time < horizon })
      // Its plan and parameters are guesses: where the service says no, the list of 25 a page answers.
      .catch((e: unknown) => {
        if (hasCode(e, 'ENDPOINT_NOT_AVAILABLE', 'NOT_FOUND', 'VALIDATION_ERROR')) return null;
        throw e;
      });
    if (soonest) return table(soonest.data.slice(0, n), UNLOCK_COLUMNS, showHeaders, empty, soonest.rejected);
  }
  const res = await ctx.client.getPages('upcomingUnlocks', {
    query: {
      daysAhead: days,
      sortBy: sort,
      // Dates read soonest first; amounts read largest first.
      sortOrder: order ?? (sort === 'date' ? 'asc' : 'desc'),
      minUsdAmount: minUsd,
      minPercentOfMcap: minPct,
    },
    maxItems: n,
  });
  return table(res.data.slice(0, n), UNLOCK_COLUMNS, showHeaders, empty, res.rejected);
}

// ---------------------------------------------------------------- VCPRESSURE

export const VCPRESSURE_FIELDS = {
  dumpPressure: (p: VcPressure) => p.dumpPressure,
  dominance: (p: VcPressure) => numberCell(p.dominance),
  profit: (p: VcPressure) => numberCell(p.profit),
  nextUnlockDate: (p: VcPressure) => dateCell(p.nextUnlockDate),
  unlocked30d: (p: VcPressure) => numberCell(p.unlocked30d),
  circulatingSupply: (p: VcPressure) => decimalCell(p.circulatingSupply),
  priceChangePercent24h: (p: VcPressure) => numberCell(p.priceChangePercent24h),
  investorsCount: (p: VcPressure) => p.investors.length,
  investors: (p: VcPressure) => p.investors.map((i) => i.name).join(', '),
  'unlock.date': (p: VcPressure) => dateCell(p.unlock?.date),
  'unlock.tokenAmount': (p: VcPressure) => decimalCell(p.unlock?.tokenAmount),
  'unlock.usdAmount': (p: VcPressure) => decimalCell(p.unlock?.usdAmount),
  'unlock.percentOfSupply': (p: VcPressure) => numberCell(p.unlock?.percentOfSupply),
} as const satisfies Record<string, (p: VcPressure) => Cell>;
const VCPRESSURE_FIELD_NAMES = Object.keys(VCPRESSURE_FIELDS);

async function vcpressure(ctx: FormulaContext, coin: Arg, field: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const f = fieldArg(field, VCPRESSURE_FIELD_NAMES);
  const ref = await resolveCoin(ctx, input);
  const res = await ctx.client.get('vcPressure', { id: ref.id }).catch((e: unknown) => {
    // The service answers 404 for a coin without investor data: say which coin.
    if (hasCode(e, 'NOT_FOUND')) throw notAvailable(`${ref.name} has no VC pressure data`, 'NOT_FOUND');
    throw e;
  });
  return recordCells(VCPRESSURE_FIELDS, res.data, f);
}

// ---------------------------------------------------------------- HOLDERS

const VIEWS = choicesOf(['top', 'concentration', 'tiers', 'summary'] as const);
const VIEWS_SHOWN = '"top", "concentration", "tiers" or "summary"';

export const TOP_HOLDER_COLUMNS: Column<HolderItem>[] = [
  { header: 'Rank', cell: (h) => h.rank },
  { header: 'Address', cell: (h) => h.address },
  { header: 'Label', cell: (h) => textCell(h.label) },
  { header: 'Contract', cell: (h) => h.isContract },
  { header: 'Amount', cell: (h) => decimalCell(h.amount) },
  { header: '% of supply', cell: (h) => numberCell(h.percentOfSupply) },
  { header: 'Value USD', cell: (h) => decimalCell(h.value) },
];
export const CONCENTRATION_COLUMNS: Column<HolderBucket>[] = [
  { header: 'Bucket', cell: (b) => b.bucket },
  { header: 'Amount', cell: (b) => decimalCell(b.amount) },
  { header: '% of supply', cell: (b) => numberCell(b.percentOfSupply) },
  { header: 'Value USD', cell: (b) => decimalCell(b.value) },
];
export const TIER_COLUMNS: Column<HolderTier>[] = [
  { header: 'Tier', cell: (t) => t.tier },
  { header: 'Holders', cell: (t) => t.holdersCount },
  { header: '% of holders', cell: (t) => numberCell(t.holdersPercent) },
];
export const HOLDERS_SUMMARY_FIELDS = {
  holdersCount: (s: HoldersSummary) => numberCell(s.holdersCount),
  totalSupply: (s: HoldersSummary) => decimalCell(s.totalSupply),
  top100Share: (s: HoldersSummary) => numberCell(s.top100Share),
  walletsShare: (s: HoldersSummary) => numberCell(s.walletsShare),
  contractsShare: (s: HoldersSummary) => numberCell(s.contractsShare),
  snapshotDate: (s: HoldersSummary) => dateCell(s.snapshotDate),
  blockchainId: (s: HoldersSummary) => numberCell(s.blockchainId),
} as const satisfies Record<string, (s: HoldersSummary) => Cell>;

const orderBy = <T, K extends string>(rows: readonly T[], key: (r: T) => K, order: readonly K[]) =>
  [...rows].sort((a, b) => order.indexOf(key(a)) - order.indexOf(key(b)));

async function holders(ctx: FormulaContext, coin: Arg, view: Arg, headers: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const v = choiceArg(view, 'view', VIEWS, 'top', VIEWS_SHOWN);
  const showHeaders = headersArg(headers);
  const ref = await resolveCoin(ctx, input);
  // Empty by rule (a native coin such as ethereum has no token holders; the spec's
  // blockchainId is then null): say so, not a header row over nothing.
  const none = () => notAvailable(`No holders data for ${ref.name}: the API has none for native coins and coins without a token contract`, 'NO_DATA');
  if (v === 'top') {
    const res = await ctx.client.get('holders', { id: ref.id });
    if (res.data.length === 0 && !res.rejected) throw none();
    const rows = [...res.data].sort((a, b) => a.rank - b.rank);
    return table(rows, TOP_HOLDER_COLUMNS, showHeaders, `No holders data for ${ref.name}`, res.rejected);
  }
  const res = await ctx.client.get('holdersSummary', { id: ref.id });
  const s = res.data;
  if (s.blockchainId === null && s.holdersCount === null) throw none();
  switch (v) {
    case 'concentration':
      return table(orderBy(s.concentration, (b) => b.bucket, HOLDER_BUCKETS), CONCENTRATION_COLUMNS, showHeaders, `No holders data for ${ref.name}`);
    case 'tiers':
      return table(orderBy(s.tierDistribution, (t) => t.tier, HOLDER_TIERS), TIER_COLUMNS, showHeaders, `No holder tiers for ${ref.name}`);
    case 'summary':
      return fieldTable(Object.entries(HOLDERS_SUMMARY_FIELDS).map(([k, cell]) => [k, cell(s)]), showHeaders);
  }
}

export const supplyFormulas: Catalog = {
  TOKENOMICS: tokenomics,
  VESTING: vesting,
  UNLOCKS: unlocks,
  VCPRESSURE: vcpressure,
  HOLDERS: holders,
};
