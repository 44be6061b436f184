/**
 * The market as a whole: GLOBAL, DERIVATIVES, and the indices FEARGREED,
 * ALTSEASON and DOMINANCE; the movers TRENDING, GAINERS and LOSERS are in
 * movers.ts, and take their places in this catalog.
 *
 * The index formulas follow one rule: without dates they answer the current
 * reading as one number (a 1x1 result, so `=CRYPTO.FEARGREED()` can be used in
 * arithmetic), or with a field one figure of it, or "all" of it as a
 * Field/Value table; with a start date they answer the chart over [start, end)
 * as a table (Date first). The headers argument only applies to the table.
 */
import { DAY_MS, startOfUtcDay } from '../api/utc-day';
import { DOMINANCE_GROUPS } from '../api/endpoints';
import type { AltcoinIndexSnapshot, DerivativesSnapshot, DominanceSnapshot, FearGreedSnapshot, GlobalMarket } from '../api/records';
import { choiceArg, choicesOf, fieldArg, headersArg, notGiven, notGivenText, scalar, type Arg } from './args';
import { rangeArgs, type Span } from './span-args';
import { dateCell, decimalCell, formulaError, invalidValue, recordCells, numberCell, table, type Cell, type Grid } from './cells';
import type { Catalog, FormulaContext } from './formula-context';
import { refusedName, refusedValue } from './guessed-params';
import { askGuessed } from './refused-guesses';
import { readPlaced, takesChoice, takesDate, takesField, takesHeaders, type Call } from './misplaced-args';
import { moverFormulas } from './movers';
import { plainFieldArg, usdFieldLabel, usdHeader } from './usd-money';

/** No date is 0, and no field 0 or "0" (it is typed string): a blank cell on older desktop builds (args.ts). */
const noDate = (v: Arg) => notGiven(scalar(v));
const noField = (v: Arg) => notGivenText(scalar(v));

// ---------------------------------------------------------------- GLOBAL, DERIVATIVES

const GLOBAL_FIELDS: Record<keyof GlobalMarket, (g: GlobalMarket) => Cell> = {
  totalMarketCap: (g) => decimalCell(g.totalMarketCap),
  totalVolume24h: (g) => decimalCell(g.totalVolume24h),
  btcMarketCap: (g) => decimalCell(g.btcMarketCap),
  ethMarketCap: (g) => decimalCell(g.ethMarketCap),
  activeCurrencies: (g) => numberCell(g.activeCurrencies),
  activeTickers: (g) => numberCell(g.activeTickers),
  activeExchanges: (g) => numberCell(g.activeExchanges),
  marketCapChangePercent24h: (g) => numberCell(g.marketCapChangePercent24h),
};
const DERIVATIVES_FIELDS: Record<keyof DerivativesSnapshot, (d: DerivativesSnapshot) => Cell> = {
  totalOpenInterest: (d) => decimalCell(d.totalOpenInterest),
  totalVolume24h: (d) => decimalCell(d.totalVolume24h),
  perpetualShare: (d) => numberCell(d.perpetualShare),
  futuresShare: (d) => numberCell(d.futuresShare),
  activeDerivativesExchangesCount: (d) => numberCell(d.activeDerivativesExchangesCount),
};

/** The fields that are sums of money: USD by the spec (/v3/global/market, the derivatives snapshot), whatever the workbook's currency. */
const GLOBAL_USD: ReadonlySet<string> = new Set(['totalMarketCap', 'totalVolume24h', 'btcMarketCap', 'ethMarketCap']);
const DERIVATIVES_USD: ReadonlySet<string> = new Set(['totalOpenInterest', 'totalVolume24h']);

/**
 * One field as a 1x1 result (#N/A naming `subject` and the field where it has none), or every
 * field as a Field/Value table whose USD money fields are labelled so in a workbook whose
 * default currency is not USD ("totalMarketCap (USD)"). The one field is asked by its plain
 * name, or by that label copied from the table. "all" is the table too, as FEARGREED's,
 * ALTSEASON's and DOMINANCE's "all" is theirs (review-r3 #8: GLOBAL("all") was #VALUE!).
 */
