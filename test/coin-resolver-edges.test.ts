/**
 * CoinResolver at its edges (review 2026-11-27): a bad answer or a failed
 * request must not settle a shared symbol on the wrong coin, the memo keeps
 * apart what resolution keeps apart, and a memoised resolution is handed out
 * only while the map load it waits on is alive.
 *
 *   node --import tsx --test test/coin-resolver-edges.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import type { CurrencyMapItem, MarketItem } from '../src/api/records';
import { MemoryKvStore } from '../src/client/index';
import { ApiError, abortedError } from '../src/client/api-error';
import { BAD_ANSWER_SHARED_MS } from '../src/client/bad-answer';
import { CoinMap, RankBook } from '../src/client/coin-map';
import type { CoinRef } from '../src/client/coin-ref';
import { CoinResolver, type ResolverDeps } from '../src/client/coin-resolver';
import type { KvStore } from '../src/client/kv-store';
import type { ListQuote } from '../src/client/list-quotes';
import { CoinMapStore, MAP_PERSIST_FLOOR } from '../src/client/map-store';
import type { Answer, Requester } from '../src/client/types';
import { rig, serverMarket, type Rig } from './client-harness';

const MAP = ENDPOINTS.currencyMap.path;
const MARKETS = ENDPOINTS.markets.path;
const RANKS_KEY = 'crypto-addin:coin-ranks:v1';
const DAY = 24 * 3_600_000;
const PROFILES = /^\/v3\/currencies\/\d+(\?|$)/;

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

/** The service is not to be asked. */
const noRequests: Requester = { request: () => Promise.reject(new Error('no request expected')), now: () => 0 };
const since = () => r.log.length;
const hits = (from: number, re: RegExp) => r.log.slice(from).filter((e) => re.test(e.url)).length;

describe('a shared symbol', () => {
  /** A top coin (first markets page, its symbol its own) and a lower-ranked one with a lower id, which the map gives that symbol. */
  function pair(): { top: MarketItem; low: MarketItem; symbol: string } {
    const symbolOf = (id: number) => coins.find((c) => c.id === id)?.symbol ?? null;
    for (const top of listing.slice(10, 200)) {
      const symbol = symbolOf(top.id);
      if (symbol === null || coins.filter((c) => c.symbol?.toUpperCase() === symbol.toUpperCase()).length !== 1) continue;
      const low = listing.slice(1000).find((m) => m.id < top.id);
      if (low) return { top, low, symbol };
    }
    throw new Error('the market has no such pair');
  }

  /** The server, with `low` given `symbol` in the map and the first markets page empty `empties.left` times. */
  function serverWith(low: MarketItem, symbol: string, empties: { left: number }): typeof fetch {
    return async (input, init) => {
      const res = await fetch(input, init);
      const url = new URL(String(input));
      if (url.pathname === MAP) {
        const body = (await res.json()) as { data: CurrencyMapItem[] };
        for (const c of body.data) if (c.id === low.id) c.symbol = symbol;
        return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
      }
      if (url.pathname === MARKETS && (url.searchParams.get('offset') ?? '0') === '0' && empties.left > 0) {
        empties.left--;
        const body = (await res.json()) as { data: unknown[] };
        return new Response(JSON.stringify({ ...body, data: [] }), { status: res.status, headers: res.headers });
      }
      return res;
    };
  }

  test('an empty first markets page is not the list\'s end: the profiles settle it, no candidate is marked unlisted, and the next session agrees', async () => {
    const { top, low, symbol } = pair();
    const kv = new MemoryKvStore();
    const empties = { left: 1 };
    const c = r.client({ storage: kv, fetch: serverWith(low, symbol, empties) });
    await c.resolveCoin(top.id); // the map
    const mark = since();
    assert.equal((await c.resolveCoin(symbol)).id, top.id, 'the top-ranked candidate, not the lowest id');
    assert.equal(empties.left, 0, 'the first page came back empty');
    assert.equal(hits(mark, PROFILES), 2, 'one profile per candidate');
    const { ranks } = await c.coinList();
    assert.deepEqual([ranks.isUnlisted(top.id), ranks.isUnlisted(low.id)], [false, false]);
    await c.flushStorage();
    const stored = JSON.parse((await kv.get(RANKS_KEY)) ?? '{}') as { unlisted?: number[] };
    assert.ok(!stored.unlisted?.includes(top.id) && !stored.unlisted?.includes(low.id), 'no unlisted mark saved');

    r.em.clock.advance(BAD_ANSWER_SHARED_MS); // the bad page's readers are past (bad-answer.ts): the quote's batch asks again
    assert.equal((await c.quote(symbol)).id, top.id);

    r.em.clock.advance(60 * 60_000); // a new session on the same storage
    const c2 = r.client({ storage: kv, fetch: serverWith(low, symbol, { left: 0 }) });
    assert.equal((await c2.resolveCoin(symbol)).id, top.id);
  });
});

