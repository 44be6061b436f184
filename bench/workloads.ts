/**
 * The benchmark's workloads: which cells a workbook holds, and, per cell, the
 * data it needs (what minimum.ts prices and latency bounds are counted from).
 *
 * Coins, ranks, list positions, symbols and history lengths are looked up from
 * the emulator's market data DIRECTLY (its handlers, in-process, no HTTP, no
 * credits), never through the client under test.
 */
import { ENDPOINTS, PLAN_LIMITS, type EndpointName } from '../src/api/endpoints';
import type { CurrencyMapItem, MarketItem } from '../src/api/records';
import type { MarketDataSource } from '../src/emulator/contract';

// ---------------------------------------------------------------- needs and cells

/**
 * One piece of data a cell needs.
 * - quote: a coin's market record (price, market cap, volume, 24h change): a
 *   markets-list row (250 per page, at any offset) or the coin's profile;
 *   `position` is the coin's 0-based place in the markets list sorted by rank
 *   (null: not listed).
 * - request: one endpoint's answer (distinct by endpoint, id and query);
 *   `buckets` for history endpoints (prices them), `pages` for page-numbered
 *   lists (each page a request, read one after another).
 */
export type Need =
  | {
      kind: 'quote'; id: number; position: number | null; fields: readonly string[];
      /** Typed as a symbol other coins share: the ids whose ranks settle it (free from markets pages; without them, asked by id). */
      rivals?: readonly number[];
    }
  | { kind: 'request'; endpoint: EndpointName; id?: number; query: Readonly<Record<string, string>>; buckets?: number; pages?: number };

export interface BenchCell {
  /** Formula text as typed in the cell, e.g. `=CRYPTO.PRICE("bitcoin")`. */
  text: string;
  /** Formula id, e.g. PRICE. */
  formula: string;
  /** The coin as the user typed it (text needs the currency map to resolve; a number is an id). */
  coin?: string | number;
  needs: Need[];
}

export interface Workload {
  name: string;
  description: string;
  /** API key the workload runs on. */
  key: string;
  cells: BenchCell[];
  /** Run the naive client too, or why not. */
  naive: true | { skipped: string };
  /** The rate limit is expected to bind (the sandbox workload): report the rate bound. */
  rateBound?: boolean;
  /** Formulas the workload wanted that do not exist (their cells are left out, not faked). */
  missingFormulas?: string[];
  /** Growth-line group (scale workloads). */
  scaleGroup?: string;
  /**
   * The credits must equal the minimum exactly, and why that is the claim (the analytics
   * workload: the same coins' daily OHLCV over the year, not a credit more).
   */
  exactCredits?: string;
  /** Routes the API server does not have (the no-markets workload: a live Sandbox key's service). */
  withoutRoutes?: readonly EndpointName[];
}

// ---------------------------------------------------------------- market lookup

export interface MarketLookup {
  now: number;
  /** The markets list sorted by rank (all pages), as the API serves it. */
  listing: readonly MarketItem[];
  map: readonly CurrencyMapItem[];
  positionOf(id: number): number | null;
  /** The input text that resolves to this coin when typed as its symbol, or null when the symbol would not. */
  usableSymbol(id: number): string | null;
  /** The other coins sharing this coin's symbol. */
  rivals(id: number): number[];
  /** Buckets a history request returns (from the handler). */
  buckets(endpoint: EndpointName, id: number | undefined, query: Record<string, string>): number;
  /** Pages a page-numbered list takes (from the handler's meta.hasNextPage). */
  pages(endpoint: EndpointName, query: Record<string, string>): number;
  /** Whether the endpoint answers for this coin (a 404 there would be an error cell the workload caused). */
  answers(endpoint: EndpointName, id: number | undefined, query: Record<string, string>): boolean;
}

type Handlers = MarketDataSource['handlers'];
type HandlerName = keyof Handlers;

