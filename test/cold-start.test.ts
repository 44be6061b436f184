import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ColdStart, type ColdStartDeps } from '../src/client/cold-start';
import { canonicalRequest } from '../src/client/canonical-request';
import { CoinMap } from '../src/client/coin-map';
import type { CoinRef } from '../src/client/coin-ref';
import { attempt } from '../src/client/transport';
import { startEmulator } from '../src/emulator/server';

const BTC: CoinRef = { id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin' };
const ETH: CoinRef = { id: 2, slug: 'ethereum', symbol: 'ETH', name: 'Ethereum' };
const MAP = new CoinMap([BTC, ETH], 0);

function cold(placeKnown = false, plan: { allows: boolean } = { allows: true }) {
  const calls: {
    probe: string[];
    /** Each ahead(): how many pages past the first, in which currency, under which signal. */
    ahead: { pages: number; currency: string; signal: AbortSignal }[];
    prime: { ids: number[]; currency: string; caller?: string }[];
    /** The waiters each prime was given. */
    waiting: (AbortSignal | undefined)[][];
    peeked: (string | number)[];
  } = { probe: [], ahead: [], prime: [], waiting: [], peeked: [] };
  const deps: ColdStartDeps = {
    noPlaceKnown: () => !placeKnown,
    // A stand-in for CoinResolver.peek: slugs and ids only.
    peek: (input, map) => (calls.peeked.push(input), typeof input === 'number' ? map.byId(input) : map.bySlug(input)),
    probe: (currency) => void calls.probe.push(currency),
    pagesAllowed: () => plan.allows,
    ahead: (pages, currency, _caller, signal) => void calls.ahead.push({ pages, currency, signal }),
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

test('the plan known, the pages the waiting ids fill go beside the map: N distinct ids take the first ceil(N / 250) pages', async () => {
  const plan = { allows: false };
  const { c, calls } = cold(false, plan);
  for (let id = 1; id <= 600; id++) c.quoteWaits(1, id, 'USD', 'PRICE');
  for (let id = 1; id <= 600; id++) c.quoteWaits(1, id, 'USD', 'PRICE'); // the same ids from other cells: counted once
  c.quoteWaits(1, 'id:7', 'USD', 'PRICE'); // an id written as text: the same coin as 7
  c.quoteWaits(1, 'id:601', 'USD', 'PRICE'); // and one more coin
  for (const x of ['bitcoin', 'BTC', 'name:Bitcoin', 0, 2.5, -3, 'id:abc', 'id:0']) c.quoteWaits(1, x, 'USD', 'PRICE'); // text, or no id: nothing
  const load = new AbortController().signal;
  c.mapAsked(1, load);
  assert.deepEqual(calls.probe, ['USD']);
  assert.deepEqual(calls.ahead, [], 'not before the plan is known');
  assert.equal(c.wiring(), undefined, 'nothing sent ahead: answers are read at once');
  plan.allows = true;
  c.planKnown();
  assert.deepEqual(calls.ahead, [{ pages: 2, currency: 'USD', signal: load }], '601 ids: pages 2 and 3 beside the first, under the map\'s signal');
  const wiring = c.wiring();
  assert.ok(wiring instanceof Promise, 'answers are read once these are on the wire');
  await wiring;
  assert.equal(c.wiring(), undefined, 'on the wire: nothing more to wait for');
  c.planKnown(); // /v3/status again (CRYPTO.CREDITS forces one): once per load
  assert.equal(calls.ahead.length, 1);
  assert.equal(c.wiring(), undefined, 'nothing sent again');
  assert.equal(c.mapArrived(1, MAP), true);
  for (let id = 1; id <= 600; id++) c.quoteWaits(2, id, 'USD', 'PRICE');
  c.planKnown();
  assert.equal(calls.ahead.length, 1, 'not before the map is asked: the first page goes first');
});

test('no page past the first before the map: a place known, too few ids, another load, a load given up', () => {
  const known = cold(true);
  for (let id = 1; id <= 600; id++) known.c.quoteWaits(1, id, 'USD', 'PRICE');
  known.c.mapAsked(1, new AbortController().signal);
  known.c.planKnown();
  assert.deepEqual(known.calls.ahead, [], 'a place in the list known: the batch goes where the coins are');
  const few = cold();
  for (let id = 1; id <= 250; id++) few.c.quoteWaits(1, id, 'USD', 'PRICE');
  for (let id = 251; id <= 400; id++) few.c.quoteWaits(1, id, 'EUR', 'PRICE'); // another currency's: the ordinary path
  few.c.mapAsked(1, new AbortController().signal);
  assert.deepEqual(few.calls.probe, ['USD']);
  assert.deepEqual(few.calls.ahead, [], '250 ids: the first page holds as many');
  const gone = cold();
  for (let id = 1; id <= 600; id++) gone.c.quoteWaits(1, id, 'USD', 'PRICE');
  const load = new AbortController();
  load.abort(); // every waiter left while storage was read
  gone.c.mapAsked(1, load.signal);
  assert.deepEqual(gone.calls.ahead, []);
});

test('the plan known before the map is asked: the pages go with it at once', () => {
  const { c, calls } = cold();
  c.planKnown(); // nothing waits yet
  for (let id = 1; id <= 251; id++) c.quoteWaits(3, id, 'USD', 'PRICE');
  c.mapAsked(3, new AbortController().signal);
  assert.deepEqual(calls.ahead.map((a) => a.pages), [1]);
});

test("an answer's body is read only once what the request was told to let go first has settled (transport readAfter)", async () => {
  // The pages a cold start sends ahead of the map need turns of the event loop to reach the wire; reading the
  // first page and the map (about 5 ms of a 10,000-cell fill) would hold those turns (cold-start.ts).
  const em = await startEmulator({ latency: 0 });
  try {
    let reads = 0;
    // The server's body, read by the transport one chunk at a time through a counter.
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const source = res.body!.getReader();
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(ctl) {
            reads++;
            const { done, value } = await source.read();
            if (done) ctl.close();
            else ctl.enqueue(value);
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { status: res.status, headers: res.headers });
    };
    let release!: () => void;
    const first = new Promise<void>((r) => (release = r));
    let answered = false;
    const read = attempt({
      baseUrl: em.url, request: canonicalRequest('globalMarket', undefined, {}), apiKey: 'demo-pro', fetch: counting,
      timeoutMs: 5_000, now: () => Date.now(), readAfter: () => (answered = true, first),
    });
    for (let waited = 0; !answered && waited < 5_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    assert.ok(answered, 'the answer is in');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(reads, 0, 'its body waits');
    release();
    const r = await read;
    assert.ok(reads > 0);
    assert.ok(r.data !== null && typeof r.data === 'object');
  } finally {
    await em.close();
  }
});
