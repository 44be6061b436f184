/**
 * A bad answer the response cache holds as fresh (an item that could not be
 * read) is shared by the readers of its recalculation and asked again, once,
 * after it (src/client/bad-answer.ts, BAD_ANSWER_SHARED_MS): Excel evaluates
 * a fill's cells at once, and a batch that re-asked it cost a request (and a
 * credit) per reader; a markets page holding such an item no longer gives its
 * coin the same error for the live freshness (a minute). For the markets
 * pages, the list of currencies and historical items. Over real HTTP against
 * the local API server, whose answers are rewritten in flight; the clock is
 * the rig's, moved on rather than slept.
 *
 *   node --import tsx --test test/bad-answer-age.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import type { CurrencyListItem, HistoricalItem, MarketItem } from '../src/api/records';
import { BAD_ANSWER_SHARED_MS } from '../src/client/bad-answer';
import type { MarketClient } from '../src/client/index';
import { NOW, rejects, rig, serverData, type Rig } from './client-harness';

const MARKETS = ENDPOINTS.markets.path;
const LIST = ENDPOINTS.currencyList.path;
const HISTORICAL = ENDPOINTS.historicalItem.path;
const DAY = 86_400_000;

/** A fetch that answers as the server does, but while `on()` the items of coins `ids` in answers to `path` have a price of the wrong type (set aside as unreadable). */
function spoiling(path: string, ids: readonly number[], on: () => boolean): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (new URL(String(input)).pathname !== path || res.status !== 200 || !on()) return res;
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    for (const x of body.data) if (ids.includes(x.id as number)) x.price = true;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}

/** The request counts `count` gives over a test's steps (from the rig's log). */
const counter = (r: Rig, path: string, also: (u: URL) => boolean = () => true) => () =>
  r.hits(path).filter((e) => also(new URL(e.url, r.em.url))).length;

/** One recalculation's cells, in waves: each wave after the last has settled, so each is its own batch reading the cached answer. */
async function fill<T>(waves: number, cells: () => Promise<T>[]): Promise<PromiseSettledResult<T>[][]> {
  const out: PromiseSettledResult<T>[][] = [];
  for (let i = 0; i < waves; i++) out.push(await Promise.allSettled(cells()));
  return out;
}

const messageOf = (s: PromiseSettledResult<unknown>) => (s.status === 'rejected' ? String((s.reason as Error).message) : 'fulfilled');

describe('markets page with an unreadable item', () => {
  let r: Rig;
  let page: MarketItem[];
  before(async () => {
    r = await rig({ rpm: 10_000 });
    page = await serverData<MarketItem[]>(r, `${MARKETS}?limit=250&offset=0`);
  });
  after(async () => {
    await r?.close();
  });
  const firstPages = () => counter(r, MARKETS, (u) => (u.searchParams.get('offset') ?? '0') === '0')();

  /** A fill of PRICE cells over the page's first 100 coins, each coin twice, in `waves` batches; the bad coin's outcomes and the others' prices. */
  async function prices(c: MarketClient, bad: MarketItem, waves: number) {
    const coins = page.slice(0, 100);
    const runs = await fill(waves, () => coins.flatMap((m) => [c.quote(m.id), c.quote(m.slug)]));
    const at = coins.indexOf(bad) * 2;
    for (const run of runs) {
      for (const [i, s] of run.entries()) if (i !== at && i !== at + 1) assert.equal(s.status, 'fulfilled', `${coins[i >> 1].slug}: ${messageOf(s)}`);
    }
    return runs.flatMap((run) => [run[at], run[at + 1]]);
  }

  for (const start of ['warm', 'cold'] as const) {
    test(`${start} start: one request for the page in a fill of many batches; the next recalculation asks it again once and the good answer replaces it`, async () => {
      const bad = page[start === 'warm' ? 10 : 11];
      let spoil = true;
      const c = r.client({ fetch: spoiling(MARKETS, [bad.id], () => spoil) });
      // Warm: the map known, so no first page is probed beside it and every batch reads the page itself.
      if (start === 'warm') await Promise.all(page.slice(0, 100).map((m) => c.resolveCoin(m.id)));
      const from = firstPages();
      const first = await prices(c, bad, 4);
      assert.equal(firstPages() - from, 1, 'one request for the page, however many batches read it');
      for (const s of first) assert.match(messageOf(s), new RegExp(`^The API answered price in an unexpected form .*\\(${bad.slug}, ${MARKETS}\\)$`));

      // The next recalculation, the page still fresh (the live freshness is a minute): asked again, once.
      spoil = false;
      r.em.clock.advance(BAD_ANSWER_SHARED_MS);
      const second = await prices(c, bad, 3);
      for (const s of second) {
        assert.equal(s.status, 'fulfilled', messageOf(s));
        assert.equal((s as PromiseFulfilledResult<{ price: number }>).value.price, Number(bad.price));
      }
      assert.equal(firstPages() - from, 2, 'asked again once for every batch of the recalculation');
      await prices(c, bad, 1);
      assert.equal(firstPages() - from, 2, 'the good answer is held');
    });
  }
});

