/**
 * A key without the markets list gets its quotes from the list of currencies
 * (src/client/list-quotes.ts). An item of that answer that could not be read
 * (set aside as rejected: api/read-data.ts) is that coin's error, naming the
 * field (api-error.ts unreadableItemError), not "not in the list": no profile
 * is asked for it (a credit, and the item's reason lost), the other coins are
 * priced, and the bad answer, still fresh in the response cache, is asked
 * again on the next recalculation rather than served (a bad answer does not
 * outlive its recalculation: bad-answer-age.test.ts). Over real HTTP against the local API server, whose list
 * answers are rewritten in flight.
 *
 *   node --import tsx --test test/unreadable-list-quotes.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import type { CurrencyListItem, CurrencyMapItem } from '../src/api/records';
import { BAD_ANSWER_SHARED_MS } from '../src/client/bad-answer';
import { rejects, rig, serverData, type Rig } from './client-harness';

const LIST = ENDPOINTS.currencyList.path;
const PROFILES = /^\/v3\/currencies\/\d+(\?|$)/;

/**
 * A fetch whose first `times` answers of the list of currencies that hold one of coins `ids` give
 * those a price of the wrong type and leave out `dropped`.
 */
function badPriceFor(ids: readonly number[], times = Infinity, dropped: readonly number[] = []): typeof fetch {
  let left = times;
  return async (input, init) => {
    const res = await fetch(input, init);
    if (new URL(String(input)).pathname !== LIST || res.status !== 200) return res;
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    if (body.data.some((x) => ids.includes(x.id as number)) && left-- > 0) {
      body.data = body.data.filter((x) => !dropped.includes(x.id as number));
      for (const x of body.data) if (ids.includes(x.id as number)) x.price = true;
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}

describe('quotes from the list of currencies with an item that could not be read', () => {
  let r: Rig;
  let coins: CurrencyListItem[];
  before(async () => {
    r = await rig({ rpm: 10_000, withoutRoutes: ['markets'] });
    coins = await serverData<CurrencyListItem[]>(r, `${LIST}?currencyIds=1,2,3,4,5,6`);
  });
  after(async () => {
    await r?.close();
  });

  const profilesAsked = (from: number) => r.log.slice(from).filter((e) => PROFILES.test(e.url)).map((e) => e.url);
  const listsAsked = (from: number) => r.log.slice(from).filter((e) => e.url.split('?')[0] === LIST).length;

  test("the coin's quote is the item's error naming the field; no profile asked for it; the other coins priced", async () => {
    const [bad, ...good] = coins.slice(0, 4);
    const from = r.log.length;
    const c = r.client({ key: 'demo-sandbox', fetch: badPriceFor([bad.id]) });
    const quotes = [bad, ...good].map((x) => c.quote(x.slug));
    const e = await rejects(quotes[0], 'UNEXPECTED_RESPONSE');
    assert.match(e.message, /^The API answered price in an unexpected form .*\(bitcoin, \/v3\/currencies\/list\)$/);
    const priced = await Promise.all(quotes.slice(1));
    assert.deepEqual(priced.map((q) => q.price), good.map((x) => Number(x.price)));
    assert.deepEqual(profilesAsked(from), [], 'no profile in its place');
  });

  test('a recalculation asks the list again rather than serving the bad answer from the response cache', async () => {
    const bad = coins[4];
    const c = r.client({ key: 'demo-sandbox', fetch: badPriceFor([bad.id], 1) });
    // Map and route learned first: on a loaded machine the markets route's 404, arriving after the map,
    // could send this coin to the list twice in one fill (each reader then re-asked the bad answer: now they share it).
    await c.quote(coins[5].slug);
    const from = r.log.length;
    await rejects(c.quote(bad.slug), 'UNEXPECTED_RESPONSE');
    assert.equal(listsAsked(from), 1);
    // The next recalculation, once the bad answer's readers are past (bad-answer.ts); it is still fresh in the cache.
    r.em.clock.advance(BAD_ANSWER_SHARED_MS);
    const q = await c.quote(bad.slug);
    assert.equal(q.price, Number(bad.price), 'the answer as the service gives it now');
    assert.equal(listsAsked(from), 2, 'asked again, once');
    assert.deepEqual(profilesAsked(from), []);
  });

  test('in one batch: two unreadable items each name their own coin; a coin the list left out still gets its profile', async () => {
    const [a, b, out, good] = coins.slice(0, 4);
    const from = r.log.length;
    const c = r.client({ key: 'demo-sandbox', fetch: badPriceFor([a.id, b.id], Infinity, [out.id]) });
    const quotes = [a, b, out, good].map((x) => c.quote(x.slug));
    for (const [i, x] of [a, b].entries()) assert.match((await rejects(quotes[i], 'UNEXPECTED_RESPONSE')).message, new RegExp(`\\(${x.slug}, /v3/currencies/list\\)$`));
    assert.deepEqual((await Promise.all(quotes.slice(2))).map((q) => q.price), [out, good].map((x) => Number(x.price)));
    assert.deepEqual(profilesAsked(from), [`/v3/currencies/${out.id}`], 'the left-out coin only');
  });

  test("a symbol shared by coins resolves though one candidate's item could not be read", async () => {
    const map = await serverData<CurrencyMapItem[]>(r, ENDPOINTS.currencyMap.path);
    const link = map.filter((m) => m.symbol === 'LINK');
    assert.ok(link.length > 1, 'LINK names several coins');
    const chosen = await r.client({ key: 'demo-sandbox' }).resolveCoin('LINK');
    const other = link.find((m) => m.id !== chosen.id)!;
    assert.equal((await r.client({ key: 'demo-sandbox', fetch: badPriceFor([other.id]) }).resolveCoin('LINK')).id, chosen.id);
  });
});
