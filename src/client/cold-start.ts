/**
 * The quotes of a cold start: cells ask for prices before the currency map is
 * in memory, so each waits on the map's load. Two requests need not wait for
 * every cell to resolve:
 *
 * - As the map is asked for, and no coin's place in the markets list is known,
 *   the batch would walk the list from its first page: that page goes beside
 *   the map (probe). Coins given by id are known to be distinct coins without
 *   the map: N of them take at least ceil(N / 250) pages, and a walk from the
 *   first page reads exactly those in its first step (batch-fetch.ts), so as
 *   more ids wait, more pages go while the map is on its way (once /v3/status
 *   has said the key's rate limit is above the lowest plan's: client.ts). The one cost:
 *   ids that name no coin count too (a sheet of hundreds of them may spend a
 *   page the map would have shown it did not need; at most the pages that
 *   many ids would fill, capped at WALK_PAGE_CAP).
 * - As the map arrives, the coins the waiting inputs name without ambiguity
 *   are known at once: their batch goes then (prime), while thousands of
 *   waiting cells are still resolving one promise job after another. The cells
 *   join that batch's loads as they reach the batcher, as they would a gathered
 *   batch's; what peek() cannot tell (a shared symbol, an unknown input) takes
 *   the ordinary path.
 */
import type { ConvertCurrency } from '../api/endpoints';
import { MARKETS_PAGE_SIZE, type CoinMap } from './coin-map';
import type { CoinRef } from './coin-ref';
import { parseInput } from './coin-resolver';
import { onAbort } from './cancellation';

/** The coin id an input names without the map (a number, or "id:7"), else 0. Most text has no colon: nothing parsed. */
function idOf(input: string | number): number {
  if (typeof input === 'number') return Number.isInteger(input) && input > 0 ? input : 0;
  if (!input.includes(':')) return 0;
  const { kind, text } = parseInput(input);
  return kind === 'id' && /^\d+$/.test(text) ? Number(text) : 0;
}

/** Pages the first step of a walk from page 1 reads for this many distinct coins (batch-fetch.ts): at least the first. */
const pagesFor = (coins: number): number => Math.max(1, Math.ceil(coins / MARKETS_PAGE_SIZE));

export interface ColdStartDeps {
  /** No coin's place in the markets list is known (a batch would walk it from page 1). */
  noPlaceKnown(): boolean;
  /** The coin an input names on `map` when that needs nothing more (CoinResolver.peek). */
  peek(input: string | number, map: CoinMap): CoinRef | undefined;
  /** The first `pages` markets pages, asked beside the map (BatchFetch.probe). */
  probe(currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal, pages: number): void;
  /** The waiting coins' batch, its waiters the waiting cells' signals (QuoteBatcher.prime). */
  prime(ids: Iterable<number>, currency: ConvertCurrency, caller: string | undefined, waiting: Iterable<AbortSignal | undefined>): void;
}

/** Inputs past this many are not remembered: their cells take the ordinary path. */
const MAX_WAITING = 50_000;

/** The quotes waiting on one load of the map. */
interface Waits {
  load: number;
  currency: ConvertCurrency;
  caller?: string;
  inputs: Set<string | number>;
  /** The waiting cells' signals (undefined: one that cannot go), the batch's waiters when it goes. */
  signals: Set<AbortSignal | undefined>;
  /** The distinct ids among the inputs (each a different coin, if it is one). */
  ids: Set<number>;
  /** The pages' signal once the map is asked for and the first page went beside it: more pages may follow. */
  probing: AbortSignal | null;
  /** Stops the pages following the map's load once it has arrived. */
  detach?: () => void;
}

export class ColdStart {
  readonly #deps: ColdStartDeps;
  /** The map's load quotes wait on, and what they asked. */
  #waits: Waits | null = null;
  /** The load whose map has arrived: quotes that still see it under way (a few tasks after) are not held for it. */
  #arrived: number | null = null;

  constructor(deps: ColdStartDeps) {
    this.#deps = deps;
  }

  /** A quote of `input` in `currency` waits on the map's load numbered `load` (null: none under way). */
  quoteWaits(load: number | null, input: string | number, currency: ConvertCurrency, caller: string | undefined, signal?: AbortSignal): void {
    if (load === null) {
      // No load under way: the one these inputs waited on is over (from storage, which tells nothing here).
      this.#waits?.detach?.();
      this.#waits = null;
      return;
    }
    if (load === this.#arrived) return;
    let w = this.#waits;
    if (w?.load !== load) {
      w?.detach?.();
      this.#waits = w = { load, currency, caller, inputs: new Set(), signals: new Set(), ids: new Set(), probing: null };
    }
    if (currency !== w.currency || w.inputs.size >= MAX_WAITING) return;
    w.signals.add(signal);
    if (w.inputs.has(input)) return;
    w.inputs.add(input);
    const id = idOf(input);
    if (id <= 0 || w.ids.has(id)) return;
    w.ids.add(id);
    // A page more each time the ids fill one more (past 250, 500, ...).
    if (w.probing && w.ids.size % MARKETS_PAGE_SIZE === 1) this.#deps.probe(w.currency, w.caller, w.probing, pagesFor(w.ids.size));
  }

  /** Load `load` asks the service for the map: the first markets page goes beside it when a batch would walk from it. */
  mapAsked(load: number, signal: AbortSignal): void {
    const w = this.#waits;
    // A load every waiter left before it was asked (during the storage read): nothing goes for it.
    if (w?.load !== load || !this.#deps.noPlaceKnown() || signal.aborted) return;
    // The pages stop with the map's load if everyone waiting on it goes before it arrives. Once it has arrived they
    // are the batch's (it reads them, or shares their requests): its waiters settling must not cancel one on its way,
    // which the batch would then ask again, for a second credit.
    const pages = new AbortController();
    w.detach = onAbort(signal, () => pages.abort());
    w.probing = pages.signal;
    this.#deps.probe(w.currency, w.caller, pages.signal, pagesFor(w.ids.size));
  }

  /** The key's rate limit is known (/v3/status): the pages the waiting ids fill are offered again (the client decides). */
  rateKnown(): void {
    const w = this.#waits;
    if (w?.probing) this.#deps.probe(w.currency, w.caller, w.probing, pagesFor(w.ids.size));
  }

  /** Load `load` brought `map`: the waiting inputs' batch goes now; true if it went. */
  mapArrived(load: number, map: CoinMap): boolean {
    const w = this.#waits;
    if (w?.load !== load) return false;
    this.#waits = null;
    this.#arrived = load;
    w.detach?.();
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
