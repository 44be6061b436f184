/**
 * THE table of endpoints: path, query parameters, lowest plan, credit cost rule,
 * freshness class and the schema of `data`. The local API server validates and
 * prices requests from it; the client builds, validates and caches requests from
 * it. A correction to a path or a parameter is a one-line change here.
 *
 * Tags as in the team's API notes (what is known beyond the spec): entries without a tag come from the
 * spec or the notes' [doc]/[inv]/[live] material; `guess` marks a parameter
 * name or shape that no public material confirms.
 */
import * as v from 'valibot';
import * as R from './records';
import * as V from './variants';
import { DAY_MS, startOfUtcDay } from './utc-day';

// ---------------------------------------------------------------- plans
export const PLANS = ['Sandbox', 'Basic', 'Advanced', 'Pro'] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanLimits {
  rateLimitPerMinute: number;
  monthlyCredits: number;
  /** Sandbox's 400 is [live]; the others scale with the monthly figure (guess: monthly / 25). */
  dailyCredits: number;
}
export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  Sandbox: { rateLimitPerMinute: 10, monthlyCredits: 10_000, dailyCredits: 400 },
  Basic: { rateLimitPerMinute: 30, monthlyCredits: 100_000, dailyCredits: 4_000 },
  Advanced: { rateLimitPerMinute: 60, monthlyCredits: 600_000, dailyCredits: 24_000 },
  Pro: { rateLimitPerMinute: 100, monthlyCredits: 2_000_000, dailyCredits: 80_000 },
};
/** What a key may call before the client has read /v3/status. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = PLAN_LIMITS.Sandbox.rateLimitPerMinute;

/**
 * How far back the price-and-volume chart (the sparkline endpoint) reaches, in days, per plan:
 * `intraday` at 5m, 15m and 1h, `daily` at 1d; Infinity = the coin's full history. [doc: the
 * provider's sparkline page: "Basic 30 days at 5m/15m/1h and 1 year at 1d; Advanced 30 days and
 * 2 years; Pro 90 days and 5 years; Business 1 year and full history" (team API notes, "Round
 * two")]. Sandbox has no sparkline (the endpoint is Basic). Business is not one of PLANS (the
 * plan gate leaves a plan it does not know by name to the service) but its depth is documented,
 * so it is here by name. A year is 365 days, "from today's UTC day back" (chartReachStart).
 * Only this table's rule is certain enough to refuse a range locally; the hourly candles
 * (`ohlcv`) and the daily candles (`candles`) have no documented depth: the service judges
 * those (src/formulas/reach.ts).
 */
export type ChartPlan = Plan | 'Business';
export const CHART_DEPTH_DAYS: Readonly<Record<ChartPlan, { intraday: number; daily: number }>> = {
  Sandbox: { intraday: 0, daily: 0 },
  Basic: { intraday: 30, daily: 365 },
  Advanced: { intraday: 30, daily: 2 * 365 },
  Pro: { intraday: 90, daily: 5 * 365 },
  Business: { intraday: 365, daily: Infinity },
};

/** The documented chart depth of a plan named in /v3/status, at one interval; null when the plan is not one the table knows. */
export function chartDepthDays(plan: string | null | undefined, interval: string): number | null {
  if (!plan || !Object.hasOwn(CHART_DEPTH_DAYS, plan)) return null;
  return CHART_DEPTH_DAYS[plan as ChartPlan][interval === '1d' ? 'daily' : 'intraday'];
}

/**
 * The earliest instant the chart reaches on a plan: `days` whole UTC days before today's start
 * (the day a look-back such as "30D" starts on is inside). -Infinity for the full history.
 * The local API server refuses a `from` before it; the client refuses it before sending.
 */
export function chartReachStart(days: number, now: number): number {
  if (days === Infinity) return Number.NEGATIVE_INFINITY;
  return startOfUtcDay(now) - days * DAY_MS;
}

/** Whether a plan name (from /v3/status) is one of ours; own names only. */
export function isPlan(p: string): p is Plan {
  return (PLANS as readonly string[]).includes(p);
}

export function planAllows(plan: Plan, required: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(required);
}

