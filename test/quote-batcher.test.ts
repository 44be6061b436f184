/**
 * The quote batcher on its own, over markets pages whose arrival the test
 * controls: when a batch is sent (a burst of calls, then quiet), that each coin
 * settles when its own page arrives, and that one coin asked many times is one
 * entry in the batch.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { MarketItem } from '../src/api/records';
import { RankBook } from '../src/client/coin-map';
import { QuoteBatcher, type QuoteSource } from '../src/client/quote-batcher';
import { BatchFetch } from '../src/client/batch-fetch';
import type { ListQuotes } from '../src/client/list-quotes';
import type { Quote } from '../src/client/quote';
import type { QuoteCache } from '../src/client/quote-cache';
import type { Answer } from '../src/client/types';
import { market, NOW } from './client-harness';

let listing: MarketItem[] = [];
before(async () => {
  const m = await market();
  listing = [0, 250].flatMap((offset) => m.handlers.markets({ query: { offset: String(offset), limit: '250' }, now: NOW }).data as MarketItem[]);
});

/** A request lifecycle whose markets pages arrive when the test says so; it records every page asked for, and when. */
function source() {
  const asked: { page: number; at: number; signal?: AbortSignal }[] = [];
  const arrivals = new Map<number, () => void>();
  const t0 = performance.now();
  const src: QuoteSource = {
    ranks: new RankBook(),
    ttlMs: () => 60_000,
    requester: {
      now: () => NOW,
      request(cr, o): Promise<Answer> {
        if (cr.name !== 'markets') return Promise.reject(new Error('no profiles in this test'));
        const page = Number(cr.query.offset ?? 0) / 250;
        asked.push({ page, at: performance.now() - t0, signal: o?.signal });
        return new Promise((resolve) => {
          arrivals.set(page, () => {
            const items = listing.slice(page * 250, page * 250 + 250);
            src.ranks.learnListing(page * 250, 250, items); // as the client's markets learner does
            resolve({ entry: { data: items, fetchedAt: NOW, timestamp: null }, stale: false, fromCache: false });
          });
        });
      },
    },
  };
  return {
    src,
    asked,
    arrive: (page: number) => arrivals.get(page)!(),
    waitForPages: async (n: number) => {
      const until = Date.now() + 5_000;
      while (asked.length < n) {
        if (Date.now() > until) throw new Error(`waited for ${n} pages; asked: ${JSON.stringify(asked)}`);
        await new Promise((r) => setTimeout(r, 1));
      }
    },
  };
}

const settled = <T>(p: Promise<T>) => {
  const s = { done: false };
  p.then(() => (s.done = true), () => (s.done = true));
  return s;
};

