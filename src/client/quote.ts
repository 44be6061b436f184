/**
 * Quote: one coin's market figures, normalised to numbers (null when missing),
 * from either a markets list item or a currency profile.
 */
import { ENDPOINTS, type ConvertCurrency } from '../api/endpoints';
import type { CurrencyListItem, MarketItem, Profile } from '../api/records';
import { FieldReader, type Getters } from './missing-fields';

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
   * currencies never has some; the service may leave any but the price out of
   * an answer: missing-fields.ts): which, by QUOTE's field names, and what the
   * record was. Their cells are #N/A naming the field, not empty as a null the
   * service sent is.
   */
  absent?: { fields: ReadonlySet<string>; source: string };
}

/** What `/v3/currencies/list` items do not carry (records.ts CurrencyListItem), by QUOTE's field names. */
const NOT_IN_LIST: NonNullable<Quote['absent']> = {
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

/** A markets item's fields other than its price and what it is filed under, by QUOTE's names. */
const MARKET_ITEM_FIELDS = {
  marketCap: (m) => m.marketCap,
  volume24h: (m) => m.volume24h,
  volume24hBase: (m) => m.volume24hBase,
  fullyDilutedValuation: (m) => m.fullyDilutedValuation,
  high24h: (m) => m.high24h,
  low24h: (m) => m.low24h,
  'percentChange.h24': (m) => m.percentChange.h24,
  'percentChange.d7': (m) => m.percentChange.d7,
  'percentChange.d30': (m) => m.percentChange.d30,
  'percentChange.m3': (m) => m.percentChange.m3,
  'percentChange.ytd': (m) => m.percentChange.ytd,
  circulatingSupply: (m) => m.circulatingSupply,
  totalSupply: (m) => m.totalSupply,
  maxSupply: (m) => m.maxSupply,
  isTraded: (m) => m.isTraded,
  lastUpdated: (m) => m.lastUpdated,
  categoryId: (m) => m.categoryId,
  imageUrl: (m) => m.images?.x60 ?? null,
} satisfies Getters<MarketItem>;

/** Where a markets item's absent fields come from, as their cells name it. */
const MARKETS_ITEM = `this coin's item in the markets list (${ENDPOINTS.markets.path}), which the service answered without it`;

// A market figure as is, or null where the coin is not traded: two functions chosen per item, not a
// closure made for each (a column of quotes builds thousands).
const asIs = <T>(x: T): T | null => x;
const toNull = <T>(_x: T): T | null => null;

/**
 * A markets item as a quote. What it is filed under (id, names, rank) and its
 * price are always there (api/read-data.ts, rule 4); any other field the
 * service left out of the item (its getter throws MISSING_FIELD:
 * missing-fields.ts) is null here and named in `absent`, so PRICE still reads
 * the price and only that field's cells are #N/A.
 *
 * An item the service marks not traded (`isTraded` false: the markets list's
 * `lifecycle=upcoming` coins) has its market fields null, as a profile's are:
 * the item's price, volume and changes are required strings/numbers, so the
 * service sends "0" placeholders for them, but the spec's lifecycle table says
 * "traded" is "the only state in which market fields are populated"
 * (market-data-api.md, States and transitions). A 0 price or 0 % change would go
 * into AVERAGE/MIN with no sign (review-r3 #2); null is blank in MARKETS/QUOTE
 * and #N/A "not traded" in PRICE/DATA, the same coin's cells everywhere.
 * Supplies are not market fields and stay.
 */
export function quoteFromMarketItem(m: MarketItem, currency: ConvertCurrency): Quote {
  const G = MARKET_ITEM_FIELDS;
  const f = new FieldReader(m, G);
  const isTraded = f.read(G.isTraded) ?? true; // absent: its cell is #N/A all the same, the figures stand
  const market = isTraded ? asIs : toNull;
  const q: Quote = {
    id: m.id,
    slug: m.slug,
    symbol: m.symbol,
    name: m.name,
    rank: m.rank,
    currency,
    price: market(num(m.price)),
    marketCap: market(num(f.read(G.marketCap))),
    volume24h: market(num(f.read(G.volume24h))),
    volume24hBase: market(num(f.read(G.volume24hBase))),
    fullyDilutedValuation: market(num(f.read(G.fullyDilutedValuation))),
    high24h: market(num(f.read(G.high24h))),
    low24h: market(num(f.read(G.low24h))),
    change24h: market(num(f.read(G['percentChange.h24']))),
    change7d: market(num(f.read(G['percentChange.d7']))),
    change30d: market(num(f.read(G['percentChange.d30']))),
    change3m: market(num(f.read(G['percentChange.m3']))),
    changeYtd: market(num(f.read(G['percentChange.ytd']))),
    circulatingSupply: num(f.read(G.circulatingSupply)),
    totalSupply: num(f.read(G.totalSupply)),
    maxSupply: num(f.read(G.maxSupply)),
    isTraded,
    lastUpdated: market(time(f.read(G.lastUpdated))),
    stale: false,
    categoryId: f.read(G.categoryId),
    imageUrl: f.read(G.imageUrl),
  };
  if (f.missing) q.absent = { fields: f.missing, source: MARKETS_ITEM };
  return q;
}

/** A profile's fields other than its price and what it is filed under, by QUOTE's names. */
const PROFILE_FIELDS = {
  rank: (p) => p.rank,
  marketCap: (p) => p.marketCap,
  volume24h: (p) => p.volume24h,
  fullyDilutedValuation: (p) => p.fullyDilutedValuation,
  high24h: (p) => p.high24hUsd,
  low24h: (p) => p.low24hUsd,
  'percentChange.h24': (p) => p.pricePercentChange.h24,
  'percentChange.d7': (p) => p.pricePercentChange.d7,
  'percentChange.d30': (p) => p.pricePercentChange.d30,
  'percentChange.m3': (p) => p.pricePercentChange.m3,
  'percentChange.ytd': (p) => p.pricePercentChange.ytd,
  circulatingSupply: (p) => p.circulatingSupply,
  totalSupply: (p) => p.totalSupply,
  maxSupply: (p) => p.maxSupply,
  category: (p) => p.category?.id ?? null,
  imageUrl: (p) => p.imageUrl,
} satisfies Getters<Profile>;

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
  const G = PROFILE_FIELDS;
  const f = new FieldReader(p, G);
  const traded = p.lifecycle === 'traded';
  const m = traded ? asIs : toNull;
  const price = m(num(p.price));
  const volume24h = m(num(f.read(G.volume24h)));
  const q: Quote = {
    id: p.id,
    slug: p.slug,
    symbol: p.symbol,
    name: p.name,
    rank: f.read(G.rank),
    currency,
    price,
    marketCap: m(num(f.read(G.marketCap))),
    volume24h,
    volume24hBase: price !== null && price > 0 && volume24h !== null ? volume24h / price : null,
    fullyDilutedValuation: m(num(f.read(G.fullyDilutedValuation))),
    high24h: currency === 'USD' ? m(num(f.read(G.high24h))) : null,
    low24h: currency === 'USD' ? m(num(f.read(G.low24h))) : null,
    change24h: m(num(f.read(G['percentChange.h24']))),
    change7d: m(num(f.read(G['percentChange.d7']))),
    change30d: m(num(f.read(G['percentChange.d30']))),
    change3m: m(num(f.read(G['percentChange.m3']))),
    changeYtd: m(num(f.read(G['percentChange.ytd']))),
    circulatingSupply: num(f.read(G.circulatingSupply)),
    totalSupply: num(f.read(G.totalSupply)),
    maxSupply: num(f.read(G.maxSupply)),
    isTraded: traded,
    lastUpdated: traded ? timestamp : null,
    stale: false,
    categoryId: f.read(G.category),
    imageUrl: f.read(G.imageUrl),
  };
  if (f.missing) q.absent = { fields: f.missing, source: "this coin's profile, which the service answered without it" };
  return q;
}

