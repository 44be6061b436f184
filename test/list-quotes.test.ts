/**
 * The list of currencies by ids (src/client/list-quotes.ts): ids asked at
 * different moments go out together, 100 a request, while a quote batch is
 * still gathering; each asker gets its coin, or null when the list lacks it.
 *
 *   node --import tsx --test test/list-quotes.test.ts
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalRequest } from '../src/client/canonical-request';
import { ListQuotes } from '../src/client/list-quotes';
import { QUIET_MS } from '../src/client/quiet';
import type { Answer, Requester } from '../src/client/types';

function fakeList(known: (id: number) => boolean) {
  const asked: number[][] = [];
  const requester: Requester = {
    now: () => 0,
    request: async (cr: ReturnType<typeof canonicalRequest>): Promise<Answer> => {
      const ids = String(cr.query.currencyIds).split(',').map(Number);
      asked.push(ids);
      const data = ids.filter(known).map((id) => ({ id, slug: `c${id}`, symbol: null, name: `Coin ${id}`, rank: id, imageUrl: null, price: String(id), priceChangePercent24h: null, marketCap: null, volume24h: '0', circulatingSupply: null }));
      return { entry: { data, fetchedAt: 0, timestamp: null }, stale: false, fromCache: false };
    },
  };
  return { requester, asked };
}

test('ids asked while a batch gathers join one gathering: 100 a request, not one request per moment', async (t) => {
  // Node's mock timers, not the wall clock: with a real 20 ms wait the test failed on a
  // loaded machine (the timer fired past the gathering's 50 ms cap and the first 60 went
  // alone), and on a quiet one it passed even with the gathering rule taken out.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  // A millisecond at a time: a timer set by a timer that ran within one tick() waits for the next.
  const advance = (ms: number) => {
    for (let i = 0; i < ms; i++) t.mock.timers.tick(1);
  };
  const { requester, asked } = fakeList((id) => id !== 999);
  let gathering = true;
  const kept: number[] = [];
  const list = new ListQuotes({ requester, gathering: () => gathering, onQuote: (q) => kept.push(q.quote.id) });
  const first = Array.from({ length: 60 }, (_, i) => list.load({ id: i + 1, caller: 'PRICE' }));
  advance(3 * QUIET_MS); // quiet windows pass while a quote batch still gathers
  assert.equal(asked.length, 0, 'held back while the quote batch gathers');
  const second = Array.from({ length: 60 }, (_, i) => list.load({ id: i + 61, caller: 'PRICE' }));
  const missing = list.load({ id: 999, caller: 'PRICE' });
  gathering = false;
  advance(3 * QUIET_MS);
  const got = await Promise.all([...first, ...second]);
  assert.deepEqual(asked.map((ids) => ids.length), [100, 21], 'every id gathered, then 100 a request');
  assert.deepEqual(got.map((g) => (g && 'quote' in g ? g.quote.id : g)), Array.from({ length: 120 }, (_, i) => i + 1));
  assert.equal(await missing, null, 'not in the list: null (a profile is asked instead)');
  assert.equal(kept.length, 120, 'every quote handed to the batcher');
});
