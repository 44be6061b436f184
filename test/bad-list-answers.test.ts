/**
 * Well-formed but wrong list answers must not outlive themselves (review
 * F1, F7): an empty first markets page is a bad answer, not the list's end
 * (no coin marked unlisted, nothing kept), a wrong unlisted mark mends
 * itself, and a currency map much smaller than the known one is refused
 * (a tiny one with none known serves the session, unstored).
 *
 *   node --import tsx --test test/bad-list-answers.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import type { CurrencyMapItem, MarketItem } from '../src/api/records';
import { MemoryKvStore } from '../src/client/index';
import { BAD_ANSWER_SHARED_MS } from '../src/client/bad-answer';
import { CoinMap, RankBook } from '../src/client/coin-map';
import { MAP_PERSIST_FLOOR } from '../src/client/map-store';
import { rig, serverMarket, type Rig } from './client-harness';

const MAP = ENDPOINTS.currencyMap.path;
const MARKETS = ENDPOINTS.markets.path;
const MAP_KEY = 'crypto-addin:currency-map:v1';
const RANKS_KEY = 'crypto-addin:coin-ranks:v1';
const DAY = 24 * 3_600_000;

let r: Rig;
let coins: CurrencyMapItem[];
let listing: MarketItem[];

before(async () => {
  r = await rig({ rpm: 10_000 });
  ({ coins, listing } = await serverMarket(r));
});
after(async () => {
  await r.close();
});

const since = () => r.log.length;
const hits = (from: number, re: RegExp) => r.log.slice(from).filter((e) => re.test(e.url)).length;
const PROFILES = /^\/v3\/currencies\/\d+(\?|$)/;
const MARKET_PAGES = /^\/v3\/currencies\/markets(\?|$)/;

/** A fetch that answers as the server does, but with `data` rewritten where `edit` says (null: unchanged). */
function rewriting(edit: (url: URL, data: unknown[]) => unknown[] | null): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(String(input));
    const body = (await res.json()) as { data: unknown[] };
    const data = res.status === 200 && Array.isArray(body.data) ? edit(url, body.data) : null;
    return new Response(JSON.stringify(data ? { ...body, data } : body), { status: res.status, headers: res.headers });
  };
}
const isFirstPage = (u: URL) => u.pathname === MARKETS && (u.searchParams.get('offset') ?? '0') === '0';

async function storedUnlisted(kv: MemoryKvStore): Promise<number[]> {
  const t = await kv.get(RANKS_KEY);
  return t ? (JSON.parse(t) as { unlisted: number[] }).unlisted : [];
}

describe('rank book', () => {
  test('a profile showing a coin marked unlisted as traded with a rank clears the mark; one not traded keeps it', () => {
    const b = new RankBook();
    b.markUnlisted(7);
    b.markUnlisted(8);
    b.learnProfile({ id: 7, rank: 300, lifecycle: 'traded' });
    b.learnProfile({ id: 8, rank: 900, lifecycle: 'inactive' });
    assert.equal(b.isUnlisted(7), false);
    assert.equal(b.likelyPage(7), 1, 'rank 300: the second page');
    assert.equal(b.isUnlisted(8), true);
    assert.deepEqual(JSON.parse(b.serialize(0)).unlisted, [8]);
  });

  test('an empty markets page teaches nothing: no page is taken as read whole', () => {
    const b = new RankBook();
    b.takeDirty();
    b.learnListing(0, 250, []);
    assert.equal(b.pagesSeenThrough(0), false);
    assert.deepEqual(JSON.parse(b.serialize(0)).pagesSeen, []);
  });
});

