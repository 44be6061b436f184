/**
 * The market's movers: TRENDING, GAINERS and LOSERS, tables of coins with the
 * same columns.
 */
import type { Fetched } from '../client';
import { ENDPOINTS } from '../api/endpoints';
import type { GainerLoser, TrendingItem } from '../api/records';
import { choiceArg, choicesOf, headersArg, intArg, scalar, type Arg } from './args';
import { decimalCell, formulaError, invalidValue, numberCell, table, textCell, type Column, type Grid } from './cells';
import type { Catalog, FormulaContext } from './formula-context';
import { refusedName, refusedValue } from './guessed-params';
import { askGuessed } from './refused-guesses';
import { formulaCall, orHint, readPlaced, takesChoice, takesHeaders, takesWhole, type Call } from './misplaced-args';
import { usdHeader } from './usd-money';

/**
 * The columns TRENDING, GAINERS and LOSERS share, so the three tables line up.
 * Each cell reads its item's field as the table shapes it: a field the
 * service left out of one item is that cell's #N/A (cells.ts table), not the table's error.
 * Price, market cap and volume are USD (the spec's gainer/loser and trending items), headed
 * so where the workbook's default currency is not (usd-money.ts).
 *
 * The first column is each item's `rank`, which means two things (spec): a trending item's
 * place in the trending list, a gainer's or loser's market-cap rank. So it is headed
 * "Trending #" in TRENDING and "Rank" in GAINERS/LOSERS (review-r3 #4: "Rank<=100" across them
 * mixed the two). The change names its period, as MARKETS' "Change 7d %". Slug and Id come last
 * (the columns before keep their places) and feed PRICE or PROFILE a coin a symbol may not name
 * alone (review-r3 #13).
 */
function moverColumns<T extends TrendingItem | GainerLoser>(
  ctx: FormulaContext, first: string, period: string, change: (r: T) => number | null,
): Column<T>[] {
  const usd = (h: string) => usdHeader(h, ctx.settings);
  return [
    { header: first, cell: (r) => numberCell(r.rank) },
    { header: 'Name', cell: (r) => r.name },
    { header: 'Symbol', cell: (r) => textCell(r.symbol) },
    { header: usd('Price'), cell: (r) => decimalCell(r.price) },
    { header: `Change ${period} %`, cell: (r) => numberCell(change(r)) },
    { header: usd('Market cap'), cell: (r) => decimalCell(r.marketCap) },
    { header: usd('Volume 24h'), cell: (r) => decimalCell(r.volume24h) },
    { header: 'Category', cell: (r) => textCell(r.category?.name) },
    { header: 'Slug', cell: (r) => r.slug },
    { header: 'Id', cell: (r) => r.id },
  ];
}

async function trending(ctx: FormulaContext, headers: Arg): Promise<Grid> {
  // TRENDING("7d"): a period where its only argument goes. It has none; GAINERS and LOSERS do (review-r3 #8).
  const show = orHint(() => headersArg(headers), () =>
    takesChoice(PERIODS)(scalar(headers)) ? `TRENDING takes no period (its change is over 24h); GAINERS and LOSERS take one: ${formulaCall('GAINERS', [headers])}` : null);
  const res = await ctx.client.get('trending');
  const rows = [...res.data].sort((a, b) => a.rank - b.rank);
  // An unreadable item is its row's #N/A, not a coin gone without a word (review 2026-11-27, lists #1).
  return table(rows, moverColumns<TrendingItem>(ctx, 'Trending #', '24h', (t) => t.priceChangePercent24h), show, 'No trending coins right now', res.rejected);
}

type Period = (typeof ENDPOINTS.gainersLosers.params.period.values)[number];
// The words OHLCV and RETURNS take are read here too: GAINERS("weekly") was refused while OHLCV took "weekly" (newcomer review F19).
const PERIODS: Record<string, Period> = { ...choicesOf(ENDPOINTS.gainersLosers.params.period.values), '1d': '24h', '1w': '7d', '1m': '30d', daily: '24h', weekly: '7d', monthly: '30d' };
const PERIODS_SHOWN = '"24h" (default), "7d" or "30d"';

/** The movers a list answered, read or not: an unreadable one holds its place, not the next coin (review 2026-11-27, lists #1). */
const places = (list: Fetched<GainerLoser[]>) => list.data.length + (list.rejected?.length ?? 0);

/**
 * `count` movers. `limit` (a guessed name, endpoints.ts) is sent only for more coins than the
 * service's default list: a count up to it is the default list cut on this side, so GAINERS(,10)
 * cannot fail on the guess, and shares GAINERS()'s cached answer. The default's length is a guess
 * too: a default list shorter than asked (but not empty) is asked again with limit, and a service that refuses
 * limit answers #N/A naming the length it does give, never a silently shorter table.
 */
async function moverList(ctx: FormulaContext, type: 'gainers' | 'losers', period: Period, n: number): Promise<Fetched<GainerLoser[]>> {
  const ask = (limit?: number) => ctx.client.get('gainersLosers', { query: { type, period, limit } });
  let list = n > ENDPOINTS.gainersLosers.params.limit.default ? null : await ask();
  // An empty default list is no movers at all: a longer one would be empty too (and the
  // builder's dry run, whose answers are empty, would show two requests for one).
  if (list && (places(list) >= n || places(list) === 0)) return list;
  try {
    // Refused once this session, not asked again (refused-guesses.ts).
    return await askGuessed(ctx, 'gainersLosers', 'limit', () => ask(n));
  } catch (e) {
    // The count refused, not the parameter: a smaller one may be taken (review 2026-11-27), so say the service's words.
    if (refusedValue(e, 'limit')) throw invalidValue(`count ${n}: the service refused it (${(e as Error).message}); ask for fewer`);
    if (!refusedName(e, 'limit')) throw e;
    list ??= await ask();
    if (places(list) >= n) return list;
    const k = places(list);
    throw formulaError('NOT_FOUND', `This service lists its top ${k} ${type} only (it refused a longer list); ask for ${k} or fewer`);
  }
}

function movers(type: 'gainers' | 'losers') {
  const fn = type === 'gainers' ? 'GAINERS' : 'LOSERS';
  const spec = ENDPOINTS.gainersLosers.params.limit;
  const params = [
    { name: 'period', takes: takesChoice(PERIODS) },
    { name: 'count', takes: takesWhole(spec.min, spec.max) },
    { name: 'headers', takes: takesHeaders },
  ];
  return async (ctx: FormulaContext, period: Arg, count: Arg, headers: Arg): Promise<Grid> => {
    // GAINERS(10): a count where the period goes is #VALUE! saying where it goes (misplaced-args.ts).
    const call: Call = { fn, params, args: [period, count, headers] };
    const p = readPlaced(call, 0, () => choiceArg(period, 'period', PERIODS, '24h', PERIODS_SHOWN));
    const n = readPlaced(call, 1, () => intArg(count, 'count', spec.min, spec.max, spec.default));
    const show = readPlaced(call, 2, () => headersArg(headers));
    const list = await moverList(ctx, type, p, n);
    // The first n places, an unreadable mover's #N/A row among them (as getPages cuts a list, client/paging.ts).
    const unreadable = list.rejected?.filter((r) => r.index < n) ?? [];
    const rows = list.data.slice(0, n - unreadable.length);
    return table(rows, moverColumns<GainerLoser>(ctx, 'Rank', p, (g) => g.pricePercentChange), show, `No ${type} over ${p}`, unreadable);
  };
}

export const moverFormulas: Catalog = {
  TRENDING: trending,
  GAINERS: movers('gainers'),
  LOSERS: movers('losers'),
};