export function lookupMarket(market: MarketDataSource, now: number = Date.now()): MarketLookup {
  const h = market.handlers;
  const listing: MarketItem[] = [];
  const { pageSize } = ENDPOINTS.markets;
  for (let offset = 0; offset <= ENDPOINTS.markets.params.offset.max; offset += pageSize) {
    const page = h.markets({ query: { offset: String(offset), limit: String(pageSize) }, now }).data as MarketItem[];
    listing.push(...page);
    if (page.length < pageSize) break;
  }
  const map = h.currencyMap({ query: {}, now }).data as CurrencyMapItem[];
  const position = new Map<number, number>();
  listing.forEach((m, i) => position.set(m.id, i));
  const rankOf = new Map<number, number | null>(listing.map((m) => [m.id, m.rank]));
  const slugs = new Set(map.map((c) => c.slug.toLowerCase()));
  const names = new Map<string, number>();
  for (const c of map) names.set(c.name.trim().toLowerCase(), (names.get(c.name.trim().toLowerCase()) ?? 0) + 1);
  const bySymbol = new Map<string, CurrencyMapItem[]>();
  for (const c of map) {
    if (!c.symbol) continue;
    const k = c.symbol.toUpperCase();
    const list = bySymbol.get(k) ?? [];
    list.push(c);
    bySymbol.set(k, list);
  }
  const byId = new Map(map.map((c) => [c.id, c]));
  const score = (id: number) => {
    const r = rankOf.get(id);
    return typeof r === 'number' ? r : Number.POSITIVE_INFINITY;
  };
  const call = (endpoint: EndpointName, id: number | undefined, query: Record<string, string>) => {
    const fn = h[endpoint as HandlerName];
    if (!fn) throw new Error(`the market has no handler for ${endpoint}`);
    return fn({ id, query, now });
  };
  return {
    now,
    listing,
    map,
    positionOf: (id) => position.get(id) ?? null,
    rivals(id) {
      const s = byId.get(id)?.symbol;
      return s ? (bySymbol.get(s.toUpperCase()) ?? []).map((c) => c.id).filter((x) => x !== id) : [];
    },
    usableSymbol(id) {
      const c = byId.get(id);
      if (!c?.symbol) return null;
      const s = c.symbol;
      // Resolution order is id, slug, symbol, name: digits are ids, a slug wins over a symbol.
      if (/^\d+$/.test(s.trim()) || slugs.has(s.toLowerCase()) || s.trim() !== s || s.includes('"')) return null;
      const cands = bySymbol.get(s.toUpperCase()) ?? [];
      if (cands.length === 1) return s;
      // Ambiguous: usable only when the intended coin is the highest-ranked candidate (unranked lose, ties lowest id).
      const best = [...cands].sort((a, b) => score(a.id) - score(b.id) || a.id - b.id)[0];
      return best.id === id && Number.isFinite(score(id)) ? s : null;
    },
    buckets(endpoint, id, query) {
      const r = call(endpoint, id, query);
      return r.buckets ?? (Array.isArray(r.data) ? r.data.length : 0);
    },
    pages(endpoint, query) {
      let n = 0;
      for (let page = 1; page <= 1000; page++) {
        n = page;
        const r = call(endpoint, undefined, { ...query, page: String(page) });
        if (!(r.meta && r.meta.hasNextPage === true)) break;
      }
      return n;
    },
    answers(endpoint, id, query) {
      try {
        call(endpoint, id, query);
        return true;
      } catch {
        return false;
      }
    },
  };
}

// ---------------------------------------------------------------- builders

/** The free plan, whose limits the sandbox workload meets. */
const SANDBOX = PLAN_LIMITS.Sandbox;
const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
const coinText = (c: string | number) => (typeof c === 'number' ? String(c) : q(c));

/** The coin as typed: slug, id or symbol in turn (symbol only when it resolves to this coin; else the slug). */
function coinInput(lookup: MarketLookup, item: { id: number; slug: string }, form: number): string | number {
  switch (form % 3) {
    case 0:
      return /^\d+$/.test(item.slug) ? item.id : item.slug;
    case 1:
      return item.id;
    default:
      return lookup.usableSymbol(item.id) ?? (/^\d+$/.test(item.slug) ? item.id : item.slug);
  }
}

const quoteNeed = (lookup: MarketLookup, id: number, fields: readonly string[], coin?: string | number): Need => {
  const rivals = typeof coin === 'string' && coin === lookup.usableSymbol(id) ? lookup.rivals(id) : [];
  return { kind: 'quote', id, position: lookup.positionOf(id), fields, ...(rivals.length > 0 ? { rivals } : {}) };
};

