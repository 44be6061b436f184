/**
 * "Did you mean" for the named reference lists a formula filters by (MARKETS'
 * category and tag): the names nearest to text that names none, by the coin
 * suggestions' nearness (client/coin-suggestions.ts: edit distance, a swap of
 * two letters one edit, typed beginnings) over each entry's slug and name.
 */
import { editsAllowed, nearness } from '../client/coin-suggestions';

/** Up to `limit` names within a few edits of `input` (the coins' editsAllowed), the nearest first; none when nothing is near. */
export function closeNames(input: string, entries: readonly { name: string; slug: string }[], limit = 2): string[] {
  const q = input.trim().toLowerCase();
  const max = editsAllowed(q);
  return entries
    .map((e) => ({ name: e.name, score: Math.min(nearness(q, e.slug.toLowerCase(), max), nearness(q, e.name.toLowerCase(), max)) }))
    .filter((x) => Number.isFinite(x.score))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((x) => x.name);
}
