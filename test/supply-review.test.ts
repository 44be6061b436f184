/**
 * Review 2026-11-27, supply area: HOLDERS' concentration and tiers tables when
 * one item comes without its label (over HTTP, the local API server's answer
 * with one field taken out), and the builder's coin check (findCoin) following
 * the resolver's rules.
 *
 *   node --import tsx --test test/supply-review.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Session } from '../src/cli/session';
import { CoinMap } from '../src/client/coin-map';
import { CoinResolver, type ResolverDeps } from '../src/client/coin-resolver';
import { findCoin } from '../src/formulas/coin-search';
import { testSession } from './support/frozen-session';
import { formulaChecks } from './support/formula-checks';

describe('HOLDERS: an item without its label costs only its own cell (review supply #2)', () => {
  let s: Session;
  before(async () => {
    s = await testSession({
      emulator: { rpm: 2000 },
      client: {
        // The answer as served, with concentration[3].bucket and tierDistribution[1].tier left out.
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          if (!new URL(String(input)).pathname.endsWith('/holders/summary') || !res.ok) return res;
          const body = (await res.json()) as { data: { concentration: Record<string, unknown>[]; tierDistribution: Record<string, unknown>[] } };
          delete body.data.concentration[3].bucket;
          delete body.data.tierDistribution[1].tier;
          return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
        },
      },
    });
  });
  after(async () => {
    await s?.close();
  });
  const { grid } = formulaChecks(() => s);

  test('concentration: the five labelled buckets in order, the unlabelled one last with #N/A in its Bucket cell', async () => {
    const g = await grid('=CRYPTO.HOLDERS("chainlink","concentration")');
    assert.deepEqual(g[0], ['Bucket', 'Amount', '% of supply', 'Value USD']);
    assert.equal(g.length, 7);
    assert.deepEqual(g.slice(1, 6).map((r) => r[0]), ['top1_5', 'top6_10', 'top11_25', 'top51_100', 'outside100']);
    assert.deepEqual(g[6][0], { error: '#N/A', message: 'The API answered without concentration.3.bucket (/v3/currencies/{id}/holders/summary)' });
    assert.equal(typeof g[6][2], 'number');
  });

  test('tiers: the unlabelled tier last with #N/A in its Tier cell, the others as served', async () => {
    const g = await grid('=CRYPTO.HOLDERS("uniswap","tiers")');
    assert.deepEqual(g[0], ['Tier', 'Holders', '% of holders']);
    const last = g[g.length - 1];
    assert.deepEqual(last[0], { error: '#N/A', message: 'The API answered without tierDistribution.1.tier (/v3/currencies/{id}/holders/summary)' });
    assert.equal(typeof last[1], 'number');
    for (const r of g.slice(1, -1)) assert.equal(typeof r[0], 'string');
  });
});

describe('findCoin: the builder resolves a coin as the cell does (review supply #3)', () => {
  const coins = [
    { id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin' },
    { id: 2, slug: 'eth', symbol: 'ETHX', name: 'Eth Token' },
    { id: 3, slug: 'ethereum', symbol: 'ETH', name: 'Ethereum' },
    { id: 4, slug: 'apecoin', symbol: 'APE', name: 'ApeCoin' },
    { id: 5, slug: 'ape-dao', symbol: 'APED', name: 'Ape' },
  ];
  const ranks: Record<number, number> = { 1: 1, 2: 900, 3: 2, 4: 80, 5: 10 };
  const rank = (id: number) => ranks[id];

  test('the id:, slug:, symbol:, name: prefixes, any case and spacing', () => {
    assert.equal(findCoin(coins, rank, 'symbol:btc')?.slug, 'bitcoin');
    assert.equal(findCoin(coins, rank, 'ID: 3')?.slug, 'ethereum');
    assert.equal(findCoin(coins, rank, 'slug:ETH')?.id, 2);
    assert.equal(findCoin(coins, rank, 'name:ape')?.id, 5);
    assert.equal(findCoin(coins, rank, 'symbol:bitcoin'), null, 'a kinded input looks only at its kind');
    assert.equal(findCoin(coins, rank, 'id:'), null);
  });

  test('ticker-style input tries the symbol before the slug; other input the slug first', () => {
    assert.equal(findCoin(coins, rank, 'ETH')?.slug, 'ethereum');
    assert.equal(findCoin(coins, rank, 'eth')?.slug, 'eth');
  });

  test('a symbol before a name, even a better-ranked name', () => {
    assert.equal(findCoin(coins, rank, 'ape')?.slug, 'apecoin');
  });

  test('the same coin as the resolver names on the same map, wherever one coin answers', () => {
    const map = new CoinMap(coins, 0);
    const resolver = new CoinResolver({} as ResolverDeps); // peek() reads only the map given
    const inputs = ['symbol:btc', 'ID: 3', 'slug:ETH', 'name:ape', 'ETH', 'eth', 'ape', 'Ape', 'APE', 'BTC', 'bitcoin', '1', 4, 'nope', 'symbol:bitcoin'];
    for (const input of inputs) assert.equal(findCoin(coins, rank, input)?.id, resolver.peek(input, map)?.id, String(input));
  });
});
