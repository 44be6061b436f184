/**
 * The quotes the client holds: per coin and currency, the latest fetched
 * (a markets page fills it for all of its coins, a profile or the list of
 * currencies for one), fresh for the live freshness, and the last good quote
 * a failure may stand in for, marked stale. Bounded (LRU). Quotes are shared,
 * not copied: callers only read them.
 */
import { LRUCache } from 'lru-cache';
import { CONVERT_CURRENCIES, type ConvertCurrency } from '../api/endpoints';
import { allowsLastGood, ApiError } from './api-error';
import type { Quote } from './quote';
import { within } from './clock';

/**
 * A coin's quote in a currency as one number (id and the currency's place in
 * CONVERT_CURRENCIES): the cache is asked once per cell, and a number key
 * needs no string built and hashed each time.
 */
export function quoteKey(id: number, currency: ConvertCurrency): number {
  return id * CONVERT_CURRENCIES.length + CONVERT_CURRENCIES.indexOf(currency);
}

interface Held {
  quote: Quote;
  fetchedAt: number;
}

export class QuoteCache {
  readonly #held: LRUCache<number, Held>;

  constructor(
    maxEntries: number,
    private readonly now: () => number,
    /** How long a quote is fresh (the live freshness). */
    private readonly ttlMs: () => number,
  ) {
    this.#held = new LRUCache<number, Held>({ max: Math.max(1, maxEntries) });
  }

  /** A fresh quote, if any. */
  fresh(id: number, currency: ConvertCurrency): Quote | undefined {
    const h = this.#held.get(quoteKey(id, currency));
    return h && within(this.now(), h.fetchedAt, this.ttlMs()) ? h.quote : undefined;
  }

  /**
   * A coin's quote from an answer fetched at `fetchedAt` (a markets page, a
   * profile, the list of currencies): kept, unless the quote held came from a
   * later fetch (answers cross: a page asked later can arrive first). Returns
   * the quote that stands, built by `make` only when it is the one kept.
   */
  offer(id: number, currency: ConvertCurrency, fetchedAt: number, make: () => Quote): Quote {
    const key = quoteKey(id, currency);
    const held = this.#held.peek(key);
    if (held && held.fetchedAt > fetchedAt) return held.quote;
    const quote = make();
    this.#held.set(key, { quote, fetchedAt });
    return quote;
  }

  /** What a failure leaves a waiting coin: its last good quote marked stale where the failure allows it, else the error. */
  fallback(id: number, currency: ConvertCurrency, e: unknown): Quote | Error {
    const held = this.#held.peek(quoteKey(id, currency));
    if (held && allowsLastGood(e)) return { ...held.quote, stale: true };
    return e instanceof Error ? e : new ApiError({ code: 'UNEXPECTED_RESPONSE', message: String(e) });
  }

  clear(): void {
    this.#held.clear();
  }
}
