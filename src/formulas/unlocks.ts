/**
 * CRYPTO.UNLOCKS: every coin's token unlocks within `daysAhead`, all of them by
 * default (up to UNLOCKS_CAP rows), with the coin's slug and id so a row can feed
 * other formulas (=CRYPTO.TOKENOMICS(J5)).
 *
 * Where from: `/v3/token-unlocks/upcoming` takes the same window, filters and order
 * as the older list and answers 200 a request where that answers 25 [doc, see
 * api/endpoints.ts]: a credit buys 8 times as many rows. Where the service refuses
 * it (its plan is a guess), the list of 25 a page answers the same question.
 *
 * When the cap cuts the window, the last row says so in its first cell (text, no
 * error value: SUM and AVERAGE over the amount columns still work, and a sheet
 * shows it where the rows end). `count` asks for fewer rows on purpose: no note then.
 */
import { ENDPOINTS } from '../api/endpoints';
import type { UpcomingUnlock } from '../api/records';
import { isoDay } from '../api/utc-day';
import { hasCode } from '../client/api-error';
import { listMoved, type ListMoved } from '../client/paging';
import type { CoinRef } from '../client/coin-ref';
import { choiceArg, choicesOf, headersArg, intArg, isBlank, numberArg, scalar, textArg, type Arg } from './args';
import { CellError, dateCell, decimalCell, EMPTY, invalidValue, numberCell, table, textCell, type Cell, type Column, type Grid } from './cells';
import type { FormulaContext } from './formula-context';

/** The most rows UNLOCKS shows: five requests of a full page (a sixth tells whether the window holds more). */
export const UNLOCKS_CAP = 5 * ENDPOINTS.tokenUnlocks.pageSize;

const PARAMS = ENDPOINTS.tokenUnlocks.params;
const SORT: Record<string, string> = {
  ...choicesOf(PARAMS.sortBy.values),
  value: 'usdAmount', usd: 'usdAmount', amount: 'usdAmount', unlockvalue: 'usdAmount',
  mcap: 'percentOfMcap', percentofmarketcap: 'percentOfMcap',
};

/** A row with the coin's slug (from the currency map) beside it. */
interface UnlockRow {
  u: UpcomingUnlock;
  slug: Cell;
}

/** The first nine columns as before (a user's references stay right); the coin's slug and id after them. */
export const UNLOCK_COLUMNS: Column<UnlockRow>[] = [
  { header: 'Date', cell: (r) => dateCell(r.u.time) },
  { header: 'Coin', cell: (r) => r.u.name },
  { header: 'Symbol', cell: (r) => textCell(r.u.symbol) },
  { header: 'Tokens', cell: (r) => decimalCell(r.u.unlockTokens) },
  { header: 'Value USD', cell: (r) => decimalCell(r.u.unlockValue) },
  { header: '% of market cap', cell: (r) => numberCell(r.u.percentOfMcap) },
  { header: '% of supply', cell: (r) => numberCell(r.u.percentOfSupply) },
  { header: 'Price', cell: (r) => decimalCell(r.u.price) },
  { header: 'Market cap', cell: (r) => decimalCell(r.u.marketCap) },
  { header: 'Slug', cell: (r) => r.slug },
  { header: 'Id', cell: (r) => r.u.id },
];

