/**
 * A coin's quote as an Excel entity (CRYPTO.COIN): the cell shows the coin's
 * name; `=A1.Price`, `=A1.[Market cap]` read its fields; its card shows them
 * in sections under the name, with the logo and the provider's attribution.
 * Pure: the same quote PRICE reads (one batched markets request for many
 * coins), shaped into plain data (entity-cell.ts).
 *
 * Property types as Excel shows them (Microsoft's "Use cards with entity value
 * data types": every property a cell value with `type` and `basicValue`):
 * money in the quote's currency and percentages as formatted numbers, counts
 * and ids as doubles, names as strings, the time as a date-time, the logo as a
 * WebImage (HTTPS only: "This image must be hosted on a server that supports
 * HTTPS", Excel.WebImageCellValue.address). A field the answer lacks (no max
 * supply, not traded) is left out: `=A1.[Max supply]` is then #FIELD!, one cell.
 *
 * Links: Excel's cell values have no link type (@types/office-js 1.0.612: the
 * CellValue union), so the coin's page at CryptoRank is text, with the
 * property's attribution (sourceAddress) pointing there too; the provider's
 * logoTargetAddress links the card's attribution to CryptoRank.
 */
import { DATE_FORMATS, toSerial } from './cells';
import { COIN_ENTITY } from './data-type-arg';
import { EntityCell, type CardSection, type EntityProperty } from './entity-cell';
import type { MoneyQuote } from './currency';

export const CRYPTORANK_URL = 'https://cryptorank.io';
/** The coin's page at the provider (CryptoRank's price pages are /price/<slug>). */
export const coinPageUrl = (slug: string) => `${CRYPTORANK_URL}/price/${encodeURIComponent(slug)}`;

/** Property names, as the card and `=A1.[...]` show them; the id, slug, symbol and name are data-type-arg.ts's (an entity passed back is read by them). */
export const COIN_FIELDS = {
  name: COIN_ENTITY.name,
  symbol: COIN_ENTITY.symbol,
  slug: COIN_ENTITY.slug,
  id: COIN_ENTITY.id,
  rank: 'Rank',
  categoryId: 'Category ID',
  price: 'Price',
  change24h: 'Change 24h',
  change7d: 'Change 7d',
  change30d: 'Change 30d',
  change3m: 'Change 3m',
  changeYtd: 'Change YTD',
  high24h: 'High 24h',
  low24h: 'Low 24h',
  marketCap: 'Market cap',
  fdv: 'Fully diluted valuation',
  volume24h: 'Volume 24h',
  volume24hBase: 'Volume 24h (coins)',
  circulatingSupply: 'Circulating supply',
  totalSupply: 'Total supply',
  maxSupply: 'Max supply',
  traded: 'Traded',
  currency: 'Currency',
  lastUpdated: 'Last updated',
  logo: 'Logo',
  page: 'CryptoRank page',
} as const;
const F = COIN_FIELDS;

/** The card: title the name, subtitle the symbol, the logo, then sections (List/Table: ExcelApi 1.16). */
const SECTIONS: readonly CardSection[] = [
  { layout: 'List', properties: [F.price, F.change24h, F.marketCap, F.rank] },
  { layout: 'List', title: 'Price changes', properties: [F.change7d, F.change30d, F.change3m, F.changeYtd, F.high24h, F.low24h] },
  { layout: 'List', title: 'Market', properties: [F.volume24h, F.volume24hBase, F.fdv, F.traded] },
  { layout: 'List', title: 'Supply', properties: [F.circulatingSupply, F.totalSupply, F.maxSupply] },
  { layout: 'List', title: 'Coin', collapsed: true, properties: [F.id, F.slug, F.categoryId, F.currency, F.lastUpdated, F.page] },
];

/** Symbols for the currencies users pick most; any other code follows the amount. */
const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥' };

/**
 * A money format in `currency` with the decimals the amount needs: two from 1 up, more below
 * (a coin at 0.00001234 shows 0.00001234, not 0.00), none for amounts of a million and more.
 */
export function moneyFormat(amount: number, currency: string): string {
  const abs = Math.abs(amount);
  const decimals = abs >= 1e6 ? 0 : abs >= 1 || abs === 0 ? 2 : Math.min(12, Math.max(2, Math.ceil(-Math.log10(abs)) + 3));
  const number = decimals === 0 ? '#,##0' : `#,##0.${'0'.repeat(decimals)}`;
  const code = currency.toUpperCase().replace(/[^A-Z]/g, '');
  const symbol = CURRENCY_SYMBOLS[code];
  return symbol ? `"${symbol}"${number}` : `${number} "${code}"`;
}

