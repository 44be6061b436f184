/**
 * The quotes the client holds: per coin and currency, the latest fetched
 * (a markets page fills it for all of its coins, a profile or the list of
 * currencies for one), fresh for the live freshness, and the last good quote
 * a failure may stand in for, marked stale. Bounded (LRU). Quotes are shared,
 * not copied: callers only read them.
 */
import { LRUCache } from 'lru-cache';
import { CONVERT_CURRENCIES, type ConvertCurrency } from '../api/endpoints';
import { allowsStaleFallback, ApiError } from './api-error';
import type { Quote } from './quote';

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
    return h && this.now() - h.fetchedAt < this.ttlMs() ? h.quote : undefined;
  }

  /** The quote held for a coin when it was fetched after `fetchedAt` (a newer answer won the race), else undefined. */
  newerThan(id: number, currency: ConvertCurrency, fetchedAt: number): Quote | undefined {
    const old = this.#held.peek(quoteKey(id, currency));
    return old && old.fetchedAt > fetchedAt ? old.quote : undefined;
  }

  /** Keep a quote fetched at `fetchedAt` (callers check newerThan() first where answers may cross). */
  keep(id: number, currency: ConvertCurrency, quote: Quote, fetchedAt: number): void {
    this.#held.set(quoteKey(id, currency), { quote, fetchedAt });
  }

  /** What a failure leaves a waiting coin: its last good quote marked stale where the failure allows it, else the error. */
  fallback(id: number, currency: ConvertCurrency, e: unknown): Quote | Error {
    const held = this.#held.peek(quoteKey(id, currency));
    if (held && allowsStaleFallback(e)) return { ...held.quote, stale: true };
    return e instanceof Error ? e : new ApiError({ code: 'UNEXPECTED_RESPONSE', message: String(e) });
  }

  clear(): void {
    this.#held.clear();
  }
}