// ---------------------------------------------------------------- parameters
export type ParamSpec =
  | { kind: 'int'; min: number; max: number; default?: number; required?: boolean }
  /** A decimal number, e.g. a percentage threshold. */
  | { kind: 'number'; min: number; max: number; required?: boolean }
  | { kind: 'enum'; values: readonly string[]; default?: string; required?: boolean }
  /** ISO 8601, or Unix seconds or milliseconds [doc]. */
  | { kind: 'time'; required?: boolean }
  | { kind: 'string'; minLength: number; maxLength: number; required?: boolean }
  /** Comma-separated positive integer ids. */
  | { kind: 'ids'; max: number; required?: boolean }
  | { kind: 'bool'; default?: boolean };

export const CONVERT_CURRENCIES = ['USD', 'EUR'] as const;
export type ConvertCurrency = (typeof CONVERT_CURRENCIES)[number];

const convert: ParamSpec = { kind: 'enum', values: CONVERT_CURRENCIES, default: 'USD' };
/** guess: the dominance chart's groups (the docs name BTC, ETH, TOP-10 MCap "etc."); others = all but BTC and ETH, as in the snapshot. */
export const DOMINANCE_GROUPS = ['btc', 'eth', 'usdt', 'others'] as const;
const from: ParamSpec = { kind: 'time', required: true };
const fromOptional: ParamSpec = { kind: 'time' };
const to: ParamSpec = { kind: 'time' };

// ---------------------------------------------------------------- cost and freshness
/**
 * - free: costs nothing (/v3/status, /v3/ping);
 * - flat: 1 credit per request;
 * - markets: 1, +1 for convert other than USD, +1 for include=sparkline7d (spec);
 * - buckets: 1 + 1 per 100 buckets beyond the first 100 (history, [doc]).
 */
export type CostRule = 'free' | 'flat' | 'markets' | 'buckets';

/**
 * How long a response may be reused:
 * - live: market data that moves (about a minute, configurable);
 * - history: a time series; closed periods keep for a day or more, but a range
 *   that reaches the current (incomplete) period is treated as live;
 * - reference: slow-moving lists (currency map, categories, blockchains map): a day;
 * - account: plan and credits: never served from cache for long.
 */
export type Freshness = 'live' | 'history' | 'reference' | 'account' | 'window';

/** How long each class keeps by default (ms); the live figure is a user setting (office/settings.ts). */
export const DEFAULT_FRESHNESS_MS: Readonly<Record<Freshness, number>> = {
  live: 60_000,
  history: 24 * 3_600_000,
  reference: 24 * 3_600_000,
  account: 15_000,
  // Where a plan's sliding window of hours starts (canonical-request.ts freshnessOf): it moves an hour per hour.
  window: 3_600_000,
};

export interface EndpointSpec {
  path: string;
  plan: Plan;
  cost: CostRule;
  freshness: Freshness;
  params: Readonly<Record<string, ParamSpec>>;
  /** Schema of `data` (or of the whole body when `wrapped` is false). */
  data: v.GenericSchema;
  /**
   * Paginated endpoints carry `meta`. pageSize is fixed per endpoint, except on
   * the markets list, where a page is `limit` items and this is its largest page.
   */
  pageSize?: number;
  /** Holders answer with a richer meta record. */
  meta?: v.GenericSchema;
  /** /v3/status is not wrapped in the envelope [live]. */
  wrapped?: false;
  /** Documented variants of the record (of one item, for lists) into `data`'s shape: see variants.ts. */
  variant?: V.Variant;
  /** A documented variant of the whole answer (before its items are read): see variants.ts. */
  answerVariant?: V.AnswerVariant;
  /**
   * How the client reads more than one page (client/paging.ts): `offset` moves
   * `offset` by `pageSize` (sent as `limit`) while pages are full; `page` counts
   * `page` up while meta.hasNextPage; `time` moves `from` past the last item while
   * pages are full. Without it, one request.
   */
  paging?: 'offset' | 'page' | 'time';
  /**
   * Where the key's plan lacks this endpoint, the formula answers from this one
   * instead (search → the currency map: formulas/search.ts), so a lower plan is
   * no #N/A (the builder's plan note reads it).
   */
  standIn?: string;
}

/**
 * The items a page holds, for paging by offset or page number (client/paging.ts,
 * the builder's cost): every such row gives its pageSize (test/client-core.test.ts),
 * so the fallback of one item a page never decides.
 */
export const pageSizeOf = (spec: Pick<EndpointSpec, 'pageSize'>): number => spec.pageSize ?? 1;

const list = <T extends v.GenericSchema>(s: T) => v.array(s);

