/**
 * Blockchains and persons: BLOCKCHAINS, BLOCKCHAIN, TVL, TVLCHANGE, PERSONS.
 *
 * A chain is named by id, slug or name and resolved through the blockchain map
 * (a reference list, cached for a day): an unknown chain is #N/A naming it and
 * the closest names, before any per-chain request is spent.
 */
import { DAY_MS, startOfUtcDay } from '../api/utc-day';
import { ENDPOINTS } from '../api/endpoints';
import type { Blockchain, BlockchainMapItem } from '../api/records';
import { editDistance } from '../client/coin-suggestions';
import { choiceArg, choicesOf, fieldArg, headersArg, notGivenText, scalar, shown, textArg, type Arg } from './args';
import {
  dateCell, decimalCell, recordCells, formulaError, invalidValue, numberCell, table, textCell, type Cell, type Grid,
} from './cells';
import { chartRange } from './global';
import { readPlaced, takesDate, takesHeaders, type Call } from './misplaced-args';
import { plainFieldArg, usdFieldLabel, usdHeader } from './usd-money';
import type { Catalog, FormulaContext } from './formula-context';

// ---------------------------------------------------------------- chain resolution

const norm = (s: string) => s.trim().toLowerCase();
const squash = (s: string) => norm(s).replace(/[^a-z0-9]/g, '');

/** Up to `n` chain names closest to the input: substring matches first, then by edit distance (a swap of two letters is one edit, as for coins). */
export function closestChains(input: string, chains: readonly BlockchainMapItem[], n = 3): string[] {
  const q = squash(input);
  const scored = chains.map((c) => {
    const keys = [squash(c.name), squash(c.slug)];
    const contains = q.length > 0 && keys.some((k) => k.includes(q) || q.includes(k));
    const d = Math.min(...keys.map((k) => editDistance(q, k)));
    return { name: c.name, score: (contains ? 0 : 1000) + d };
  });
  return scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, n).map((s) => s.name);
}

const CHAIN_HELP = 'a blockchain id, slug or name, e.g. "ethereum" or "BNB Chain"';

export async function resolveChain(ctx: FormulaContext, v: Arg): Promise<BlockchainMapItem> {
  v = scalar(v);
  let id: number | null = null;
  let text: string | null = null;
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 1) throw invalidValue(`chain must be ${CHAIN_HELP}; got ${v}`);
    id = v;
  } else {
    text = textArg(v, 'chain');
    if (text === null) throw invalidValue(`chain is required: ${CHAIN_HELP}`);
    if (/^\d+$/.test(text)) id = Number(text);
  }
  const map = (await ctx.client.get('blockchainMap')).data;
  let hit: BlockchainMapItem | undefined;
  if (id !== null) hit = map.find((c) => c.id === id);
  else {
    const t = norm(text!);
    hit = map.find((c) => norm(c.slug) === t) ?? map.find((c) => norm(c.name) === t) ?? map.find((c) => squash(c.name) === squash(t));
  }
  if (!hit) {
    const shown = id !== null ? String(id) : `"${text}"`;
    const close = text !== null ? closestChains(text, map) : [];
    // A name that names no chain: that chain's data is not there (as an unknown category, markets.ts).
    throw formulaError('NOT_FOUND', `Unknown blockchain ${shown}${close.length ? `; closest: ${close.join(', ')}` : ''}. CRYPTO.BLOCKCHAINS() lists them all`);
  }
  return hit;
}

// ---------------------------------------------------------------- BLOCKCHAINS, BLOCKCHAIN

async function blockchains(ctx: FormulaContext, headers: Arg): Promise<Grid> {
  const show = headersArg(headers);
  const res = await ctx.client.getPages('blockchainList');
  return table(res.data, [
    { header: 'Name', cell: (c) => c.name },
    { header: 'Slug', cell: (c) => c.slug },
    { header: 'Symbol', cell: (c) => textCell(c.symbol) },
    { header: 'Id', cell: (c) => c.id },
    // USD (the spec's blockchain item), headed so where the default currency is not (usd-money.ts).
    { header: usdHeader('Market cap', ctx.settings), cell: (c) => decimalCell(c.marketCap) },
    { header: 'Dominance %', cell: (c) => numberCell(c.marketCapDominance) },
    { header: 'Native coin id', cell: (c) => numberCell(c.nativeCurrencyId) },
    { header: 'Explorer', cell: (c) => textCell(explorerHome(c.explorerUrl)) },
    // An unreadable chain is its row's #N/A, not gone without a word (review 2026-11-27, lists #1).
  ], show, 'No blockchains', res.rejected);
}

