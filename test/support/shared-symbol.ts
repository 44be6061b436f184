/**
 * A symbol several coins of the synthetic market share (and no coin's slug, not
 * all digits): typed into a cell it is an ambiguity the pane's usage panel lists.
 * Read from the emulator's market directly (no request, no credits).
 */
import assert from 'node:assert/strict';
import type { Emulator } from '../../src/emulator/server';

export function ambiguousSymbol(em: Emulator): string {
  const items = (em.market.handlers as any).currencyMap({ query: {}, now: em.clock.now() }).data as { slug: string; symbol: string | null }[];
  const slugs = new Set(items.map((c) => c.slug.toLowerCase()));
  const bySymbol = new Map<string, number>();
  for (const c of items) if (c.symbol) bySymbol.set(c.symbol.toLowerCase(), (bySymbol.get(c.symbol.toLowerCase()) ?? 0) + 1);
  const found = [...bySymbol].find(([s, n]) => n >= 2 && !slugs.has(s) && !/^\d+$/.test(s));
  assert.ok(found, 'the synthetic market has a shared symbol');
  return found[0].toUpperCase();
}
