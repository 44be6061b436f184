/**
 * Coalesces quote requests from many cells into as few API requests as the API
 * allows (DataLoader, one batch per window): a batch goes out once calls have
 * stopped coming for QUIET_MS (quiet.ts), each coin once however many cells
 * ask for it, and every caller waits on its coin's load, counted among the
 * batch's waiters by its signal. What one batch fetches, and in what order, is
 * batch-fetch.ts; the quotes it brings stay in the quote cache (quote-cache.ts).
 * A batch's requests stop once every caller waiting on it has gone
 * (shared-work.ts): retries nobody waits for are waste.
 */
import DataLoader from 'dataloader';
import type { ConvertCurrency } from '../api/endpoints';
import { abortable } from './cancellation';
import { ListQuotes, type ListQuote } from './list-quotes';
import { BatchFetch } from './batch-fetch';
import { QUIET_MS, whenQuiet } from './quiet';
import { GatheringWork, liveWork, SharedWork } from './shared-work';
import type { RankBook } from './coin-map';
import type { Quote } from './quote';
import { QuoteCache, quoteKey } from './quote-cache';
import type { Requester } from './types';

export interface QuoteKey {
  id: number;
  currency: ConvertCurrency;
  caller?: string;
}

/** A key as the loader sees it: with the work of the batch it goes in (stopped when every caller has gone). */
type Load = QuoteKey & { work: SharedWork };

export interface QuoteSource {
  /** The request lifecycle: markets pages and profiles come back from it. */
  requester: Requester;
  /** Places in the markets list (learned by the client from every fresh answer). */
  ranks: RankBook;
  /** How long a quote is fresh (the live freshness). */
  ttlMs(): number;
  /** Quotes from the list of currencies (list-quotes.ts), shared with the coin resolver; default: the batcher's own. */
  list?: ListQuotes;
}

/** A coin's load in flight, and the work of the batch it is in. */
interface Flight {
  promise: Promise<Quote>;
  work: SharedWork;
}

/** A promise and the one call that settles it (an Error rejects it): a method, not a closure per coin. */
class Settler {
  readonly promise: Promise<Quote>;
  #resolve!: (q: Quote) => void;
  #reject!: (e: Error) => void;

  constructor() {
    this.promise = new Promise<Quote>((res, rej) => {
      this.#resolve = res;
      this.#reject = rej;
    });
  }

  settle(r: Quote | Error): void {
    if (r instanceof Error) this.#reject(r);
    else this.#resolve(r);
  }
}

export class QuoteBatcher {
  readonly #loader: DataLoader<Load, Quote, string>;
  readonly #quotes: QuoteCache;
  readonly #inFlight = new Map<number, Flight>();
  /** The work of the batch being gathered: its callers are its waiters. */
  readonly #open = new GatheringWork();
  /** What one batch fetches (the walk of the markets list, the list of currencies, profiles). */
  readonly #fetch: BatchFetch;
  /** Loads so far (the batch scheduler watches it to see a burst end). */
  #asked = 0;

