/**
 * Price history: OHLCV (modelled on Excel's STOCKHISTORY), HISTORICAL (one
 * value at a date, coalesced across cells), RETURNS, SPARKLINE, PERFORMANCE.
 * Dates go out as Excel serial dates (UTC); series are oldest first.
 */
import { ENDPOINTS } from '../api/endpoints';
import type { Candle, HistoricalItem, Performance } from '../api/records';
import { HOUR_MS, isoDay } from '../api/utc-day';
import type { Fetched } from '../client';
import { hasCode, isDepthLimit } from '../client/api-error';
import { rejectedAmongSorted } from '../client/paging';
import {
  choiceArg, choicesOf, coinArg, currencyArg, fieldArg, flatValues, headersArg, notGiven, scalar, shown, type Arg,
} from './args';
import { dateArg, rangeArgs, readsAsDate, type Span } from './span-args';
import {
  dateCell, decimalCell, recordCells, formulaError, invalidValue, numberCell, table,
  type Cell, type Column, type FormulaResult, type Grid, type UnreadableRow,
} from './cells';
import { isIsoCurrency } from './currency';
import { chartRange } from './global';
import type { Catalog, FormulaContext } from './formula-context';
import { formulaCall, ordinal } from './misplaced-args';
import { candleRefusal, checkCandleReach, checkSparklineReach, noHistoricalDay, planName, sparklineReachMessage } from './reach';
import { usdHeader } from './usd-money';


// ---------------------------------------------------------------- OHLCV

type ApiInterval = 'day' | 'week' | 'month' | 'hour';
const INTERVALS: Record<string, ApiInterval> = {
  daily: 'day', weekly: 'week', monthly: 'month', hourly: 'hour',
  day: 'day', week: 'week', month: 'month', hour: 'hour',
  d: 'day', w: 'week', m: 'month', h: 'hour',
  // STOCKHISTORY's interval numbers
  '0': 'day', '1': 'week', '2': 'month',
};
const INTERVALS_SHOWN = '"daily", "weekly", "monthly" or "hourly" (or STOCKHISTORY\'s 0 daily, 1 weekly, 2 monthly)';

/** OHLCV's columns by field name (the Candle record's names). */
export const OHLCV_FIELDS = {
  date: { header: 'Date', cell: (c: Candle) => dateCell(c.time) },
  open: { header: 'Open', cell: (c: Candle) => decimalCell(c.open) },
  high: { header: 'High', cell: (c: Candle) => decimalCell(c.high) },
  low: { header: 'Low', cell: (c: Candle) => decimalCell(c.low) },
  close: { header: 'Close', cell: (c: Candle) => decimalCell(c.close) },
  avg: { header: 'Average', cell: (c: Candle) => decimalCell(c.avg) },
  volume: { header: 'Volume', cell: (c: Candle) => decimalCell(c.volume) },
  circulatingSupply: { header: 'Circulating supply', cell: (c: Candle) => decimalCell(c.circulatingSupply) },
  priceChangePercent: { header: 'Price change %', cell: (c: Candle) => numberCell(c.priceChangePercent) },
  volumeChangePercent: { header: 'Volume change %', cell: (c: Candle) => numberCell(c.volumeChangePercent) },
  circulatingSupplyChangePercent: {
    header: 'Circulating supply change %', cell: (c: Candle) => numberCell(c.circulatingSupplyChangePercent),
  },
} as const satisfies Record<string, Column<Candle>>;
type OhlcvField = keyof typeof OHLCV_FIELDS;
const OHLCV_FIELD_NAMES = Object.keys(OHLCV_FIELDS) as OhlcvField[];
/** STOCKHISTORY's property numbers. */
const STOCKHISTORY_FIELDS: readonly OhlcvField[] = ['date', 'close', 'volume', 'open', 'high', 'low'];
const OHLCV_CHOICES: Record<string, OhlcvField> = {
  ...choicesOf(OHLCV_FIELD_NAMES),
  ...Object.fromEntries(STOCKHISTORY_FIELDS.map((f, i) => [String(i), f])),
  average: 'avg',
  time: 'date',
};
export const DEFAULT_OHLCV_FIELDS: readonly OhlcvField[] = ['date', 'open', 'high', 'low', 'close', 'volume'];
/** The candle fields that are sums of money: USD, whatever the workbook's default currency (historyCurrency). */
const OHLCV_USD_FIELDS: ReadonlySet<OhlcvField> = new Set(['open', 'high', 'low', 'close', 'avg', 'volume']);

