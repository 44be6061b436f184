/**
 * QuoteCache.offer (src/client/quote-cache.ts): the one rule for every answer
 * that brings a quote (markets pages, profiles, the list of currencies): the
 * quote from the later fetch stands, whichever answer arrives last.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QuoteCache } from '../src/client/quote-cache';
import type { Quote } from '../src/client/quote';

const quote = (price: number) => ({ id: 1, price, stale: false }) as unknown as Quote;

test('a quote from a later fetch replaces the one held; one from an earlier fetch does not, and is not even built', () => {
  let now = 1_000;
  const cache = new QuoteCache(10, () => now, () => 60_000);
  const first = quote(100);
  assert.equal(cache.offer(1, 'USD', 500, () => first), first, 'nothing held: kept');
  const later = quote(101);
  assert.equal(cache.offer(1, 'USD', 700, () => later), later, 'fetched later: replaces');
  let built = 0;
  const stands = cache.offer(1, 'USD', 600, () => (built++, quote(99)));
  assert.equal(stands, later, 'an answer fetched earlier that arrives last leaves the later quote standing');
  assert.equal(built, 0);
  assert.equal(cache.fresh(1, 'USD'), later);
  const same = quote(102);
  assert.equal(cache.offer(1, 'USD', 700, () => same), same, 'the same fetch time: the newest answer read wins');
  assert.equal(cache.offer(1, 'EUR', 100, () => first), first, 'each currency on its own');
  now = 70_000;
  assert.equal(cache.fresh(1, 'USD'), undefined, 'past the live freshness');
});
