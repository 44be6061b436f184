/**
 * Time paging (src/client/paging.ts, the `time` branch) whatever the order of
 * the candles within a page: a service answering a full page newest first, or
 * in any other order, gets the same candles as one answering oldest first —
 * none twice, none lost, oldest first as the formulas read them — at the same
 * requests and credits. Client over real HTTP against the local API server; a
 * fetch wrapper reorders each page's `data`.
 *
 *   node --import tsx --test test/time-paging.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Candle } from '../src/api/records';
import type { EndpointName } from '../src/api/endpoints';
import type { PagesOptions } from '../src/client/paging';
import { NOW, rig, type Rig } from './client-harness';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SERIES = /^\/v3\/currencies\/\d+\/(historical|ohlcv)$/;

let r: Rig;
before(async () => {
  r = await rig({ rpm: 10_000 });
});
after(async () => {
  await r.close();
});

type Order = (data: unknown[]) => unknown[];
const newestFirst: Order = (d) => [...d].reverse();
/** The page's second half first: neither its first nor its last item is its newest. */
const halvesSwapped: Order = (d) => [...d.slice(Math.ceil(d.length / 2)), ...d.slice(0, Math.ceil(d.length / 2))];

/** A fetch that answers as the server does, each candle page's `data` in the order `order` gives. */
function reordering(order: Order): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!SERIES.test(new URL(String(input)).pathname) || res.status !== 200) return res;
    const body = (await res.json()) as { data: unknown[] };
    return new Response(JSON.stringify({ ...body, data: order(body.data) }), { status: res.status, headers: res.headers });
  };
}

/** One paged series read by a client whose server answers in `order` (none: as it does, oldest first), and what it cost that client. */
async function read(name: Extract<EndpointName, 'candles' | 'ohlcv'>, req: PagesOptions, order?: Order) {
  const c = r.client(order ? { fetch: reordering(order) } : {});
  const f = await c.getPages(name, req);
  const spent = c.meter.snapshot().byEndpoint[name];
  return { candles: f.data as Candle[], requests: spent.requests, credits: spent.credits };
}

const times = (cs: readonly Candle[]) => cs.map((x) => x.time);
const ascending = (ts: readonly number[]) => ts.every((t, i) => i === 0 || t > ts[i - 1]);

describe('time paging, pages in any order', () => {
  const daily: PagesOptions = { id: 1, query: { from: '2024-01-01', to: '2025-06-30', limit: 100 } };

  test('daily candles answered newest first: the same candles, oldest first, none twice, at the same requests and credits', async () => {
    const asc = await read('candles', daily);
    assert.ok(asc.requests >= 5, `several full pages: ${asc.requests}`);
    assert.equal(asc.candles.length, 547, '2024-01-01 to 2025-06-30');
    const desc = await read('candles', daily, newestFirst);
    assert.ok(ascending(times(desc.candles)), 'oldest first, no time twice');
    assert.deepEqual(desc.candles, asc.candles);
    assert.equal(desc.requests, asc.requests);
    assert.equal(desc.credits, asc.credits);
  });

  test("a page whose last item is neither its oldest nor its newest: the same candles", async () => {
    const asc = await read('candles', daily);
    const mixed = await read('candles', daily, halvesSwapped);
    assert.deepEqual(mixed.candles, asc.candles);
    assert.equal(mixed.requests, asc.requests);
    assert.equal(mixed.credits, asc.credits);
  });

  test('hourly candles answered newest first: the same hours, oldest first', async () => {
    const hourly: PagesOptions = { id: 1, query: { from: NOW - 5 * DAY, to: NOW - DAY, limit: 24 } };
    const asc = await read('ohlcv', hourly);
    assert.ok(asc.requests >= 4, `several full pages: ${asc.requests}`);
    const desc = await read('ohlcv', hourly, newestFirst);
    assert.ok(ascending(times(desc.candles)));
    assert.deepEqual(desc.candles, asc.candles);
    assert.equal(desc.requests, asc.requests);
    assert.equal(desc.credits, asc.credits);
  });

  test('maxItems keeps the oldest candles, whatever the order', async () => {
    const asc = await read('candles', { ...daily, maxItems: 150 });
    const desc = await read('candles', { ...daily, maxItems: 150 }, newestFirst);
    assert.equal(asc.candles.length, 150);
    assert.deepEqual(desc.candles, asc.candles);
  });
});