describe('letter case', () => {
  // The slug "one" is one coin; the ticker ONE another's (as Harmony's).
  const SLUG_ONE: CoinRef = { id: 1, slug: 'one', symbol: 'XONE', name: 'One Coin' };
  const TICKER_ONE: CoinRef = { id: 2, slug: 'harmony', symbol: 'ONE', name: 'Harmony' };
  const onMap = (items: CoinRef[]) => {
    const map = new CoinMap(items, 0);
    return new CoinResolver({ maps: { keep: () => true, shared: () => Promise.resolve(map), current: null }, ranks: new RankBook(), requester: noRequests });
  };

  test('"ONE" written as a ticker and "one" resolve as they would alone, whichever is asked first', async () => {
    const a = onMap([SLUG_ONE, TICKER_ONE]);
    assert.equal((await a.resolve('one')).id, SLUG_ONE.id);
    assert.equal((await a.resolve('ONE')).id, TICKER_ONE.id);
    assert.equal((await a.resolve('One')).id, SLUG_ONE.id, 'mixed case is not a ticker');
    const b = onMap([SLUG_ONE, TICKER_ONE]);
    assert.equal((await b.resolve('ONE')).id, TICKER_ONE.id);
    assert.equal((await b.resolve('one')).id, SLUG_ONE.id);
    assert.equal((await b.resolve('slug:ONE')).id, SLUG_ONE.id, 'a kinded key is one whatever the case');
  });

  test('over the API: "NEO" is the ticker\'s coin and its quote after "neo" was asked, and the other way round', async () => {
    const tickerCoin = await r.client().resolveCoin('NEO');
    const slugCoin = await r.client().resolveCoin('neo');
    assert.notEqual(tickerCoin.id, slugCoin.id, 'the market has the clash');
    const c = r.client();
    assert.equal((await c.resolveCoin('neo')).id, slugCoin.id);
    assert.equal((await c.resolveCoin('NEO')).id, tickerCoin.id);
    assert.equal((await c.quote('NEO')).id, tickerCoin.id);
    const d = r.client();
    assert.equal((await d.quote('NEO')).id, tickerCoin.id);
    assert.equal((await d.resolveCoin('neo')).id, slugCoin.id);
  });
});

describe('the map load a resolution waits on', () => {
  test('a memoised resolution whose map load was given up (and replaced) is not handed to a live cell: it resolves anew', async () => {
    const mapCoins: CoinRef[] = Array.from({ length: MAP_PERSIST_FLOOR }, (_, i) => ({ id: i + 1, slug: `c${i + 1}`, symbol: `C${i + 1}`, name: `Coin ${i + 1}` }));
    // Storage that answers when told (OfficeRuntime.storage on a cold start), empty: the load waits on it, not on any signal.
    let release!: () => void;
    const storage = new Promise<void>((r) => (release = r));
    const kv: KvStore = { get: async () => (await storage, null), set: async () => undefined, remove: async () => undefined };
    let mapRequests = 0;
    const requester: Requester = {
      now: () => 0,
      request: async (_cr, f): Promise<Answer> => {
        if (f.signal?.aborted) throw abortedError('currencyMap');
        mapRequests++;
        return { entry: { data: mapCoins, fetchedAt: 0, timestamp: null }, stale: false, fromCache: false };
      },
    };
    const maps = new CoinMapStore({ requester, kv, ttlMs: () => DAY });
    const resolver = new CoinResolver({ maps, ranks: maps.ranks, requester });

    // Recalculation 1: the only cell, for "c1", runs out of time while the map waits on storage: load 1 is given up.
    const a = new AbortController();
    const first = resolver.resolve('c1', { signal: a.signal });
    a.abort();
    await assert.rejects(first, (e) => e instanceof ApiError && e.code === 'ABORTED', 'its own cancellation');

    // Recalculation 2: "c2" starts load 2, then a cell for "c1" finds the memo entry waiting on load 1.
    const b = new AbortController();
    const c2 = resolver.resolve('c2', { signal: b.signal });
    const c1 = resolver.resolve('c1', { signal: b.signal });
    release();
    assert.equal((await c2).slug, 'c2');
    assert.equal((await c1).slug, 'c1', 'a cell never cancelled gets its coin, not load 1\'s ABORTED');
    assert.equal(mapRequests, 1, 'load 1 sent nothing; load 2 served both');
  });
});