function ohlcvFields(v: Arg): OhlcvField[] {
  const raw = flatValues(v).flatMap((x) => (typeof x === 'string' ? x.split(',') : [x])).map((x) => (typeof x === 'string' ? x.trim() : x));
  // A currency code among the fields (the last, repeating argument is where one gets typed): USD is
  // what the candles are in; any other is refused, never converted at today's rate.
  const given = raw.filter((x) => x !== '' && !(typeof x === 'string' && isCurrencyCode(x) && historyCurrency(x, 'OHLCV', false) === 'USD'));
  if (given.length === 0) return [...DEFAULT_OHLCV_FIELDS];
  const shown = `STOCKHISTORY's numbers 0 Date, 1 Close, 2 Volume, 3 Open, 4 High, 5 Low, or names ${OHLCV_FIELD_NAMES.join(', ')}`;
  return given.map((f) => choiceArg(f, 'fields', OHLCV_CHOICES, undefined, shown));
}

/** A currency code, not a field name ("low" and "avg" are three letters too). */
const isCurrencyCode = (x: string) => isIsoCurrency(x) && !(x.toLowerCase() in OHLCV_CHOICES);

/**
 * The currency a history formula answers in: USD, or EUR where the API converts history itself
 * (the historical item's `convert`). Any other is #VALUE! saying why: the API's candles and
 * returns are USD [doc: "open/high/low/avg/close USD prices"], and a past value converted at
 * today's rate would be off by however far the rate moved since.
 */
export function historyCurrency(code: string, formula: string, eur: boolean): 'USD' | 'EUR' {
  const c = code.trim().toUpperCase();
  if (c === 'USD' || (eur && c === 'EUR')) return c;
  throw invalidValue(
    `CRYPTO.${formula} gives history in USD${eur ? ' or EUR' : ''} only; got "${code}": the API's past prices are in ${eur ? 'those currencies' : 'USD'}, ` +
      `and converting them at today's ${c} rate would misstate every past day by however far the rate has moved since`,
  );
}

/**
 * The request OHLCV makes for candles of `interval` over `span` from `from`, and the last instant
 * kept: one canonical request, so STATS and CORREL over the same range share OHLCV's cached answers.
 * `to` is the last instant of the range. A range reaching now asks up to the start of the current
 * hour: the candle containing it is the current one, and the request and its cache key stay the
 * same for the hour. (The client's paging skips candles it already holds and never asks for a page
 * starting after now.)
 */
export function candleRequest(interval: ApiInterval, span: { start: number; end: number }, from: number, now: number) {
  const to = span.end >= now ? Math.floor(now / HOUR_MS) * HOUR_MS : span.end - 1;
  return { to, query: { interval, from: new Date(from).toISOString(), to: new Date(to).toISOString() } };
}

/**
 * Daily candles of a coin over a span, oldest first: exactly OHLCV's daily request (shared through the cache).
 * `now`: the instant the span was read at. A second read of the clock, after the coin lookup, put a range
 * reaching now at `span.end - 1`, a new millisecond each call: a cache key of its own every recalculation,
 * never OHLCV's (review 2026-11-27: history #1).
 */
export async function dailyCandles(ctx: FormulaContext, id: number, span: { start: number; end: number }, now: number): Promise<Fetched<Candle[]>> {
  const { to, query } = candleRequest('day', span, span.start, now);
  const res = await ctx.client.getPages('candles', { id, query });
  return { ...res, data: res.data.filter((c) => c.time <= to).sort((a, b) => a.time - b.time) };
}

