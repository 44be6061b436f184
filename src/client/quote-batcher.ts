/**
 * Coalesces quote requests from many cells into as few API requests as the API
 * allows (DataLoader, one batch per window), and keeps a per-coin quote cache
 * that every fetched markets page fills for all of its coins.
 *
 * One batch, per currency:
 * 1. coins whose markets page is known (learned earlier) → exactly those pages, concurrently;
 * 2. the rest → walk the list from page 1: fetch the next ceil(missing / 250)
 *    pages at once (finance users ask mostly for top coins, so the first step
 *    usually finds them all), and again while at least two requested coins are
 *    still missing and the last page was full, up to WALK_PAGE_CAP pages;
 * 3. whatever is still missing → one profile request each. Coins a full walk
 *    (to the list's last, short page) did not find, and coins whose profile
 *    says they are not traded or unranked, are remembered as unlisted and go
 *    straight to step 3 next time; a profile's rank points step 1 at a page.
 * A failed request settles every coin waiting on it with the error, or with
 * its last good quote marked stale when the failure allows it.
 */
import DataLoader from 'dataloader';
import { LRUCache } from 'lru-cache';
import type { ConvertCurrency } from '../api/endpoints';
import type { MarketItem, Profile } from '../api/records';
import { allowsStaleFallback, ApiError } from './api-error';
import { abortable } from './clock';
import { MARKETS_PAGE_SIZE, type RankBook } from './coin-map';
import { quoteFromMarketItem, quoteFromProfile, type Quote } from './quote';

export const WALK_PAGE_CAP = 8;

export interface QuoteKey {
  id: number;
  currency: ConvertCurrency;
  caller?: string;
}

export interface PageResult {
  items: readonly MarketItem[];
  stale: boolean;
  fetchedAt: number;
}

export interface ProfileResult {
  profile: Profile;
  stale: boolean;
  fetchedAt: number;
  timestamp: number | null;
}

export interface QuoteSource {
  /** Markets page `page` (0-based) of 250 sorted by rank, in `currency`. Must feed absorb() on a fresh answer. */
  fetchPage(page: number, currency: ConvertCurrency, caller: string | undefined): Promise<PageResult>;
  /** A profile in `currency`. Must teach the rank book its rank (and that it is unlisted when not traded or unranked). */
  fetchProfile(id: number, currency: ConvertCurrency, caller: string | undefined): Promise<ProfileResult>;
  ranks: RankBook;
  now(): number;
  /** How long a quote is fresh (the live freshness). */
  ttlMs(): number;
}

interface Held {
  quote: Quote;
  fetchedAt: number;
}

export class QuoteBatcher {
  readonly #src: QuoteSource;
  readonly #loader: DataLoader<QuoteKey, Quote, string>;
  readonly #quotes: LRUCache<string, Held>;

