/**
 * QUOTE's fields, shared by PRICE, DATA, QUOTE and MARKETS: the markets
 * record's names as the spec gives them, short aliases, PROFILE's names for the
 * same figures (FIELD_TWINS), and a field the quote's record does not carry
 * shown as #N/A naming it (Quote.absent).
 */
import { flatValues, choiceArg, type Arg } from './args';
import { CellError, dateCell, numberCell, textCell, type Cell } from './cells';
import type { MoneyQuote } from './currency';

type QuoteField = { header: string; cell: (q: MoneyQuote) => Cell };

/** A field the quote's record does not carry (Quote.absent) is #N/A naming it, not an empty cell. */
function readingAbsence(fields: Record<string, QuoteField>): Record<string, QuoteField> {
  const out: Record<string, QuoteField> = {};
  for (const [name, f] of Object.entries(fields)) {
    out[name] = { header: f.header, cell: (q) => (q.absent?.fields.has(name) ? new CellError('#N/A', `No ${name} in ${q.absent.source}`) : f.cell(q)) };
  }
  return out;
}

/**
 * One figure, two names: the markets record's (QUOTE, DATA, MARKETS) and the profile's (PROFILE), as the spec
 * gives each record. Each formula takes the other's spelling as an alias and names only its own in its errors
 * (review-r3 #7; Bloomberg's field mnemonics are the same in BDP and BDH). `usd`: PROFILE's figure is in USD
 * whatever the currency asked (its name says so, currency.ts convertProfile), QUOTE's in the currency asked, so
 * they are the same figure in USD only. Names both records share (price, marketCap, maxSupply...) need no row.
 */
export const FIELD_TWINS: readonly { quote: string; profile: string; usd?: true }[] = [
  { quote: 'percentChange.h24', profile: 'pricePercentChange.h24' },
  { quote: 'percentChange.d7', profile: 'pricePercentChange.d7' },
  { quote: 'percentChange.d30', profile: 'pricePercentChange.d30' },
  { quote: 'percentChange.m3', profile: 'pricePercentChange.m3' },
  { quote: 'percentChange.ytd', profile: 'pricePercentChange.ytd' },
  { quote: 'high24h', profile: 'high24hUsd', usd: true },
  { quote: 'low24h', profile: 'low24hUsd', usd: true },
];

/** QUOTE's fields: the markets record's names as the spec gives them, plus short aliases. */
const SHOWN_FIELDS: Record<string, QuoteField> = readingAbsence({
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

/**
 * PROFILE's USD-named twins as fields of their own: the QUOTE figure when the quote is in USD; in another
 * currency #N/A naming the field to ask instead (QUOTE's high24h is then in that currency, not USD).
 */
const USD_TWINS: Record<string, QuoteField> = Object.fromEntries(FIELD_TWINS.filter((t) => t.usd).map((t) => {
  const base = SHOWN_FIELDS[t.quote];
  return [t.profile, {
    header: `${base.header} (USD)`,
    cell: (q: MoneyQuote): Cell => (q.currency === 'USD' ? base.cell(q) : new CellError('#N/A', `${t.profile} is in USD and this quote is in ${q.currency}: ask ${t.quote} for the ${q.currency} figure, or the currency USD`)),
  }];
}));

/** Every field a name may lead to: the ones errors list, and PROFILE's USD-named twins. */
export const QUOTE_FIELDS: Record<string, QuoteField> = { ...SHOWN_FIELDS, ...USD_TWINS };

const QUOTE_ALIASES: Record<string, string> = {
  change24h: 'percentChange.h24', h24: 'percentChange.h24',
  change7d: 'percentChange.d7', d7: 'percentChange.d7',
  change30d: 'percentChange.d30', d30: 'percentChange.d30',
  change3m: 'percentChange.m3', m3: 'percentChange.m3',
  changeytd: 'percentChange.ytd', ytd: 'percentChange.ytd',
  fdv: 'fullyDilutedValuation',
  // PROFILE's spellings (the USD-named ones are fields of their own, USD_TWINS)
  ...Object.fromEntries(FIELD_TWINS.filter((t) => !t.usd).map((t) => [t.profile.toLowerCase(), t.quote])),
};
/** Lower-case spelling → field name (own keys only: read with Object.hasOwn, as choiceArg does). */
export const QUOTE_CHOICES: Record<string, string> = {
  ...Object.fromEntries(Object.keys(QUOTE_FIELDS).map((f) => [f.toLowerCase(), f])),
  ...QUOTE_ALIASES,
};
const DEFAULT_QUOTE_FIELDS = ['name', 'symbol', 'price', 'percentChange.h24', 'marketCap', 'volume24h'];

/** The names errors list (and DATA's custom enum offers): QUOTE's own, no alias. */
export const QUOTE_FIELDS_SHOWN = Object.keys(SHOWN_FIELDS).join(', ');

/**
 * A QUOTE spelling (a field name or alias, any case) as PROFILE names the figure: its twin's name, else the QUOTE
 * name itself (PROFILE may not have it: the caller checks). `usd`: the two are the same figure in USD only.
 */
export function profileSpelling(text: string): { name: string; usd: boolean } | undefined {
  const key = text.trim().toLowerCase();
  if (!Object.hasOwn(QUOTE_CHOICES, key)) return undefined;
  const name = QUOTE_CHOICES[key];
  const twin = FIELD_TWINS.find((t) => t.quote === name);
  return twin ? { name: twin.profile, usd: twin.usd === true } : { name, usd: false };
}

/** Field names, comma-separated or a range; `fallback` when none is given. */
export function quoteFields(v: Arg, fallback: readonly string[] = DEFAULT_QUOTE_FIELDS): string[] {
  const raw = flatValues(v, { zeroIsBlank: true }).flatMap((x) => (typeof x === 'string' ? x.split(',').map((s) => s.trim()).filter(Boolean) : [x]));
  if (raw.length === 0) return [...fallback];
  return raw.map((f) => choiceArg(f, 'fields', QUOTE_CHOICES, undefined, `field names from: ${QUOTE_FIELDS_SHOWN}`));
}