describe('quote batcher', () => {
  test('a burst of calls is sent once quiet, well before the longest window, as one batch', async () => {
    const s = source();
    const b = new QuoteBatcher(s.src, 2_000, 1_000);
    // A burst over several macrotasks (Excel delivers calls in messages), then quiet.
    const quotes = [b.load({ id: listing[0].id, currency: 'USD' })];
    for (let i = 1; i < 4; i++) {
      await new Promise((r) => setImmediate(r));
      quotes.push(b.load({ id: listing[i].id, currency: 'USD' }));
    }
    await s.waitForPages(1);
    assert.ok(s.asked[0].at < 1_000, `sent ${s.asked[0].at.toFixed(0)} ms after the first call, not after the 2,000 ms window`);
    assert.deepEqual(s.asked.map((a) => a.page), [0], 'the whole burst went in one batch: one page');
    s.arrive(0);
    assert.deepEqual((await Promise.all(quotes)).map((q) => q.id), listing.slice(0, 4).map((c) => c.id));
  });

  test('a coin settles when its own page arrives, not when the last page of the batch does', async () => {
    const s = source();
    // Places learned earlier (a previous recalculation): both pages are asked at once.
    s.src.ranks.learnListing(0, 250, listing.slice(0, 250));
    s.src.ranks.learnListing(250, 250, listing.slice(250, 500));
    const b = new QuoteBatcher(s.src, 5, 1_000);
    const top = b.load({ id: listing[3].id, currency: 'USD' });
    const deep = b.load({ id: listing[300].id, currency: 'USD' });
    await s.waitForPages(2);
    assert.deepEqual(s.asked.map((a) => a.page).sort(), [0, 1], 'two coins, two pages, asked at once');
    const deepState = settled(deep);
    s.arrive(0);
    assert.equal((await top).id, listing[3].id, 'page 1 answered its coin');
    assert.equal(deepState.done, false, 'the coin on page 2 still waits');
    s.arrive(1);
    assert.equal((await deep).id, listing[300].id);
  });

  test('one coin asked a thousand times is one entry: every caller gets the same quote', async () => {
    const s = source();
    const b = new QuoteBatcher(s.src, 5, 1_000);
    const many = Array.from({ length: 1_000 }, () => b.load({ id: listing[7].id, currency: 'USD' }));
    await s.waitForPages(1);
    s.arrive(0);
    const got = await Promise.all(many);
    assert.equal(new Set(got).size, 1, 'one quote object shared by every caller');
    assert.equal(got[0].id, listing[7].id);
    assert.equal(s.asked.length, 1);
  });

  test('a first page probed beside the map whose quotes cannot be kept settles its coins with the error: none is left waiting', async () => {
    // Its coins settle on a timer, off any caller's stack: a throw there must reach the waiters, not the event loop.
    const { src, arrive, waitForPages } = source();
    const broken = {
      fresh: () => undefined,
      offer: () => {
        throw new Error('the cache broke');
      },
      fallback: (_id: number, _c: string, e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    } as unknown as QuoteCache;
    const fetcher = new BatchFetch(src, broken, {} as ListQuotes);
    fetcher.probe('USD', undefined, new AbortController().signal);
    await waitForPages(1);
    arrive(0);
    await new Promise((r) => setTimeout(r, 0));
    const ids = listing.slice(0, 3).map((m) => m.id);
    const results = new Map<number, Quote | Error>();
    const waiting = new Map(ids.map((id) => [id, { settle: (r: Quote | Error) => void results.set(id, r) }]));
    await fetcher.fetch(waiting, 'USD', undefined, new AbortController().signal);
    const until = Date.now() + 2_000;
    while (results.size < ids.length && Date.now() < until) await new Promise((r) => setTimeout(r, 1));
    assert.deepEqual(
      ids.map((id) => (results.get(id) as Error | undefined)?.message),
      ids.map(() => 'the cache broke'),
    );
  });
  test("a batch sent as the map arrives keeps its pages while any cell that waited on the map still waits, though the first to join have settled", async () => {
    const s = source();
    s.src.ranks.learnListing(0, 250, listing.slice(0, 250));
    s.src.ranks.learnListing(250, 250, listing.slice(250, 500));
    const b = new QuoteBatcher(s.src, 5, 1_000);
    const early = new AbortController(); // a cell whose coin is on the first page
    const late = new AbortController(); // a cell still resolving its input when the first has settled
    b.prime([listing[0].id, listing[300].id], 'USD', undefined, [early.signal, late.signal]);
    await s.waitForPages(2);
    const first = b.shared({ id: listing[0].id, currency: 'USD' }, early.signal);
    s.arrive(0);
    await first;
    early.abort(); // its cell has settled: its deadline bucket lets go
    const page2 = s.asked.find((a) => a.page === 1)!;
    assert.equal(page2.signal?.aborted, false, 'the second page is still wanted: a cell that waited on the map has not joined yet');
    const second = b.shared({ id: listing[300].id, currency: 'USD' }, late.signal);
    s.arrive(1);
    assert.equal((await second).id, listing[300].id);
    late.abort();
    assert.equal(page2.signal?.aborted, true, 'every waiter gone: the batch lets its requests go');
  });
});