export async function unlocks(
  ctx: FormulaContext, daysAhead: Arg, sortBy: Arg, sortOrder: Arg, minUsdAmount: Arg, minPercentOfMcap: Arg, count: Arg, headers: Arg,
): Promise<Grid> {
  const days = intArg(daysAhead, 'daysAhead', PARAMS.daysAhead.min, PARAMS.daysAhead.max, PARAMS.daysAhead.default);
  const sort = choiceArg(sortBy, 'sortBy', SORT, 'date', PARAMS.sortBy.values.map((x) => `"${x}"`).join(', '));
  const order = textArg(sortOrder, 'sortOrder') === null
    // Dates read soonest first; amounts read largest first.
    ? (sort === 'date' ? 'asc' : 'desc')
    : choiceArg(sortOrder, 'sortOrder', choicesOf(PARAMS.sortOrder.values), undefined, '"asc" or "desc"');
  const minUsd = isBlank(scalar(minUsdAmount)) // 0 is a value here: a minimum that filters nothing
    ? undefined
    : intArg(minUsdAmount, 'minUsdAmount', PARAMS.minUsdAmount.min, PARAMS.minUsdAmount.max, undefined);
  const minPct = numberArg(minPercentOfMcap, 'minPercentOfMcap', undefined);
  const pctRange = PARAMS.minPercentOfMcap;
  if (minPct !== undefined && (minPct < pctRange.min || minPct > pctRange.max)) {
    throw invalidValue(`minPercentOfMcap must be a percentage from ${pctRange.min} to ${pctRange.max}; got ${minPct}`);
  }
  const n = isBlank(scalar(count)) ? null : intArg(count, 'count', 1, UNLOCKS_CAP, undefined);
  const showHeaders = headersArg(headers);

  const query = { daysAhead: days, sortBy: sort, sortOrder: order, minUsdAmount: minUsd, minPercentOfMcap: minPct };
  // One more than the cap: whether the window holds more is then known, not guessed.
  const maxItems = n ?? UNLOCKS_CAP + 1;
  const res = await ctx.client.getPages('tokenUnlocks', { query, maxItems })
    // Its plan is a guess: where the service says no, the list of 25 a page answers.
    .catch((e: unknown) => {
      if (hasCode(e, 'ENDPOINT_NOT_AVAILABLE', 'NOT_FOUND', 'VALIDATION_ERROR')) return null;
      throw e;
    }) ?? await ctx.client.getPages('upcomingUnlocks', { query, maxItems });

  // Cut and capped by places, read or not: an unreadable unlock is a row, so counting only readable ones
  // showed the one-past-the-cap unlock as data and lost the cap note (review 2026-11-27, lists #3).
  const limit = n ?? UNLOCKS_CAP;
  const unreadable = res.rejected?.filter((r) => r.index < limit) ?? [];
  const shown = res.data.slice(0, limit - unreadable.length);
  const slugs = await slugsOf(ctx, shown);
  const rows = shown.map((u) => ({ u, slug: slugs.get(u.id) ?? EMPTY }));
  const grid = table(rows, UNLOCK_COLUMNS, showHeaders, `No token unlocks in the next ${days} days match these filters`, unreadable);
  if (n === null && res.data.length + (res.rejected?.length ?? 0) > UNLOCKS_CAP) grid.push(capNote(shown, days, sort, order));
  const moved = listMoved(res);
  if (moved) grid.push(movedNote(moved));
  return grid;
}

/**
 * Each coin's slug from the currency map (the resolver's, one request a day at
 * most, shared with every other formula). A coin the map does not know, or a map
 * that could not be read, costs that cell: the Id column still feeds other formulas.
 */
async function slugsOf(ctx: FormulaContext, rows: readonly UpcomingUnlock[]): Promise<Map<number, Cell>> {
  const ids = [...new Set(rows.map((u) => u.id))];
  const refs = await Promise.allSettled(ids.map((id) => ctx.client.resolveCoin(id)));
  const out = new Map<number, Cell>();
  ids.forEach((id, i) => {
    const r = refs[i];
    if (r.status === 'rejected') {
      if (hasCode(r.reason, 'ABORTED')) throw r.reason;
      out.set(id, new CellError('#N/A', `No slug for coin id ${id}: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`));
    } else out.set(id, slugCell(id, r.value));
  });
  return out;
}

/** Without a map the resolver names a coin by its id alone (coin-resolver.ts): that is no slug. */
function slugCell(id: number, ref: CoinRef): Cell {
  return ref.slug === String(id)
    ? new CellError('#N/A', `No slug for coin id ${id}: the currency map could not be read; the Id column works in other formulas`)
    : ref.slug;
}

/**
 * A last row when the list's pages disagreed even when read again (client/paging.ts ListMoved,
 * review-r3 #12): an unlock on two pages is shown once, and as many may be missing. Text in the
 * first cell, as the cap's note: SUM and AVERAGE over the amount columns still work.
 */
function movedNote(moved: ListMoved): Cell[] {
  const one = moved.repeated === 1;
  const note = `The unlock list moved while its pages were read, and again when read once more: ${moved.repeated} unlock${one ? '' : 's'} ` +
    `on two pages ${one ? 'is' : 'are'} shown once, and as many may be missing (from row ${moved.at + 1}); recalculate to read it again.`;
  return UNLOCK_COLUMNS.map((_, i) => (i === 0 ? note : EMPTY));
}

/** The last row when the cap cut the window: what was shown, and how to see the rest. */
function capNote(shown: readonly UpcomingUnlock[], days: number, sort: string, order: string): Cell[] {
  const last = shown[shown.length - 1];
  const reach = sort === 'date' && order === 'asc' && last
    ? `through ${isoDay(last.time)}`
    : `the first ${UNLOCKS_CAP.toLocaleString('en-US')} by ${sort} ${order}`;
  const note = `More unlocks not shown: capped at ${UNLOCKS_CAP.toLocaleString('en-US')} rows (${reach}) of the next ${days} days. ` +
    'Use a shorter daysAhead or a minUsdAmount to see the rest.';
  return UNLOCK_COLUMNS.map((_, i) => (i === 0 ? note : EMPTY));
}
