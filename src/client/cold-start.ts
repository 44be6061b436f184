/**
 * The quotes of a cold start: cells ask for prices before the currency map is
 * in memory, so each waits on the map's load. Two requests need not wait for
 * every cell to resolve:
 *
 * - As the map is asked for, and no coin's place in the markets list is known,
 *   the batch would walk the list from its first page: that page goes beside
 *   the map (probe).
 * - As the map arrives, the coins the waiting inputs name without ambiguity
 *   are known at once: their batch goes then (prime), while thousands of
 *   waiting cells are still resolving one promise job after another. The cells
 *   join that batch's loads as they reach the batcher, as they would a gathered
 *   batch's; what peek() cannot tell (a shared symbol, an unknown input) takes
 *   the ordinary path.
 */
import type { ConvertCurrency } from '../api/endpoints';
import type { CoinMap } from './coin-map';
import type { CoinRef } from './coin-ref';

export interface ColdStartDeps {
  /** No coin's place in the markets list is known (a batch would walk it from page 1). */
  noPlaceKnown(): boolean;
  /** The coin an input names on `map` when that needs nothing more (CoinResolver.peek). */
  peek(input: string | number, map: CoinMap): CoinRef | undefined;
  /** The first markets page, asked beside the map (BatchFetch.probe). */
  probe(currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal): void;
  /** The waiting coins' batch, its waiters the waiting cells' signals (QuoteBatcher.prime). */
  prime(ids: Iterable<number>, currency: ConvertCurrency, caller: string | undefined, waiting: Iterable<AbortSignal | undefined>): void;
}

/** Inputs past this many are not remembered: their cells take the ordinary path. */
const MAX_WAITING = 50_000;

export class ColdStart {
  readonly #deps: ColdStartDeps;
  /** The map's load quotes wait on, what they asked, and the waiting cells' signals (undefined: one that cannot go). */
  #waits: { load: number; currency: ConvertCurrency; caller?: string; inputs: Set<string | number>; signals: Set<AbortSignal | undefined> } | null = null;
  /** The load whose map has arrived: quotes that still see it under way (a few tasks after) are not held for it. */
  #arrived: number | null = null;

  constructor(deps: ColdStartDeps) {
    this.#deps = deps;
  }

  /** A quote of `input` in `currency` waits on the map's load numbered `load` (null: none under way). */
  quoteWaits(load: number | null, input: string | number, currency: ConvertCurrency, caller: string | undefined, signal?: AbortSignal): void {
    if (load === null) {
      // No load under way: the one these inputs waited on is over (from storage, which tells nothing here).
      this.#waits = null;
      return;
    }
    if (load === this.#arrived) return;
    let w = this.#waits;
    if (w?.load !== load) this.#waits = w = { load, currency, caller, inputs: new Set(), signals: new Set() };
    if (currency !== w.currency || w.inputs.size >= MAX_WAITING) return;
    w.inputs.add(input);
    w.signals.add(signal);
  }

  /** Load `load` asks the service for the map: the first markets page goes beside it when a batch would walk from it. */
  mapAsked(load: number, signal: AbortSignal): void {
    const w = this.#waits;
    if (w?.load !== load || !this.#deps.noPlaceKnown()) return;
    this.#deps.probe(w.currency, w.caller, signal);
  }

  /** Load `load` brought `map`: the waiting inputs' batch goes now; true if it went. */
  mapArrived(load: number, map: CoinMap): boolean {
    const w = this.#waits;
    if (w?.load !== load) return false;
    this.#waits = null;
    this.#arrived = load;
    const ids = new Set<number>();
    for (const input of w.inputs) {
      const c = this.#deps.peek(input, map);
      if (c) ids.add(c.id);
    }
    if (ids.size === 0) return false;
    this.#deps.prime(ids, w.currency, w.caller, w.signals);
    return true;
  }
}