export interface PortfolioOptions {
  priceCells?: number;
  quoteCells?: number;
  coins?: number;
}

export const QUOTE_BENCH_FIELDS = ['marketCap', 'volume24h', 'percentChange.h24'] as const;

/** PRICE cells over the top-ranked coins (slug, id, symbol in turn; repeats), plus QUOTE cells of other market fields. */
export function portfolioCells(lookup: MarketLookup, o: PortfolioOptions = {}): BenchCell[] {
  const priceCells = o.priceCells ?? 500;
  const quoteCells = o.quoteCells ?? 100;
  const coins = lookup.listing.slice(0, o.coins ?? 300);
  if (coins.length === 0) throw new Error('the markets list is empty');
  const cells: BenchCell[] = [];
  for (let i = 0; i < priceCells; i++) {
    const item = coins[i % coins.length];
    const coin = coinInput(lookup, item, Math.floor(i / coins.length) + i);
    cells.push({ text: `=CRYPTO.PRICE(${coinText(coin)})`, formula: 'PRICE', coin, needs: [quoteNeed(lookup, item.id, ['price'], coin)] });
  }
  for (let i = 0; i < quoteCells; i++) {
    // A different stride: these land on coins the PRICE cells also hold, and some they repeat.
    const item = coins[(i * 7) % coins.length];
    const field = QUOTE_BENCH_FIELDS[i % QUOTE_BENCH_FIELDS.length];
    const coin = coinInput(lookup, item, i + 1);
    cells.push({
      text: `=CRYPTO.QUOTE(${coinText(coin)},${q(field)},,0)`,
      formula: 'QUOTE',
      coin,
      needs: [quoteNeed(lookup, item.id, [field], coin)],
    });
  }
  return cells;
}

export interface ResearchOptions {
  coins?: number;
  /** The year of daily candles (a closed year: history, cacheable). */
  year?: number;
}

