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
    /** The pages each probe asked for (the first N). */
    pages: number[];
    prime: { ids: number[]; currency: string; caller?: string }[];
    /** The waiters each prime was given. */
    waiting: (AbortSignal | undefined)[][];
    peeked: (string | number)[];
  } = { probe: [], pages: [], prime: [], waiting: [], peeked: [] };
  const deps: ColdStartDeps = {
    noPlaceKnown: () => !placeKnown,
    // A stand-in for CoinResolver.peek: slugs and ids only.
    peek: (input, map) => (calls.peeked.push(input), typeof input === 'number' ? map.byId(input) : map.bySlug(input)),
    probe: (currency, _caller, _signal, pages) => {
      calls.probe.push(currency);
      calls.pages.push(pages);
    },
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

test('coins given by id: a page more goes beside the map each time they fill one more (N distinct coins take the first ceil(N / 250) pages of the walk)', () => {
  const { c, calls } = cold();
  for (let id = 1; id <= 300; id++) c.quoteWaits(1, id, 'USD', 'PRICE');
  c.quoteWaits(1, 'bitcoin', 'USD', 'PRICE'); // text may be any coin's: it counts for nothing here
  c.mapAsked(1, new AbortController().signal);
  assert.deepEqual(calls.pages, [2], '300 ids: the first two pages at once');
  for (let id = 1; id <= 500; id++) c.quoteWaits(1, id, 'USD', 'PRICE'); // the same ids again: counted once
  c.quoteWaits(1, 'id:7', 'USD', 'PRICE'); // an id written as text: the same coin as 7
  c.quoteWaits(1, 0, 'USD', 'PRICE'); // not an id
  c.quoteWaits(1, 2.5, 'USD', 'PRICE');
  assert.deepEqual(calls.pages, [2], '500 distinct ids still fill two pages');
  c.quoteWaits(1, 501, 'USD', 'PRICE');
  assert.deepEqual(calls.pages, [2, 3], 'the 501st id: a third page');
  for (let id = 1000; id < 1100; id++) c.quoteWaits(1, id, 'EUR', 'PRICE'); // another currency: the ordinary path
  assert.deepEqual(calls.pages, [2, 3]);
  assert.equal(c.mapArrived(1, MAP), true);
  for (let id = 2000; id < 2300; id++) c.quoteWaits(1, id, 'USD', 'PRICE');
  assert.deepEqual(calls.pages, [2, 3], 'nothing more once the map is in');
});

test('ids with a place already known, or before the map is asked: no page goes early', () => {
  const known = cold(true);
  for (let id = 1; id <= 600; id++) known.c.quoteWaits(1, id, 'USD', 'PRICE');
  known.c.mapAsked(1, new AbortController().signal);
  assert.deepEqual(known.calls.pages, []);
  const { c, calls } = cold();
  for (let id = 1; id <= 600; id++) c.quoteWaits(1, id, 'USD', 'PRICE');
  assert.deepEqual(calls.pages, [], 'the pages go with the map, not before it is asked');
  c.mapAsked(1, new AbortController().signal);
  assert.deepEqual(calls.pages, [3]);
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

test("the pages beside the map stop if everyone leaves before it arrives, and not once it has (the batch reads them)", () => {
  const seen: AbortSignal[] = [];
  const deps: ColdStartDeps = {
    noPlaceKnown: () => true,
    peek: (input, map) => (typeof input === 'number' ? map.byId(input) : map.bySlug(input)),
    probe: (_currency, _caller, signal) => void seen.push(signal),
    prime: () => undefined,
  };
  const gone = new ColdStart(deps);
  const load = new AbortController();
  gone.quoteWaits(1, 1, 'USD', 'PRICE');
  gone.mapAsked(1, load.signal);
  load.abort();
  assert.equal(seen[0].aborted, true, "the map's load given up: its pages too");
  const kept = new ColdStart(deps);
  const load2 = new AbortController();
  kept.quoteWaits(2, 1, 'USD', 'PRICE');
  kept.mapAsked(2, load2.signal);
  assert.equal(kept.mapArrived(2, MAP), true);
  load2.abort(); // the map's waiters have all settled
  assert.equal(seen[1].aborted, false, 'a page still on its way after the map arrived is not cancelled');
});

test('the rate limit learned (/v3/status): the pages the waiting ids fill are offered again while the map is on its way', () => {
  const { c, calls } = cold();
  for (let id = 1; id <= 600; id++) c.quoteWaits(1, id, 'USD', 'PRICE');
  c.mapAsked(1, new AbortController().signal);
  c.rateKnown();
  assert.deepEqual(calls.pages, [3, 3], 'offered at the map, and again once the rate is known (the client decides how many go)');
  assert.equal(c.mapArrived(1, MAP), true);
  c.rateKnown();
  assert.deepEqual(calls.pages, [3, 3], 'not after the map is in');
});

test('a load every waiter left before it was asked (during the storage read): no page goes for it', () => {
  const { c, calls } = cold();
  for (let id = 1; id <= 600; id++) c.quoteWaits(1, id, 'USD', 'PRICE');
  const gone = new AbortController();
  gone.abort();
  c.mapAsked(1, gone.signal);
  c.rateKnown();
  assert.deepEqual(calls.pages, []);
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
