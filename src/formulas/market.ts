/**
 * Currencies and markets: PRICE, DATA, QUOTE, MARKETS, SEARCH, PROFILE, CONTRACTS.
 * Amounts in any fiat currency: currency.ts.
 */
import { quoteFromListItem, quoteFromMarketItem, routeUnavailable } from '../client';
import { ENDPOINTS } from '../api/endpoints';
import type { CurrencyCategory, MarketItem, Profile } from '../api/records';
import type { RejectedItem } from '../api/read-data';
import {
  boolArg, coinArg, choiceArg, choicesOf, currencyArg, fieldArg, flatCells, flatValues, headersArg, intArg, notGiven, scalar, textArg, type Arg,
} from './args';
import {
  CellError, EMPTY, dateCell, decimalCell, recordCells, invalidValue, notAvailable, numberCell, table, textCell,
  type Cell, type Column, type Grid, type UnreadableRow,
} from './cells';
import { convertProfile, convertQuote, fiatRate, isApiCurrency, quoteIn, type MoneyQuote } from './currency';
import { notTraded, scopeOf, toFormulaError } from './failure';
import type { Catalog, FormulaContext } from './host';

// ---------------------------------------------------------------- quote fields

type QuoteField = { header: string; cell: (q: MoneyQuote) => Cell };

/** A field the quote's record does not carry (Quote.absent) is #N/A naming it, not an empty cell. */
function readingAbsence(fields: Record<string, QuoteField>): Record<string, QuoteField> {
  const out: Record<string, QuoteField> = {};
  for (const [name, f] of Object.entries(fields)) {
    out[name] = { header: f.header, cell: (q) => (q.absent?.fields.has(name) ? new CellError('#N/A', `No ${name} in ${q.absent.source}`) : f.cell(q)) };
  }
  return out;
}

/** QUOTE's fields: the markets record's names as the spec gives them, plus short aliases. */
const QUOTE_FIELDS: Record<string, QuoteField> = readingAbsence({
  id: { header: 'Id', cell: (q) => q.id },
  slug: { header: 'Slug', cell: (q) => q.slug },
  symbol: { header: 'Symbol', cell: (q) => textCell(q.symbol) },
  name: { header: 'Name', cell: (q) => q.name },
  rank: { header: 'Rank', cell: (q) => numberCell(q.rank) },
  price: { header: 'Price', cell: (q) => numberCell(q.price) },
  marketCap: { header: 'Market cap', cell: (q) => numberCell(q.marketCap) },
  volume24h: { header: 'Volume 24h', cell: (q) => numberCell(q.volume24h) },
  volume24hBase: { header: 'Volume 24h (base)', cell: (q) => numberCell(q.volume24hBase) },
  fullyDilutedValuation: { header: 'FDV', cell: (q) => numberCell(q.fullyDilutedValuation) },
  high24h: { header: 'High 24h', cell: (q) => numberCell(q.high24h) },
  low24h: { header: 'Low 24h', cell: (q) => numberCell(q.low24h) },
  'percentChange.h24': { header: 'Change 24h %', cell: (q) => numberCell(q.change24h) },
  'percentChange.d7': { header: 'Change 7d %', cell: (q) => numberCell(q.change7d) },
  'percentChange.d30': { header: 'Change 30d %', cell: (q) => numberCell(q.change30d) },
  'percentChange.m3': { header: 'Change 3m %', cell: (q) => numberCell(q.change3m) },
  'percentChange.ytd': { header: 'Change YTD %', cell: (q) => numberCell(q.changeYtd) },
  circulatingSupply: { header: 'Circulating supply', cell: (q) => numberCell(q.circulatingSupply) },
  totalSupply: { header: 'Total supply', cell: (q) => numberCell(q.totalSupply) },
  maxSupply: { header: 'Max supply', cell: (q) => numberCell(q.maxSupply) },
  isTraded: { header: 'Traded', cell: (q) => q.isTraded },
  lastUpdated: { header: 'Last updated', cell: (q) => dateCell(q.lastUpdated) },
});
const QUOTE_ALIASES: Record<string, string> = {
  change24h: 'percentChange.h24', h24: 'percentChange.h24',
  change7d: 'percentChange.d7', d7: 'percentChange.d7',
  change30d: 'percentChange.d30', d30: 'percentChange.d30',
  change3m: 'percentChange.m3', m3: 'percentChange.m3',
  changeytd: 'percentChange.ytd', ytd: 'percentChange.ytd',
  fdv: 'fullyDilutedValuation',
};
const QUOTE_CHOICES: Record<string, string> = {
  ...Object.fromEntries(Object.keys(QUOTE_FIELDS).map((f) => [f.toLowerCase(), f])),
  ...QUOTE_ALIASES,
};
const DEFAULT_QUOTE_FIELDS = ['name', 'symbol', 'price', 'percentChange.h24', 'marketCap', 'volume24h'];