export const PERCENT_FORMAT = '0.00%';
export const COUNT_FORMAT = '#,##0';

const finite = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * The entity of one coin's quote. One per quote object: a warm recalculation reads the quotes
 * the client holds, so a column of COIN cells gets the entities it had without building them again.
 */
const made = new WeakMap<MoneyQuote, EntityCell>();
export function coinEntity(q: MoneyQuote): EntityCell {
  let e = made.get(q);
  if (!e) made.set(q, (e = buildEntity(q)));
  return e;
}

function buildEntity(q: MoneyQuote): EntityCell {
  const props: Record<string, EntityProperty> = {};
  const text = (name: string, v: string | null | undefined) => {
    if (typeof v === 'string' && v !== '') props[name] = { type: 'String', basicValue: v };
  };
  const double = (name: string, v: number | null | undefined) => {
    if (finite(v)) props[name] = { type: 'Double', basicValue: v };
  };
  const formatted = (name: string, v: number | null | undefined, numberFormat: string) => {
    if (finite(v)) props[name] = { type: 'FormattedNumber', basicValue: v, numberFormat };
  };
  const money = (name: string, v: number | null | undefined) => finite(v) && formatted(name, v, moneyFormat(v, q.currency));
  // The API's percent changes are in percent (2.5 is 2.5%); Excel's percent format shows a fraction.
  const percent = (name: string, v: number | null | undefined) => finite(v) && formatted(name, v / 100, PERCENT_FORMAT);

  text(F.name, q.name);
  text(F.symbol, q.symbol);
  text(F.slug, q.slug);
  double(F.id, q.id);
  double(F.rank, q.rank);
  double(F.categoryId, q.categoryId);
  money(F.price, q.price);
  percent(F.change24h, q.change24h);
  percent(F.change7d, q.change7d);
  percent(F.change30d, q.change30d);
  percent(F.change3m, q.change3m);
  percent(F.changeYtd, q.changeYtd);
  money(F.high24h, q.high24h);
  money(F.low24h, q.low24h);
  money(F.marketCap, q.marketCap);
  money(F.fdv, q.fullyDilutedValuation);
  money(F.volume24h, q.volume24h);
  formatted(F.volume24hBase, q.volume24hBase, COUNT_FORMAT);
  formatted(F.circulatingSupply, q.circulatingSupply, COUNT_FORMAT);
  formatted(F.totalSupply, q.totalSupply, COUNT_FORMAT);
  formatted(F.maxSupply, q.maxSupply, COUNT_FORMAT);
  // review 2026-11-27: entities #3: an answer without isTraded is read as traded (quote.ts) so the figures stand,
  // but the field itself is left out (#FIELD!), as DATA/QUOTE show #N/A: not a guessed TRUE.
  if (!q.absent?.fields.has('isTraded')) props[F.traded] = { type: 'Boolean', basicValue: q.isTraded };
  text(F.currency, q.currency);
  const dates: string[] = [];
  if (finite(q.lastUpdated)) {
    formatted(F.lastUpdated, toSerial(q.lastUpdated), DATE_FORMATS.dateTime);
    dates.push(F.lastUpdated);
  }
  if (typeof q.imageUrl === 'string' && /^https:\/\/[^\s"]+$/i.test(q.imageUrl)) {
    props[F.logo] = { type: 'WebImage', address: q.imageUrl, altText: `${q.name} logo` };
  }
  const page = coinPageUrl(q.slug);
  props[F.page] = { type: 'String', basicValue: page, propertyMetadata: { attribution: [{ sourceAddress: page, sourceText: 'CryptoRank' }] } };

  const sections = SECTIONS.map((s) => ({ ...s, properties: s.properties.filter((p) => Object.hasOwn(props, p)) })).filter((s) => s.properties.length > 0);
  return new EntityCell(
    {
      type: 'Entity',
      text: q.name,
      properties: props,
      layouts: {
        // EntityCompactLayoutIcons.money: the icon that opens the card.
        compact: { icon: 'Money' },
        card: {
          title: { property: F.name },
          ...(props[F.symbol] ? { subTitle: { property: F.symbol } } : {}),
          ...(props[F.logo] ? { mainImage: { property: F.logo } } : {}),
          sections,
        },
      },
      provider: { description: COIN_ENTITY.provider, logoTargetAddress: CRYPTORANK_URL },
    },
    dates,
  );
}