async function ohlcv(ctx: FormulaContext, coin: Arg, start: Arg, end: Arg, interval: Arg, headers: Arg, fields: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const now = ctx.now();
  const iv = choiceArg(interval, 'interval', INTERVALS, 'day', INTERVALS_SHOWN);
  const span = rangeArgs(start, end, now, ctx.settings.dateSystem);
  const showHeaders = headersArg(headers);
  const cols = ohlcvFields(fields).map((f): Column<Candle> =>
    OHLCV_USD_FIELDS.has(f) ? { ...OHLCV_FIELDS[f], header: usdHeader(OHLCV_FIELDS[f].header, ctx.settings) } : OHLCV_FIELDS[f],
  );
  const ref = await ctx.client.resolveCoin(input);
  // Asked as given, hourly too: how far back the hours reach is the service's to say (reach.ts).
  const { to, query } = candleRequest(iv, span, span.start, now);
  const res = await (iv === 'hour' ? ctx.client.getPages('ohlcv', { id: ref.id, query }) : ctx.client.getPages('candles', { id: ref.id, query }))
    .catch((e: unknown) => {
      throw candleRefusal(e, iv, ctx);
    });
  // Candles that open within the range (the current one when it reaches now), oldest first. A weekly or
  // monthly candle is the API's for its whole period (asked by interval, not built from dailies): the
  // first may open before start, as STOCKHISTORY documents ("the first data point may be earlier than
  // the start_date provided", support.microsoft.com/excel/stockhistory-function), and the last holds
  // its period's days after end; its page says nothing of a last row. Cutting that row at end would
  // take a daily request more, so the end parameter's help says so instead.
  const rows = res.data.filter((c) => c.time <= to).sort((a, b) => a.time - b.time);
  await checkCandleReach(ctx, ref, iv, span, rows);
  const empty = `No ${iv === 'day' ? 'daily' : `${iv}ly`} candles for ${ref.name} from ${isoDay(span.start)} to ${isoDay(span.end - 1)}`;
  // A header row alone would read as an answer: none is #N/A saying so.
  if (rows.length === 0 && !res.rejected?.length) throw formulaError('NOT_FOUND', empty);
  return table(rows, cols, showHeaders, empty, res.rejected);
}

// ---------------------------------------------------------------- HISTORICAL

export const HISTORICAL_FIELDS = {
  price: (h: HistoricalItem) => decimalCell(h.price),
  marketCap: (h: HistoricalItem) => decimalCell(h.marketCap),
  volume24h: (h: HistoricalItem) => decimalCell(h.volume24h),
  volume24hBase: (h: HistoricalItem) => decimalCell(h.volume24hBase),
  circulatingSupply: (h: HistoricalItem) => decimalCell(h.circulatingSupply),
  storedTime: (h: HistoricalItem) => dateCell(h.storedTime),
} as const satisfies Record<string, (h: HistoricalItem) => Cell>;
const HISTORICAL_FIELD_NAMES = Object.keys(HISTORICAL_FIELDS) as (keyof typeof HISTORICAL_FIELDS)[];

async function historical(ctx: FormulaContext, coin: Arg, date: Arg, field: Arg, currency: Arg): Promise<FormulaResult> {
  const input = coinArg(coin);
  const now = ctx.now();
  const at = dateArg(date, 'date', now, ctx.settings.dateSystem);
  if (at > now) throw invalidValue(`date must not be in the future; got ${isoDay(at)}`);
  const f = fieldArg(field, HISTORICAL_FIELD_NAMES) ?? 'price';
  const code = currencyArg(currency, ctx.settings.defaultCurrency, ['USD', 'EUR']);
  // Money fields in another fiat are refused; supply and time are the same in any currency.
  const cur = f === 'price' || f === 'marketCap' || f === 'volume24h' ? historyCurrency(code, 'HISTORICAL', true) : code === 'EUR' ? 'EUR' : 'USD';
  const ref = await ctx.client.resolveCoin(input);
  const item = await ctx.client.historical({ date: at, currency: cur, id: ref.id, name: ref.name }).catch((e: unknown) =>
    hasCode(e, 'NOT_FOUND') ? noHistoricalDay(ctx, ref, at, e) : Promise.reject(e),
  );
  return HISTORICAL_FIELDS[f](item);
}

// ---------------------------------------------------------------- headers before start

/**
 * RETURNS and SPARKLINE take headers before start, unlike OHLCV, STATS and STOCKHISTORY (whose
 * start_date is its 2nd argument: support.microsoft.com/excel/stockhistory-function). Their order
 * stays, since workbooks depend on it; a date, period or look-back where headers goes (or, for
 * SPARKLINE, an interval) is #VALUE! saying where it goes, with the formula written that way.
 * `lead`: the arguments before headers; `start`, `end`: what was given there (a second date moves
 * to end when end is blank).
 */
