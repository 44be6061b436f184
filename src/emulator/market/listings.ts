/**
 * Currency lists: the map, search, the paged list, the markets list, trending and
 * gainers/losers. All read the hour's snapshot; nothing here computes prices.
 */
import type {
  CurrencyCategory, CurrencyListItem, CurrencyMapItem, CurrencySearchItem, GainerLoser, MarketItem, TrendingItem,
} from '../../api/records';
import { dayStart, iso } from './calendar';
import type { Market } from './context';
import { price as fmtPrice, round4, tokens, usd } from './decimal';
import { unit4 } from './prng';
import type { CoinState, Snapshot } from './snapshot';
import type { Coin, Ref } from './universe';

const r4 = (x: number | null): number | null => (x === null ? null : round4(x));

export function categoryOf(m: Market, c: Coin): CurrencyCategory | null {
  return c.categoryId === null ? null : { ...m.u.categoryById.get(c.categoryId)! };
}

const refs = (ids: number[], by: Map<number, Ref>): Ref[] => ids.map((id) => ({ ...by.get(id)! }));

export function currencyMap(m: Market): CurrencyMapItem[] {
  return m.u.coins.map((c) => ({ id: c.id, slug: c.slug, symbol: c.symbol, name: c.name }));
}

/** Case-insensitive substring match on name, slug or symbol; exact matches first, then by rank (unranked last); at most 50. */
export function search(m: Market, snap: Snapshot, query: string): CurrencySearchItem[] {
  const q = query.trim().toLowerCase();
  const hits: { c: Coin; exact: boolean; rank: number | null }[] = [];
  for (const c of m.u.coins) {
    const sym = c.symbol?.toLowerCase() ?? '';
    const name = c.name.toLowerCase();
    if (!(name.includes(q) || c.slug.includes(q) || sym.includes(q))) continue;
    hits.push({ c, exact: sym === q || c.slug === q || name === q, rank: snap.states[c.index]?.rank ?? null });
  }
  hits.sort((a, b) => Number(b.exact) - Number(a.exact) || (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.c.id - b.c.id);
  return hits.slice(0, 50).map(({ c, rank }) => ({ id: c.id, slug: c.slug, symbol: c.symbol, name: c.name, rank, imageUrl: c.imageUrl }));
}

function listItem(c: Coin, s: CoinState | undefined): CurrencyListItem {
  return {
    id: c.id,
    slug: c.slug,
    symbol: c.symbol,
    name: c.name,
    rank: s?.rank ?? null,
    imageUrl: c.imageUrl,
    price: s ? fmtPrice(s.price) : '0',
    priceChangePercent24h: s ? r4(s.change.h24) : null,
    marketCap: s ? usd(s.mcap) : null,
    volume24h: s ? usd(s.volume24h) : '0',
    circulatingSupply: s ? tokens(s.circ) : null,
  };
}

export const LIST_PAGE = 100;

/** A page of traded coins by rank (ETFs, unranked, at the end), or the given ids in the given order (all must exist). */
export function currencyList(m: Market, snap: Snapshot, page: number, ids: number[] | undefined): { data: CurrencyListItem[]; meta: Record<string, unknown> } {
  if (ids) {
    const coins = ids.map((id) => m.coin(id));
    return { data: coins.map((c) => listItem(c, snap.states[c.index])), meta: { page: 1, pageSize: LIST_PAGE, hasNextPage: false } };
  }
  const from = (page - 1) * LIST_PAGE;
  const slice = snap.traded.slice(from, from + LIST_PAGE);
  return {
    data: slice.map((s) => listItem(s.coin, s)),
    meta: { page, pageSize: LIST_PAGE, hasNextPage: from + LIST_PAGE < snap.traded.length },
  };
}

// ---------------------------------------------------------------- markets

export interface MarketsQuery {
  offset: number;
  limit: number;
  sortBy: string;
  sortOrder: string;
  category?: number;
  tag?: number;
  ecosystem?: number;
  lifecycle: string;
  convert: string;
  sparkline: boolean;
}

const UPCOMING = new Set(['scheduled', 'funding', 'crowdsale']);

/** Numbers the markets list sorts by; null sorts last in both orders. */
function sortKey(sortBy: string, c: Coin, s: CoinState | undefined): number | null {
  if (!s) return sortBy === 'rank' ? null : 0;
  switch (sortBy) {
    case 'rank':
      return s.rank;
    case 'marketCap':
      return s.mcap;
    case 'volume24h':
      return s.volume24h;
    case 'change24h':
      return round4(s.change.h24 ?? 0);
    case 'change7d':
      return round4(s.change.d7 ?? 0);
    default:
      return c.id;
  }
}

function sortedCoins(m: Market, snap: Snapshot, q: MarketsQuery): Coin[] {
  const key = `markets|${q.lifecycle}|${q.category}|${q.tag}|${q.ecosystem}|${q.sortBy}|${q.sortOrder}`;
  const hit = snap.memo.get(key) as Coin[] | undefined;
  if (hit) return hit;
  let coins: Coin[] = q.lifecycle === 'upcoming'
    ? m.u.coins.filter((c) => UPCOMING.has(snap.lifecycle[c.index]))
    : snap.traded.map((s) => s.coin);
  if (q.category !== undefined) coins = coins.filter((c) => c.categoryId === q.category);
  if (q.tag !== undefined) coins = coins.filter((c) => c.tagIds.includes(q.tag!));
  if (q.ecosystem !== undefined) coins = coins.filter((c) => c.ecosystemIds.includes(q.ecosystem!));
  const dir = q.sortOrder === 'desc' ? -1 : 1;
  const keyed = coins.map((c) => ({ c, k: sortKey(q.sortBy, c, snap.states[c.index]) }));
  keyed.sort((a, b) => {
    if (a.k === null || b.k === null) return a.k === b.k ? a.c.id - b.c.id : a.k === null ? 1 : -1;
    return (a.k - b.k) * dir || a.c.id - b.c.id;
  });
  const out = keyed.map((x) => x.c);
  snap.memo.set(key, out);
  return out;
}

function images(c: Coin): MarketItem['images'] {
  const base = `https://images.cryptorank.io/coins`;
  return { icon: `${base}/icon.${c.slug}.png`, x60: `${base}/60x60.${c.slug}.png`, x150: `${base}/150x150.${c.slug}.png`, native: `${base}/${c.slug}.png` };
}

function marketItem(m: Market, snap: Snapshot, c: Coin, fx: number): MarketItem {
  const s = snap.states[c.index];
  const base = {
    id: c.id,
    slug: c.slug,
    symbol: c.symbol,
    name: c.name,
    rank: s?.rank ?? null,
    categoryId: c.categoryId,
    images: images(c),
  };
  const tagsAndEcos = { tags: refs(c.tagIds, m.u.tagById), ecosystems: refs(c.ecosystemIds, m.u.ecosystemById) };
  if (!s) {
    return {
      ...base, price: '0', marketCap: null, volume24h: '0', volume24hBase: '0', fullyDilutedValuation: null, high24h: null, low24h: null,
      percentChange: { h24: 0, d7: 0, d30: 0, m3: 0, ytd: 0 }, circulatingSupply: null, totalSupply: null, maxSupply: null, isTraded: false,
      ...tagsAndEcos, lastUpdated: null,
    };
  }
  const ch = s.change;
  return {
    ...base,
    price: fmtPrice(s.price * fx),
    marketCap: usd(s.mcap * fx),
    volume24h: usd(s.volume24h * fx),
    volume24hBase: tokens(s.volume24h / s.price),
    fullyDilutedValuation: usd(s.fdv * fx),
    high24h: fmtPrice(s.high24h * fx),
    low24h: fmtPrice(s.low24h * fx),
    percentChange: { h24: round4(ch.h24 ?? 0), d7: round4(ch.d7 ?? 0), d30: round4(ch.d30 ?? 0), m3: round4(ch.m3 ?? 0), ytd: round4(ch.ytd ?? 0) },
    circulatingSupply: tokens(s.circ),
    totalSupply: tokens(s.total),
    maxSupply: s.max === null ? null : tokens(s.max),
    isTraded: true,
    ...tagsAndEcos,
    lastUpdated: iso(snap.hourStartMs),
  };
}

/** Daily USD closes of the last 7 days (today's = the current price); fewer for a newer coin. */
export function sparkline7d(m: Market, snap: Snapshot, c: Coin): string[] {
  const s = snap.states[c.index];
  if (!s) return [];
  const out: string[] = [];
  for (let d = Math.max(snap.today - 6, c.startDay!); d < snap.today; d++) out.push(fmtPrice(m.series.close(c, d)));
  out.push(fmtPrice(s.price));
  return out;
}

export function markets(m: Market, snap: Snapshot, q: MarketsQuery): { data: MarketItem[]; meta: Record<string, unknown> } {
  const coins = sortedCoins(m, snap, q);
  const page = coins.slice(q.offset, q.offset + q.limit);
  const fx = q.convert === 'EUR' ? snap.eur : 1;
  const data = page.map((c) => {
    const key = `item|${q.convert}|${c.index}`;
    let item = snap.memo.get(key) as MarketItem | undefined;
    if (!item) {
      item = marketItem(m, snap, c, fx);
      snap.memo.set(key, item);
    }
    return q.sparkline ? { ...item, sparkline7d: sparkline7d(m, snap, c) } : item;
  });
  return { data, meta: { page: Math.floor(q.offset / q.limit) + 1, pageSize: q.limit, hasNextPage: q.offset + q.limit < coins.length } };
}

// ---------------------------------------------------------------- trending, gainers and losers

/** 20 coins among the top 300 with the largest |24h change| weighted by a per-4-hours random interest. */
export function trending(m: Market, snap: Snapshot): TrendingItem[] {
  const epoch = Math.floor(snap.H / 4);
  const pool = snap.ranked.slice(0, 300).map((s) => ({
    s,
    score: (Math.abs(s.change.h24 ?? 0) + 1) * (0.2 + unit4(m.seed, s.coin.id, 31, epoch)),
  }));
  pool.sort((a, b) => b.score - a.score || a.s.coin.id - b.s.coin.id);
  return pool.slice(0, 20).map(({ s }, i) => ({
    id: s.coin.id,
    rank: i + 1,
    slug: s.coin.slug,
    symbol: s.coin.symbol,
    name: s.coin.name,
    imageUrl: s.coin.imageUrl,
    category: categoryOf(m, s.coin),
    price: fmtPrice(s.price),
    priceChangePercent24h: r4(s.change.h24),
    high24h: fmtPrice(s.high24h),
    low24h: fmtPrice(s.low24h),
    volume24h: usd(s.volume24h),
    marketCap: usd(s.mcap),
    volMcapRatio: s.mcap > 0 ? round4(s.volume24h / s.mcap) : null,
    listingDate: s.coin.listingDate ?? iso(dayStart(s.coin.startDay!)),
  }));
}

/** Candidates: the top 1000 ranked coins. Gainers: change > 0, largest first; losers: change < 0, smallest first. */
export function gainersLosers(m: Market, snap: Snapshot, type: string, period: string, limit: number): GainerLoser[] {
  const pick = (s: CoinState): number | null => (period === '7d' ? s.change.d7 : period === '30d' ? s.change.d30 : s.change.h24);
  const rows = snap.ranked.slice(0, 1000)
    .map((s) => ({ s, ch: r4(pick(s)) }))
    .filter((x): x is { s: CoinState; ch: number } => x.ch !== null && (type === 'losers' ? x.ch < 0 : x.ch > 0));
  rows.sort((a, b) => (type === 'losers' ? a.ch - b.ch : b.ch - a.ch) || a.s.coin.id - b.s.coin.id);
  return rows.slice(0, limit).map(({ s, ch }) => ({
    id: s.coin.id,
    rank: s.rank,
    slug: s.coin.slug,
    symbol: s.coin.symbol,
    name: s.coin.name,
    imageUrl: s.coin.imageUrl,
    category: categoryOf(m, s.coin),
    price: fmtPrice(s.price),
    marketCap: usd(s.mcap),
    pricePercentChange: ch,
    volume24h: usd(s.volume24h),
  }));
}
