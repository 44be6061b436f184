/**
 * One batch of coins' quotes fetched, per currency, and what reading the
 * markets list taught (quote-batcher.ts gathers the batches):
 * 1. coins whose markets page is known (learned earlier) → exactly those pages, concurrently;
 * 2. the rest → walk the list from page 1: fetch the next ceil(missing / 250)
 *    pages at once (finance users ask mostly for top coins, so the first step
 *    usually finds them all), and again while at least two requested coins are
 *    still missing and the last page was full, up to WALK_PAGE_CAP pages; the
 *    first page read beside the currency map (probe()) counts as read, and a
 *    batch sent as the map arrives (cold-start.ts) waits for that page first;
 *    the pages after it asked ahead of the map (ahead()) are the walk's own
 *    first step, which joins them in flight;
 * When the service refuses the markets list, or has no such route (a live
 * Sandbox key: 404 "Cannot GET", issue #21), that is remembered and USD quotes
 * come from `/v3/currencies/list?currencyIds=` instead, 100 coins a request,
 * gathered across batches (list-quotes.ts).
 * 3. whatever is still missing → one profile request each. Coins a full walk
 *    (to the list's last, short page) did not find, and coins whose profile
 *    says they are not traded or unranked, are remembered as unlisted and go
 *    straight to step 3 next time; a profile's rank points step 1 at a page.
 * A failed request settles every coin waiting on it with the error, or with
 * its last good quote marked stale when the failure allows it. A page failure
 * of the whole call (scope `call` in ERROR_RULES: the service, the key) ends
 * the batch; one of the thing asked (scope `item`: no such page) ends the walk
 * there, as the list's end would. An empty first page fails the call, never
 * ends the list (#page); an empty page after a full one does end it (the list
 * can be a multiple of 250 long). Every fetched markets page fills the quote
 * cache (quote-cache.ts) for all of its coins; the client's learners take the
 * places in the list from the same answers.
 */
import type { ConvertCurrency } from '../api/endpoints';
import type { MarketItem, Profile } from '../api/records';
import type { RejectedItem } from '../api/read-data';
import { ApiError, routeUnavailable, unreadableItemError } from './api-error';
import { askPastBadAnswer, badAnswerShared } from './bad-answer';
import { canonicalRequest } from './canonical-request';
import { MARKETS_PAGE_SIZE, type RankBook } from './coin-map';
import { errorRule } from './error-rules';
import type { ListQuotes } from './list-quotes';
import { quoteFromMarketItem, quoteFromProfile, type Quote } from './quote';
import type { QuoteCache } from './quote-cache';
import type { Answer, Requester } from './types';
import { within } from './clock';

export const WALK_PAGE_CAP = 8;

/** A coin of the batch, settled once: its quote, or an Error. */
export interface Waiter {
  settle(r: Quote | Error): void;
}

/** What fetching needs: the request lifecycle, the places learned, the live freshness. */
export interface FetchSource {
  requester: Requester;
  ranks: RankBook;
  ttlMs(): number;
}

/** A markets page as a batch reads it. */
interface PageAnswer {
  items: readonly MarketItem[];
  rejected: readonly RejectedItem[] | undefined;
  stale: boolean;
  fetchedAt: number;
}

export class BatchFetch {
  readonly #src: FetchSource;
  readonly #quotes: QuoteCache;
  readonly #list: ListQuotes;
  /** The service refused the markets list or has no route for it: quotes come from the list of currencies. */
  #noMarkets = false;
  /** Moved on by clear(), as the response cache's generation: answers to older requests teach nothing. */
  #generation = 0;
  /** Batches waiting for markets pages. */
  #readingPages = 0;
  /** The first page as probe() read it, by currency: while fresh, a batch takes it as read. */
  readonly #probed = new Map<ConvertCurrency, PageAnswer>();
  /** The first page probe() asked and is still waiting for, by currency. */
  readonly #probing = new Map<ConvertCurrency, Promise<void>>();