describe('list of currencies with an unreadable item', () => {
  let r: Rig;
  let coins: CurrencyListItem[];
  before(async () => {
    r = await rig({ rpm: 10_000, withoutRoutes: ['markets'] });
    coins = await serverData<CurrencyListItem[]>(r, `${LIST}?currencyIds=1,2,3,4`);
  });
  after(async () => {
    await r?.close();
  });

  test('two batches of one fill read one answer; after its recalculation it is asked again once and the good answer replaces it', async () => {
    const [bad, other] = coins;
    let spoil = true;
    const c = r.client({ key: 'demo-sandbox', fetch: spoiling(LIST, [bad.id], () => spoil) });
    // Map and the markets route's 404 learned first: the bad coin's batches then go to the list alone, with one id list.
    await c.quote(other.slug);
    const lists = counter(r, LIST, (u) => u.searchParams.get('currencyIds') === String(bad.id));
    const first = (await fill(3, () => [c.quote(bad.slug), c.quote(bad.id)])).flat();
    assert.equal(lists(), 1, 'one request, read by three batches');
    for (const s of first) assert.match(messageOf(s), new RegExp(`^The API answered price in an unexpected form .*\\(${bad.slug}, ${LIST}\\)$`));

    spoil = false;
    r.em.clock.advance(BAD_ANSWER_SHARED_MS);
    const second = (await fill(2, () => [c.quote(bad.slug), c.quote(bad.id)])).flat();
    for (const s of second) assert.equal(s.status === 'fulfilled' && s.value.price, Number(bad.price), messageOf(s));
    assert.equal(lists(), 2, 'asked again, once');
  });
});

describe('historical answer with an unreadable item', () => {
  let r: Rig;
  let coins: MarketItem[];
  /** A past UTC day every top coin has data for. */
  const date = Math.floor(NOW / DAY) * DAY - 30 * DAY;
  before(async () => {
    r = await rig({ rpm: 10_000 });
    coins = (await serverData<MarketItem[]>(r, `${MARKETS}?limit=5`)).slice(0, 3);
  });
  after(async () => {
    await r?.close();
  });

  test("batches of one fill share the bad answer and its coin's error; the next recalculation asks it again once and gets the value", async () => {
    const [a, b, c] = coins;
    let spoil = true;
    const client = r.client({ fetch: spoiling(HISTORICAL, [b.id], () => spoil) });
    const cells = () => [a, b, c].map((m) => client.historical({ date, currency: 'USD', id: m.id, name: m.name }));
    const hits = counter(r, HISTORICAL);
    const from = hits();
    const first = await fill(3, cells);
    assert.equal(hits() - from, 1, 'one request for the three batches');
    for (const run of first) {
      assert.deepEqual(run.map((s) => s.status), ['fulfilled', 'rejected', 'fulfilled']);
      assert.match(messageOf(run[1]), /price in an unexpected form/);
      assert.equal(messageOf(run[1]), messageOf(first[0][1]), "the first reader's error");
    }
    await rejects(Promise.reject((first[2][1] as PromiseRejectedResult).reason), 'UNEXPECTED_RESPONSE');

    spoil = false;
    r.em.clock.advance(BAD_ANSWER_SHARED_MS);
    const second = await fill(2, cells);
    for (const run of second) assert.deepEqual(run.map((s) => s.status === 'fulfilled' && (s.value as HistoricalItem).id), [a.id, b.id, c.id]);
    assert.equal(hits() - from, 2, 'asked again, once, for both batches (the answer is a day fresh)');
  });
});
