/**
 * Where the currency map and the rank book live: memory, then storage (a
 * KvStore on the user's machine), then one request. The map keeps for the
 * endpoint table's reference freshness (freshnessMs.reference); a failed
 * refresh keeps an older map when the error allows the last good value. What
 * was learned (a new map, ranks) is written a moment later: serializing 2,000
 * coins is not work for the cells waiting on the map, and one write covers a
 * whole recalculation's worth of pages. A failing store is treated as empty.
 */
import { canonicalRequest } from './canonical-request';
import { ApiError, allowsLastGood } from './api-error';
import { abortable } from './cancellation';
import { SharedWork } from './shared-work';
import { afterWire } from './next-task';
import { CoinMap, RankBook } from './coin-map';
import type { CoinRef } from './coin-ref';
import type { KvStore } from './kv-store';
import type { CallOptions, Requester } from './types';

/** How long after learning something (a map, ranks) it is written to storage. */
export const PERSIST_DELAY_MS = 250;
const MAP_KEY = 'crypto-addin:currency-map:v1';
const RANKS_KEY = 'crypto-addin:coin-ranks:v1';

export interface MapStoreOptions {
  requester: Requester;
  kv: KvStore;
  /** The reference freshness: how long a map (and the ranks saved with it) keeps. */
  ttlMs(): number;
  /** Told as load number `load` asks the service for the map (not when storage had it), with the load's signal. */
  onNetworkLoad?(load: number, signal: AbortSignal): void;
  /**
   * Told as load number `load` brings a map from the service, before anyone
   * waiting on it hears: true if it sent requests of its own (the waiters then
   * hear a moment later, once those are on their way).
   */
  onNetworkMap?(load: number, map: CoinMap): boolean;
}

/**
 * A new map under this share of the known one's size is refused: a truncated but well-formed list (one coin) made
 * every other coin typed as text "Unknown" for a day, in later sessions too (review F7, its suggested line). The
 * map lists every currency ever (about 39k, api-notes "Paths"): losing half of them between loads is a cut answer.
 */
export const MAP_SHRINK_LIMIT = 0.5;
/**
 * The fewest coins a map needs to be written to storage; with no known map to compare against, a smaller one
 * serves the session only (review F7). Against about 39k coins (api-notes "Paths"; the emulator's 2,106), a few
 * hundred is a cut answer, not one to keep for a day.
 */
export const MAP_PERSIST_FLOOR = 300;

/**
 * The currency map is checked as a whole before it replaces the one known: an
 * empty list, one whose items are mostly unreadable, or one much smaller than
 * the known map is a broken answer, not a market that lost its coins. Taken,
 * it would make every coin typed as text "Unknown" for the map's lifetime (a
 * day), even after the service recovers; refused, the previous map stays (a
 * failure that allows the last good value).
 */
function acceptedMap(items: readonly CoinRef[], unreadable: number, fetchedAt: number, known: CoinMap | null): CoinMap {
  const refuse = (message: string) => new ApiError({ code: 'UNEXPECTED_RESPONSE', message, endpoint: 'currencyMap' });
  if (items.length === 0) throw refuse('currencyMap: the coin list came back empty; it was not used.');
  if (unreadable > items.length) {
    throw refuse(`currencyMap: ${unreadable} of ${unreadable + items.length} coins in the list could not be read; it was not used.`);
  }
  if (known && items.length < known.size * MAP_SHRINK_LIMIT) {
    throw refuse(`currencyMap: the coin list came back with ${items.length} coins where the last one had ${known.size}; it was not used.`);
  }
  return new CoinMap(items, fetchedAt);
}

export class CoinMapStore {
  /** Places in the markets list, learned from answers (see MarketClient's learners); persisted with the map. */
  readonly ranks: RankBook;
  readonly #o: MapStoreOptions;
  #map: CoinMap | null = null;
  #loading: Promise<CoinMap> | null = null;
  /** Who waits on #loading. */
  #loadWork = new SharedWork();
  /** Loads every waiter left, replaced while still in flight: they end ABORTED, so no one is to wait on them. */
  readonly #givenUp = new WeakSet<Promise<CoinMap>>();
  /** Loads started so far: the number of the one in flight. */
  #loads = 0;
  #storageRead: Promise<void> | null = null;
  #persistScheduled = false;
  /** A fetched map not yet written to storage. */
  #unsaved: CoinMap | null = null;