/** Per coin: a year of daily OHLCV, yearly RETURNS, TOKENOMICS and a PROFILE. Coins: the top-ranked ones every endpoint answers for. */
export function researchCells(lookup: MarketLookup, o: ResearchOptions = {}): BenchCell[] {
  const year = o.year ?? new Date(lookup.now).getUTCFullYear() - 1;
  const from = new Date(Date.UTC(year, 0, 1)).toISOString();
  const to = new Date(Date.UTC(year + 1, 0, 1) - 1).toISOString();
  const candleQuery = { interval: 'day', from, to };
  const wantDays = Math.round((Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / 86_400_000);
  const cells: BenchCell[] = [];
  let taken = 0;
  for (const item of lookup.listing) {
    if (taken >= (o.coins ?? 20)) break;
    if (/^\d+$/.test(item.slug)) continue;
    if (!lookup.answers('tokenomics', item.id, {}) || !lookup.answers('returns', item.id, { period: 'yearly' }) || !lookup.answers('profile', item.id, {})) continue;
    if (!lookup.answers('candles', item.id, candleQuery)) continue;
    const buckets = lookup.buckets('candles', item.id, candleQuery);
    if (buckets < wantDays) continue; // a full year of history
    taken++;
    const coin = item.slug;
    const c = coinText(coin);
    cells.push(
      {
        text: `=CRYPTO.OHLCV(${c},"${year}-01-01","${year}-12-31","daily",0)`,
        formula: 'OHLCV', coin,
        needs: [{ kind: 'request', endpoint: 'candles', id: item.id, query: candleQuery, buckets }],
      },
      { text: `=CRYPTO.RETURNS(${c},"yearly",0)`, formula: 'RETURNS', coin, needs: [{ kind: 'request', endpoint: 'returns', id: item.id, query: { period: 'yearly' } }] },
      { text: `=CRYPTO.TOKENOMICS(${c})`, formula: 'TOKENOMICS', coin, needs: [{ kind: 'request', endpoint: 'tokenomics', id: item.id, query: {} }] },
      { text: `=CRYPTO.PROFILE(${c})`, formula: 'PROFILE', coin, needs: [{ kind: 'request', endpoint: 'profile', id: item.id, query: {} }] },
    );
  }
  return cells;
}

/** The top-ranked coins with a full closed year of daily candles (slugs that are not digits): what research and analytics read. */
function yearCoins(lookup: MarketLookup, count: number, year: number, also: (id: number) => boolean = () => true) {
  const from = new Date(Date.UTC(year, 0, 1)).toISOString();
  const to = new Date(Date.UTC(year + 1, 0, 1) - 1).toISOString();
  const query = { interval: 'day', from, to };
  const wantDays = Math.round((Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / 86_400_000);
  const coins: { item: MarketItem; need: Need }[] = [];
  for (const item of lookup.listing) {
    if (coins.length >= count) break;
    if (/^\d+$/.test(item.slug) || !also(item.id) || !lookup.answers('candles', item.id, query)) continue;
    const buckets = lookup.buckets('candles', item.id, query);
    if (buckets < wantDays) continue; // a full year of history
    coins.push({ item, need: { kind: 'request', endpoint: 'candles', id: item.id, query, buckets } });
  }
  return coins;
}

export interface AnalyticsOptions {
  coins?: number;
  /** A closed year (history, cacheable). */
  year?: number;
}

/**
 * Per coin, STATS over a closed year (every field, beta and correlation against bitcoin, which is
 * among the coins), and one CORREL of them all. The data is each coin's daily candles over the
 * year, OHLCV's very request: no more.
 */
export function analyticsCells(lookup: MarketLookup, o: AnalyticsOptions = {}): BenchCell[] {
  const year = o.year ?? new Date(lookup.now).getUTCFullYear() - 1;
  const coins = yearCoins(lookup, o.coins ?? 20, year);
  const btc = coins.find((c) => c.item.slug === 'bitcoin');
  if (!btc) throw new Error('bitcoin (the default benchmark) is not among the top coins with a full year');
  const range = `"${year}-01-01","${year}-12-31"`;
  return [
    ...coins.map(({ item, need }): BenchCell => ({
      text: `=CRYPTO.STATS(${coinText(item.slug)},${range})`, formula: 'STATS', coin: item.slug, needs: [need, btc.need],
    })),
    {
      text: `=CRYPTO.CORREL({${coins.map((c) => coinText(c.item.slug)).join(',')}},${range})`,
      formula: 'CORREL', coin: btc.item.slug, needs: coins.map((c) => c.need),
    },
  ];
}

/** DATA cells exactly where the portfolio has PRICE cells (same coins, typed the same), fields in turn. */
export function dataCells(lookup: MarketLookup, o: PortfolioOptions = {}): BenchCell[] {
  const fields = ['price', 'percentChange.h24', 'marketCap', 'volume24h', 'rank', 'circulatingSupply', 'percentChange.d7'];
  return portfolioCells(lookup, { ...o, quoteCells: 0 }).map((c, i) => {
    const f = fields[i % fields.length];
    return { ...c, text: c.text.replace(/^=CRYPTO\.PRICE\((.*)\)$/, `=CRYPTO.DATA($1,${q(f)})`), formula: 'DATA', needs: c.needs.map((n) => (n.kind === 'quote' ? { ...n, fields: [f] } : n)) };
  });
}

/** COIN cells exactly where the portfolio has its first PRICE cells (same coins, typed the same): a coin as a data type per cell. */
export function coinCells(lookup: MarketLookup, o: PortfolioOptions = {}): BenchCell[] {
  return portfolioCells(lookup, { ...o, quoteCells: 0 }).map((c) => ({
    ...c, text: c.text.replace(/^=CRYPTO\.PRICE\((.*)\)$/, '=CRYPTO.COIN($1)'), formula: 'COIN',
    // The entity reads every market field of the quote PRICE reads: the same record, the same request.
    needs: c.needs.map((n) => (n.kind === 'quote' ? { ...n, fields: ['price', 'marketCap', 'volume24h', 'percentChange.h24'] } : n)),
  }));
}

/**
 * The market-wide formulas, one cell each (DOMINANCE for two assets, GAINERS and LOSERS).
 * Each need is the endpoint that holds the data (see the formula table in docs/benchmark.md).
 */
export function dashboardCells(lookup: MarketLookup): BenchCell[] {
  const req = (endpoint: EndpointName, query: Record<string, string> = {}, pages?: number): Need =>
    pages === undefined ? { kind: 'request', endpoint, query } : { kind: 'request', endpoint, query, pages };
  return [
    { text: '=CRYPTO.GLOBAL()', formula: 'GLOBAL', needs: [req('globalMarket')] },
    { text: '=CRYPTO.FEARGREED()', formula: 'FEARGREED', needs: [req('fearGreed')] },
    { text: '=CRYPTO.ALTSEASON()', formula: 'ALTSEASON', needs: [req('altcoinIndex')] },
    // Both read the one dominance snapshot (it takes no parameters).
    { text: '=CRYPTO.DOMINANCE("btc")', formula: 'DOMINANCE', needs: [req('dominance')] },
    { text: '=CRYPTO.DOMINANCE("eth")', formula: 'DOMINANCE', needs: [req('dominance')] },
    { text: '=CRYPTO.TRENDING()', formula: 'TRENDING', needs: [req('trending')] },
    { text: '=CRYPTO.GAINERS()', formula: 'GAINERS', needs: [req('gainersLosers', { type: 'gainers', period: '24h', limit: '20' })] },
    { text: '=CRYPTO.LOSERS()', formula: 'LOSERS', needs: [req('gainersLosers', { type: 'losers', period: '24h', limit: '20' })] },
    { text: '=CRYPTO.BLOCKCHAINS()', formula: 'BLOCKCHAINS', needs: [req('blockchainList', {}, lookup.pages('blockchainList', {}))] },
    { text: '=CRYPTO.DERIVATIVES()', formula: 'DERIVATIVES', needs: [req('derivatives')] },
  ];
}

/** `cells` PRICE cells over the `coins` top-ranked coins (slug, id, symbol in turn). */
export function scaleCells(lookup: MarketLookup, cells: number, coins: number): BenchCell[] {
  return portfolioCells(lookup, { priceCells: cells, quoteCells: 0, coins });
}

// ---------------------------------------------------------------- the set

export const WORKLOAD_NAMES = ['portfolio', 'research', 'analytics', 'data', 'coins', 'dashboard', 'sandbox', 'no-markets', 'scale-1k', 'scale-5k', 'scale'] as const;
export type WorkloadName = (typeof WORKLOAD_NAMES)[number];

export interface BuildOptions {
  /** Tiny versions (tests): a handful of cells each. */
  tiny?: boolean;
  /** Formula ids that exist; cells of other formulas are left out and reported missing. */
  available?: (formula: string) => boolean;
}

export function buildWorkload(name: WorkloadName, lookup: MarketLookup, o: BuildOptions = {}): Workload {
  const t = o.tiny === true;
  let w: Workload;
  switch (name) {
    case 'portfolio':
      w = {
        name, key: 'demo-pro',
        description: t ? 'tiny portfolio: 10 PRICE + 2 QUOTE over the top 8 coins' : '500 PRICE cells over the top 300 coins (slug, id, symbol; repeats) + 100 QUOTE cells (marketCap, volume24h, percentChange.h24)',
        cells: t ? portfolioCells(lookup, { priceCells: 10, quoteCells: 2, coins: 8 }) : portfolioCells(lookup),
        naive: true,
      };
      break;
    case 'research':
      w = {
        name, key: 'demo-pro',
        description: t ? 'tiny research: 2 coins' : '20 coins × (a year of daily OHLCV, yearly RETURNS, TOKENOMICS, PROFILE)',
        cells: researchCells(lookup, { coins: t ? 2 : 20 }),
        naive: true,
      };
      break;
    case 'analytics':
      w = {
        name, key: 'demo-pro',
        description: t ? 'tiny analytics: STATS of 3 coins and their CORREL' : '20 coins × STATS over a year (every field, against bitcoin) + one CORREL of the 20',
        cells: analyticsCells(lookup, { coins: t ? 3 : 20 }),
        naive: { skipped: 'the naive client has no STATS or CORREL (a reference would be one candles request per coin per cell)' },
        exactCredits: "credits = the same coins' daily OHLCV over that year (each coin's candles once, shared by STATS, the benchmark and CORREL)",
      };
      break;
    case 'data':
      w = {
        name, key: 'demo-pro',
        description: t ? 'tiny data: 10 DATA cells over the top 8 coins' : "500 DATA cells over the top 300 coins (fields in turn): the portfolio's 500 PRICE cells as DATA",
        cells: t ? dataCells(lookup, { priceCells: 10, coins: 8 }) : dataCells(lookup),
        naive: { skipped: 'the naive client has no DATA (it would be PRICE\'s one request per cell)' },
        exactCredits: 'credits = the same cells as PRICE: the markets windows holding the coins, and the map',
      };
      break;
    case 'coins':
      w = {
        name, key: 'demo-pro',
        description: t ? 'tiny coins: 10 COIN cells over the top 8 coins' : "300 COIN cells over the top 300 coins: the portfolio's first 300 PRICE cells as data types",
        cells: t ? coinCells(lookup, { priceCells: 10, coins: 8 }) : coinCells(lookup, { priceCells: 300, coins: 300 }),
        naive: { skipped: 'the naive client has no COIN (it would be PRICE\'s one request per cell)' },
        exactCredits: 'credits = the same cells as PRICE: the markets windows holding the coins, and the map',
      };
      break;
    case 'dashboard':
      w = { name, key: 'demo-pro', description: 'market-wide formulas: GLOBAL, FEARGREED, ALTSEASON, DOMINANCE ×2, TRENDING, GAINERS, LOSERS, BLOCKCHAINS, DERIVATIVES', cells: dashboardCells(lookup), naive: true };
      break;
    case 'sandbox':
      w = {
        name, key: 'demo-sandbox', rateBound: true,
        description: t
          ? `tiny portfolio on demo-sandbox (${SANDBOX.rateLimitPerMinute} requests/min)`
          : `the portfolio on the demo-sandbox key (Sandbox: ${SANDBOX.rateLimitPerMinute} requests/min, ${SANDBOX.dailyCredits} credits/day)`,
        cells: t ? portfolioCells(lookup, { priceCells: 10, quoteCells: 2, coins: 8 }) : portfolioCells(lookup),
        naive: {
          skipped: t
            ? 'tiny run'
            : `one request per cell: ~601 requests at ${SANDBOX.rateLimitPerMinute}/min is about an hour of the Sandbox rate limit and exceeds its ${SANDBOX.dailyCredits} credits/day`,
        },
      };
      break;
    case 'no-markets':
      // As a live Sandbox key meets the service (api-notes "Round two"): no markets route (404
      // "Cannot GET"), so prices come from /v3/currencies/list, 100 coins a request (issue #21).
      w = {
        name, key: 'demo-sandbox', withoutRoutes: ['markets'],
        description: t ? 'tiny portfolio without the markets route' : 'the portfolio on a Sandbox key whose service has no markets route (404): prices from /v3/currencies/list',
        cells: t ? portfolioCells(lookup, { priceCells: 10, quoteCells: 2, coins: 8 }) : portfolioCells(lookup),
        naive: { skipped: 'the naive client asks the markets route for every cell: without it, every cell fails' },
      };
      break;
    case 'scale-1k':
    case 'scale-5k':
    case 'scale': {
      const cells = t ? { 'scale-1k': 20, 'scale-5k': 50, scale: 100 }[name] : { 'scale-1k': 1_000, 'scale-5k': 5_000, scale: 10_000 }[name];
      const coins = cells / 5;
      const built = scaleCells(lookup, cells, coins);
      const distinct = new Set(built.flatMap((c) => c.needs.map((n) => (n.kind === 'quote' ? n.id : 0)))).size;
      w = {
        name, key: 'demo-pro', scaleGroup: 'scale',
        description: `${cells.toLocaleString('en-US')} PRICE cells over the top ${distinct.toLocaleString('en-US')} coins${distinct < coins ? ` (asked ${coins.toLocaleString('en-US')}: the markets list holds ${lookup.listing.length.toLocaleString('en-US')} coins, every traded one)` : ''}`,
        cells: built,
        naive: name === 'scale-1k' ? true : { skipped: `one request per cell: ${cells + 1} requests and credits (linear; measured at scale-1k), ${Math.round(cells / 100)} minutes of the Pro rate limit` },
      };
      break;
    }
  }
  if (o.available) {
    const missing = [...new Set(w.cells.map((c) => c.formula).filter((f) => !o.available!(f)))];
    if (missing.length > 0) {
      w.missingFormulas = missing;
      w.cells = w.cells.filter((c) => !missing.includes(c.formula));
    }
  }
  return w;
}