  constructor(src: QuoteSource, windowMs: number, maxEntries: number) {
    this.#quotes = new QuoteCache(maxEntries, src.requester.now, src.ttlMs);
    // Quotes from the list of currencies, when the markets list is not the key's.
    const list = src.list ?? new ListQuotes({ requester: src.requester, gathering: () => this.gathering, onQuote: (r) => this.keepListQuote(r) });
    this.#fetch = new BatchFetch(src, this.#quotes, list);
    // A batch goes out once calls have stopped coming for QUIET_MS, at the latest `windowMs` after its first.
    const window = Math.max(0, windowMs);
    const quiet = { asked: () => this.#asked, quietMs: Math.min(QUIET_MS, window), maxMs: window - Math.min(QUIET_MS, window) };
    // The batch function's values are promises, which load() adopts (see #batch).
    this.#loader = new DataLoader<Load, Quote, string>((keys) => this.#batch(keys) as unknown as Promise<Quote[]>, {
      cache: false,
      batchScheduleFn: (send) =>
        whenQuiet(() => {
          this.#open.sent();
          send();
        }, quiet),
    });
  }

  /**
   * Whether coins may still come to the list of currencies: a batch is
   * gathering (not yet sent), or reading markets pages (a refusal of them sends
   * its coins to the list).
   */
  get gathering(): boolean {
    return this.#open.gathering || this.#fetch.readingPages;
  }

  /** A quote the list of currencies brought (for whoever asked): kept unless stale or older than the one held. */
  keepListQuote(r: ListQuote): void {
    if (r.stale) return;
    this.#quotes.offer(r.quote.id, 'USD', r.fetchedAt, () => r.quote);
  }

  /** The first markets page, asked beside the currency map on a cold start (BatchFetch.probe). */
  probe(currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal): void {
    this.#fetch.probe(currency, caller, signal);
  }

  /** Markets pages past the first, asked beside the map (BatchFetch.ahead). */
  ahead(pages: number, currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal): void {
    this.#fetch.ahead(pages, currency, caller, signal);
  }

  /**
   * Send a batch for these coins now, without gathering: the cold start's, as
   * the currency map arrives and before the cells waiting on it have each
   * asked (cold-start.ts). Each coin is in flight at once, so the cells join
   * its load as they reach shared(), as they would a gathered batch's; a coin
   * already in flight or fresh is left out. `waiting` are the signals of the
   * cells that waited on the map for a quote (undefined: a caller that cannot
   * go): they are its waiters from the start, since they wake one promise job
   * after another and a cell that woke early and settled from a page already
   * read must not leave the batch with nobody waiting, and its pages
   * cancelled, before the cells that need them have joined. Its requests stop
   * once every such cell has gone (none given: it runs its course, as the
   * gathered batch it stands for would have).
   */
  prime(ids: Iterable<number>, currency: ConvertCurrency, caller: string | undefined, waiting: Iterable<AbortSignal | undefined> = []): void {
    const group = new Map<number, Settler>();
    const work = new SharedWork();
    // A cell already gone is not a waiter (joined first, it would leave the others' batch given up).
    for (const s of waiting) if (!s?.aborted) work.join(s);
    for (const id of ids) {
      const k = quoteKey(id, currency);
      if (group.has(id) || this.#inFlight.has(k) || this.#quotes.fresh(id, currency)) continue;
      const s = new Settler();
      group.set(id, s);
      this.#track(k, { promise: s.promise, work });
    }
    if (group.size > 0) this.#send(group, currency, caller, work);
  }

  /** A fresh quote from the cache, if any. Quotes are shared, not copied: callers only read them. */
  fresh(id: number, currency: ConvertCurrency): Quote | undefined {
    return this.#quotes.fresh(id, currency);
  }

  load(key: QuoteKey, signal?: AbortSignal): Promise<Quote> {
    return abortable(this.shared(key, signal), signal);
  }

  /** As load(), but `signal` only counts the caller among the batch's waiters: the promise is not rejected when it aborts (see CoinResolver.shared). */
  shared(key: QuoteKey, signal?: AbortSignal): Promise<Quote> {
    this.#asked++;
    // A coin already in a batch (a column of the same coin) shares its entry:
    // the batch function then sees each coin once.
    const k = quoteKey(key.id, key.currency);
    let f = this.#inFlight.get(k);
    if (!f || f.work.abandoned) {
      const work = this.#open.current();
      f = this.#track(k, { promise: this.#loader.load({ id: key.id, currency: key.currency, caller: key.caller, work }), work });
    }
    f.work.join(signal);
    return f.promise;
  }

  /** A coin's load in flight: later asks share it until it settles. */
  #track(k: number, flight: Flight): Flight {
    this.#inFlight.set(k, flight);
    flight.promise.then(
      () => this.#landed(k, flight),
      () => this.#landed(k, flight),
    );
    return flight;
  }

  /** A coin's load settled: the next asks anew (unless another load took its place). */
  #landed(k: number, flight: Flight): void {
    if (this.#inFlight.get(k) === flight) this.#inFlight.delete(k);
  }

  clear(): void {
    this.#quotes.clear();
    this.#fetch.clear();
  }

  /**
   * Answers every key with a promise of its own, which DataLoader's load()
   * adopts: a coin settles as soon as the page holding it arrives, so cells of
   * the first page are done while later pages are still on their way.
   */
  async #batch(keys: readonly Load[]): Promise<Promise<Quote>[]> {
    const byCurrency = new Map<ConvertCurrency, Map<number, Settler>>();
    const promises = keys.map((k) => {
      let group = byCurrency.get(k.currency);
      if (!group) byCurrency.set(k.currency, (group = new Map()));
      let s = group.get(k.id);
      if (!s) group.set(k.id, (s = new Settler()));
      return s.promise;
    });
    for (const [currency, group] of byCurrency) {
      const mine = keys.filter((k) => k.currency === currency);
      // Its requests stop when every caller has gone.
      this.#send(group, currency, mine[0].caller, liveWork(mine.map((k) => k.work)));
    }
    return promises;
  }

  /** One batch's coins in one currency fetched (batch-fetch.ts), its requests stopped when `work` is given up. */
  #send(group: Map<number, Settler>, currency: ConvertCurrency, caller: string | undefined, work: SharedWork): void {
    this.#fetch.fetch(group, currency, caller, work.signal).catch((e: unknown) => {
      for (const s of group.values()) s.settle(e instanceof Error ? e : new Error(String(e)));
    });
  }

}
