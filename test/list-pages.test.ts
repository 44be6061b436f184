/**
 * A list read page by page is of one moment (src/client/list-pages.ts, used by
 * getPages in paging.ts): each row once, pages of different ages read again
 * once, and the spend held to what that needs (review-r3 #12). Client over real
 * HTTP against the local API server, whose market re-ranks on the hour: a
 * markets page cached by PRICE's quotes at 11:59:40 and one fetched at 12:00:10
 * listed a coin twice and lost another.
 *
 *   node --import tsx --test test/list-pages.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import type { MarketItem, UpcomingUnlock } from '../src/api/records';
import { listMoved } from '../src/client/paging';
import { PAGE_SKEW_MS } from '../src/client/list-pages';
import { NOW, rig, serverData, type Rig } from './client-harness';

const MARKETS = ENDPOINTS.markets.path;
const UNLOCKS = ENDPOINTS.upcomingUnlocks.path;
/** 20 s before the hour the emulator's market re-ranks on: a coin then crosses the 250 boundary (checked below). */
const BEFORE_HOUR = NOW - 20_000;

let r: Rig;
before(async () => {
  r = await rig({ rpm: 10_000 });
});
after(() => r.close());

const idsOf = (items: readonly { id: number }[]) => items.map((x) => x.id);
const repeats = (ids: readonly number[]) => ids.filter((x, i) => ids.indexOf(x) !== i);
/** Requests to `path` the server answered since the log was `mark` long. */
const asked = (path: string, mark: number) => r.log.slice(mark).filter((e) => e.url.split('?')[0] === path).length;
/** The first 500 of the list as the server has it now (read directly, not through a client). */
const serverTop500 = async () => [
  ...(await serverData<MarketItem[]>(r, `${MARKETS}?limit=250`)),
  ...(await serverData<MarketItem[]>(r, `${MARKETS}?limit=250&offset=250`)),
];

/** A fetch that answers as the server does, each answer of `path` whose URL `which` picks changed by `change`. */
function rewriting(path: string, which: (u: URL) => boolean, change: (data: unknown[]) => unknown[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const u = new URL(String(input));
    if (u.pathname !== path || !which(u) || res.status !== 200) return res;
    const body = (await res.json()) as { data: unknown[] };
    return new Response(JSON.stringify({ ...body, data: change(body.data) }), { status: 200, headers: res.headers });
  };
}

describe('markets pages of different moments', () => {
  test('the set-up moves a coin across the page boundary at the hour (else the tests below prove nothing)', async () => {
    r.em.clock.set(BEFORE_HOUR);
    const first = idsOf(await serverData<MarketItem[]>(r, `${MARKETS}?limit=250`));
    r.em.clock.advance(30_000);
    const second = idsOf(await serverData<MarketItem[]>(r, `${MARKETS}?limit=250&offset=250`));
    assert.ok(first.some((id) => second.includes(id)), 'a coin on the old first page and on the new second page');
  });

  test('a page PRICE cached 30 s earlier is read again once: every coin once, the list as it is now', async () => {
    r.em.clock.set(BEFORE_HOUR);
    const c = r.client();
    await c.quote('bitcoin'); // PRICE's batch reads the first markets page; it stays in the cache (60 s live freshness)
    r.em.clock.advance(30_000);
    const since = r.em.clock.now();
    const mark = r.log.length;
    const f = await c.getPages('markets', { maxItems: 500 });
    assert.equal(asked(MARKETS, mark), 2, 'the second page, and the cached first page read again once');
    const ids = idsOf(f.data);
    assert.deepEqual(repeats(ids), [], 'no coin twice');
    assert.deepEqual(ids, idsOf(await serverTop500()), 'the top 500 of this moment, none missing');
    assert.equal(listMoved(f), undefined, 'the pages agreed once read again');
    assert.equal(f.fetchedAt, since, 'both pages of this moment');
  });

  test('pages a few seconds apart are joined as read: no request beyond the pages not cached', async () => {
    r.em.clock.set(BEFORE_HOUR - 60_000);
    const c = r.client();
    await c.quote('bitcoin');
    r.em.clock.advance(PAGE_SKEW_MS - 1_000);
    const mark = r.log.length;
    const f = await c.getPages('markets', { maxItems: 500 });
    assert.equal(asked(MARKETS, mark), 1, 'the second page only: the first, cached seconds ago, serves');
    assert.deepEqual(idsOf(f.data), idsOf(await serverTop500()));
    // And a second read of the same list costs nothing.
    const again = r.log.length;
    await c.getPages('markets', { maxItems: 500 });
    assert.equal(asked(MARKETS, again), 0);
  });

  test('a list still moving when read again: each coin once, the read again only once, and the answer says it moved', async () => {
    r.em.clock.set(NOW + 3_600_000);
    const top = await serverTop500();
    const boundary = top[249];
    // The service puts the first page's last coin on the second page too, however often it is asked.
    const c = r.client({ fetch: rewriting(MARKETS, (u) => u.searchParams.get('offset') === '250', (d) => [boundary, ...d.slice(0, -1)]) });
    const mark = r.log.length;
    const f = await c.getPages('markets', { maxItems: 500 });
    const ids = idsOf(f.data);
    assert.deepEqual(repeats(ids), []);
    assert.equal(ids.length, 499, 'the repeat left out; the coin it pushed off the page is not invented');
    assert.equal(ids[249], boundary.id, 'the first one kept');
    assert.equal(asked(MARKETS, mark), 3, 'two pages, and the older of the two repeating pages read again once');
    assert.deepEqual(listMoved(f), { repeated: 1, at: 250 });
  });
});

describe('page-numbered lists (token unlocks)', () => {
  test('a coin unlocking on several days keeps every day; a repeated coin-and-day between pages is left out', async () => {
    r.em.clock.set(NOW);
    const query = { daysAhead: 365 };
    const plain = await r.client().getPages('upcomingUnlocks', { query });
    const ids = idsOf(plain.data);
    assert.ok(ids.length > 200, `several pages: ${ids.length}`);
    assert.ok(repeats(ids).length > 0, 'coins on several days: all kept');
    assert.equal(new Set(plain.data.map((u) => `${u.id}@${u.time}`)).size, ids.length, 'one entry per coin and day (spec)');
    assert.equal(listMoved(plain), undefined);

    // The second page (25 a page) repeats the first page's last unlock, every time it is asked.
    const firstPage = await serverData<UpcomingUnlock[]>(r, `${UNLOCKS}?daysAhead=365`);
    const last = firstPage[firstPage.length - 1];
    const c = r.client({ fetch: rewriting(UNLOCKS, (u) => u.searchParams.get('page') === '2', (d) => [last, ...d.slice(0, -1)]) });
    const mark = r.log.length;
    const f = await c.getPages('upcomingUnlocks', { query, maxItems: 100 });
    const key = (u: UpcomingUnlock) => `${u.id}@${u.time}`;
    const keys = f.data.map(key);
    assert.equal(new Set(keys).size, keys.length, 'no unlock twice');
    assert.equal(keys.filter((k) => k === key(last)).length, 1);
    assert.equal(asked(UNLOCKS, mark), 5, 'four pages, and the first read again once');
    assert.deepEqual(listMoved(f), { repeated: 1, at: 25 });
  });
});
