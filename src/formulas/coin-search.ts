/**
 * The coin search of the builder's coin box and of CRYPTO.SEARCH on a plan
 * without the search endpoint: candidates from the client's currency map,
 * ranked by how well they match what was typed (the symbol exactly, then a
 * symbol, slug or name starting with it, then a word of the name, then
 * anywhere) and, within that, by market rank (unranked last). A symbol that
 * several coins share lists them all, so the user chooses rather than the
 * add-in guessing. Pure: the map and ranks come in.
 */
import type { CoinRef } from '../client';
import { parseInput, tickerStyle } from '../client/coin-resolver';

export interface Candidate extends CoinRef {
  rank: number | null;
  /** Other listed coins share this one's symbol. */
  sharedSymbol: boolean;
}

/** How well a coin matches the text (lower is better), or null. */
function matchScore(c: CoinRef, q: string): number | null {
  const symbol = (c.symbol ?? '').toLowerCase();
  const slug = c.slug.toLowerCase();
  const name = c.name.toLowerCase();
  if (symbol === q || slug === q || name === q || String(c.id) === q) return 0;
  if (symbol.startsWith(q)) return 1;
  if (slug.startsWith(q) || name.startsWith(q)) return 2;
  if (name.split(/[\s\-_.()]+/).some((w) => w.startsWith(q))) return 3;
  if (slug.includes(q) || name.includes(q)) return 4;
  return null;
}

export function searchCoins(
  coins: readonly CoinRef[],
  rankOf: (id: number) => number | null | undefined,
  text: string,
  limit = 8,
): Candidate[] {
  const q = text.trim().toLowerCase();
  if (q === '') return [];
  const hits: { c: CoinRef; s: number; r: number }[] = [];
  for (const c of coins) {
    const s = matchScore(c, q);
    if (s === null) continue;
    const r = rankOf(c.id);
    hits.push({ c, s, r: typeof r === 'number' && r > 0 ? r : Number.POSITIVE_INFINITY });
  }
  hits.sort((a, b) => a.s - b.s || a.r - b.r || a.c.id - b.c.id);
  const top = hits.slice(0, limit);
  const bySymbol = new Map<string, number>();
  for (const c of coins) if (c.symbol) bySymbol.set(c.symbol.toUpperCase(), (bySymbol.get(c.symbol.toUpperCase()) ?? 0) + 1);
  return top.map(({ c, r }) => ({
    id: c.id,
    slug: c.slug,
    symbol: c.symbol,
    name: c.name,
    rank: Number.isFinite(r) ? r : null,
    sharedSymbol: c.symbol !== null && (bySymbol.get(c.symbol.toUpperCase()) ?? 0) > 1,
  }));
}

/** "Solana (SOL), solana, rank 5" */
export function candidateLabel(c: Candidate): string {
  return `${c.name}${c.symbol ? ` (${c.symbol})` : ''}, ${c.slug}, ${c.rank === null ? 'unranked' : `rank ${c.rank}`}`;
}

/** The line under the box when the symbol typed names several coins. */
export function sharedSymbolNote(list: readonly Candidate[], text: string): string | null {
  const q = text.trim().toUpperCase();
  const same = list.filter((c) => c.symbol?.toUpperCase() === q);
  if (same.length < 2) return null;
  return `${same.length} coins use the symbol ${q}: pick one. In a formula, the symbol alone means the highest-ranked (${same[0].name}); the builder writes the slug you pick.`;
}

/**
 * A coin as the formula names it, found in the map by the resolver's rules (client/coin-resolver.ts): an
 * `id:`, `slug:`, `symbol:` or `name:` prefix, else id, slug, symbol, name, the symbol before the slug for
 * ticker-style input ("ETH"); a symbol or name several coins share gives the highest-ranked (unranked last,
 * then the lowest id). Review 2026-11-27 (supply #3): it refused the prefixes and had its own order, so the
 * builder's dry run could refuse, or pick another coin than, what the cell resolves.
 */
export function findCoin(coins: readonly CoinRef[], rankOf: (id: number) => number | null | undefined, input: string | number): CoinRef | null {
  const { kind, text } = parseInput(input);
  if (text === '') return null;
  if ((kind === 'id' || kind === 'any') && /^\d+$/.test(text)) {
    const c = coins.find((x) => x.id === Number(text));
    if (c) return c;
  }
  const lower = text.toLowerCase();
  const upper = text.toUpperCase();
  const name = text.trim().toLowerCase();
  const is = {
    slug: (c: CoinRef) => c.slug.toLowerCase() === lower,
    symbol: (c: CoinRef) => c.symbol?.toUpperCase() === upper,
    name: (c: CoinRef) => c.name.trim().toLowerCase() === name,
  };
  const ticker = tickerStyle(kind, text); // the resolver's own rule
  const r = (c: CoinRef) => rankOf(c.id) ?? Number.POSITIVE_INFINITY;
  for (const k of ticker ? (['symbol', 'slug', 'name'] as const) : (['slug', 'symbol', 'name'] as const)) {
    if (kind !== k && kind !== 'any') continue;
    const same = coins.filter(is[k]);
    if (same.length > 0) return k === 'slug' ? same[0] : [...same].sort((a, b) => r(a) - r(b) || a.id - b.id)[0];
  }
  return null;
}
