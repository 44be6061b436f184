import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ColdStart, type ColdStartDeps } from '../src/client/cold-start';
import { CoinMap } from '../src/client/coin-map';
import type { CoinRef } from '../src/client/coin-ref';

const BTC: CoinRef = { id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin' };
const ETH: CoinRef = { id: 2, slug: 'ethereum', symbol: 'ETH', name: 'Ethereum' };
const MAP = new CoinMap([BTC, ETH], 0);

function cold(placeKnown = false) {
  const calls: {
    probe: string[];
    prime: { ids: number[]; currency: string; caller?: string }[];
    /** The waiters each prime was given. */
    waiting: (AbortSignal | undefined)[][];
    peeked: (string | number)[];
  } = { probe: [], prime: [], waiting: [], peeked: [] };
  const deps: ColdStartDeps = {
    noPlaceKnown: () => !placeKnown,
    // A stand-in for CoinResolver.peek: slugs and ids only.
    peek: (input, map) => (calls.peeked.push(input), typeof input === 'number' ? map.byId(input) : map.bySlug(input)),
    probe: (currency) => void calls.probe.push(currency),
    prime: (ids, currency, caller, waiting) => {
      calls.prime.push({ ids: [...ids], currency, caller });
      calls.waiting.push([...waiting]);
    },
  };
  return { c: new ColdStart(deps), calls };
}

test("the map's load: the first page goes beside it, and the waiting coins' batch as it arrives, each coin once", () => {
  const { c, calls } = cold();
  for (const input of ['bitcoin', 1, 'ethereum', 'bitcoin', 'nosuchcoin']) c.quoteWaits(7, input, 'USD', 'PRICE');
  c.mapAsked(7, new AbortController().signal);
  assert.deepEqual(calls.probe, ['USD']);
  assert.equal(c.mapArrived(7, MAP), true);
  assert.deepEqual(calls.prime, [{ ids: [1, 2], currency: 'USD', caller: 'PRICE' }], 'an input peek() cannot tell takes the ordinary path');
  assert.equal(c.mapArrived(7, MAP), false, 'once per load');
});

test("nothing is sent for a load no quote waited on, or when no input names a coin; quotes in another currency than the first's take the ordinary path", () => {
  const { c, calls } = cold();
  c.quoteWaits(null, 'bitcoin', 'USD', 'PRICE'); // no load under way: the map is in memory
  c.mapAsked(1, new AbortController().signal);
  assert.equal(c.mapArrived(1, MAP), false);
  c.quoteWaits(2, 'bitcoin', 'EUR', 'PRICE');
  c.quoteWaits(2, 'ethereum', 'USD', 'PRICE'); // the load's batch is in the first quote's currency
  assert.equal(c.mapArrived(3, MAP), false, 'another load');
  assert.equal(c.mapArrived(2, MAP), true);
  assert.deepEqual(calls.prime, [{ ids: [1], currency: 'EUR', caller: 'PRICE' }]);
  c.quoteWaits(4, 'nosuchcoin', 'USD', 'PRICE');
  assert.equal(c.mapArrived(4, MAP), false);
  // A load that ended without the network (the map from storage): a quote asked with no load under way lets its inputs go.
  c.quoteWaits(5, 'bitcoin', 'USD', 'PRICE');
  c.quoteWaits(null, 'ethereum', 'USD', 'PRICE');
  assert.equal(c.mapArrived(5, MAP), false, 'nothing held for a load that is over');
  assert.deepEqual(calls.probe, [], 'the first page goes only beside a load quotes waited on');
});

test('a place in the markets list already known: no first page beside the map (the batch goes where the coins are)', () => {
  const { c, calls } = cold(true);
  c.quoteWaits(1, 'bitcoin', 'USD', 'PRICE');
  c.mapAsked(1, new AbortController().signal);
  assert.deepEqual(calls.probe, []);
  assert.equal(c.mapArrived(1, MAP), true, 'the batch still goes as the map arrives');
});

test("the cells waiting on the map are the batch's waiters from the start: each signal once, a caller without one kept", () => {
  const { c, calls } = cold();
  const a = new AbortController().signal;
  const b = new AbortController().signal;
  c.quoteWaits(1, 'bitcoin', 'USD', 'PRICE', a);
  c.quoteWaits(1, 'bitcoin', 'USD', 'PRICE', b); // the same input from another cell: its signal counts too
  c.quoteWaits(1, 'ethereum', 'USD', 'PRICE', a);
  c.quoteWaits(1, 1, 'USD', 'PRICE');
  c.quoteWaits(1, 'ethereum', 'EUR', 'PRICE', new AbortController().signal); // another currency's cell waits elsewhere
  c.mapAsked(1, new AbortController().signal);
  assert.equal(c.mapArrived(1, MAP), true);
  assert.deepEqual(calls.waiting, [[a, b, undefined]]);
});

test('quotes that still see the arrived load under way (the tasks right after it lands) are not held for it', () => {
  const { c, calls } = cold();
  c.quoteWaits(1, 'bitcoin', 'USD', 'PRICE');
  c.mapAsked(1, new AbortController().signal);
  assert.equal(c.mapArrived(1, MAP), true);
  c.quoteWaits(1, 'ethereum', 'USD', 'PRICE');
  assert.equal(c.mapArrived(1, MAP), false, 'nothing was held for the load that is over');
  assert.deepEqual(calls.prime.map((p) => p.ids), [[1]]);
});