  constructor(o: MapStoreOptions) {
    this.#o = o;
    this.ranks = new RankBook(() => this.#schedulePersist());
  }

  /** The map in memory, fresh or not (the resolver's memo holds for one map). */
  get current(): CoinMap | null {
    return this.#map;
  }

  /** The number of the load in flight (onNetworkLoad names it), or null when none is. */
  get loading(): number | null {
    return this.#loading ? this.#loads : null;
  }

  /** The map: memory, then storage, then one request (retried harder than others: every coin typed as text waits on it). */
  load(o: CallOptions = {}): Promise<CoinMap> {
    return abortable(this.shared(o), o.signal);
  }

  /**
   * As load(), but this caller's signal does not reject the promise (the
   * resolver's memo shares it with later callers): the caller is counted among
   * the request's waiters until its signal aborts, and the request stops when
   * every waiter has gone (shared-work.ts).
   */
  shared(o: CallOptions = {}): Promise<CoinMap> {
    const now = this.#o.requester.now();
    if (this.#map?.isFresh(now, this.#o.ttlMs())) return Promise.resolve(this.#map);
    if (!this.#loading || this.#loadWork.abandoned) {
      if (this.#loading) this.#givenUp.add(this.#loading);
      const work = (this.#loadWork = new SharedWork());
      const loading: Promise<CoinMap> = this.#fetch(o.caller, work.signal, ++this.#loads).finally(() => {
        if (this.#loading === loading) this.#loading = null;
      });
      this.#loading = loading;
    }
    this.#loadWork.join(o.signal);
    return this.#loading;
  }

  /**
   * Count a caller waiting on `load` (a promise shared() gave); false if that load has been given up (start anew).
   * Not the load in flight now: the caller's promise waits on its own (review 2026-11-27, a given-up load replaced).
   */
  keep(signal: AbortSignal | undefined, load: Promise<CoinMap>): boolean {
    if (load !== this.#loading) return !this.#givenUp.has(load); // settled (nothing to wait on), or given up
    this.#loadWork.join(signal);
    return !this.#loadWork.abandoned;
  }

  /**
   * A new key: the load in flight, asked with the old one, keeps its waiters but takes no new ones (nor does
   * a memoised resolution on it: keep()). Joined after the change, a cell got the old key's refusal, or the
   * ABORTED of a request not sent once its key had gone (review 2026-11-27). A map it brings is kept all the
   * same: the map is the same for every key.
   */
  detach(): void {
    if (!this.#loading) return;
    this.#givenUp.add(this.#loading);
    this.#loading = null;
  }

  async #fetch(caller: string | undefined, signal: AbortSignal, load: number): Promise<CoinMap> {
    const { requester } = this.#o;
    this.#storageRead ??= this.#readStorage(requester.now());
    await this.#storageRead;
    if (this.#map?.isFresh(requester.now(), this.#o.ttlMs())) return this.#map;
    this.#o.onNetworkLoad?.(load, signal);
    try {
      const a = await requester.request(canonicalRequest('currencyMap', undefined, {}), { caller, signal, store: false });
      const map = acceptedMap(a.entry.data as CoinRef[], a.entry.rejected?.length ?? 0, a.entry.fetchedAt, this.#map);
      this.#map = map;
      if (map.size >= MAP_PERSIST_FLOOR) {
        this.#unsaved = map;
        this.#schedulePersist();
      }
      // Thousands of waiting cells wake on the map, each a chain of promise jobs that holds the thread until the
      // last has run: the requests the cold start just sent get to the wire first (next-task.ts, WIRE_TASKS).
      if (this.#o.onNetworkMap?.(load, map)) await afterWire();
      return map;
    } catch (e) {
      if (this.#map && allowsLastGood(e)) return this.#map;
      throw e;
    }
  }

  async #readStorage(now: number): Promise<void> {
    const { kv } = this.#o;
    const [mapText, ranksText] = await Promise.all([kv.get(MAP_KEY).catch(() => null), kv.get(RANKS_KEY).catch(() => null)]);
    if (ranksText) this.ranks.load(ranksText, now, this.#o.ttlMs());
    const m = mapText ? CoinMap.parse(mapText) : null;
    // One under the floor was written before the floor was (review F7): a truncated answer, not a map to trust.
    if (m && m.size >= MAP_PERSIST_FLOOR && (!this.#map || m.fetchedAt > this.#map.fetchedAt)) this.#map = m;
  }

  /** Forget the map and the ranks, here and in storage ("Refresh all data" with reference data). */
  clear(): void {
    this.#map = null;
    this.ranks.clear();
    this.#storageRead = Promise.resolve();
    const { kv } = this.#o;
    void Promise.all([kv.remove(MAP_KEY).catch(() => undefined), kv.remove(RANKS_KEY).catch(() => undefined)]);
  }

  #schedulePersist(): void {
    if (this.#persistScheduled) return;
    this.#persistScheduled = true;
    setTimeout(() => {
      this.#persistScheduled = false;
      void this.flush();
    }, PERSIST_DELAY_MS);
  }

  /** Write a newly fetched map and changed ranks to storage now. */
  async flush(): Promise<void> {
    const map = this.#unsaved;
    this.#unsaved = null;
    const { kv } = this.#o;
    const saves: Promise<void>[] = [];
    if (map && this.#map === map) saves.push(kv.set(MAP_KEY, map.serialize()).catch(() => undefined));
    if (this.ranks.takeDirty()) saves.push(kv.set(RANKS_KEY, this.ranks.serialize(this.#o.requester.now())).catch(() => undefined));
    await Promise.all(saves);
  }
}