const QUOTE_FIELDS_SHOWN = Object.keys(QUOTE_FIELDS).join(', ');

/** Field names, comma-separated or a range; `fallback` when none is given. */
function quoteFields(v: Arg, fallback: readonly string[] = DEFAULT_QUOTE_FIELDS): string[] {
  const raw = flatValues(v, { zeroIsBlank: true }).flatMap((x) => (typeof x === 'string' ? x.split(',').map((s) => s.trim()).filter(Boolean) : [x]));
  if (raw.length === 0) return [...fallback];
  return raw.map((f) => choiceArg(f, 'fields', QUOTE_CHOICES, undefined, `field names from: ${QUOTE_FIELDS_SHOWN}`));
}

// ---------------------------------------------------------------- PRICE, DATA, QUOTE

function quoteOf(ctx: FormulaContext, coin: string | number, currency: string): Promise<MoneyQuote> {
  return quoteIn(ctx.client, coin, currency);
}

// Not async: a column of PRICE cells waits at once, and a suspended frame each is memory.
// A quote the client holds fresh is answered at once, without a promise.
function price(ctx: FormulaContext, coin: Arg, currency: Arg): Promise<number> | number {
  const c = coinArg(coin);
  const cur = currencyArg(currency, ctx.settings.defaultCurrency);
  const known = isApiCurrency(cur) ? ctx.client.quoteNow(c, { currency: cur }) : undefined;
  return known ? priceOf(known) : quoteOf(ctx, c, cur).then(priceOf);
}

function priceOf(q: MoneyQuote): number {
  if (q.price === null) throw notTraded(q.name);
  return q.price;
}

/**
 * One field of one coin in one cell (Bloomberg's BDP): any field QUOTE offers, from the same
 * batched quote as PRICE, so a column of DATA cells costs what a column of PRICE cells does.
 * A field the coin lacks (no max supply, not traded) is #N/A saying so, not an empty cell.
 */
function data(ctx: FormulaContext, coin: Arg, field: Arg, currency: Arg): Promise<Cell> {
  const input = coinArg(coin);
  const f = choiceArg(field, 'field', QUOTE_CHOICES, undefined, `a field name from: ${QUOTE_FIELDS_SHOWN}`);
  const cur = currencyArg(currency, ctx.settings.defaultCurrency);
  return quoteOf(ctx, input, cur).then((q) => {
    const cell = QUOTE_FIELDS[f].cell(q);
    if (cell instanceof CellError) throw notAvailable(cell.message, 'MISSING_FIELD');
    if (cell === EMPTY) throw notAvailable(`${q.name} has no ${f}${q.isTraded ? '' : ' (not traded)'}`, 'NO_VALUE');
    return cell;
  });
}

/** A row's Coin column: the input as typed (an error cell or other odd value shows empty). */
const label = (input: Arg): Cell => (typeof input === 'string' || typeof input === 'number' || typeof input === 'boolean' ? String(input) : EMPTY);

async function quote(ctx: FormulaContext, coins: Arg, fields: Arg, currency: Arg, headers: Arg): Promise<Grid> {
  // A blank in the range keeps its row (empty), so the answer lines up with the range beside it.
  const inputs = flatCells(coins);
  if (inputs.every((x) => x === null)) throw invalidValue('coins is required: a coin or a range of coins');
  const names = quoteFields(fields);
  const cur = currencyArg(currency, ctx.settings.defaultCurrency);
  const showHeaders = headersArg(headers);
  // An unknown currency fails the formula, not each row (the rate is then cached for the rows).
  if (!isApiCurrency(cur)) await fiatRate(ctx.client, cur);
  // Every coin is asked at once, so the client batches them into few requests.
  const rows = await Promise.all(
    inputs.map(async (input): Promise<Cell[]> => {
      if (input === null) return [EMPTY, ...names.map(() => EMPTY)];
      try {
        const q = await quoteOf(ctx, coinArg(input), cur);
        return [label(input), ...names.map((f) => QUOTE_FIELDS[f].cell(q))];
      } catch (e) {
        const err = toFormulaError(e, ctx.caller);
        // What is wrong with one coin (unknown, bad input, a field its answer lacks: the rule's
        // scope `item`) fails its own row. A failure of the whole call (the service, the key)
        // fails the formula: the host then keeps the last good table, which rows of errors would
        // have replaced.
        if (scopeOf(err) === 'call') throw err;
        return [label(input), ...names.map(() => err.toCell())];
      }
    }),
  );
  return showHeaders ? [['Coin', ...names.map((f) => QUOTE_FIELDS[f].header)], ...rows] : rows;
}

