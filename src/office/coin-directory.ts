/**
 * The coins the formula builder searches: the client's currency map and the
 * ranks it learned, as the client keeps them on this computer (memory, then
 * storage for a day, then one request: client/map-store.ts). Searching costs
 * nothing per keystroke: the map is loaded once, and the first markets page
 * (1 credit, the same request PRICE cells make) is read only when no rank is
 * known yet, so the list can be ordered by rank.
 */
import { ENDPOINTS } from '../api/endpoints';
import type { CoinRef } from '../client';
import type { Runtime } from './runtime';

export interface CoinDirectory {
  coins: readonly CoinRef[];
  rank(id: number): number | null | undefined;
}

export async function loadCoinDirectory(rt: Runtime): Promise<CoinDirectory> {
  const { map, ranks } = await rt.client.coinList();
  if (!map.all().some((c) => typeof ranks.rank(c.id) === 'number')) {
    // No rank learned yet: the first page of the markets list (sorted by rank) teaches the top coins. The
    // quote batcher asks the same page (same request, same cache entry).
    await rt.client.get('markets', { query: { offset: 0, limit: ENDPOINTS.markets.pageSize, convert: 'USD' } }).catch(() => undefined);
  }
  return { coins: map.all(), rank: (id) => ranks.rank(id) };
}
