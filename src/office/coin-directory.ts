/**
 * The coins the formula builder searches: the client's currency map and the
 * ranks it learned, as the client keeps them on this computer (memory, then
 * storage for a day, then one request: client/coin-map.ts). Searching costs
 * nothing per keystroke: the map is loaded once, and the first markets page
 * (1 credit, the same request PRICE cells make) is read only when no rank is
 * known yet, so the list can be ordered by rank.
 */
import { CoinMapStorage, RankBook, type CoinMap } from '../client/coin-map';
import type { CoinRef } from '../client';
import type { Runtime } from './runtime';

export interface CoinDirectory {
  coins: readonly CoinRef[];
  rank(id: number): number | null | undefined;
}

/** Any coin the map surely has: resolving it makes the client load its map (a slug needs no ranks). */
const PROBE = 'bitcoin';

export async function loadCoinDirectory(rt: Runtime): Promise<CoinDirectory> {
  // The client's own map: loaded (or fetched once) by resolving a coin, then written to storage.
  await rt.client.resolveCoin(PROBE).catch((e: unknown) => {
    if ((e as { code?: unknown })?.code !== 'UNKNOWN_COIN') throw e;
  });
  await rt.client.flushStorage();
  const storage = new CoinMapStorage(rt.store);
  const map: CoinMap | null = await storage.loadMap();
  if (!map) throw new Error('The coin list could not be read');
  let ranks = new RankBook();
  await storage.loadRanks(ranks, Date.now());
  if (!map.all().some((c) => typeof ranks.rank(c.id) === 'number')) {
    // No rank learned yet: the first page of the markets list (sorted by rank) teaches the top 250.
    await rt.client.get('markets', { query: { offset: 0, limit: 250, convert: 'USD' } }).catch(() => undefined);
    await rt.client.flushStorage();
    ranks = new RankBook();
    await storage.loadRanks(ranks, Date.now());
  }
  return { coins: map.all(), rank: (id) => ranks.rank(id) };
}
