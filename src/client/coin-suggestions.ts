/**
 * "Did you mean": the coins nearest to what a user typed that names no coin,
 * the one they most likely meant first. Edit distance (a swap of two letters
 * is one edit) and typed beginnings over slug, symbol and name; among the
 * nearest, a top-ranked coin first (newcomer review F8: "bitcon" listed
 * bitcoin third). The resolver names these in UNKNOWN_COIN; CRYPTO.CHAINS
 * uses the distance for chain names.
 */
import type { CoinRef } from './coin-ref';
import type { CoinMap, RankBook } from './coin-map';

/**
 * Optimal string alignment distance: Levenshtein with a swap of two adjacent
 * letters counted as one edit ("bitocin" is one edit from "bitcoin", two by
 * Levenshtein). Gives up, returning max + 1, once it exceeds `max`.
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = []; // row i - 2, for a swap
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] && before[j - 2] + 1 < v) v = before[j - 2] + 1;
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    // rows never fall (a swap reaches back a row further, at the cost of an edit): past max, it stays past max
    if (rowMin > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return prev[b.length] > max ? max + 1 : prev[b.length];
}

/**
 * How far a slug, symbol or name `t` is from the typed `q` (both lower case),
 * in edits, or Infinity past `max`. Typing the beginning of it (3 letters or
 * more: "bitco" for bitcoin) counts as less than one edit, the shorter the rest
 * the nearer; it followed by more words ("solana token") as one. Input that
 * merely begins with a short symbol ("bitcon" with BIT) is scored by its edits
 * alone: it names that coin no more than any other.
 */
/** How many edits typed text may be from a name and still be near: a third of its length, 1 to 3. */
export const editsAllowed = (q: string): number => Math.max(1, Math.min(3, Math.floor(q.length / 3)));

export function nearness(q: string, t: string, max: number): number {
  const d = editDistance(q, t, max);
  let s = d <= max ? d : Number.POSITIVE_INFINITY;
  if (q.length >= 3 && t.length > q.length && t.startsWith(q)) s = Math.min(s, 0.5 + Math.min(t.length - q.length, 49) / 100);
  else if (t.length >= 3 && q.length > t.length && q.startsWith(t) && !/[\p{L}\p{N}]/u.test(q[t.length])) s = Math.min(s, 1 + Math.min(q.length - t.length, 49) / 100);
  return s;
}

/** A possible "did you mean": its nearness to the input, its market rank (Infinity: unranked or not known), and a last tie-break (the id). */
export interface Nearby<T> {
  item: T;
  score: number;
  rank: number;
  tie: number;
}

/** A rank book's answer as a sort key: unranked and not known sort after every rank. */
function rankKey(r: number | null | undefined): number {
  return typeof r === 'number' && r > 0 ? r : Number.POSITIVE_INFINITY;
}

/** Ranks up to this one are the coins a typo most likely meant: one edit further, such a coin still comes first. */
export const TOP_RANKS = 100;

/** 0: a top coin (rank up to TOP_RANKS); 1: another ranked coin; 2: unranked, or its rank not known. */
const tier = (rank: number) => (rank <= TOP_RANKS ? 0 : Number.isFinite(rank) ? 1 : 2);

/**
 * The order suggestions are offered in, the coin the user most likely meant
 * first. Among the candidates within one edit of the nearest: top coins
 * first, then other ranked coins, then the rest; within each, the nearer
 * first, and on a tie the better-ranked. After them the others, by nearness,
 * then rank. So "bitcon" suggests bitcoin (1 edit, rank 1) before BITC (2
 * edits: the symbol of a coin of no rank), while "bitcoin-cashh" still
 * suggests bitcoin cash before bitcoin: both are top coins, and it is nearer.
 */
export function orderNearby<T>(xs: readonly Nearby<T>[], limit: number): T[] {
  let best = Number.POSITIVE_INFINITY;
  for (const x of xs) if (x.score < best) best = x.score;
  const near = (x: Nearby<T>) => x.score <= best + 1;
  // Infinity - Infinity is NaN, falsy: two coins of no known rank fall through to the id
  const sorted = [...xs].sort((a, b) => {
    const na = near(a), nb = near(b);
    if (na !== nb) return na ? -1 : 1;
    return (na ? tier(a.rank) - tier(b.rank) : 0) || a.score - b.score || a.rank - b.rank || a.tie - b.tie;
  });
  return sorted.slice(0, limit).map((x) => x.item);
}

/** Up to three coins closest to `text` (nearness over slug, symbol and name), in the order of orderNearby: a top coin among the nearest first. */
export function suggest(map: CoinMap, text: string, ranks?: RankBook, limit = 3): CoinRef[] {
  const q = text.toLowerCase();
  const max = editsAllowed(q);
  const found: Nearby<CoinRef>[] = [];
  const seen = new Set<number>(); // a map that lists an id twice suggests it once
  for (const c of map.all()) {
    if (seen.has(c.id)) continue;
    let best = Number.POSITIVE_INFINITY;
    for (const f of [c.slug, c.symbol, c.name]) {
      if (!f) continue;
      const s = nearness(q, f.toLowerCase(), max);
      if (s < best) best = s;
    }
    if (best === Number.POSITIVE_INFINITY) continue;
    seen.add(c.id);
    found.push({ item: c, score: best, rank: rankKey(ranks?.rank(c.id)), tie: c.id });
  }
  return orderNearby(found, limit);
}