/**
 * The explorer's home page, for BLOCKCHAINS' Explorer column. The service's explorerUrl is a
 * prefix to append an address to (the spec's contract item: "explorer base URL; append address
 * for a direct link"; e.g. "https://etherscan.io/token/"), which opens nothing by itself
 * (review-r3 #16); its origin opens the explorer. BLOCKCHAIN(chain, "explorerUrl") keeps the
 * prefix, for building links, as CONTRACTS does. Text that is no http(s) URL is shown as it is.
 */
export function explorerHome(url: string | null): string | null {
  if (url === null) return null;
  try {
    const u = new URL(url.trim());
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : url;
  } catch {
    return url;
  }
}

const CHAIN_FIELDS: Record<string, (b: Blockchain) => Cell> = {
  id: (b) => b.id,
  slug: (b) => b.slug,
  name: (b) => b.name,
  symbol: (b) => textCell(b.symbol),
  nativeCurrencyId: (b) => numberCell(b.nativeCurrencyId),
  explorerUrl: (b) => textCell(b.explorerUrl),
  marketCap: (b) => decimalCell(b.marketCap),
  marketCapDominance: (b) => numberCell(b.marketCapDominance),
  volume24h: (b) => decimalCell(b.volume24h),
  gainers: (b) => numberCell(b.gainersVsLosers.gainers),
  losers: (b) => numberCell(b.gainersVsLosers.losers),
  imageUrl: (b) => textCell(b.imageUrl),
};
const CHAIN_FIELD_NAMES = Object.keys(CHAIN_FIELDS);
/** The USD money fields, labelled "marketCap (USD)" in the table where the default currency is not USD. */
const CHAIN_USD: ReadonlySet<string> = new Set(['marketCap', 'volume24h']);

async function blockchain(ctx: FormulaContext, chain: Arg, field: Arg): Promise<Grid> {
  // "all" is the table, as GLOBAL's and FEARGREED's "all" (review-r3 #8).
  const asked = fieldArg(plainFieldArg(field), [...CHAIN_FIELD_NAMES, 'all']);
  const f = asked === 'all' ? null : asked;
  const ref = await resolveChain(ctx, chain);
  const res = await ctx.client.get('blockchain', { id: ref.id });
  return recordCells(CHAIN_FIELDS, res.data, f, { label: usdFieldLabel(CHAIN_USD, ctx.settings) });
}

// ---------------------------------------------------------------- TVL, TVLCHANGE

/** TVL without a start: the last 30 days (and today). */
const TVL_DEFAULT_DAYS = 30;

/**
 * TVL's call, for saying where a misplaced argument goes (misplaced-args.ts), as FEARGREED's:
 * TVL("ethereum",1) or (…,FALSE) is headers where start goes (serial 1 is a day in 1900, no
 * start), TVL("ethereum","90D",0)'s end likewise, TVL("ethereum",,,"90D") a look-back where headers goes.
 * No value is sent to chain: any text may name one (an unknown one is #N/A naming the closest),
 * so a start that does not read ("3 months") would be sent there, beside the chain already given.
 */
function tvlCall(ctx: FormulaContext, args: Arg[]): Call {
  const date = takesDate(ctx);
  return {
    fn: 'TVL',
    params: [
      { name: 'chain', takes: () => false },
      { name: 'start', takes: date }, { name: 'end', takes: date }, { name: 'headers', takes: takesHeaders },
    ],
    args,
  };
}

async function tvl(ctx: FormulaContext, chain: Arg, start: Arg, end: Arg, headers: Arg): Promise<Grid> {
  const call = tvlCall(ctx, [chain, start, end, headers]);
  const range = readPlaced(call, [1, 2], () => chartRange(ctx, start, end, (now) => startOfUtcDay(now) - TVL_DEFAULT_DAYS * DAY_MS));
  const show = readPlaced(call, 3, () => headersArg(headers));
  const ref = await resolveChain(ctx, chain);
  const res = await ctx.client.get('tvlChart', { id: ref.id, query: range?.query });
  const rows = [...res.data].sort((a, b) => a.time - b.time);
  return table(rows, [
    { header: 'Date', cell: (p) => dateCell(p.time) },
    // USD (the spec's ChartTvl), labelled so in a workbook whose default currency is not (usd-money.ts usdHeader).
    { header: usdHeader('TVL', ctx.settings), cell: (p) => decimalCell(p.tvl) },
    { header: usdHeader('Total TVL', ctx.settings), cell: (p) => decimalCell(p.totalTvl) },
    // An unreadable day is its row's #N/A, not a day that looks as if it had no data (review 2026-11-27, lists #1).
  ], show, `No TVL data for ${ref.name} in this range`, res.rejected);
}