describe('a candidate whose rank a request failed to bring', () => {
  // Neither is on the first pages (ranks past 1,000): their profiles or the list of currencies settle it.
  const A: CoinRef = { id: 900, slug: 'twin-a', symbol: 'TWIN', name: 'Twin A' }; // rank 1500
  const B: CoinRef = { id: 800, slug: 'twin-b', symbol: 'TWIN', name: 'Twin B' }; // rank 3000
  const RANK: Record<number, number> = { [A.id]: 1500, [B.id]: 3000 };
  const answer = (data: unknown): Answer => ({ entry: { data, fetchedAt: 0, timestamp: null }, stale: false, fromCache: false });

  /** The service as the resolver sees it, the client's learners included; `fail(id)` is the error of that coin's profile, if any. */
  function service(ranks: RankBook, fail: (id: number) => ApiError | null, markets = true): Requester & { profiles: number[] } {
    const profiles: number[] = [];
    return {
      profiles,
      now: () => 0,
      request: async (cr) => {
        if (cr.name === 'markets') {
          if (!markets) throw new ApiError({ code: 'ENDPOINT_NOT_AVAILABLE', message: 'not on this plan' });
          const offset = Number(cr.query.offset ?? 0);
          const items = Array.from({ length: 250 }, (_, i) => ({ id: 10_000 + offset + i, rank: offset + i + 1 }));
          ranks.learnListing(offset, 250, items);
          return answer(items);
        }
        if (cr.name === 'profile' && typeof cr.id === 'number' && cr.id in RANK) {
          profiles.push(cr.id);
          const e = fail(cr.id);
          if (e) throw e;
          ranks.learnProfile({ id: cr.id, rank: RANK[cr.id], lifecycle: 'traded' });
          return answer({ id: cr.id, rank: RANK[cr.id] });
        }
        throw new Error(`unexpected ${cr.name}`);
      },
    };
  }
  const resolverWith = (ranks: RankBook, requester: Requester, list?: ResolverDeps['list']) => {
    const map = new CoinMap([A, B], 0);
    return new CoinResolver({ maps: { keep: () => true, shared: () => Promise.resolve(map), current: null }, ranks, requester, list });
  };
  const blip = () => new ApiError({ code: 'NETWORK_ERROR', message: 'blip' });

  test('the top candidate\'s profile fails once: the resolution fails and is not kept; asked again, it is the top one', async () => {
    const ranks = new RankBook();
    let down = true;
    const s = service(ranks, (id) => (down && id === A.id ? blip() : null));
    const r = resolverWith(ranks, s);
    await assert.rejects(r.resolve('TWIN'), (e) => e instanceof ApiError && e.code === 'NETWORK_ERROR');
    down = false;
    assert.equal((await r.resolve('TWIN')).slug, 'twin-a');
  });

  test('the service says one candidate has no profile (NOT_FOUND): the other is chosen', async () => {
    const ranks = new RankBook();
    const s = service(ranks, (id) => (id === A.id ? new ApiError({ code: 'NOT_FOUND', message: 'no such coin', status: 404 }) : null));
    assert.equal((await resolverWith(ranks, s).resolve('TWIN')).slug, 'twin-b');
  });

  test('without the markets list, a candidate the list of currencies could not read is settled by the profiles', async () => {
    const ranks = new RankBook();
    const s = service(ranks, () => null, false);
    const list: ResolverDeps['list'] = {
      load: async ({ id }) => {
        if (id === A.id) return { unreadable: new ApiError({ code: 'MISSING_FIELD', message: 'The API answered without price' }) };
        ranks.learnRanks([{ id, rank: RANK[id] }]); // the client's learner
        return { quote: {} as ListQuote['quote'], fetchedAt: 0, stale: false };
      },
    };
    assert.equal((await resolverWith(ranks, s, list).resolve('TWIN')).slug, 'twin-a');
    assert.ok(s.profiles.includes(A.id), 'A\'s rank from its profile');
  });
});
