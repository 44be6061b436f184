/**
 * Responses by canonical request key: a bounded LRU of the last good answers
 * (kept past their freshness, so a failed refresh can still serve them as
 * stale), and the calls in flight, so identical concurrent requests share one
 * HTTP call. A shared call is cancelled only when every caller waiting on it
 * has aborted.
 */
import { LRUCache } from 'lru-cache';
import type { RejectedItem } from '../api/read-data';
import { abortable, onAbort } from './cancellation';

export interface CacheEntry {
  data: unknown;
  meta?: Record<string, unknown>;
  /** Client clock when the answer arrived. */
  fetchedAt: number;
  /** The envelope's status.timestamp, when there was one. */
  timestamp: number | null;
  /** Items of a list answer that could not be read (see api/read-data.ts). */
  rejected?: RejectedItem[];
}

interface InFlight {
  promise: Promise<unknown>;
  controller: AbortController;
  waiters: number;
}

export class ResponseCache {
  readonly #entries: LRUCache<string, CacheEntry>;
  readonly #inFlight = new Map<string, InFlight>();
  /** Bumped by clear(): answers to requests started before it are not stored, nor joined. */
  #generation = 0;

  constructor(maxEntries: number) {
    this.#entries = new LRUCache<string, CacheEntry>({ max: Math.max(1, Math.floor(maxEntries)) });
  }

  get generation(): number {
    return this.#generation;
  }

  /** The last good answer, fresh or not (marks it recently used). */
  get(key: string): CacheEntry | undefined {
    return this.#entries.get(key);
  }

  set(key: string, entry: CacheEntry, generation: number): void {
    if (generation === this.#generation) this.#entries.set(key, entry);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
    // Calls in flight keep their waiters but take no new ones: a request asked after a key change joined the old
    // key's call and got its answer, a 401 included (review 2026-11-27).
    this.#inFlight.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Join the call in flight for `key`, or start it with `start`. `shared` says
   * whether this caller joined an existing call. The caller's signal only
   * detaches this caller; the call is aborted when its last waiter leaves.
   */
  share<T>(key: string, start: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): { promise: Promise<T>; shared: boolean } {
    let f = this.#inFlight.get(key);
    const shared = f !== undefined;
    if (!f) {
      const controller = new AbortController();
      const created: InFlight = { controller, waiters: 0, promise: Promise.resolve() };
      created.promise = start(controller.signal).finally(() => {
        if (this.#inFlight.get(key) === created) this.#inFlight.delete(key);
      });
      created.promise.catch(() => undefined); // settled through the waiters
      this.#inFlight.set(key, created);
      f = created;
    }
    const flight = f;
    flight.waiters++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      flight.waiters--;
      if (flight.waiters === 0) {
        if (this.#inFlight.get(key) === flight) this.#inFlight.delete(key);
        flight.controller.abort();
      }
    };
    const stop = signal ? onAbort(signal, leave) : undefined;
    const promise = abortable(flight.promise as Promise<T>, signal).finally(() => {
      stop?.();
      if (signal?.aborted) leave();
      else if (!left) {
        left = true;
        flight.waiters--;
      }
    });
    return { promise, shared };
  }
}