export const ENDPOINTS = {
  status: { path: '/v3/status', plan: 'Sandbox', cost: 'free', freshness: 'account', params: {}, data: R.AccountStatus, wrapped: false, variant: V.statusVariant },
  ping: { path: '/v3/ping', plan: 'Sandbox', cost: 'free', freshness: 'account', params: {}, data: v.unknown() },

  // currencies: reference
  currencyMap: { path: '/v3/currencies/map', plan: 'Sandbox', cost: 'flat', freshness: 'reference', params: {}, data: list(R.CurrencyMapItem) },
  categories: { path: '/v3/currencies/categories', plan: 'Sandbox', cost: 'flat', freshness: 'reference', params: {}, data: list(R.CurrencyCategory) },
  tags: { path: '/v3/currencies/tags', plan: 'Sandbox', cost: 'flat', freshness: 'reference', params: {}, data: list(R.CurrencyTag) },
  search: {
    path: '/v3/currencies/search', plan: 'Basic', cost: 'flat', freshness: 'reference',
    params: { query: { kind: 'string', minLength: 1, maxLength: 100, required: true } }, // guess: `query`
    data: list(R.CurrencySearchItem),
    standIn: 'currencyMap',
  },
  currencyList: {
    path: '/v3/currencies/list', plan: 'Sandbox', cost: 'flat', freshness: 'live', pageSize: 100, paging: 'page',
    // guess: page and currencyIds; `limit`, `orderBy`, `orderDirection` are rejected [live]
    params: { page: { kind: 'int', min: 1, max: 1000, default: 1 }, currencyIds: { kind: 'ids', max: 100 } },
    data: list(R.CurrencyListItem),
  },

  /**
   * Fiat currencies with their rates [inv: in the live Sandbox endpoint list; items `id, name, slug,
   * symbol, price`]. No public page says what `price` is measured in (searched the provider's docs);
   * guess: USD per one unit of the fiat, as every other `price` of the API is the USD price of one
   * unit (the spec calls the `fiat` currency type a "price reference"). guess: `symbol` is the ISO
   * 4217 code ("GBP"); no parameters; one page; 1 credit. Conversions read it in one place:
   * src/formulas/currency.ts (usdPerUnit).
   */
  fiatList: { path: '/v3/fiat/list', plan: 'Sandbox', cost: 'flat', freshness: 'live', params: {}, data: list(R.FiatItem) },

  // currencies: market data
  markets: {
    path: '/v3/currencies/markets', plan: 'Sandbox', cost: 'markets', freshness: 'live', pageSize: 250, paging: 'offset',
    params: {
      offset: { kind: 'int', min: 0, max: 50_000, default: 0 },
      limit: { kind: 'int', min: 1, max: 250, default: 100 },
      sortBy: { kind: 'enum', values: ['change24h', 'change7d', 'marketCap', 'rank', 'volume24h'], default: 'rank' },
      sortOrder: { kind: 'enum', values: ['asc', 'desc'], default: 'asc' },
      category: { kind: 'int', min: 1, max: 1_000_000 },
      tag: { kind: 'int', min: 1, max: 1_000_000 },
      ecosystem: { kind: 'int', min: 1, max: 1_000_000 },
      lifecycle: { kind: 'enum', values: ['traded', 'upcoming'], default: 'traded' },
      convert,
      include: { kind: 'enum', values: ['sparkline7d'] },
    },
    data: list(R.MarketItem),
  },
  profile: { path: '/v3/currencies/{id}', plan: 'Sandbox', cost: 'flat', freshness: 'live', params: { convert }, data: R.Profile },
  contracts: { path: '/v3/currencies/{id}/contracts', plan: 'Basic', cost: 'flat', freshness: 'reference', params: {}, data: list(R.CurrencyContract) },
  tokenomics: { path: '/v3/currencies/{id}/tokenomics', plan: 'Advanced', cost: 'flat', freshness: 'live', params: {}, data: R.Tokenomics, variant: V.tokenomicsVariant },
  performance: { path: '/v3/currencies/{id}/performance', plan: 'Advanced', cost: 'flat', freshness: 'live', params: {}, data: R.Performance },
  /**
   * [doc]: `from`, `to`, `interval` 5m/15m/1h (default)/1d, `sortOrder`; how deep it reaches
   * depends on the plan (CHART_DEPTH_DAYS). guess: without `from`, the last 7 days; 1 credit.
   */
  sparkline: {
    path: '/v3/currencies/{id}/sparkline', plan: 'Basic', cost: 'flat', freshness: 'live',
    params: {
      from: fromOptional,
      to,
      interval: { kind: 'enum', values: ['5m', '15m', '1h', '1d'], default: '1h' },
      sortOrder: { kind: 'enum', values: ['asc', 'desc'], default: 'asc' },
    },
    data: list(R.SparklinePoint), answerVariant: V.sparklineAnswerVariant,
  },
  trending: { path: '/v3/currencies/trending', plan: 'Sandbox', cost: 'flat', freshness: 'live', params: {}, data: list(R.TrendingItem) },
  gainersLosers: {
    path: '/v3/currencies/gainers-losers', plan: 'Basic', cost: 'flat', freshness: 'live',
    params: {
      // guess: all three names
      type: { kind: 'enum', values: ['gainers', 'losers'], default: 'gainers' },
      period: { kind: 'enum', values: ['24h', '7d', '30d'], default: '24h' },
      limit: { kind: 'int', min: 1, max: 100, default: 20 },
    },
    data: list(R.GainerLoser),
  },
  derivatives: { path: '/v3/currencies/derivatives', plan: 'Advanced', cost: 'flat', freshness: 'live', params: {}, data: R.DerivativesSnapshot },

  // currencies: history
  /** Daily/weekly/monthly candles [doc]; page by moving `from` when a page is full. */
  candles: {
    path: '/v3/currencies/{id}/historical', plan: 'Advanced', cost: 'buckets', freshness: 'history', paging: 'time',
    params: {
      interval: { kind: 'enum', values: ['day', 'week', 'month'], default: 'day' },
      from,
      to,
      limit: { kind: 'int', min: 1, max: 5000, default: 5000 },
    },
    data: list(R.Candle), variant: V.candleVariant,
  },
  /**
   * guess: hourly candles, the same parameters shape as `candles`; how far back they reach is not
   * documented (the local API server keeps 720 hours): the client asks as given and reads the
   * reach from the answer (src/formulas/reach.ts), never refusing a range before a request.
   */
  ohlcv: {
    path: '/v3/currencies/{id}/ohlcv', plan: 'Advanced', cost: 'buckets', freshness: 'history', paging: 'time',
    params: { interval: { kind: 'enum', values: ['hour'], default: 'hour' }, from, to, limit: { kind: 'int', min: 1, max: 720, default: 720 } },
    data: list(R.Candle), variant: V.candleVariant,
  },
  // Live, not history: its last period is always the current, incomplete one.
  returns: {
    path: '/v3/currencies/{id}/analytics/returns', plan: 'Advanced', cost: 'flat', freshness: 'live',
    params: { period: { kind: 'enum', values: ['monthly', 'quarterly', 'yearly'], required: true } },
    data: list(R.PeriodicReturn),
  },
  /** The historical item: several coins at one date (guess: `date`, `currencyIds`). */
  historicalItem: {
    path: '/v3/currencies/historical', plan: 'Advanced', cost: 'flat', freshness: 'history',
    params: { date: { kind: 'time', required: true }, currencyIds: { kind: 'ids', max: 100, required: true }, convert },
    data: list(R.HistoricalItem),
  },

  // currencies: supply
  holders: {
    path: '/v3/currencies/{id}/holders', plan: 'Advanced', cost: 'flat', freshness: 'live', pageSize: 100, paging: 'page',
    params: { page: { kind: 'int', min: 1, max: 10, default: 1 } },
    data: list(R.HolderItem), meta: R.HoldersMeta,
  },
  holdersSummary: { path: '/v3/currencies/{id}/holders/summary', plan: 'Advanced', cost: 'flat', freshness: 'live', params: {}, data: R.HoldersSummary },
  /**
   * [doc: docs.cryptorank.io/api-reference/vesting-&-token-unlocks/vesting-allocations] the path takes the
   * id only, no query parameters, and untracked allocations are excluded. The spec's record notes name
   * `includeUntracked=true`: kept so a key on such a service can ask, but never sent unless the user asks
   * (VESTING's includeUntracked TRUE), and a refusal is said in the cell (formulas/supply.ts).
   */
  vestingAllocations: {
    path: '/v3/currencies/{id}/vesting/allocations', plan: 'Pro', cost: 'flat', freshness: 'live',
    params: { includeUntracked: { kind: 'bool', default: false } },
    data: list(R.VestingAllocation), variant: V.vestingAllocationVariant,
  },
  vcPressure: { path: '/v3/currencies/{id}/vesting/vc-pressure', plan: 'Pro', cost: 'flat', freshness: 'live', params: {}, data: R.VcPressure, variant: V.vcPressureVariant },
  upcomingUnlocks: {
    path: '/v3/currencies/upcoming-token-unlocks', plan: 'Pro', cost: 'flat', freshness: 'live', pageSize: 25, paging: 'page',
    params: {
      page: { kind: 'int', min: 1, max: 1000, default: 1 },
      daysAhead: { kind: 'int', min: 1, max: 365, default: 30 },
      minUsdAmount: { kind: 'int', min: 0, max: 1e15 },
      minPercentOfMcap: { kind: 'number', min: 0, max: 100 }, // guess: fractional percentages (0.5) are common thresholds
      sortBy: { kind: 'enum', values: ['date', 'usdAmount', 'percentOfMcap'], default: 'date' },
      sortOrder: { kind: 'enum', values: ['asc', 'desc'], default: 'asc' },
    },
    data: list(R.UpcomingUnlock), variant: V.upcomingUnlockVariant,
  },
  /**
   * Every coin's upcoming unlocks, 200 a request [doc: docs.cryptorank.io/api-reference/token-unlocks/
   * upcoming-token-unlocks-across-all-coins]: `offset` 0-50000, `limit` 1-200 (default 50), `daysAhead`
   * 1-365 (default 30, "days from today (inclusive)"), `minUsdAmount` and `minPercentOfMcap` (a percent:
   * 5 means 5%; both inclusive lower bounds), `sortBy` date|usdAmount|percentOfMcap (default date),
   * `sortOrder` asc|desc (default asc). Items: `currencyId, currencyName, currencySymbol, currencyImages,
   * date` (ISO, 00:00Z), `tokenAmount, usdAmount, percentOfMcap, percentOfSupply, price, marketCap,
   * circulatingSupply` (variants.ts). guess: Pro like the list above, 1 credit a request; no `meta`
   * documented (pages are followed while full).
   */
  tokenUnlocks: {
    path: '/v3/token-unlocks/upcoming', plan: 'Pro', cost: 'flat', freshness: 'live', pageSize: 200, paging: 'offset',
    params: {
      offset: { kind: 'int', min: 0, max: 50_000, default: 0 },
      limit: { kind: 'int', min: 1, max: 200, default: 50 },
      daysAhead: { kind: 'int', min: 1, max: 365, default: 30 },
      minUsdAmount: { kind: 'int', min: 0, max: 1e15 }, // guess: the bounds (documented: a number, e.g. 1000000)
      minPercentOfMcap: { kind: 'number', min: 0, max: 100 },
      sortBy: { kind: 'enum', values: ['date', 'usdAmount', 'percentOfMcap'], default: 'date' },
      sortOrder: { kind: 'enum', values: ['asc', 'desc'], default: 'asc' },
    },
    data: list(R.UpcomingUnlock), variant: V.upcomingUnlockVariant,
  },

  // global
  globalMarket: { path: '/v3/global/market', plan: 'Sandbox', cost: 'flat', freshness: 'live', params: {}, data: R.GlobalMarket },
  fearGreed: { path: '/v3/global/fear-greed', plan: 'Sandbox', cost: 'flat', freshness: 'live', params: {}, data: R.FearGreedSnapshot, variant: V.indexSnapshotVariant },
  // guess: every chart's range parameters are `from`/`to` (api-notes)
  fearGreedChart: { path: '/v3/global/fear-greed/chart', plan: 'Basic', cost: 'buckets', freshness: 'history', params: { from, to }, data: list(R.ChartFearGreed) },
  altcoinIndex: { path: '/v3/global/altcoin-index', plan: 'Sandbox', cost: 'flat', freshness: 'live', params: {}, data: R.AltcoinIndexSnapshot, variant: V.indexSnapshotVariant },
  altcoinIndexChart: { path: '/v3/global/altcoin-index/chart', plan: 'Basic', cost: 'buckets', freshness: 'history', params: { from, to }, data: list(R.ChartAltcoinIndex) },
  /** No parameters: BTC, ETH and others with 24 h changes [inv, code]. */
  dominance: { path: '/v3/global/dominance', plan: 'Basic', cost: 'flat', freshness: 'live', params: {}, data: R.DominanceSnapshot },
  /** "by group (BTC, ETH, TOP-10 MCap, etc.)" [inv]. guess: the parameter's name `group` and its values. */
  dominanceChart: {
    path: '/v3/global/dominance/chart', plan: 'Basic', cost: 'buckets', freshness: 'history',
    params: { group: { kind: 'enum', values: DOMINANCE_GROUPS, default: 'btc' }, from, to },
    data: list(R.ChartDominance),
  },

  // blockchains
  blockchainMap: { path: '/v3/blockchains/map', plan: 'Sandbox', cost: 'flat', freshness: 'reference', params: {}, data: list(R.BlockchainMapItem) },
  blockchainList: { path: '/v3/blockchains/list', plan: 'Sandbox', cost: 'flat', freshness: 'live', pageSize: 100, params: {}, data: list(R.BlockchainListItem) },
  blockchain: { path: '/v3/blockchains/{id}', plan: 'Sandbox', cost: 'flat', freshness: 'live', params: {}, data: R.Blockchain },
  tvlChange: {
    path: '/v3/blockchains/{id}/tvl/change', plan: 'Basic', cost: 'flat', freshness: 'live',
    params: { period: { kind: 'enum', values: ['1d', '7d', '30d', '90d', '1y'], default: '1d' } }, // guess
    data: R.BlockchainTvlChange,
  },
  tvlChart: { path: '/v3/blockchains/{id}/tvl/chart', plan: 'Basic', cost: 'buckets', freshness: 'history', params: { from: fromOptional, to }, data: list(R.ChartTvl) },

  // persons
  personsMap: { path: '/v3/persons/map', plan: 'Sandbox', cost: 'flat', freshness: 'reference', params: {}, data: list(R.PersonMapItem) },
} as const satisfies Record<string, EndpointSpec>;

