/**
 * CoinResolver's memo, with a scripted map (no HTTP): a resolution is shared
 * while it lasts, and a failed one is not remembered, so the next recalculation
 * tries again. (Resolution rules over the real API: client-quotes.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CoinMap, RankBook } from '../src/client/coin-map';
import { CoinResolver, type ResolverDeps } from '../src/client/coin-resolver';
import { ApiError } from '../src/client/api-error';
import type { CoinRef } from '../src/client/coin-ref';
import type { Answer, Requester } from '../src/client/types';

const BTC: CoinRef = { id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin' };
const NEW: CoinRef = { id: 9, slug: 'newcoin', symbol: 'NEW', name: 'New Coin' };
const TWIN_A: CoinRef = { id: 20, slug: 'twin-a', symbol: 'TWIN', name: 'Twin A' };
const TWIN_B: CoinRef = { id: 21, slug: 'twin-b', symbol: 'TWIN', name: 'Twin B' };

/** A service that is down: every page and profile fails. */
const down: Requester = { request: () => Promise.reject(new ApiError({ code: 'NETWORK_ERROR', message: 'down' })), now: () => 0 };
/** An answer of the lifecycle carrying `data`. */
const answer = (data: unknown): Answer => ({ entry: { data, fetchedAt: 0, timestamp: null }, stale: false, fromCache: false });

/** A resolver whose map answers come from `answers`, one per load (an Error fails that load); the store keeps no map in memory. */
function scripted(answers: (readonly CoinRef[] | Error)[], deps: Partial<ResolverDeps> = {}) {
  let loads = 0;
  const resolver = new CoinResolver({
    maps: {
      keep: () => true,
      shared: () => {
        const a = answers[Math.min(loads++, answers.length - 1)];
        return a instanceof Error ? Promise.reject(a) : Promise.resolve(new CoinMap(a, 0));
      },
      current: null,
    },
    ranks: new RankBook(),
    requester: down,
    ...deps,
  });
  return { resolver, loads: () => loads };
}

test('one resolution per input while it lasts: the map is read once', async () => {
  const { resolver, loads } = scripted([[BTC]]);
  const [a, b] = await Promise.all([resolver.resolve('bitcoin'), resolver.resolve(' Bitcoin ')]);
  assert.deepEqual(a, BTC);
  assert.deepEqual(b, BTC);
  assert.deepEqual(await resolver.resolve('bitcoin'), BTC);
  assert.equal(loads(), 1);
});

test('a failed map load is not remembered: the next call loads again', async () => {
  const down = new ApiError({ code: 'NETWORK_ERROR', message: 'down' });
  const { resolver, loads } = scripted([down, [BTC]]);
  await assert.rejects(resolver.resolve('bitcoin'), (e) => e === down);
  assert.deepEqual(await resolver.resolve('bitcoin'), BTC);
  assert.equal(loads(), 2);
});

test('an unknown coin is not remembered: once the map lists it, it resolves', async () => {
  const { resolver } = scripted([[BTC], [BTC, NEW]]);
  await assert.rejects(resolver.resolve('newcoin'), (e) => e instanceof ApiError && e.code === 'UNKNOWN_COIN' && /newcoin/.test(e.message));
  assert.deepEqual(await resolver.resolve('newcoin'), NEW);
});

test('a shared symbol whose ranks cannot be read is not remembered either', async () => {
  let fail = true;
  const ranks = new RankBook();
  const { resolver } = scripted([[TWIN_A, TWIN_B]], {
    ranks,
    requester: {
      now: () => 0,
      request: () => {
        if (fail) return Promise.reject(new ApiError({ code: 'NETWORK_ERROR', message: 'down' }));
        const items = [{ id: TWIN_B.id, rank: 1 }, { id: TWIN_A.id, rank: 2 }];
        ranks.learnListing(0, 250, items); // as the client's markets learner does
        return Promise.resolve(answer(items));
      },
    },
  });
  await assert.rejects(resolver.resolve('TWIN'), (e) => e instanceof ApiError && e.code === 'NETWORK_ERROR');
  fail = false;
  assert.deepEqual(await resolver.resolve('TWIN'), TWIN_B);
});

