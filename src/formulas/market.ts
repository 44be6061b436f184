/**
 * Currencies and markets: PRICE, DATA, QUOTE, PROFILE, CONTRACTS; MARKETS in
 * markets.ts, SEARCH in search.ts, the quote fields in quote-fields.ts.
 * Amounts in any fiat currency: currency.ts.
 */
import type { Profile } from '../api/records';
import { coinArg, choiceArg, currencyArg, fieldArg, flatCells, headersArg, scalar, type Arg } from './args';
import { dataTypeLabel, isDataType } from './data-type-arg';
import {
  CellError, EMPTY, dateCell, decimalCell, recordCells, formulaError, invalidValue, numberCell, table, textCell,
  type Cell, type Grid,
} from './cells';
import { convertProfile, fiatRate, isApiCurrency, quoteIn, type MoneyQuote } from './currency';
import { notTraded, scopeOf, toFormulaError } from './failure';
import type { Catalog, FormulaContext } from './formula-context';
import { markets } from './markets';
import { search } from './search';
import { QUOTE_CHOICES, QUOTE_FIELDS, QUOTE_FIELDS_SHOWN, profileSpelling, quoteFields } from './quote-fields';

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
    if (cell instanceof CellError) throw formulaError('MISSING_FIELD', cell.message);
    // Empty: the coin has no such value (no max supply), or none because it is not traded (PRICE's words).
    if (cell === EMPTY) throw q.isTraded ? formulaError('NOT_FOUND', `${q.name} has no ${f}`) : notTraded(q.name, f);
    return cell;
  });
}

/** A row's Coin column: the input as typed, a coin data type as its cell shows it (an error cell or other odd value shows empty). */
function label(input: Arg): Cell {
  const v = scalar(input);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return isDataType(v) ? (dataTypeLabel(v) ?? EMPTY) : EMPTY;
}

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

/**
 * PROFILE's field: its own name, or QUOTE's spelling of the same figure (quote-fields.ts FIELD_TWINS; the error
 * lists PROFILE's names only). A USD-named twin asked by QUOTE's name in another currency is refused: PROFILE's
 * high24hUsd stays USD, and QUOTE's high24h would be in that currency.
 */
function profileField(field: Arg, currency: string): string | null {
  const v = scalar(field);
  if (typeof v === 'string' && !PROFILE_FIELD_NAMES.some((f) => f.toLowerCase() === v.trim().toLowerCase())) {
    const twin = profileSpelling(v);
    if (twin && PROFILE_FIELD_NAMES.includes(twin.name)) {
      if (twin.usd && currency !== 'USD') {
        throw invalidValue(`field ${v.trim()} is PROFILE's ${twin.name}, in USD only; for ${currency} use =CRYPTO.DATA(coin,"${v.trim()}","${currency}")`);
      }
      return twin.name;
    }
  }
  return fieldArg(field, PROFILE_FIELD_NAMES);
}

async function profile(ctx: FormulaContext, coin: Arg, field: Arg, currency: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const cur = currencyArg(currency, ctx.settings.defaultCurrency);
  const f = profileField(field, cur);
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