export type EndpointName = keyof typeof ENDPOINTS;
export type EndpointData<N extends EndpointName> = v.InferOutput<(typeof ENDPOINTS)[N]['data']>;
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

/** Path with `{id}` filled in. */
export function endpointPath(name: EndpointName, id?: number | string): string {
  const p: string = ENDPOINTS[name].path;
  if (p.includes('{id}')) {
    if (id === undefined || id === null || id === '') throw new Error(`${name} needs an id`);
    return p.replace('{id}', encodeURIComponent(String(id)));
  }
  return p;
}

/**
 * Credits a successful request costs. `buckets` is the number of items a
 * history request returned. The emulator charges by this; the benchmark derives
 * its minimum from it.
 */
export function creditCost(name: EndpointName, query: Readonly<Record<string, string | undefined>>, buckets = 0): number {
  const rule: CostRule = ENDPOINTS[name].cost;
  switch (rule) {
    case 'free':
      return 0;
    case 'flat':
      return 1;
    case 'markets':
      return 1 + (query.convert && query.convert !== 'USD' ? 1 : 0) + (query.include === 'sparkline7d' ? 1 : 0);
    case 'buckets':
      return 1 + Math.ceil(Math.max(0, buckets - 100) / 100);
  }
}

/** Parse a `time` parameter: ISO 8601, Unix seconds or Unix milliseconds. NaN if neither. */
export function parseTimeParam(value: string): number {
  if (/^\d+$/.test(value)) {
    const n = Number(value);
    // Ten digits or fewer are seconds (until the year 2286).
    return value.length <= 10 ? n * 1000 : n;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return NaN;
  return Date.parse(value);
}

/**
 * Check one query against an endpoint's parameters, strictly, as the live
 * service does: unknown names, bad types, out-of-range values and missing
 * required ones are errors. Returns the list of problems (empty when valid),
 * phrased like the live service ("property limit should not exist").
 */
export function validateQuery(name: EndpointName, query: Readonly<Record<string, string>>): string[] {
  const params: Readonly<Record<string, ParamSpec>> = ENDPOINTS[name].params;
  const problems: string[] = [];
  for (const key of Object.keys(query)) {
    // hasOwn, not `in`: "toString" or "constructor" are not parameters.
    if (!Object.hasOwn(params, key)) problems.push(`property ${key} should not exist`);
  }
  for (const [key, spec] of Object.entries(params)) {
    const raw = query[key];
    if (raw === undefined) {
      if ('required' in spec && spec.required) problems.push(`${key} should not be empty`);
      continue;
    }
    switch (spec.kind) {
      case 'int': {
        const n = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
        if (!Number.isInteger(n)) problems.push(`${key} must be an integer number`);
        else if (n < spec.min) problems.push(`${key} must not be less than ${spec.min}`);
        else if (n > spec.max) problems.push(`${key} must not be greater than ${spec.max}`);
        break;
      }
      case 'number': {
        const n = /^-?(\d+(\.\d+)?|\.\d+)$/.test(raw) ? Number(raw) : NaN;
        if (!Number.isFinite(n)) problems.push(`${key} must be a number`);
        else if (n < spec.min) problems.push(`${key} must not be less than ${spec.min}`);
        else if (n > spec.max) problems.push(`${key} must not be greater than ${spec.max}`);
        break;
      }
      case 'enum':
        if (!spec.values.includes(raw)) problems.push(`${key} must be one of the following values: ${spec.values.join(', ')}`);
        break;
      case 'time':
        if (Number.isNaN(parseTimeParam(raw))) problems.push(`${key} must be an ISO 8601 date or a Unix timestamp`);
        break;
      case 'string':
        if (raw.length < spec.minLength || raw.length > spec.maxLength) {
          problems.push(`${key} must be between ${spec.minLength} and ${spec.maxLength} characters`);
        }
        break;
      case 'ids': {
        const parts = raw.split(',');
        if (!parts.every((p) => /^[1-9]\d*$/.test(p))) problems.push(`${key} must be a comma-separated list of ids`);
        else if (parts.length > spec.max) problems.push(`${key} must contain no more than ${spec.max} elements`);
        break;
      }
      case 'bool':
        if (raw !== 'true' && raw !== 'false') problems.push(`${key} must be a boolean value`);
        break;
    }
  }
  return problems;
}

/**
 * Error codes the API answers with (spec and [doc]). `byStatus`: the code a bare
 * status means when the answer carries no code we know (every 5xx as 500); a 401
 * is the key's fault because a key is sent with every request; a 403 may be any
 * of three, so it says nothing alone.
 *
 * `message`: the words the service answers with, which the local API server sends. Live
 * wordings [live, team API notes "Round two"]: 403 ENDPOINT_NOT_AVAILABLE "Endpoint is not
 * available in your plan"; 400 VALIDATION_ERROR "property X should not exist", once per unknown
 * name, joined by "; " (validateQuery); 404 NOT_FOUND for a route the service does not have:
 * "Cannot GET " + path and query (notFoundRoute). The spec's table words VALIDATION_ERROR,
 * API_KEY_MISSING, NO_ACTIVE_SUBSCRIPTION, NOT_FOUND (an addressed resource that does not exist),
 * RATE_LIMIT_EXCEEDED and INTERNAL_ERROR. guess: the words of the codes the notes add
 * (API_KEY_INVALID, PLAN_LIMIT_EXCEEDED).
 */
export const API_ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, message: 'Validation failed' }, // spec; the live answer names each problem instead (validateQuery)
  API_KEY_MISSING: { status: 401, message: 'API key is missing' }, // spec
  API_KEY_INVALID: { status: 401, message: 'API key is invalid', byStatus: true }, // guess
  NO_ACTIVE_SUBSCRIPTION: { status: 403, message: 'No active subscription found' }, // spec
  ENDPOINT_NOT_AVAILABLE: { status: 403, message: 'Endpoint is not available in your plan' }, // [live]
  PLAN_LIMIT_EXCEEDED: { status: 403, message: 'Plan limit exceeded' }, // guess
  NOT_FOUND: { status: 404, message: 'Resource not found', byStatus: true }, // spec, for an addressed resource; a route miss: notFoundRoute [live]
  RATE_LIMIT_EXCEEDED: { status: 429, message: 'Rate limit exceeded', byStatus: true }, // spec
  INTERNAL_ERROR: { status: 500, message: 'Internal server error', byStatus: true }, // spec
} as const;
export type ApiErrorCode = keyof typeof API_ERROR_CODES;

/** The live 404 for a route the service does not have [live]: "Cannot GET /v3/currencies/markets?limit=250" (path and query as asked). */
export function notFoundRoute(method: string, pathAndQuery: string): string {
  return `Cannot ${method} ${pathAndQuery}`;
}

/** Whether a 404's words are a route miss (notFoundRoute), not a resource that does not exist. */
export function isRouteMiss(message: string): boolean {
  return /^Cannot [A-Z]+ \//.test(message);
}