describe('markets list', () => {
  test('an empty first page fails the batch: no coin marked unlisted, no profiles, and the next recalculation asks the list again', async () => {
    let empties = 0;
    const kv = new MemoryKvStore();
    const c = r.client({
      storage: kv,
      fetch: rewriting((u) => (isFirstPage(u) && empties++ === 0 ? [] : null)),
    });
    const top = listing.slice(0, 30);
    await Promise.all(top.map((m) => c.resolveCoin(m.id)));
    let mark = since();
    const first = await Promise.allSettled(top.map((m) => c.quote(m.id)));
    assert.equal(empties, 1);
    assert.ok(first.every((x) => x.status === 'rejected' && (x.reason as { code?: string }).code === 'UNEXPECTED_RESPONSE'), 'no last good quote: the failure');
    assert.equal(hits(mark, PROFILES), 0, 'no coin sent to its profile');
    const { ranks } = await c.coinList();
    assert.ok(top.every((m) => !ranks.isUnlisted(m.id)));
    await c.flushStorage();
    assert.deepEqual(await storedUnlisted(kv), []);

    // The next recalculation, once the bad page's readers are past (bad-answer.ts), while it would still be fresh
    // in the response cache: the list is asked again and answers.
    r.em.clock.advance(BAD_ANSWER_SHARED_MS);
    mark = since();
    const second = await Promise.all(top.map((m) => c.quote(m.id)));
    assert.deepEqual(second.map((q) => q.id), top.map((m) => m.id));
    assert.equal(hits(mark, MARKET_PAGES), 1);
    assert.equal(hits(mark, PROFILES), 0);
  });

  test('cold start: an empty first page probed beside the map is asked again by the batch, and the coins get their prices', async () => {
    let empties = 0;
    const c = r.client({ fetch: rewriting((u) => (isFirstPage(u) && empties++ === 0 ? [] : null)) });
    const mark = since();
    const qs = await Promise.all(listing.slice(0, 20).map((m) => c.quote(m.slug)));
    assert.equal(empties, 2, 'the probe had the empty page; the batch asked again');
    assert.deepEqual(qs.map((q) => q.id), listing.slice(0, 20).map((m) => m.id));
    assert.equal(hits(mark, PROFILES), 0);
  });

  test("an empty page after full ones is the list's end; a coin the walk missed that its profile shows traded with a rank loses its mark", async () => {
    const end = 7 * 250; // the list, cut after seven full pages: the eighth comes back empty
    const kv = new MemoryKvStore();
    const c = r.client({
      storage: kv,
      fetch: rewriting((u) => (u.pathname === MARKETS && Number(u.searchParams.get('offset') ?? 0) >= end ? [] : null)),
    });
    const listed = new Set(listing.map((m) => m.id));
    const gone = coins.filter((x) => !listed.has(x.id)).slice(0, 2);
    const beyond = listing[end + 50];
    assert.ok(beyond && gone.length === 2);
    const asked = [beyond.id, ...gone.map((x) => x.id)];
    await Promise.all(asked.map((id) => c.resolveCoin(id)));
    const mark = since();
    const qs = await Promise.all(asked.map((id) => c.quote(id)));
    assert.deepEqual(qs.map((q) => q.id), asked);
    assert.equal(hits(mark, MARKET_PAGES), 8, 'walked to the empty eighth page');
    assert.equal(hits(mark, PROFILES), 3, 'the three from their profiles');
    const { ranks } = await c.coinList();
    assert.deepEqual(asked.map((id) => ranks.isUnlisted(id)), [false, true, true]);
    await c.flushStorage();
    assert.deepEqual((await storedUnlisted(kv)).sort(), gone.map((x) => x.id).sort());
  });
});

describe('currency map', () => {
  const tiny = (u: URL, data: unknown[]) => (u.pathname === MAP ? data.slice(0, 1) : null);

  test('a map much smaller than the known one is refused as an empty one is: the known map stays, in memory and in storage', async () => {
    const kv = new MemoryKvStore();
    let edit: (u: URL, data: unknown[]) => unknown[] | null = () => null;
    const c = r.client({ storage: kv, fetch: rewriting((u, d) => edit(u, d)) });
    assert.equal((await c.resolveCoin('ethereum')).slug, 'ethereum');
    await c.flushStorage();

    r.em.clock.advance(DAY + 1); // the map is due again
    edit = (u) => (u.pathname === MAP ? [] : null);
    let mark = since();
    assert.equal((await c.resolveCoin('solana')).slug, 'solana', 'an empty map: refused');
    r.em.clock.advance(1);
    edit = tiny;
    assert.equal((await c.resolveCoin('cardano')).slug, 'cardano', 'a one-coin map: refused, the known map answers');
    assert.equal(hits(mark, /^\/v3\/currencies\/map/), 2, 'both asked');
    await c.flushStorage();
    assert.equal(CoinMap.parse((await kv.get(MAP_KEY))!)!.size, coins.length, 'storage keeps the known map');

    // The next session: the known map is in storage only.
    mark = since();
    const next = r.client({ storage: kv, fetch: rewriting(tiny) });
    assert.equal((await next.resolveCoin('ethereum')).slug, 'ethereum');
    assert.equal(hits(mark, /^\/v3\/currencies\/map/), 1);
  });

  test('with no map known a tiny one serves the session but is not stored; a tiny one already stored is not trusted', async () => {
    const kv = new MemoryKvStore();
    const c = r.client({ storage: kv, fetch: rewriting(tiny) });
    const only = coins[0];
    assert.equal((await c.resolveCoin(only.slug)).id, only.id);
    await c.flushStorage();
    assert.equal(await kv.get(MAP_KEY), null);

    // Written by a version without the floor: the next session asks the service.
    const stored = new MemoryKvStore();
    await stored.set(MAP_KEY, new CoinMap(coins.slice(0, MAP_PERSIST_FLOOR - 1), r.em.clock.now()).serialize());
    const mark = since();
    const next = r.client({ storage: stored });
    const last = coins[coins.length - 1];
    assert.equal((await next.resolveCoin(last.slug)).id, last.id);
    assert.equal(hits(mark, /^\/v3\/currencies\/map/), 1);
  });
});