// ---------------------------------------------------------------- MARKETS

const MARKET_DEFAULT_FIELDS = [
  'rank', 'name', 'symbol', 'slug', 'id', 'price', 'percentChange.h24', 'percentChange.d7', 'percentChange.d30', 'marketCap',
  'volume24h', 'circulatingSupply', 'totalSupply', 'maxSupply', 'fullyDilutedValuation', 'lastUpdated',
];

const SORT_BY = { ...choicesOf(ENDPOINTS.markets.params.sortBy.values), change24h: 'change24h', marketcap: 'marketCap', volume24h: 'volume24h' } as Record<string, string>;

async function lookupId(ctx: FormulaContext, v: Arg, name: 'category' | 'tag'): Promise<number | undefined> {
  v = scalar(v);
  if (notGiven(v)) return undefined; // no category or tag is 0: a blank cell on older desktop builds
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  const text = String(v).trim().toLowerCase();
  if (/^\d+$/.test(text)) return Number(text);
  const list = await ctx.client.get(name === 'category' ? 'categories' : 'tags');
  const hit = list.data.find((c) => c.slug.toLowerCase() === text || c.name.toLowerCase() === text);
  if (!hit) throw notAvailable(`Unknown ${name} "${String(v)}"`, 'NOT_FOUND');
  return hit.id;
}

/**
 * The stablecoin category's id, from the API's category list (a reference list, cached for a
 * day). By category, not tag: a coin has exactly one category, what it is (the spec: "always a
 * single category"); tags are many and say what a coin is about, so a stablecoin protocol's
 * governance token can carry a stablecoins tag without being pegged.
 */
async function stablecoinCategory(ctx: FormulaContext): Promise<number> {
  const list = await ctx.client.get('categories');
  const isStable = (c: CurrencyCategory) => /^stable-?coins?$/i.test(c.slug) || /^stable\s?coins?$/i.test(c.name.trim());
  const hit = list.data.find(isStable);
  if (!hit) throw notAvailable('The API\'s category list has no Stablecoin category: stablecoins cannot be left out', 'NOT_FOUND');
  return hit.id;
}

async function markets(
  ctx: FormulaContext, count: Arg, sortBy: Arg, sortOrder: Arg, category: Arg, tag: Arg, ecosystem: Arg, lifecycle: Arg,
  currency: Arg, headers: Arg, fields: Arg, excludeStablecoins: Arg,
): Promise<Grid> {
  const n = intArg(count, 'count', 1, 5000, 100);
  const sort = choiceArg(sortBy, 'sortBy', SORT_BY, 'rank', ENDPOINTS.markets.params.sortBy.values.map((x) => `"${x}"`).join(', '));
  const order = textArg(sortOrder, 'sortOrder') === null ? null : choiceArg(sortOrder, 'sortOrder', choicesOf(['asc', 'desc']), undefined, '"asc" or "desc"');
  const life = choiceArg(lifecycle, 'lifecycle', choicesOf(['traded', 'upcoming']), 'traded', '"traded" or "upcoming"');
  const cur = currencyArg(currency, ctx.settings.defaultCurrency);
  const eco = textArg(ecosystem, 'ecosystem') === null ? undefined : intArg(ecosystem, 'ecosystem', 1, 1_000_000, undefined);
  const columns: Column<MoneyQuote>[] = quoteFields(fields, MARKET_DEFAULT_FIELDS).map((f) => QUOTE_FIELDS[f]);
  // Named so its default is FALSE: a blank cell, 0 on older desktop builds, then means the default on every build.
  const stables = !boolArg(excludeStablecoins, 'excludeStablecoins', false);
  const showHeaders = headersArg(headers);
  const api = isApiCurrency(cur);
  const [cat, tg, rate, stable] = await Promise.all([
    lookupId(ctx, category, 'category'),
    lookupId(ctx, tag, 'tag'),
    api ? null : fiatRate(ctx.client, cur),
    stables ? null : stablecoinCategory(ctx),
  ]);
  const query = {
    sortBy: sort === 'rank' ? undefined : sort,
    // Rank reads best ascending; the other sorts read best descending.
    sortOrder: order ?? (sort === 'rank' ? undefined : 'desc'),
    category: cat, tag: tg, ecosystem: eco,
    lifecycle: life === 'traded' ? undefined : life,
    // USD and EUR from the API; any other currency from USD at the fiat list's rate.
    convert: api && cur !== 'USD' ? cur : undefined,
  };
  const keep = (m: MarketItem) => stable === null || m.categoryId !== stable;
  // Without stablecoins, read on until n others are in: the pages read already come from the cache.
  let want = n;
  for (;;) {
    const page = await ctx.client.getPages('markets', { query, maxItems: want }).catch((e: unknown) => {
      if (!routeUnavailable(e)) throw e;
      return null;
    });
    if (page === null) {
      // No markets list for this key (issue #21): the list of currencies, by rank only.
      const narrowed = Object.entries({ sortBy: sort !== 'rank', sortOrder: order !== null && order !== 'asc', category: cat, tag: tg, ecosystem: eco, lifecycle: life !== 'traded', excludeStablecoins: !stables })
        .filter(([, given]) => given !== undefined && given !== false)
        .map(([name]) => name);
      return marketsFromList(ctx, n, narrowed, cur, columns, showHeaders);
    }
    const { items, rejected } = kept(page.data, page.rejected, keep, n);
    const done = items.length + rejected.length >= n || page.data.length + (page.rejected?.length ?? 0) < want || want >= 50_000;
    if (!done) {
      want += n - items.length - rejected.length;
      continue;
    }
    const rows = items.map((m) => {
      const q = { ...quoteFromMarketItem(m, api ? cur : 'USD'), stale: page.stale };
      return rate ? convertQuote(q, rate) : q;
    });
    return table(rows, columns, showHeaders, 'No coins match these filters', rejected.length ? rejected : undefined);
  }
}