function misplacedStart(ctx: FormulaContext, fn: 'RETURNS' | 'SPARKLINE', lead: Arg[], start: Arg, end: Arg, intervals?: Readonly<Record<string, unknown>>) {
  const at = lead.length + 1;
  // The lead (coin, period) is read already, and the dates read as dates: text a formula can spell.
  const call = (...args: Arg[]) => formulaCall(fn, [...lead, 1, ...args]) ?? `=CRYPTO.${fn}(…)`;
  const asDate = (v: Arg) => readsAsDate(v, ctx.now(), ctx.settings.dateSystem);
  return (v: Arg): string | null => {
    // A year typed as a number (2024) is no serial date from 1970 on; as text it is that year.
    const year = typeof v === 'number' && Number.isInteger(v) && v >= 1970 && v <= 2999;
    const date = year || asDate(v);
    const given = year ? String(v) : v;
    const dates = [given, ...(asDate(start) && notGiven(scalar(end)) ? [start] : [])];
    const got = `got ${shown(v)} as headers`;
    if (intervals && typeof v === 'string' && Object.hasOwn(intervals, v.trim().toLowerCase())) {
      const orStart = date ? `; for a look-back, start is the ${ordinal(at + 1)}: ${call(given)}` : '';
      return `headers is the ${ordinal(at)} argument (1 or 0) and interval the ${ordinal(at + 3)}; ${got}: ${call(null, null, v)}${orStart}`;
    }
    if (!date) return null;
    return `headers is the ${ordinal(at)} argument (1 or 0) and start the ${ordinal(at + 1)}; ${got}: ${call(...dates)}`;
  };
}

// ---------------------------------------------------------------- RETURNS

const PERIODS = choicesOf(['monthly', 'quarterly', 'yearly'] as const);

/**
 * RETURNS, optionally between two dates: the periods that overlap [start, end] (the one containing
 * start included, as OHLCV includes the candle containing its start). The range filters the one
 * answer the API gives for every period: no request beyond it. Closing prices are USD only.
 */
async function returns(ctx: FormulaContext, coin: Arg, period: Arg, headers: Arg, start: Arg, end: Arg, currency: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const p = choiceArg(period, 'period', PERIODS, undefined, '"monthly", "quarterly" or "yearly"');
  const showHeaders = headersArg(headers, true, misplacedStart(ctx, 'RETURNS', [input, p], start, end));
  const now = ctx.now();
  const blank = (x: Arg) => flatValues(x).length === 0;
  const span = blank(start) && blank(end) ? null : rangeArgs(start, end, now, ctx.settings.dateSystem, () => 0);
  historyCurrency(currencyArg(currency, 'USD'), 'RETURNS', false);
  const ref = await ctx.client.resolveCoin(input);
  const res = await ctx.client.get('returns', { id: ref.id, query: { period: p } });
  const sorted = [...res.data].sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
  // A period runs from its date to the next one's (the last, the current one, to now).
  const rows = span === null ? sorted : sorted.filter((r, i) => Date.parse(r.date) < span.end && (i + 1 < sorted.length ? Date.parse(sorted[i + 1].date) : Infinity) > span.start);
  const within = span === null ? '' : ` from ${isoDay(span.start)} to ${isoDay(span.end - 1)}`;
  const unreadable = unreadablePeriods(res.data, res.rejected, rows, span);
  // None in the range: #N/A saying so (and when the history starts, which the answer shows), not a header row alone.
  if (rows.length === 0 && unreadable.length === 0) {
    const starts = sorted.length > 0 && span !== null && Date.parse(sorted[0].date) >= span.end ? `; its history starts ${isoDay(Date.parse(sorted[0].date))}` : '';
    throw formulaError('NOT_FOUND', `No ${p} returns for ${ref.name}${within}${starts}`);
  }
  return table(rows, [
    { header: 'Date', cell: (r) => dateCell(r.date) },
    { header: usdHeader('Closing price', ctx.settings), cell: (r) => decimalCell(r.closingPrice) },
    { header: 'Return %', cell: (r) => numberCell(r.pricePercentChange) },
  ], showHeaders, `No ${p} returns for ${ref.name}${within}`, unreadable);
}

/**
 * RETURNS' unreadable periods, each its own #N/A row as every list formula's (cells.ts table): dropped without a
 * word, a month read as if it were not there (review 2026-11-27: history #4). Its date is unknown: it lies between
 * its readable neighbours in the answer, so its row goes after the one earlier in time (as candles' and
 * sparkline points': client/paging.ts rejectedAmongSorted), and it is left out when a neighbour shows its period
 * outside the range. `rows`: the readable periods kept, oldest first.
 */
function unreadablePeriods(data: readonly { date: string }[], rejected: readonly UnreadableRow[] | undefined, rows: readonly { date: string }[], span: Span | null): UnreadableRow[] {
  const timed = (x: { date: string }) => ({ time: Date.parse(x.date) });
  // Its period starts after `earlier` and ends by `later`'s date.
  const inRange = (earlier: number | undefined, later: number | undefined) =>
    !span || !((later !== undefined && later <= span.start) || (earlier !== undefined && earlier >= span.end));
  return rejectedAmongSorted(data.map(timed), rejected ?? [], rows.map(timed), inRange);
}

// ---------------------------------------------------------------- SPARKLINE

