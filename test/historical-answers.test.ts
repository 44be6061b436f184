/**
 * HISTORICAL's batch when the answer carries an item that cannot be read
 * (src/client/historical-batcher.ts): the coin of that item fails with the
 * item's own reason, in the words every list consumer uses (api-error.ts
 * unreadableItemError), not as "no data"; its neighbours in the batch answer
 * as usual; and the bad answer is not served again from the response cache
 * after its recalculation (a bad answer does not outlive it: bad-answer-age.test.ts).
 * Client over real HTTP against the local API server; a fetch wrapper rewrites
 * the answer's items.
 *
 *   node --import tsx --test test/historical-answers.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import type { HistoricalItem, MarketItem } from '../src/api/records';
import { BAD_ANSWER_SHARED_MS } from '../src/client/bad-answer';
import type { HistoricalKey } from '../src/client/historical-batcher';
import { NOW, rejects, rig, serverData, type Rig } from './client-harness';

const HISTORICAL = ENDPOINTS.historicalItem.path;
const DAY = 86_400_000;
/** A past UTC day every top coin has data for. */
const DATE = Math.floor(NOW / DAY) * DAY - 30 * DAY;
const DAY_TEXT = new Date(DATE).toISOString().slice(0, 10);

let r: Rig;
let coins: MarketItem[];

before(async () => {
  r = await rig({ rpm: 10_000 });
  coins = (await serverData<MarketItem[]>(r, `${ENDPOINTS.markets.path}?limit=5`)).slice(0, 3);
});
after(async () => {
  await r.close();
});

type Edit = (item: Record<string, unknown>) => Record<string, unknown>;

/** A fetch that answers as the server does, the historical items whose coin `edits` names rewritten by its edit, while `on()` says so. */
function rewriting(edits: ReadonlyMap<number, Edit>, on: () => boolean = () => true): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (new URL(String(input)).pathname !== HISTORICAL || res.status !== 200 || !on()) return res;
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    const data = body.data.map((x) => edits.get(x.id as number)?.(x) ?? x);
    return new Response(JSON.stringify({ ...body, data }), { status: res.status, headers: res.headers });
  };
}

const keyOf = (m: MarketItem): HistoricalKey => ({ date: DATE, currency: 'USD', id: m.id, name: m.name });
const hits = () => r.hits(HISTORICAL).length;
const priceAsNumber: Edit = (x) => ({ ...x, price: 1234.5 });
/** Without its name: an item cannot be read without what it is filed under, missing field or not. */
const withoutName: Edit = ({ name: _name, ...x }) => x;

describe('an unreadable item in the historical answer', () => {
  test("costs its coin only, with the item's reason (a wrong type): not 'no data'", async () => {
    const [a, b, c] = coins;
    const client = r.client({ fetch: rewriting(new Map([[b.id, priceAsNumber]])) });
    const [ra, rb, rc] = await Promise.allSettled([a, b, c].map((m) => client.historical(keyOf(m))));
    assert.equal(ra.status, 'fulfilled');
    assert.equal(rc.status, 'fulfilled');
    assert.equal((ra as PromiseFulfilledResult<HistoricalItem>).value.id, a.id);
    assert.equal((rc as PromiseFulfilledResult<HistoricalItem>).value.id, c.id);
    const e = await rejects(Promise.reject((rb as PromiseRejectedResult).reason), 'UNEXPECTED_RESPONSE');
    assert.match(e.message, /price in an unexpected form/);
    assert.ok(e.message.includes(b.slug) && e.message.includes(HISTORICAL), e.message);
    assert.equal(e.endpoint, 'historicalItem');
  });

  test("a missing field is MISSING_FIELD naming it and the coin", async () => {
    const [a, b] = coins;
    const client = r.client({ fetch: rewriting(new Map([[a.id, withoutName]])) });
    const [ra, rb] = await Promise.allSettled([a, b].map((m) => client.historical(keyOf(m))));
    const e = await rejects(Promise.reject((ra as PromiseRejectedResult).reason), 'MISSING_FIELD');
    assert.equal(e.message, `The API answered without name (${a.slug}, ${HISTORICAL})`);
    assert.equal(rb.status, 'fulfilled');
  });

  test('is not served again from the response cache: the next recalculation asks again and gets the value', async () => {
    const [a, b, c] = coins;
    let bad = true;
    const client = r.client({ fetch: rewriting(new Map([[b.id, priceAsNumber]]), () => bad) });
    const first = await Promise.allSettled([a, b, c].map((m) => client.historical(keyOf(m))));
    assert.deepEqual(first.map((x) => x.status), ['fulfilled', 'rejected', 'fulfilled']);
    // The same cells in the next recalculation (once the bad answer's readers are past: bad-answer.ts): the answer
    // would still be fresh in the cache for a day.
    bad = false;
    r.em.clock.advance(BAD_ANSWER_SHARED_MS);
    const before = hits();
    const again = await Promise.all([a, b, c].map((m) => client.historical(keyOf(m))));
    assert.deepEqual(again.map((x) => x.id), [a.id, b.id, c.id]);
    assert.equal(typeof again[1].price, 'string');
    assert.equal(hits() - before, 1, 'asked once more, for the whole batch');
    // And the good answer is kept as usual: b alone is served from it too, not asked as a list of its own
    // (review 2026-11-27: history #2).
    await client.historical(keyOf(b));
    await Promise.all([a, b, c].map((m) => client.historical(keyOf(m))));
    assert.equal(hits(), before + 1, 'the good answer of the three is served from the cache, to b alone too');
  });

  test("an item without a readable id cannot be matched: the coins the answer left unmatched fail as an unreadable answer, not 'no data'", async () => {
    const [a, b, c] = coins;
    const client = r.client({ fetch: rewriting(new Map([[b.id, (x) => ({ ...x, id: String(x.id), price: 7 })]])) });
    const [ra, rb, rc] = await Promise.allSettled([a, b, c].map((m) => client.historical(keyOf(m))));
    assert.equal(ra.status, 'fulfilled');
    assert.equal(rc.status, 'fulfilled');
    const e = await rejects(Promise.reject((rb as PromiseRejectedResult).reason), 'UNEXPECTED_RESPONSE');
    assert.ok(e.message.includes(`no readable historical item for ${b.name} on ${DAY_TEXT}`), e.message);
    assert.match(e.message, /id in an unexpected form/);
  });

  test("a coin the answer leaves out, with every item read, is still 'no data'", async () => {
    const [a, b] = coins;
    const dropping: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (new URL(String(input)).pathname !== HISTORICAL || res.status !== 200) return res;
      const body = (await res.json()) as { data: { id: number }[] };
      return new Response(JSON.stringify({ ...body, data: body.data.filter((x) => x.id !== b.id) }), { status: res.status, headers: res.headers });
    };
    const client = r.client({ fetch: dropping });
    const [ra, rb] = await Promise.allSettled([a, b].map((m) => client.historical(keyOf(m))));
    assert.equal(ra.status, 'fulfilled');
    const e = await rejects(Promise.reject((rb as PromiseRejectedResult).reason), 'NOT_FOUND');
    assert.equal(e.message, `no historical data for ${b.name} on ${DAY_TEXT}`);
  });
});