/**
 * MARKETS for a key without the markets list (refused, or no such route: issue
 * #21): `/v3/currencies/list`, page by page, the top `n` by rank, USD converted
 * at the fiat list's rate for any other currency. Its records have no filters
 * to ask for and fewer fields (Quote.absent): a filter or another order is
 * #N/A saying so, and rows the list does not reach (a Sandbox key sees the top
 * 100 [doc]) end the table with a row saying so, never silently.
 */
async function marketsFromList(ctx: FormulaContext, n: number, narrowed: readonly string[], cur: string, columns: Column<MoneyQuote>[], showHeaders: boolean): Promise<Grid> {
  const why = 'The markets list is not available to this key; the list of currencies it gets prices from instead';
  if (narrowed.length > 0) throw notAvailable(`${why} is by rank only, without ${narrowed.join(', ')}: leave ${narrowed.length > 1 ? 'them' : 'it'} out`, 'ENDPOINT_NOT_AVAILABLE');
  const [page, rate] = await Promise.all([ctx.client.getPages('currencyList', { query: {}, maxItems: n }), fiatRate(ctx.client, cur)]);
  // guess: the list comes by rank, as the markets list does; sorted here so the rows read by rank whatever it is.
  const byRank = [...page.data].sort((a, b) => (a.rank ?? Number.POSITIVE_INFINITY) - (b.rank ?? Number.POSITIVE_INFINITY));
  const rows = byRank.slice(0, n).map((it) => convertQuote({ ...quoteFromListItem(it, page.fetchedAt), stale: page.stale }, rate));
  const unreadable: UnreadableRow[] = [...(page.rejected ?? [])].filter((r) => r.index < n);
  const reached = rows.length + unreadable.length;
  if (reached < n) {
    unreadable.push({ index: reached, id: null, label: `rows ${reached + 1} to ${n}`, message: `${why} ends after ${reached} coins` });
  }
  return table(rows, columns, showHeaders, 'No coins in the list of currencies', unreadable);
}

/**
 * The first `n` rows of a list answer whose items pass `keep`, with the unreadable items at their
 * places among them (an unreadable item is kept: whether it is a stablecoin cannot be read).
 */
function kept(data: readonly MarketItem[], rejected: readonly RejectedItem[] | undefined, keep: (m: MarketItem) => boolean, n: number) {
  const bad = [...(rejected ?? [])].sort((a, b) => a.index - b.index);
  const items: MarketItem[] = [];
  const places: RejectedItem[] = [];
  let next = 0;
  let b = 0;
  for (let place = 0; items.length + places.length < n && (next < data.length || b < bad.length); place++) {
    if (b < bad.length && bad[b].index === place) places.push({ ...bad[b++], index: items.length + places.length });
    else if (next < data.length) {
      const m = data[next++];
      if (keep(m)) items.push(m);
    } else places.push({ ...bad[b++], index: items.length + places.length });
  }
  return { items, rejected: places };
}

// ---------------------------------------------------------------- SEARCH