function oneOrAll<T>(
  ctx: FormulaContext, fields: Record<string, (x: T) => Cell>, usd: ReadonlySet<string>, field: Arg, subject: string, load: () => Promise<T>,
): Promise<Grid> {
  const names = [...Object.keys(fields), 'all'];
  const asked = fieldArg(plainFieldArg(field), names);
  const f = asked === 'all' ? null : asked;
  return load().then((x) => recordCells(fields, x, f, { subject, label: usdFieldLabel(usd, ctx.settings) }));
}

function globalMarket(ctx: FormulaContext, field: Arg): Promise<Grid> {
  return oneOrAll(ctx, GLOBAL_FIELDS, GLOBAL_USD, field, 'The global market snapshot', async () => (await ctx.client.get('globalMarket')).data);
}

function derivatives(ctx: FormulaContext, field: Arg): Promise<Grid> {
  return oneOrAll(ctx, DERIVATIVES_FIELDS, DERIVATIVES_USD, field, 'The derivatives snapshot', async () => (await ctx.client.get('derivatives')).data);
}

// ---------------------------------------------------------------- FEARGREED, ALTSEASON, DOMINANCE

/**
 * The chart range of an index formula, or null for "the current reading" (no
 * dates and no default start). `to` is left out when the range runs up to now
 * ("up to now" is one cache key all day, not a new one every millisecond);
 * otherwise it is the last millisecond of the span, so an API that counts the
 * day containing `to` (as the charts do) stops at the span's last day.
 */
export function chartRange(
  ctx: FormulaContext, start: Arg, end: Arg, defaultStart?: (now: number) => number,
): { span: Span; query: { from: number; to?: number } } | null {
  if (noDate(start) && noDate(end) && !defaultStart) return null;
  const now = ctx.now();
  const span = rangeArgs(start, end, now, ctx.settings.dateSystem, defaultStart);
  return { span, query: span.end >= now ? { from: span.start } : { from: span.start, to: span.end - 1 } };
}

const byTime = <T extends { time: number }>(rows: readonly T[]) => [...rows].sort((a, b) => a.time - b.time);

/** The current reading's fields; `value` is what the formula shows without a field. */
const FEAR_GREED_FIELDS = {
  value: (x: FearGreedSnapshot) => x.currentValue,
  classification: (x: FearGreedSnapshot) => x.classification,
} as const satisfies Record<string, (x: FearGreedSnapshot) => Cell>;
const ALTSEASON_FIELDS = {
  value: (x: AltcoinIndexSnapshot) => x.currentValue,
  classification: (x: AltcoinIndexSnapshot) => x.classification,
  yearlyHigh: (x: AltcoinIndexSnapshot) => numberCell(x.yearlyHighValue),
  yearlyHighDate: (x: AltcoinIndexSnapshot) => dateCell(x.yearlyHighDate),
  yearlyLow: (x: AltcoinIndexSnapshot) => numberCell(x.yearlyLowValue),
  yearlyLowDate: (x: AltcoinIndexSnapshot) => dateCell(x.yearlyLowDate),
  yesterday: (x: AltcoinIndexSnapshot) => numberCell(x.yesterdayValue),
  lastWeek: (x: AltcoinIndexSnapshot) => numberCell(x.lastWeekValue),
  lastMonth: (x: AltcoinIndexSnapshot) => numberCell(x.lastMonthValue),
} as const satisfies Record<string, (x: AltcoinIndexSnapshot) => Cell>;

/**
 * A current reading: its value by default, one field, or "all" fields as a
 * Field/Value table. A field with a date range is a #VALUE!: the history has
 * its own columns.
 */
function reading<T>(
  fields: Record<string, (x: T) => Cell>, field: Arg, ranged: boolean, subject: string, load: () => Promise<T>,
): Promise<Grid> {
  const names = [...Object.keys(fields), 'all'];
  const f = fieldArg(field, names);
  if (f && ranged) throw invalidValue('field is for the current reading: leave start and end empty');
  return load().then((x) => (f === 'all' ? recordCells(fields, x, null) : recordCells(fields, x, f ?? 'value', { subject })));
}

/**
 * FEARGREED's and ALTSEASON's call, for saying where a misplaced argument goes (misplaced-args.ts):
 * FEARGREED("classification") is a field where start goes, FEARGREED(,,"30D") a look-back where headers goes.
 */
