/**
 * QUOTE's fields, shared by PRICE, DATA, QUOTE and MARKETS: the markets
 * record's names as the spec gives them, short aliases, and a field the
 * quote's record does not carry shown as #N/A naming it (Quote.absent).
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

/** QUOTE's fields: the markets record's names as the spec gives them, plus short aliases. */
export const QUOTE_FIELDS: Record<string, QuoteField> = readingAbsence({
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
export const QUOTE_CHOICES: Record<string, string> = {
  ...Object.fromEntries(Object.keys(QUOTE_FIELDS).map((f) => [f.toLowerCase(), f])),
  ...QUOTE_ALIASES,
};
const DEFAULT_QUOTE_FIELDS = ['name', 'symbol', 'price', 'percentChange.h24', 'marketCap', 'volume24h'];

export const QUOTE_FIELDS_SHOWN = Object.keys(QUOTE_FIELDS).join(', ');

/** Field names, comma-separated or a range; `fallback` when none is given. */
export function quoteFields(v: Arg, fallback: readonly string[] = DEFAULT_QUOTE_FIELDS): string[] {
  const raw = flatValues(v, { zeroIsBlank: true }).flatMap((x) => (typeof x === 'string' ? x.split(',').map((s) => s.trim()).filter(Boolean) : [x]));
  if (raw.length === 0) return [...fallback];
  return raw.map((f) => choiceArg(f, 'fields', QUOTE_CHOICES, undefined, `field names from: ${QUOTE_FIELDS_SHOWN}`));
}
