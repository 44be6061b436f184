/**
 * "Did you mean" for the named reference lists a formula filters by (MARKETS'
 * category and tag): the names nearest to text that names none, by the coin
 * suggestions' nearness (client/coin-suggestions.ts: edit distance, a swap of
 * two letters one edit, typed beginnings) over each entry's slug and name.
 */
import { nearness } from '../client/coin-suggestions';

/** Up to `limit` names within a few edits of `input` (coins' threshold: a third of its length, 1 to 3), the nearest first; none when nothing is near. */
export function closeNames(input: string, entries: readonly { name: string; slug: string }[], limit = 2): string[] {
  const q = input.trim().toLowerCase();
  const max = Math.max(1, Math.min(3, Math.floor(q.length / 3)));
  return entries
    .map((e) => ({ name: e.name, score: Math.min(nearness(q, e.slug.toLowerCase(), max), nearness(q, e.name.toLowerCase(), max)) }))
    .filter((x) => Number.isFinite(x.score))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((x) => x.name);
}