  constructor(src: QuoteSource, windowMs: number, maxEntries: number) {
    this.#src = src;
    this.#quotes = new LRUCache<string, Held>({ max: Math.max(1, maxEntries) });
    this.#loader = new DataLoader<QuoteKey, Quote, string>((keys) => this.#batch(keys), {
      cache: false,
      batchScheduleFn: (cb) => setTimeout(cb, Math.max(0, windowMs)),
    });
  }

  /** A fresh quote from the cache, if any. Quotes are shared, not copied: callers only read them. */
  fresh(id: number, currency: ConvertCurrency): Quote | undefined {
    const h = this.#quotes.get(`${currency}:${id}`);
    return h && this.#src.now() - h.fetchedAt < this.#src.ttlMs() ? h.quote : undefined;
  }

  load(key: QuoteKey, signal?: AbortSignal): Promise<Quote> {
    return abortable(this.#loader.load(key), signal);
  }

  /** Fill the quote cache from a freshly fetched markets answer (any page, any filter). */
  absorb(items: readonly MarketItem[], currency: ConvertCurrency, fetchedAt: number): void {
    for (const it of items) {
      const k = `${currency}:${it.id}`;
      const old = this.#quotes.peek(k);
      if (!old || old.fetchedAt <= fetchedAt) this.#quotes.set(k, { quote: quoteFromMarketItem(it, currency), fetchedAt });
    }
  }

  clear(): void {
    this.#quotes.clear();
  }

  async #batch(keys: readonly QuoteKey[]): Promise<(Quote | Error)[]> {
    const byCurrency = new Map<ConvertCurrency, QuoteKey[]>();
    for (const k of keys) {
      const list = byCurrency.get(k.currency) ?? [];
      list.push(k);
      byCurrency.set(k.currency, list);
    }
    const results = new Map<string, Quote | Error>();
    await Promise.all(
      [...byCurrency].map(async ([currency, ks]) => {
        const got = await this.#fetchGroup(
          [...new Set(ks.map((k) => k.id))],
          currency,
          ks[0].caller,
        );
        for (const [id, r] of got) results.set(`${currency}:${id}`, r);
      }),
    );
    return keys.map((k) => results.get(`${k.currency}:${k.id}`) ?? new ApiError({ code: 'UNEXPECTED_RESPONSE', message: `No quote for coin ${k.id}.` }));
  }

  async #fetchGroup(ids: number[], currency: ConvertCurrency, caller: string | undefined): Promise<Map<number, Quote | Error>> {
    const { ranks } = this.#src;
    const out = new Map<number, Quote | Error>();
    const missing = new Set<number>();
    for (const id of ids) {
      const q = this.fresh(id, currency);
      if (q) out.set(id, q);
      else missing.add(id);
    }
    const pagesRead = new Map<number, number>(); // page → item count
    let failure: unknown = null;

    const readPages = async (pages: number[]) => {
      const settled = await Promise.allSettled(pages.map((p) => this.#src.fetchPage(p, currency, caller)));
      settled.forEach((s, i) => {
        if (s.status === 'rejected') {
          failure ??= s.reason;
          return;
        }
        pagesRead.set(pages[i], s.value.items.length);
        for (const it of s.value.items) {
          if (!missing.has(it.id)) continue;
          missing.delete(it.id);
          out.set(it.id, { ...quoteFromMarketItem(it, currency), stale: s.value.stale });
        }
      });
    };

    // 1. Coins whose page is known.
    const known = new Set<number>();
    for (const id of missing) {
      const p = ranks.likelyPage(id);
      if (p !== undefined) known.add(p);
    }
    if (known.size > 0) await readPages([...known]);

    // 2. Walk from page 1 for the rest (unlisted coins skip this).
    const walkable = () => [...missing].filter((id) => !ranks.isUnlisted(id)).length;
    let endReached = false;
    let next = 0;
    let walked = 0;
    let first = true;
    while (failure === null && walked < WALK_PAGE_CAP) {
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
    if (endReached && failure === null) {
      for (const id of missing) ranks.markUnlisted(id);
    }

    // 3. Profiles for what is left (unless the pages failed: the service is in trouble).
    if (failure === null && missing.size > 0) {
      await Promise.all(
        [...missing].map(async (id) => {
          try {
            const r = await this.#src.fetchProfile(id, currency, caller);
            const q = quoteFromProfile(r.profile, currency, r.timestamp);
            if (!r.stale) this.#quotes.set(`${currency}:${id}`, { quote: q, fetchedAt: r.fetchedAt });
            out.set(id, { ...q, stale: r.stale });
          } catch (e) {
            out.set(id, this.#fallback(id, currency, e));
          }
          missing.delete(id);
        }),
      );
    }
    for (const id of missing) out.set(id, this.#fallback(id, currency, failure));
    return out;
  }

  /** The last good quote marked stale, or the error. */
  #fallback(id: number, currency: ConvertCurrency, e: unknown): Quote | Error {
    const held = this.#quotes.peek(`${currency}:${id}`);
    if (held && allowsStaleFallback(e)) return { ...held.quote, stale: true };
    return e instanceof Error ? e : new ApiError({ code: 'UNEXPECTED_RESPONSE', message: String(e) });
  }
}