function indexCall(ctx: FormulaContext, fn: string, fields: Record<string, unknown>, args: Arg[]): Call {
  const date = takesDate(ctx);
  return {
    fn,
    params: [
      { name: 'start', takes: date }, { name: 'end', takes: date }, { name: 'headers', takes: takesHeaders },
      { name: 'field', takes: takesField([...Object.keys(fields), 'all']) },
    ],
    args,
  };
}

async function fearGreed(ctx: FormulaContext, start: Arg, end: Arg, headers: Arg, field: Arg): Promise<Grid> {
  const call = indexCall(ctx, 'FEARGREED', FEAR_GREED_FIELDS, [start, end, headers, field]);
  const range = readPlaced(call, [0, 1], () => chartRange(ctx, start, end));
  const show = readPlaced(call, 2, () => headersArg(headers));
  if (!range || !noField(field)) {
    return readPlaced(call, 3, () =>
      reading(FEAR_GREED_FIELDS, field, range !== null, 'The Fear & Greed reading', async () => (await ctx.client.get('fearGreed')).data));
  }
  const res = await ctx.client.get('fearGreedChart', { query: range.query });
  return table(byTime(res.data), [
    { header: 'Date', cell: (p) => dateCell(p.time) },
    { header: 'Value', cell: (p) => p.value },
    { header: 'Classification', cell: (p) => p.classification },
    // An unreadable day is its row's #N/A, not a day that looks as if it had no reading (review 2026-11-27, lists #1).
  ], show, 'No Fear & Greed readings in this range', res.rejected);
}

async function altSeason(ctx: FormulaContext, start: Arg, end: Arg, headers: Arg, field: Arg): Promise<Grid> {
  const call = indexCall(ctx, 'ALTSEASON', ALTSEASON_FIELDS, [start, end, headers, field]);
  const range = readPlaced(call, [0, 1], () => chartRange(ctx, start, end));
  const show = readPlaced(call, 2, () => headersArg(headers));
  if (!range || !noField(field)) {
    return readPlaced(call, 3, () =>
      reading(ALTSEASON_FIELDS, field, range !== null, 'The Altcoin Season reading', async () => (await ctx.client.get('altcoinIndex')).data));
  }
  const res = await ctx.client.get('altcoinIndexChart', { query: range.query });
  return table(byTime(res.data), [
    { header: 'Date', cell: (p) => dateCell(p.time) },
    { header: 'Value', cell: (p) => p.value },
    { header: 'Classification', cell: (p) => p.classification },
    // USD (the spec's ChartAltcoinIndex), headed so where the default currency is not (usd-money.ts).
    { header: usdHeader('Altcoins market cap', ctx.settings), cell: (p) => decimalCell(p.altcoinsMarketCap) },
  ], show, 'No Altcoin Season readings in this range', res.rejected);
}

type Group = (typeof DOMINANCE_GROUPS)[number];
const ASSETS: Record<string, Group | 'all'> = {
  ...choicesOf(DOMINANCE_GROUPS), bitcoin: 'btc', ethereum: 'eth', tether: 'usdt', other: 'others', all: 'all',
};
const ASSETS_SHOWN = '"btc" (default), "eth", "usdt", "others" (all but BTC and ETH) or "all" (the current snapshot)';
/**
 * The current snapshot's figures: BTC, ETH and others, with the 24 h changes. A change is the
 * API's btcDominanceChangePercent24h: relative, in percent of the share's own value (the emulator
 * computes now/dayAgo - 1, src/emulator/market/indices.ts), not percentage points: a share that
 * went 63.63 -> 63.22 is -0.64, not -0.41. Named "...Percent" so a row under "btc" 63.22 does
 * not read as points to subtract from it (review-r3 #3). The table's rows were "btcChange24h"
 * and "ethChange24h" before: no argument takes these names, so only a lookup on the old label
 * sees the change, as a visible #N/A.
 */
const DOMINANCE_FIELDS = {
  btc: (d: DominanceSnapshot) => d.btcDominance,
  btcChange24hPercent: (d: DominanceSnapshot) => numberCell(d.btcDominanceChangePercent24h),
  eth: (d: DominanceSnapshot) => d.ethDominance,
  ethChange24hPercent: (d: DominanceSnapshot) => numberCell(d.ethDominanceChangePercent24h),
  others: (d: DominanceSnapshot) => d.othersDominance,
} as const satisfies Record<string, (d: DominanceSnapshot) => Cell>;

