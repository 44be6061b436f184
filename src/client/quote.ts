/**
 * Quote: one coin's market figures, normalised to numbers (null when missing),
 * from either a markets list item or a currency profile.
 */
import type { ConvertCurrency } from '../api/endpoints';
import type { CurrencyListItem, MarketItem, Profile } from '../api/records';
import { hasCode } from './api-error';

export interface Quote {
  id: number;
  slug: string;
  symbol: string | null;
  name: string;
  rank: number | null;
  currency: ConvertCurrency;
  price: number | null;
  marketCap: number | null;
  volume24h: number | null;
  volume24hBase: number | null;
  fullyDilutedValuation: number | null;
  high24h: number | null;
  low24h: number | null;
  change24h: number | null;
  change7d: number | null;
  change30d: number | null;
  change3m: number | null;
  changeYtd: number | null;
  circulatingSupply: number | null;
  totalSupply: number | null;
  maxSupply: number | null;
  isTraded: boolean;
  /** epoch ms */
  lastUpdated: number | null;
  stale: boolean;
  /** The coin's category id (markets: categoryId; profile: category.id); CRYPTO.COIN's entity shows it. */
  categoryId?: number | null;
  /** The coin's logo (markets: images.x60; profile: imageUrl), as the API gives it. */
  imageUrl?: string | null;
  /**
   * Where the record this quote was read from lacks fields (the list of
   * currencies): which, by QUOTE's field names, and what the record was. Their
   * cells are #N/A naming the field, not empty as a null the service sent is.
   */
  absent?: { fields: ReadonlySet<string>; source: string };
}

/** What `/v3/currencies/list` items do not carry (records.ts CurrencyListItem), by QUOTE's field names. */
const NOT_IN_LIST: Quote['absent'] = {
  fields: new Set(['fullyDilutedValuation', 'high24h', 'low24h', 'percentChange.d7', 'percentChange.d30', 'percentChange.m3', 'percentChange.ytd', 'totalSupply', 'maxSupply']),
  source: 'the list of currencies, which this key is served instead of the markets list',
};

function num(s: string | number | null | undefined): number | null {
  if (s === null || s === undefined) return null;
  const n = typeof s === 'number' ? s : Number(s);
  return Number.isFinite(n) ? n : null;
}

function time(iso: string | null): number | null {
  if (iso === null) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

export function quoteFromMarketItem(m: MarketItem, currency: ConvertCurrency): Quote {
  return {
    id: m.id,
    slug: m.slug,
    symbol: m.symbol,
    name: m.name,
    rank: m.rank,
    currency,
    price: num(m.price),
    marketCap: num(m.marketCap),
    volume24h: num(m.volume24h),
    volume24hBase: num(m.volume24hBase),
    fullyDilutedValuation: num(m.fullyDilutedValuation),
    high24h: num(m.high24h),
    low24h: num(m.low24h),
    change24h: num(m.percentChange.h24),
    change7d: num(m.percentChange.d7),
    change30d: num(m.percentChange.d30),
    change3m: num(m.percentChange.m3),
    changeYtd: num(m.percentChange.ytd),
    circulatingSupply: num(m.circulatingSupply),
    totalSupply: num(m.totalSupply),
    maxSupply: num(m.maxSupply),
    isTraded: m.isTraded,
    lastUpdated: time(m.lastUpdated),
    stale: false,
    categoryId: m.categoryId,
    imageUrl: m.images?.x60 ?? null,
  };
}

/**
 * A profile as a quote. Market fields are null unless the coin is traded (the
 * API already nulls them; this enforces it). high/low are USD-only in a
 * profile, so they are null for other currencies rather than wrong.
 * volume24hBase is derived (volume24h / price) as the markets list defines it.
 * lastUpdated is the answer's timestamp. A field the service left out of the
 * profile (its getter throws MISSING_FIELD: missing-fields.ts) costs its own
 * cell only: null here, named in `absent`, so PRICE still reads the price.
 * The price itself stays required: without it the quote is that error.
 */
export function quoteFromProfile(p: Profile, currency: ConvertCurrency, timestamp: number | null): Quote {
  const missing = new Set<string>();
  /** The field, or null when the answer left it out (its QUOTE name noted). */
  const read = <T>(name: string, get: () => T): T | null => {
    try {
      return get();
    } catch (e) {
      if (!hasCode(e, 'MISSING_FIELD')) throw e;
      missing.add(name);
      return null;
    }
  };
  const traded = p.lifecycle === 'traded';
  const m = <T>(x: T): T | null => (traded ? x : null);
  const price = m(num(p.price));
  const volume24h = m(num(read('volume24h', () => p.volume24h)));
  const q: Quote = {
    id: p.id,
    slug: p.slug,
    symbol: p.symbol,
    name: p.name,
    rank: read('rank', () => p.rank),
    currency,
    price,
    marketCap: m(num(read('marketCap', () => p.marketCap))),
    volume24h,
    volume24hBase: price !== null && price > 0 && volume24h !== null ? volume24h / price : null,
    fullyDilutedValuation: m(num(read('fullyDilutedValuation', () => p.fullyDilutedValuation))),
    high24h: currency === 'USD' ? m(num(read('high24h', () => p.high24hUsd))) : null,
    low24h: currency === 'USD' ? m(num(read('low24h', () => p.low24hUsd))) : null,
    change24h: m(num(read('percentChange.h24', () => p.pricePercentChange.h24))),
    change7d: m(num(read('percentChange.d7', () => p.pricePercentChange.d7))),
    change30d: m(num(read('percentChange.d30', () => p.pricePercentChange.d30))),
    change3m: m(num(read('percentChange.m3', () => p.pricePercentChange.m3))),
    changeYtd: m(num(read('percentChange.ytd', () => p.pricePercentChange.ytd))),
    circulatingSupply: num(read('circulatingSupply', () => p.circulatingSupply)),
    totalSupply: num(read('totalSupply', () => p.totalSupply)),
    maxSupply: num(read('maxSupply', () => p.maxSupply)),
    isTraded: traded,
    lastUpdated: traded ? timestamp : null,
    stale: false,
    categoryId: read('category', () => p.category?.id ?? null),
    imageUrl: read('imageUrl', () => p.imageUrl),
  };
  if (missing.size > 0) q.absent = { fields: missing, source: "this coin's profile, which the service answered without it" };
  return q;
}

/**
 * A quote from `/v3/currencies/list` (the route a key without the markets list
 * is served: issue #21). USD only; the list has no 7-day-and-longer changes,
 * FDV, 24 h range or supplies beyond circulating: those are null and named
 * in `absent`, so their cells say the field is missing.
 */
export function quoteFromListItem(it: CurrencyListItem, timestamp: number | null): Quote {
  const price = num(it.price);
  const volume24h = num(it.volume24h);
  return {
    id: it.id,
    slug: it.slug,
    symbol: it.symbol,
    name: it.name,
    rank: it.rank,
    currency: 'USD',
    price,
    marketCap: num(it.marketCap),
    volume24h,
    volume24hBase: price !== null && price > 0 && volume24h !== null ? volume24h / price : null,
    fullyDilutedValuation: null,
    high24h: null,
    low24h: null,
    change24h: it.priceChangePercent24h,
    change7d: null,
    change30d: null,
    change3m: null,
    changeYtd: null,
    circulatingSupply: num(it.circulatingSupply),
    totalSupply: null,
    maxSupply: null,
    isTraded: price !== null,
    lastUpdated: timestamp,
    stale: false,
    absent: NOT_IN_LIST,
  };
}
