/**
 * The quotes of a cold start: cells ask for prices before the currency map is
 * in memory, so each waits on the map's load. Three kinds of request need not
 * wait for every cell to resolve:
 *
 * - As the map is asked for, and no coin's place in the markets list is known,
 *   the batch would walk the list from its first page: that page goes beside
 *   the map (probe).
 * - Once /v3/status has said the key's rate is above the lowest plan's, while
 *   the map is still on its way, the pages the waiting coins given by id fill
 *   go too (ahead): N distinct ids are N coins, and a walk for N coins reads
 *   the first ceil(N / 250) pages in its first step whatever they are
 *   (batch-fetch.ts), so they are asked either way, before the map is read
 *   rather than after (status and the map come back together). Text
 *   counts for nothing here ("btc" and "bitcoin" are one coin). An id that
 *   names no coin is the one way this asks a page the map would have shown
 *   unneeded: it takes 250 such ids in one sheet. No answer is read until
 *   these requests are on the wire (wiring(), transport.ts readAfter): in
 *   Node a new connection's connect and write each need a turn of the event
 *   loop, which reading the first page and the map (about 5 ms) and waking
 *   thousands of cells on the map would hold (next-task.ts).
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
import { afterWire } from './next-task';

export interface ColdStartDeps {
  /** No coin's place in the markets list is known (a batch would walk it from page 1). */
  noPlaceKnown(): boolean;
  /** The coin an input names on `map` when that needs nothing more (CoinResolver.peek). */
  peek(input: string | number, map: CoinMap): CoinRef | undefined;
  /** The first markets page, asked beside the map (BatchFetch.probe). */
  probe(currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal): void;
  /**
   * Pages past the first may go before the map: the key's rate is known and above the lowest plan's. Until
   * /v3/status answers the plan is not known; a Sandbox key's 10 requests a minute go on what the map shows
   * it needs, and a live one may have no markets list to spend them on (404, issue #21).
   */
  pagesAllowed(): boolean;
  /** Markets pages 1..`pages` (0-based: page 0 is the probe's), asked beside the map (BatchFetch.ahead). */
  ahead(pages: number, currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal): void;
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
  signals: Set<AbortSignal | undefined>;
  /** The load's signal once the first page went beside the map: pages past it may follow (ahead). */
  probed?: AbortSignal;
  /** The pages past the first went (once per load). */
  wired?: true;
}

/** Distinct coin ids among the inputs: a number, or "id:7" (most text has no colon: nothing to parse). */
function distinctIds(inputs: Iterable<string | number>): number {
  const ids = new Set<string>();
  for (const input of inputs) {
    if (typeof input === 'string' && !input.includes(':')) continue;
    const { kind, text } = parseInput(input);
    if (kind === 'id' && /^[1-9]\d*$/.test(text)) ids.add(text);
  }
  return ids.size;
}

export class ColdStart {
  readonly #deps: ColdStartDeps;
  /** The map's load quotes wait on, what they asked, and the waiting cells' signals (undefined: one that cannot go). */
  #waits: Waits | null = null;
  /** The load whose map has arrived: quotes that still see it under way (a few tasks after) are not held for it. */
  #arrived: number | null = null;
  /** The pages just sent ahead, until they are on the wire. */
  #wiring: Promise<void> | undefined;

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
    w.probed = signal;
    this.planKnown(); // known already (asked earlier this session)
  }

  /** /v3/status answered: while the map is on its way, the pages the waiting ids fill go, once per load. */
  planKnown(): void {
    const w = this.#waits;
    if (!w?.probed || w.wired || w.probed.aborted || !this.#deps.pagesAllowed()) return;
    const pages = Math.ceil(distinctIds(w.inputs) / MARKETS_PAGE_SIZE) - 1;
    if (pages <= 0) return;
    this.#deps.ahead(pages, w.currency, w.caller, w.probed);
    w.wired = true;
    const wiring = (this.#wiring = afterWire().then(() => {
      if (this.#wiring === wiring) this.#wiring = undefined;
    }));
  }

  /** The pages just sent ahead of the map, until they are on the wire: answers are read after (undefined: none). */
  wiring(): Promise<void> | undefined {
    return this.#wiring;
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
