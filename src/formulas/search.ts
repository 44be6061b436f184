/**
 * CRYPTO.SEARCH: coins whose name, slug or symbol matches the query, with the
 * rank, slug and id other formulas take (review-r3 #6).
 *
 * Where from: `/v3/currencies/search` where the key has it (Basic and up,
 * api/endpoints.ts). Where it has not (the plan gate refuses it from
 * /v3/status, or the service does: 403 ENDPOINT_NOT_AVAILABLE, a route miss, or
 * a 400 refusing the guessed `query` parameter), the currency map answers: it
 * holds every column SEARCH shows but rank (api-notes "Paths": Sandbox, about
 * 39k `{id, slug, symbol, name}`), every coin formula already loads it (one
 * credit a day at most, usually cached), and it is searched as the formula
 * builder's coin box searches it (formulas/coin-search.ts: pure, no Office
 * globals; the "did you mean" nearness of coin-suggestions.ts is for typos, not
 * for parts of names). Ranks come from
 * what the client learned from markets pages (PRICE, QUOTE, MARKETS cells); a
 * shown coin whose rank is not known yet has a blank Rank, and the last row
 * then says why, since a blank rank from the service means unranked.
 *
 * Both answers stop at SEARCH_CAP rows; a cut answer ends with a row saying so
 * (text in its first cell, as UNLOCKS' cap note).
 */
import { ENDPOINTS } from '../api/endpoints';
import type { CurrencySearchItem } from '../api/records';
import type { RejectedItem } from '../api/read-data';
import { hasCode, routeUnavailable, type ApiError } from '../client/api-error';
import { planNeeded } from '../client/error-rules';
import { searchCoins } from './coin-search';
import { headersArg, textArg, type Arg } from './args';
import { EMPTY, invalidValue, numberCell, table, textCell, type Cell, type Column, type Grid } from './cells';
import type { FormulaContext } from './formula-context';
import { refusedGuess } from './guessed-params';
import { askGuessed } from './refused-guesses';

/**
 * The most matches the search answers: the local API server's cap (src/emulator/market/listings.ts). The real
 * service's is not documented [guess: the same]; an answer of exactly this many may have been cut.
 */
export const SEARCH_CAP = 50;

type Row = Pick<CurrencySearchItem, 'id' | 'slug' | 'symbol' | 'name'> & { rank: Cell };

const COLUMNS: readonly Column<Row>[] = [
  { header: 'Rank', cell: (r) => r.rank },
  { header: 'Name', cell: (r) => r.name },
  { header: 'Symbol', cell: (r) => textCell(r.symbol) },
  { header: 'Slug', cell: (r) => r.slug },
  { header: 'Id', cell: (r) => r.id },
];

interface Found {
  rows: Row[];
  rejected?: RejectedItem[];
  /** Sentences for the last row (none: no last row). */
  notes: string[];
}

export async function search(ctx: FormulaContext, query: Arg, headers: Arg): Promise<Grid> {
  const q = textArg(query, 'query');
  if (!q) throw invalidValue('query is required: part of a coin name, slug or symbol');
  const { maxLength } = ENDPOINTS.search.params.query;
  if (q.length > maxLength) throw invalidValue(`query must be at most ${maxLength} characters`);
  const showHeaders = headersArg(headers);
  // A refusal of the guessed `query` name holds for the session (refused-guesses.ts): the map answers at once.
  // A refusal by plan or route the plan gate remembers itself, for REFUSAL_MEMORY_MS (client/plan-gate.ts).
  const found = await askGuessed(ctx, 'search', 'query', () => fromService(ctx, q)).catch(async (e: unknown) => {
    if (!keyLacksSearch(e)) throw e;
    return fromMap(ctx, q, e);
  });
  const grid = table(found.rows, COLUMNS, showHeaders, `Nothing found for "${q}"`, found.rejected);
  if (found.notes.length > 0 && found.rows.length > 0) grid.push(COLUMNS.map((_, i) => (i === 0 ? found.notes.join(' ') : EMPTY)));
  return grid;
}

/**
 * The search is not this key's: its plan (the plan gate, or the service's 403), no such route, or the guessed
 * `query` name refused (guessed-params.ts). Any other failure is the formula's, as before.
 */
function keyLacksSearch(e: unknown): e is ApiError {
  return routeUnavailable(e) || refusedGuess(e, 'query');
}

async function fromService(ctx: FormulaContext, q: string): Promise<Found> {
  const res = await ctx.client.get('search', { query: { query: q } });
  const rows = res.data.map((r): Row => ({ id: r.id, slug: r.slug, symbol: r.symbol, name: r.name, rank: numberCell(r.rank) }));
  const answered = rows.length + (res.rejected?.length ?? 0);
  const notes = answered === SEARCH_CAP
    ? [`${SEARCH_CAP} matches shown, the most the search answers: more coins may match "${q}". Type more of the name to narrow it.`]
    : [];
  return { rows, rejected: res.rejected, notes };
}

async function fromMap(ctx: FormulaContext, q: string, refusal: ApiError): Promise<Found> {
  const { map, ranks } = await ctx.client.coinList();
  const all = searchCoins(map.all(), (id) => ranks.rank(id), q, Number.POSITIVE_INFINITY);
  const shown = all.slice(0, SEARCH_CAP);
  const rows = shown.map((c): Row => ({ id: c.id, slug: c.slug, symbol: c.symbol, name: c.name, rank: rankCell(ranks.rank(c.id)) }));
  const notes: string[] = [];
  if (all.length > SEARCH_CAP) {
    notes.push(`${SEARCH_CAP} of ${all.length.toLocaleString('en-US')} matches shown, best first. Type more of the name to narrow it.`);
  }
  if (shown.some((c) => ranks.rank(c.id) === undefined)) {
    notes.push(`Rank is blank where not known yet: ${why(refusal)}, so these rows come from the currency map, which has no ranks; ` +
      'PRICE, QUOTE or MARKETS cells teach the ranks of the coins they read.');
  }
  return { rows, notes };
}

/** A rank the client learned: a number, or blank (known unranked, or not known: the note tells which). */
function rankCell(r: number | null | undefined): Cell {
  return typeof r === 'number' ? r : EMPTY;
}

/** Why the map answers, in the plan gate's words where it is the plan. */
function why(e: ApiError): string {
  if (hasCode(e, 'ENDPOINT_NOT_AVAILABLE')) return planNeeded('the coin search', e.requiredPlan);
  if (e.routeMissing) return 'the service does not serve the coin search';
  return 'the service refused the coin search\'s query parameter';
}