/** A list item's fields other than its price and what it is filed under, by QUOTE's names. */
const LIST_ITEM_FIELDS = {
  marketCap: (it) => it.marketCap,
  volume24h: (it) => it.volume24h,
  'percentChange.h24': (it) => it.priceChangePercent24h,
  circulatingSupply: (it) => it.circulatingSupply,
} satisfies Getters<CurrencyListItem>;

/**
 * A quote from `/v3/currencies/list` (the route a key without the markets list
 * is served: issue #21). USD only; the list has no 7-day-and-longer changes,
 * FDV, 24 h range or supplies beyond circulating: those are null and named
 * in `absent`, so their cells say the field is missing, as are the fields the
 * service left out of this coin's item (its price aside: api/read-data.ts).
 */
export function quoteFromListItem(it: CurrencyListItem, timestamp: number | null): Quote {
  const G = LIST_ITEM_FIELDS;
  const f = new FieldReader(it, G);
  const price = num(it.price);
  const volume24h = num(f.read(G.volume24h));
  return {
    id: it.id,
    slug: it.slug,
    symbol: it.symbol,
    name: it.name,
    rank: it.rank,
    currency: 'USD',
    price,
    marketCap: num(f.read(G.marketCap)),
    volume24h,
    volume24hBase: price !== null && price > 0 && volume24h !== null ? volume24h / price : null,
    fullyDilutedValuation: null,
    high24h: null,
    low24h: null,
    change24h: num(f.read(G['percentChange.h24'])),
    change7d: null,
    change30d: null,
    change3m: null,
    changeYtd: null,
    circulatingSupply: num(f.read(G.circulatingSupply)),
    totalSupply: null,
    maxSupply: null,
    isTraded: price !== null,
    lastUpdated: timestamp,
    stale: false,
    absent: f.missing ? { fields: new Set([...NOT_IN_LIST.fields, ...f.missing]), source: NOT_IN_LIST.source } : NOT_IN_LIST,
  };
}