async function search(ctx: FormulaContext, query: Arg, headers: Arg): Promise<Grid> {
  const q = textArg(query, 'query');
  if (!q) throw invalidValue('query is required: part of a coin name, slug or symbol');
  const { maxLength } = ENDPOINTS.search.params.query;
  if (q.length > maxLength) throw invalidValue(`query must be at most ${maxLength} characters`);
  const res = await ctx.client.get('search', { query: { query: q } });
  return table(res.data, [
    { header: 'Rank', cell: (r) => numberCell(r.rank) },
    { header: 'Name', cell: (r) => r.name },
    { header: 'Symbol', cell: (r) => textCell(r.symbol) },
    { header: 'Slug', cell: (r) => r.slug },
    { header: 'Id', cell: (r) => r.id },
  ], headersArg(headers), `Nothing found for "${q}"`, res.rejected);
}

// ---------------------------------------------------------------- PROFILE, CONTRACTS

const PROFILE_FIELDS: Record<string, (p: Profile) => Cell> = {
  id: (p) => p.id,
  slug: (p) => p.slug,
  symbol: (p) => textCell(p.symbol),
  name: (p) => p.name,
  rank: (p) => numberCell(p.rank),
  type: (p) => p.type,
  lifecycle: (p) => p.lifecycle,
  category: (p) => textCell(p.category?.name),
  tags: (p) => p.tags.map((t) => t.name).join(', '),
  imageUrl: (p) => textCell(p.imageUrl),
  description: (p) => textCell(p.description),
  listingDate: (p) => dateCell(p.listingDate),
  links: (p) => p.links.map((l) => l.url).join(' '),
  price: (p) => decimalCell(p.price),
  'pricePercentChange.h24': (p) => numberCell(p.pricePercentChange.h24),
  'pricePercentChange.d7': (p) => numberCell(p.pricePercentChange.d7),
  'pricePercentChange.d30': (p) => numberCell(p.pricePercentChange.d30),
  'pricePercentChange.m3': (p) => numberCell(p.pricePercentChange.m3),
  'pricePercentChange.ytd': (p) => numberCell(p.pricePercentChange.ytd),
  volume24h: (p) => decimalCell(p.volume24h),
  marketCap: (p) => decimalCell(p.marketCap),
  volMcapRatio: (p) => numberCell(p.volMcapRatio),
  volatility: (p) => numberCell(p.volatility),
  high24hUsd: (p) => decimalCell(p.high24hUsd),
  low24hUsd: (p) => decimalCell(p.low24hUsd),
  fullyDilutedValuation: (p) => decimalCell(p.fullyDilutedValuation),
  circulatingPercent: (p) => numberCell(p.circulatingPercent),
  circulatingSupply: (p) => decimalCell(p.circulatingSupply),
  totalSupply: (p) => decimalCell(p.totalSupply),
  maxSupply: (p) => decimalCell(p.maxSupply),
};
const PROFILE_FIELD_NAMES = Object.keys(PROFILE_FIELDS);

async function profile(ctx: FormulaContext, coin: Arg, field: Arg, currency: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const f = fieldArg(field, PROFILE_FIELD_NAMES);
  const cur = currencyArg(currency, ctx.settings.defaultCurrency);
  const api = isApiCurrency(cur);
  const rate = api ? null : fiatRate(ctx.client, cur);
  rate?.catch(() => undefined); // awaited below
  const ref = await ctx.client.resolveCoin(input);
  const res = await ctx.client.get('profile', {
    id: ref.id, query: { convert: api && cur !== 'USD' ? cur : undefined },
  });
  return recordCells(PROFILE_FIELDS, rate ? convertProfile(res.data, await rate) : res.data, f);
}

async function contracts(ctx: FormulaContext, coin: Arg, headers: Arg): Promise<Grid> {
  const ref = await ctx.client.resolveCoin(coinArg(coin));
  const res = await ctx.client.get('contracts', { id: ref.id });
  return table(res.data, [
    { header: 'Blockchain', cell: (c) => c.blockchainName },
    { header: 'Blockchain slug', cell: (c) => c.blockchainSlug },
    { header: 'Address', cell: (c) => c.address },
    { header: 'Decimals', cell: (c) => numberCell(c.decimals) },
    { header: 'Explorer', cell: (c) => (c.explorerUrl ? c.explorerUrl + c.address : EMPTY) },
  ], headersArg(headers), `${ref.name} has no token contracts`, res.rejected);
}

export const marketFormulas: Catalog = {
  PRICE: price,
  DATA: data,
  QUOTE: quote,
  MARKETS: markets,
  SEARCH: search,
  PROFILE: profile,
  CONTRACTS: contracts,
};

export { QUOTE_FIELDS };