async function dominance(ctx: FormulaContext, asset: Arg, start: Arg, end: Arg, headers: Arg): Promise<Grid> {
  // DOMINANCE("30D"): a look-back where the asset goes; DOMINANCE(,"eth"): an asset where start goes (misplaced-args.ts).
  const date = takesDate(ctx);
  const call: Call = {
    fn: 'DOMINANCE',
    params: [{ name: 'asset', takes: takesChoice(ASSETS) }, { name: 'start', takes: date }, { name: 'end', takes: date }, { name: 'headers', takes: takesHeaders }],
    args: [asset, start, end, headers],
  };
  const a = readPlaced(call, 0, () => choiceArg(asset, 'asset', ASSETS, 'btc', ASSETS_SHOWN));
  const range = readPlaced(call, [1, 2], () => chartRange(ctx, start, end));
  const show = readPlaced(call, 3, () => headersArg(headers));
  if (!range && a !== 'usdt') {
    const res = await ctx.client.get('dominance');
    return recordCells(DOMINANCE_FIELDS, res.data, a === 'all' ? null : a, { subject: 'The dominance snapshot' });
  }
  if (a === 'all') throw invalidValue('"all" is the current snapshot: leave start and end empty, or pick one asset for its history');
  // The snapshot has no USDT share: its current value is the chart's newest point. From the start of
  // yesterday (UTC): right after midnight the service may not have today's point yet (undocumented),
  // and yesterday's is then the current reading, not a #N/A (review-r3 #15); one bucket more, and one
  // cache key all day. Not from this instant: a client clock ahead of the server's made `from` later than its `to`.
  const query = range?.query ?? { from: startOfUtcDay(ctx.now()) - DAY_MS };
  const noGroup = () =>
    formulaError('NOT_FOUND',
      `This service's dominance chart does not take an asset (it refused the group parameter), so it has no ${a.toUpperCase()} dominance ` +
      `${range ? 'history' : 'reading'}; Bitcoin's history and the current snapshot, =CRYPTO.DOMINANCE("all"), work`);
  // BTC's chart sends no group (the default), so only another asset meets a refusal of the guessed name; refused
  // once this session, it is not asked again (refused-guesses.ts).
  const chart = () => ctx.client.get('dominanceChart', { query: { group: a === 'btc' ? undefined : a, ...query } });
  const res = await (a === 'btc' ? chart() : askGuessed(ctx, 'dominanceChart', 'group', chart)).catch((e: unknown) => {
    if (a === 'btc') throw e;
    // The asset refused, not the parameter: the service's words name the ones it takes (review 2026-11-27).
    if (refusedValue(e, 'group')) throw invalidValue(`${a.toUpperCase()}: the service's dominance chart refused it (${(e as Error).message})`);
    throw refusedName(e, 'group') ? noGroup() : e;
  });
  const rows = byTime(res.data);
  if (!range) {
    // The unreadable point may be the newest: the reading before it is not the current one (review 2026-11-27, lists #1).
    if (res.rejected?.length) throw formulaError('MISSING_FIELD', `The newest ${a.toUpperCase()} dominance point may be the one that could not be read (${res.rejected[0].message})`);
    if (rows.length === 0) throw formulaError('NOT_FOUND', 'No USDT dominance reading since yesterday');
    return [[numberCell(rows[rows.length - 1].dominance)]];
  }
  return table(rows, [
    { header: 'Date', cell: (p) => dateCell(p.time) },
    { header: 'Dominance %', cell: (p) => numberCell(p.dominance) },
  ], show, `No ${a.toUpperCase()} dominance readings in this range`, res.rejected);
}

export const globalFormulas: Catalog = {
  ...moverFormulas, // TRENDING, GAINERS, LOSERS: first, as before (the README's table follows the catalog's order)
  GLOBAL: globalMarket,
  DERIVATIVES: derivatives,
  FEARGREED: fearGreed,
  ALTSEASON: altSeason,
  DOMINANCE: dominance,
};