type SparkInterval = (typeof ENDPOINTS.sparkline.params.interval.values)[number];
const SPARK_INTERVALS: Record<string, SparkInterval> = {
  ...choicesOf(ENDPOINTS.sparkline.params.interval.values), hourly: '1h', hour: '1h', daily: '1d', day: '1d',
};
const SPARK_INTERVALS_SHOWN = '"5m", "15m", "1h" (default) or "1d"';

async function sparkline(ctx: FormulaContext, coin: Arg, headers: Arg, start: Arg, end: Arg, interval: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const showHeaders = headersArg(headers, true, misplacedStart(ctx, 'SPARKLINE', [input], start, end, SPARK_INTERVALS));
  const iv = choiceArg(interval, 'interval', SPARK_INTERVALS, '1h', SPARK_INTERVALS_SHOWN);
  const range = chartRange(ctx, start, end);
  // The documented depth (CHART_DEPTH_DAYS) is refused before a request; a plan the table does not know goes to the service.
  if (range) checkSparklineReach(planName(ctx), iv, range.span.start, ctx.now());
  const ref = await ctx.client.resolveCoin(input);
  const query = {
    interval: iv === '1h' ? undefined : iv,
    from: range ? new Date(range.query.from).toISOString() : undefined,
    to: range?.query.to === undefined ? undefined : new Date(range.query.to).toISOString(),
  };
  const res = await ctx.client.get('sparkline', { id: ref.id, query }).catch((e: unknown) => {
    // The plan is read by now (the sparkline waits for it); a credit limit keeps its own words.
    if (isDepthLimit(e)) throw formulaError('PLAN_LIMIT_EXCEEDED', sparklineReachMessage(planName(ctx) ?? '', iv, ctx.now()));
    throw e;
  });
  const rows = [...res.data].sort((a, b) => a.time - b.time);
  // An unreadable point goes between the times it was between, not at its index in an answer newest first (review 2026-11-27: history #5).
  const unreadable = rejectedAmongSorted(res.data, res.rejected ?? [], rows);
  // None in the range (before the coin's first hour): #N/A saying so, not a header row alone.
  const empty = range
    ? `No ${ref.name} sparkline points between ${isoDay(range.span.start)} and ${isoDay(range.span.end - 1)}`
    : `No sparkline for ${ref.name}`;
  if (rows.length === 0 && !res.rejected?.length) throw formulaError('NOT_FOUND', empty);
  return table(rows, [
    { header: 'Time', cell: (r) => dateCell(r.time) },
    // USD, as the spec's sparkline point says of both (a EUR workbook must see it beside its PRICE cells).
    { header: usdHeader('Price', ctx.settings), cell: (r) => decimalCell(r.price) },
    { header: usdHeader('Volume', ctx.settings), cell: (r) => decimalCell(r.volume) },
  ], showHeaders, empty, unreadable);
}

// ---------------------------------------------------------------- PERFORMANCE

export const PERFORMANCE_FIELDS = {
  athPriceUsd: (p: Performance) => decimalCell(p.athPriceUsd),
  athDate: (p: Performance) => dateCell(p.athDate),
  atlPriceUsd: (p: Performance) => decimalCell(p.atlPriceUsd),
  atlDate: (p: Performance) => dateCell(p.atlDate),
  athMarketCapUsd: (p: Performance) => decimalCell(p.athMarketCapUsd),
  fromAthPercent: (p: Performance) => numberCell(p.fromAthPercent),
  fromAtlPercent: (p: Performance) => numberCell(p.fromAtlPercent),
  vcAvgRoi: (p: Performance) => numberCell(p.vcAvgRoi),
  icoRoi: (p: Performance) => numberCell(p.icoRoi),
} as const satisfies Record<string, (p: Performance) => Cell>;
const PERFORMANCE_FIELD_NAMES = Object.keys(PERFORMANCE_FIELDS) as (keyof typeof PERFORMANCE_FIELDS)[];

async function performance(ctx: FormulaContext, coin: Arg, field: Arg): Promise<Grid> {
  const input = coinArg(coin);
  const f = fieldArg(field, PERFORMANCE_FIELD_NAMES);
  const ref = await ctx.client.resolveCoin(input);
  const res = await ctx.client.get('performance', { id: ref.id });
  return recordCells<Performance>(PERFORMANCE_FIELDS, res.data, f);
}

export const historyFormulas: Catalog = {
  OHLCV: ohlcv,
  HISTORICAL: historical,
  RETURNS: returns,
  SPARKLINE: sparkline,
  PERFORMANCE: performance,
};
