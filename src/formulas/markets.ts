/**
 * CRYPTO.MARKETS: the markets list, any count, in pages of 250; filters by
 * category, tag, ecosystem and lifecycle; stablecoins left out on request. A
 * key without the markets list gets it by rank from the list of currencies.
 */
import { quoteFromListItem, quoteFromMarketItem, routeUnavailable } from '../client';
import { ENDPOINTS } from '../api/endpoints';
import { listMoved, type ListMoved } from '../client/paging';
import type { CurrencyCategory, MarketItem } from '../api/records';
import type { RejectedItem } from '../api/read-data';
import { boolArg, choiceArg, choicesOf, currencyArg, headersArg, intArg, notGiven, scalar, textArg, type Arg } from './args';
import { quotedOr } from '../api/words';
import { formulaError, table, type Column, type Grid, type UnreadableRow } from './cells';
import { convertQuote, fiatRate, isApiCurrency, type MoneyQuote } from './currency';
import type { FormulaContext } from './formula-context';
import { QUOTE_FIELDS, quoteFields } from './quote-fields';
import { closeNames } from './closest-names';


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
  if (!hit) {
    // The nearest names of the list just read, as an unknown coin or chain gets (review-r3 #18).
    const close = closeNames(text, list.data).map((c) => `"${c}"`);
    throw formulaError('NOT_FOUND', `Unknown ${name} "${String(v)}"${close.length ? `; closest: ${close.join(', ')}` : ''}. A ${name} is named by its id, slug or name`);
  }
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
  if (!hit) throw formulaError('NOT_FOUND', 'The API\'s category list has no Stablecoin category: stablecoins cannot be left out');
  return hit.id;
}

export async function markets(
  ctx: FormulaContext, count: Arg, sortBy: Arg, sortOrder: Arg, category: Arg, tag: Arg, ecosystem: Arg, lifecycle: Arg,
  currency: Arg, headers: Arg, fields: Arg, excludeStablecoins: Arg,
): Promise<Grid> {
  const n = intArg(count, 'count', 1, 5000, 100);
  const sort = choiceArg(sortBy, 'sortBy', SORT_BY, 'rank', ENDPOINTS.markets.params.sortBy.values.map((x) => `"${x}"`).join(', '));
  const { sortOrder: ORDERS, lifecycle: LIFECYCLES } = ENDPOINTS.markets.params;
  const order = textArg(sortOrder, 'sortOrder') === null ? null : choiceArg(sortOrder, 'sortOrder', choicesOf(ORDERS.values), undefined, quotedOr(ORDERS.values));
  const life = choiceArg(lifecycle, 'lifecycle', choicesOf(LIFECYCLES.values), LIFECYCLES.default, quotedOr(LIFECYCLES.values));
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
    const moved = listMoved(page);
    const unreadable: UnreadableRow[] = [...rejected];
    if (moved) unreadable.push(movedRow(moved, items.length + rejected.length));
    return table(rows, columns, showHeaders, 'No coins match these filters', unreadable.length ? unreadable : undefined);
  }
}

/**
 * The last row when the list's pages disagreed even when read again (client/paging.ts ListMoved):
 * the coins on two pages are shown once, and the user hears that as many may be missing, never
 * silently (review-r3 #12). #N/A, as the list of currencies' "ends after" row: a SUM over the
 * column is then not a total that quietly lacks a coin.
 */
function movedRow(moved: ListMoved, index: number, list = 'The markets list'): UnreadableRow {
  const one = moved.repeated === 1;
  return {
    index,
    id: null,
    label: `place ${moved.at + 1} of the list`,
    message: `${list} moved while its pages were read, and again when read once more: ${moved.repeated} coin${one ? '' : 's'} ` +
      `on two pages ${one ? 'is' : 'are'} shown once, and as many coins may be missing; recalculate to read it again`,
  };
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
  if (narrowed.length > 0) throw formulaError('ENDPOINT_NOT_AVAILABLE', `${why} is by rank only, without ${narrowed.join(', ')}: leave ${narrowed.length > 1 ? 'them' : 'it'} out`);
  const [page, rate] = await Promise.all([ctx.client.getPages('currencyList', { query: {}, maxItems: n }), fiatRate(ctx.client, cur)]);
  // guess: the list comes by rank, as the markets list does; sorted here so the rows read by rank whatever it is.
  const byRank = [...page.data].sort((a, b) => (a.rank ?? Number.POSITIVE_INFINITY) - (b.rank ?? Number.POSITIVE_INFINITY));
  const rows = byRank.slice(0, n).map((it) => convertQuote({ ...quoteFromListItem(it, page.fetchedAt), stale: page.stale }, rate));
  const unreadable: UnreadableRow[] = [...(page.rejected ?? [])].filter((r) => r.index < n);
  const reached = rows.length + unreadable.length;
  // Pages that repeated each other, read again, are rows missing from the middle, not a list that ends:
  // said as the markets list says it (review 2026-11-27, lists #4).
  const moved = listMoved(page);
  if (moved) unreadable.push(movedRow(moved, reached, 'The list of currencies'));
  else if (reached < n) {
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