type TvlPeriod = (typeof ENDPOINTS.tvlChange.params.period.values)[number];
// The period words other formulas take ("weekly", "yearly") as well (newcomer review F19).
const TVL_PERIODS: Record<string, TvlPeriod> = {
  ...choicesOf(ENDPOINTS.tvlChange.params.period.values),
  ...{ '24h': '1d', '1w': '7d', '1m': '30d', '3m': '90d', '12m': '1y', '365d': '1y' },
  ...{ daily: '1d', weekly: '7d', monthly: '30d', quarterly: '90d', yearly: '1y' },
};

async function tvlChange(ctx: FormulaContext, chain: Arg, period: Arg): Promise<number> {
  const p = choiceArg(period, 'period', TVL_PERIODS, '1d', '"1d" (default), "7d", "30d", "90d" or "1y"');
  const ref = await resolveChain(ctx, chain);
  const res = await ctx.client.get('tvlChange', { id: ref.id, query: { period: p } });
  if (res.data.tvlChange === null) throw formulaError('NOT_FOUND', `No TVL change for ${ref.name} over ${p}`);
  return res.data.tvlChange;
}

// ---------------------------------------------------------------- PERSONS

/**
 * PERSONS' parameters, for saying where a misplaced argument goes (misplaced-args.ts): PERSONS(FALSE)
 * is headers where the query goes, PERSONS(,"vitalik") a query where headers goes. The query takes
 * text or a number, as textArg reads them; a 0 or "0" is a blank cell (args.ts notGivenText).
 */
const PERSONS_PARAMS = [
  { name: 'query', takes: (v: Arg) => !notGivenText(v) && (typeof v === 'string' ? v.trim() !== '' : typeof v === 'number') },
  { name: 'headers', takes: takesHeaders },
];

/** No name or slug is TRUE or FALSE: PERSONS(FALSE) means no header row, not a search for "false" (which found no one, as #N/A). */
function personQuery(v: Arg): string | null {
  const x = scalar(v);
  if (typeof x === 'boolean') throw invalidValue(`query must be part of a name or slug, e.g. "vitalik"; got ${shown(x)}`);
  return textArg(x, 'query');
}

async function persons(ctx: FormulaContext, query: Arg, headers: Arg): Promise<Grid> {
  const call: Call = { fn: 'PERSONS', params: PERSONS_PARAMS, args: [query, headers] };
  const q = readPlaced(call, 0, () => personQuery(query));
  const show = readPlaced(call, 1, () => headersArg(headers));
  const res = await ctx.client.get('personsMap');
  const needle = q === null ? null : norm(q);
  const rows = needle === null
    ? res.data
    : res.data.filter((p) => norm(p.name).includes(needle) || norm(p.slug).includes(needle));
  // An unreadable person is a #N/A row, not gone without a word (review 2026-11-27, lists #1): after the
  // names, since its own may not read; under a query, when the slug or name it carried may match it.
  const unreadable = (res.rejected ?? [])
    .filter((r) => needle === null || r.label === null || norm(r.label).includes(needle) || squash(r.label).includes(squash(needle)))
    .map((r) => ({ ...r, index: rows.length }));
  return table([...rows].sort((a, b) => a.name.localeCompare(b.name)), [
    { header: 'Name', cell: (p) => p.name },
    { header: 'Slug', cell: (p) => p.slug },
    { header: 'Id', cell: (p) => p.id },
  ], show, q === null ? 'No persons' : `No person matches "${q}"`, unreadable);
}

export const chainFormulas: Catalog = {
  BLOCKCHAINS: blockchains,
  BLOCKCHAIN: blockchain,
  TVL: tvl,
  TVLCHANGE: tvlChange,
  PERSONS: persons,
};