  constructor(src: FetchSource, quotes: QuoteCache, list: ListQuotes) {
    this.#src = src;
    this.#quotes = quotes;
    this.#list = list;
  }

  /** Whether a batch is reading markets pages (a refusal of them sends its coins to the list of currencies). */
  get readingPages(): boolean {
    return this.#readingPages > 0;
  }

  /**
   * The first markets page, asked beside the currency map on a cold start (the
   * client's call, when quotes wait on the map and no coin's place is known): a
   * batch with any coin whose place is unknown walks the list from it, so it is
   * asked either way, one round trip sooner. The next batch reads it as its
   * first page (a batch asking before it arrives shares the request); a service
   * without the markets list (404, or refused) is known by the time the coins
   * are, and their prices go straight to the list of currencies: the latency
   * bound's "markets tried alongside the map" (docs/benchmark.md, issue #21).
   * Any other failure is left to the batch, which asks again (an empty first page: the probe, see #page).
   */
  probe(currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal): void {
    if (this.#noMarkets) return;
    const generation = this.#generation;
    const probing = this.#page(0, currency, caller, signal, true)
      .then(
        (r) => {
          if (!r.stale && generation === this.#generation) this.#probed.set(currency, r);
        },
        (e: unknown) => {
          if (routeUnavailable(e) && generation === this.#generation) this.#noMarkets = true;
        },
      )
      .finally(() => {
        if (this.#probing.get(currency) === probing) this.#probing.delete(currency);
      });
    this.#probing.set(currency, probing);
  }

  /**
   * Markets pages 1..`pages` (at most the first step of a walk on from the probed page), asked beside the map
   * when the coins waiting on it are known to fill them (cold-start.ts): the batch's walk joins these requests
   * (the response cache shares one in flight). A failure is left to the batch, which asks again.
   */
  ahead(pages: number, currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal): void {
    if (this.#noMarkets) return;
    for (let p = 1; p <= Math.min(pages, WALK_PAGE_CAP - 1); p++) this.#page(p, currency, caller, signal).catch(() => undefined);
  }

  /** A new key or a refresh: the markets list is asked again. */
  clear(): void {
    this.#generation++;
    this.#probed.clear();
    this.#probing.clear();
    this.#noMarkets = false;
  }

  /** The quotes of the batch's coins in `currency`: each waiter settled once, with its quote or an Error (the header's steps). */
  async fetch(waiting: ReadonlyMap<number, Waiter>, currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal): Promise<void> {
    // A batch sent as the map arrives (QuoteBatcher.prime) may come before the first page probed beside it: that
    // answer says where the walk starts, or that this key has no markets list (the pages after it would be refused).
    const probing = this.#probing.get(currency);
    if (probing) await probing;
    // A Sandbox key's refusal landing after the switch to a Pro key kept the Pro key off the markets list (review 2026-11-27).
    const generation = this.#generation;

    const { ranks, requester } = this.#src;
    const missing = new Set<number>();
    const settle = (id: number, r: Quote | Error) => {
      missing.delete(id);
      waiting.get(id)?.settle(r);
    };
    for (const id of waiting.keys()) {
      const q = this.#quotes.fresh(id, currency);
      if (q) waiting.get(id)!.settle(q);
      else missing.add(id);
    }
    const pagesRead = new Map<number, number>(); // page → item count
    /** A page read: its size for the walk; a coin whose item could not be read costs only itself. */
    const took = (p: number, r: PageAnswer) => {
      pagesRead.set(p, r.items.length + (r.rejected?.length ?? 0));
      for (const bad of r.rejected ?? []) {
        if (bad.id !== null && missing.has(bad.id)) settle(bad.id, this.#quotes.fallback(bad.id, currency, unreadableItemError(bad, 'markets')));
      }
    };
    // The first page, if probe() read it and it is still fresh, is read: the walk goes on from the second. Its coins
    // settle once this batch's own requests are on their way: a thousand cells settling first would hold them back
    // (the rest of this function runs to its first request without yielding; a timer comes after that).
    // One with unreadable items only within its recalculation; after it, the page is asked (#page, bad-answer.ts).
    const probed = this.#probed.get(currency);
    const badPast = probed?.rejected?.length && !badAnswerShared(requester, probed.fetchedAt);
    const tookProbed = probed !== undefined && within(requester.now(), probed.fetchedAt, this.#src.ttlMs()) && !badPast;
    if (tookProbed) {
      took(0, probed);
      const held = new Set<number>();
      for (const it of probed.items) if (missing.delete(it.id)) held.add(it.id);
      setTimeout(() => {
        try {
          for (const it of probed.items) {
            const q = this.#absorb(it, currency, probed.fetchedAt);
            if (held.has(it.id)) waiting.get(it.id)?.settle(q);
          }
        } catch (e) {
          // Not on a timer's stack: every coin still waiting settles with it (a settled one keeps its quote).
          for (const id of held) waiting.get(id)?.settle(e instanceof Error ? e : new Error(String(e)));
        }
      }, 0);
    }
    let failure: unknown = null;
    /** A page was refused: the list's end is not known, so no coin is marked unlisted. */
    let cutShort = false;

    const readPages = (pages: number[]) => {
      this.#readingPages++;
      return Promise.all(
        pages.map((p) =>
          this.#page(p, currency, caller, signal).then(
            (r) => {
              took(p, r);
              // A page that is not a stale stand-in fills the quote cache, for every coin on it.
              for (const it of r.items) {
                const q = r.stale ? null : this.#absorb(it, currency, r.fetchedAt);
                if (missing.has(it.id)) settle(it.id, q ?? { ...quoteFromMarketItem(it, currency), stale: true });
              }
            },
            (e: unknown) => {
              // A refusal of this page alone (scope item: no such page): the walk ends before it,
              // and what is still missing goes to profiles. Anything else fails the batch.
              const noRoute = routeUnavailable(e);
              if (noRoute || (e instanceof ApiError && errorRule(e.code, e.status).scope === 'item')) {
                if (noRoute && generation === this.#generation) this.#noMarkets = true;
                pagesRead.set(p, 0);
                cutShort = true;
              } else failure ??= e;
            },
          ),
        ),
      ).finally(() => {
        this.#readingPages--;
      });
    };
    // 1. Coins whose page is known.
    const known = new Set<number>();
    for (const id of missing) {
      const p = ranks.likelyPage(id);
      if (p !== undefined) known.add(p);
    }
    if (known.size > 0 && !this.#noMarkets) await readPages([...known]);

    // 2. Walk from page 1 for the rest (unlisted coins skip this).
    const walkable = () => [...missing].filter((id) => !ranks.isUnlisted(id)).length;
    let endReached = false;
    let next = 0;
    let walked = 0;
    // The page read beside the map was the walk's first step: after it, as after any step, a walk goes on only for
    // two coins or more (one coin costs its profile either way; a page more as well was a credit spent for it).
    let first = !tookProbed;
    while (failure === null && !this.#noMarkets && walked < WALK_PAGE_CAP) {
      const want = walkable();
      if (want === 0 || (!first && want < 2)) break;
      const batch: number[] = [];
      const count = Math.ceil(want / MARKETS_PAGE_SIZE);
      while (batch.length < count && walked + batch.length < WALK_PAGE_CAP) {
        if (!pagesRead.has(next)) batch.push(next);
        else if ((pagesRead.get(next) ?? 0) < MARKETS_PAGE_SIZE) {
          endReached = true;
          break;
        }
        next++;
      }
      if (endReached) break;
      first = false;
      walked += batch.length;
      await readPages(batch);
      const counts = batch.map((p) => pagesRead.get(p));
      if (counts.some((c) => c !== undefined && c < MARKETS_PAGE_SIZE)) {
        endReached = true;
        break;
      }
    }
    if (endReached && failure === null && !cutShort) {
      for (const id of missing) ranks.markUnlisted(id);
    }

    // 2b. Without the markets list: the list of currencies by id, 100 a request, gathered across batches (USD only).
    if (this.#noMarkets && failure === null && missing.size > 0 && currency === 'USD') {
      await Promise.all(
        [...missing].map((id) =>
          this.#list.load({ id, caller, signal }).then(
            (r) => {
              if (!r) return; // not in the list: a profile, below (the quote itself was kept: onQuote)
              // An item that could not be read costs its own coin, as on a markets page (took, above).
              if ('unreadable' in r) settle(id, this.#quotes.fallback(id, currency, r.unreadable));
              else settle(id, r.stale ? { ...r.quote, stale: true } : r.quote);
            },
            (e: unknown) => {
              failure ??= e;
            },
          ),
        ),
      );
    }

    // 3. Profiles for what is left (unless the pages failed: the service is in trouble).
    if (failure === null && missing.size > 0) {
      await Promise.all(
        [...missing].map(async (id) => {
          try {
            const a = await this.#src.requester.request(canonicalRequest('profile', id, { convert: currency }), { caller, signal });
            const q = quoteFromProfile(a.entry.data as Profile, currency, a.entry.timestamp);
            settle(id, a.stale ? { ...q, stale: true } : this.#quotes.offer(id, currency, a.entry.fetchedAt, () => q));
          } catch (e) {
            settle(id, this.#quotes.fallback(id, currency, e));
          }
        }),
      );
    }
    for (const id of [...missing]) settle(id, this.#quotes.fallback(id, currency, failure));
  }

  /**
   * Markets page `page` (0-based, sorted by rank) in `currency`, as the lifecycle answers it. An empty first page
   * is a bad answer, not the list's end: the list is never empty for a key that has it, and taken as the end it
   * marked every coin of the batch unlisted for a day (review F1). It fails as an unexpected answer (the last good
   * quotes stand in). So is a page with unreadable items (their errors would last the live freshness): either,
   * fresh in the response cache, stands for its recalculation and is asked again after it (bad-answer.ts). No cell
   * reads the `probe`'s answer: an empty first page just fetched is asked again at once for the batches after it.
   */
  async #page(page: number, currency: ConvertCurrency, caller: string | undefined, signal: AbortSignal, probe = false): Promise<PageAnswer> {
    const cr = canonicalRequest('markets', undefined, { offset: page * MARKETS_PAGE_SIZE, limit: MARKETS_PAGE_SIZE, convert: currency });
    const emptyFirst = (a: Answer) => page === 0 && (a.entry.data as readonly MarketItem[]).length === 0 && (a.entry.rejected?.length ?? 0) === 0;
    const { requester } = this.#src;
    let a = await askPastBadAnswer(requester, cr, { caller, signal }, (x) => emptyFirst(x) || (x.entry.rejected?.length ?? 0) > 0);
    if (probe && !a.fromCache && emptyFirst(a)) a = await requester.request(cr, { caller, signal, force: true });
    if (emptyFirst(a)) throw new ApiError({ code: 'UNEXPECTED_RESPONSE', message: 'markets: the first page of the list came back empty; it was not used.', endpoint: 'markets' });
    const { data, rejected, fetchedAt } = a.entry;
    return { items: data as readonly MarketItem[], rejected, stale: a.stale, fetchedAt };
  }

  /** A page's quote for an item, kept unless a newer one is held (QuoteCache.offer); the one that stands. */
  #absorb(it: MarketItem, currency: ConvertCurrency, fetchedAt: number): Quote {
    return this.#quotes.offer(it.id, currency, fetchedAt, () => quoteFromMarketItem(it, currency));
  }
}