test('a caller that leaves (cancelled, or out of time) does not fail the others sharing its resolution', async () => {
  let release!: (m: CoinMap) => void;
  const seen: (AbortSignal | undefined)[] = [];
  const kept: (AbortSignal | undefined)[] = [];
  const resolver = new CoinResolver({
    maps: {
      shared: (o) => {
        seen.push(o.signal);
        return new Promise((r) => (release = r));
      },
      keep: (signal) => (kept.push(signal), true),
      current: null,
    },
    ranks: new RankBook(),
    requester: { request: () => Promise.reject(new Error('not used')), now: () => 0 },
  });
  const first = new AbortController();
  const second = new AbortController();
  const a = resolver.resolve('bitcoin', { signal: first.signal });
  const b = resolver.resolve('bitcoin', { signal: second.signal });
  first.abort();
  await assert.rejects(a, (e) => e instanceof ApiError && e.code === 'ABORTED', 'the one that left: at once');
  release(new CoinMap([BTC], 0));
  assert.deepEqual(await b, BTC, 'the other still gets its coin');
  assert.equal(seen.length, 1, 'one map load for both');
  assert.equal(seen[0], first.signal, 'the first caller is counted among the load\'s waiters');
  assert.deepEqual(kept, [second.signal], 'and so is the second, who shares the resolution');
});

test('known(): a resolved input answers at once while its map is current; a replacing map (a refresh) starts the memo again', async () => {
  const BTC2: CoinRef = { ...BTC, id: 101 };
  const store = { map: new CoinMap([BTC], 0), loads: 0 };
  const resolver = new CoinResolver({
    maps: {
      keep: () => true,
      shared: () => (store.loads++, Promise.resolve(store.map)),
      get current() {
        return store.loads > 0 ? store.map : null;
      },
    },
    ranks: new RankBook(),
    requester: down,
  });
  assert.equal(resolver.known('bitcoin'), undefined, 'nothing resolved yet');
  assert.deepEqual(await resolver.resolve('bitcoin'), BTC);
  assert.deepEqual(resolver.known('bitcoin'), BTC, 'resolved on the current map: at once');
  assert.equal(resolver.known('BTC'), undefined, 'another input is its own resolution');
  store.map = new CoinMap([BTC2], 1); // the map was refreshed
  assert.equal(resolver.known('bitcoin'), undefined, 'not from the old map');
  assert.deepEqual(await resolver.resolve('bitcoin'), BTC2, 'resolved again on the new map');
  assert.deepEqual(resolver.known('bitcoin'), BTC2);
});

test('peek(): the coin an input names when that needs nothing more; a shared symbol or an unknown input is left to resolve()', () => {
  const map = new CoinMap([BTC, NEW, TWIN_A, TWIN_B], 0);
  const { resolver } = scripted([[BTC]]);
  for (const input of [1, '1', 'bitcoin', ' BTC ', 'Bitcoin', 'id:1', 'slug:bitcoin', 'symbol:btc', 'name:bitcoin']) {
    assert.equal(resolver.peek(input, map)?.id, 1, `input ${JSON.stringify(input)}`);
  }
  assert.equal(resolver.peek('newcoin', map)?.id, 9);
  assert.equal(resolver.peek('twin-b', map)?.id, 21, 'a slug is one coin');
  assert.equal(resolver.peek('TWIN', map), undefined, 'two coins share the symbol: ranks decide, in resolve()');
  assert.equal(resolver.peek('nosuchcoin', map), undefined);
  assert.equal(resolver.peek('', map), undefined);
  assert.equal(resolver.peek(0, map), undefined);
});

test('a typo asked again on the same map is not searched again: its suggestions are kept with that map', async () => {
  const map = new CoinMap([BTC, NEW], 0);
  let scans = 0;
  const all = map.all.bind(map);
  map.all = () => (scans++, all());
  const resolver = new CoinResolver({ maps: { keep: () => true, shared: () => Promise.resolve(map), current: null }, ranks: new RankBook(), requester: down });
  const unknown = async (text: string) => {
    const e = await resolver.resolve(text).then(() => assert.fail('resolved'), (x: unknown) => x as ApiError);
    assert.equal(e.code, 'UNKNOWN_COIN');
    return e.message;
  };
  const first = await unknown('bitcon');
  assert.match(first, /^Unknown coin "bitcon"\. Did you mean bitcoin \(BTC\)\?$/);
  assert.equal(await unknown('Bitcon'), 'Unknown coin "Bitcon". Did you mean bitcoin (BTC)?', 'the same suggestions, any case; the input as typed');
  assert.equal(scans, 1, 'one pass over the names'); // was: one per recalculation
  await unknown('newcoyn');
  assert.equal(scans, 2, 'another typo is its own search');
});
