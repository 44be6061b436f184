/**
 * MarketClient core over real HTTP against the in-process emulator: requests
 * from the endpoint table, validation before sending, canonical cache keys,
 * shared calls, freshness on the controlled clock, credits against the
 * server's accounting, plan errors, budget, pagination, and the key kept out of
 * everything.
 *
 *   node --import tsx --test test/client-core.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS, creditCost } from '../src/api/endpoints';
import { ApiError, MarketClient, MemoryKeyStore, type MeterSnapshot } from '../src/client/index';
import { canonicalRequest, freshnessOf } from '../src/client/canonical-request';
import { NOW, SECRETS, SECRET_PRO, SECRET_SANDBOX, consoleOutput, rejects, rig, seenErrors, type Rig } from './client-harness';

const DAY = 86_400_000;
let r: Rig;
const snapshots: MeterSnapshot[] = [];

before(async () => {
  r = await rig({ rpm: 10_000 });
});
after(async () => {
  await r.close();
});

describe('requests', () => {
  test('get() validates, unwraps and types data; the status call is free and made once', async () => {
    const c = r.client();
    const f = await c.get('globalMarket', { caller: 'A1' });
    assert.equal(typeof f.data.totalMarketCap, 'string');
    assert.equal(f.stale, false);
    assert.equal(f.fromCache, false);
    assert.equal(f.fetchedAt, r.em.clock.now());
    await c.get('fearGreed');
    assert.equal(r.hits('/v3/status').length, 1, 'one lazy /v3/status before the first metered request');
    const m = c.meter.snapshot();
    assert.equal(m.plan?.plan, 'Pro');
    assert.equal(c.rateLimitPerMinute, 10_000, 'pacer took the rate from /v3/status');
    assert.equal(m.byEndpoint.status.credits, 0);
    assert.deepEqual(m.byCaller.A1, { requests: 1, credits: 1 });
    snapshots.push(m);
  });

  test('a bad query is VALIDATION_ERROR without any request', async () => {
    const c = r.client();
    const before = r.log.length;
    const e1 = await rejects(c.get('markets', { query: { limit: 251 } }), 'VALIDATION_ERROR');
    assert.match(e1.message, /limit must not be greater than 250/);
    const e2 = await rejects(c.get('markets', { query: { bogus: 1 } }), 'VALIDATION_ERROR');
    assert.match(e2.message, /property bogus should not exist/);
    await rejects(c.get('returns', { id: 1 }), 'VALIDATION_ERROR'); // period is required
    await rejects(c.get('profile', {}), 'VALIDATION_ERROR'); // id is required
    assert.equal(r.log.length, before, 'nothing was sent');
  });

  test('null/undefined are dropped and defaults removed: limit=100 and no limit share one cache entry', async () => {
    const c = r.client();
    const a = await c.get('markets', { query: { limit: 100, sortBy: 'rank', include: null, category: undefined } });
    const b = await c.get('markets');
    assert.equal(b.fromCache, true);
    assert.equal(a.data.length, 100);
    const sent = r.hits('/v3/currencies/markets').at(-1)!.url;
    assert.equal(sent, '/v3/currencies/markets', 'defaults are not sent');
    const k1 = canonicalRequest('markets', undefined, { limit: '100', offset: 0 }).key;
    const k2 = canonicalRequest('markets', undefined, {}).key;
    assert.equal(k1, k2);
    assert.notEqual(canonicalRequest('markets', undefined, { limit: 250 }).key, k2);
    assert.ok(!k1.includes(SECRET_PRO));
  });

  test('50 concurrent identical get() → 1 HTTP call; 49 shared', async () => {
    const c = r.client();
    await c.status();
    const before = r.hits('/v3/global/fear-greed').length;
    const all = await Promise.all(Array.from({ length: 50 }, (_, i) => c.get('fearGreed', { caller: `C${i}` })));
    assert.equal(r.hits('/v3/global/fear-greed').length - before, 1);
    assert.ok(all.every((f) => f.data.currentValue === all[0].data.currentValue));
    const m = c.meter.snapshot();
    assert.equal(m.sharedCalls, 49);
    assert.deepEqual(m.byCaller.C0, { requests: 1, credits: 1 }, 'attributed to the caller that triggered it');
    assert.equal(m.byCaller.C1, undefined);
    snapshots.push(m);
  });

  test("lastFailure(): a caller's own failures, else the service's, never another caller's refusal of its input", async () => {
    // Review 2026-11-27 (formulas #3): a FEARGREED cell that timed out named a HISTORICAL cell's 404 as its reason.
    const c = r.client({ maxRetries: 0 });
    await c.status();
    await rejects(c.get('profile', { id: 987_654_321, caller: 'PROFILE' }), 'NOT_FOUND');
    assert.equal(c.lastFailure('PROFILE')?.code, 'NOT_FOUND', 'its own');
    assert.equal(c.lastFailure('FEARGREED'), null, "not another caller's 404");
    r.em.faults.queue({ kind: '500', path: ENDPOINTS.trending.path });
    await rejects(c.get('trending', { caller: 'TRENDING' }), 'INTERNAL_ERROR');
    assert.equal(c.lastFailure('FEARGREED')?.code, 'INTERNAL_ERROR', "the service's failure, whoever met it");
    assert.equal(c.lastFailure('PROFILE')?.code, 'NOT_FOUND');
  });
});

describe('freshness', () => {
  test('live: within TTL no request, after TTL one request', async () => {
    const c = r.client({ freshnessMs: { live: 60_000 } });
    await c.get('altcoinIndex');
    const n = () => r.hits('/v3/global/altcoin-index').length;
    const base = n();
    r.em.clock.advance(59_000);
    const hit = await c.get('altcoinIndex');
    assert.equal(hit.fromCache, true);
    assert.equal(n(), base, 'within TTL: no request');
    r.em.clock.advance(2_000);
    const miss = await c.get('altcoinIndex');
    assert.equal(miss.fromCache, false);
    assert.equal(n(), base + 1, 'after TTL: a request');
    assert.equal(c.meter.snapshot().cacheHits, 1);
  });

  test('a clock moved back does not keep a cached answer fresh until it catches up: it is asked again (review-r2 #7)', async () => {
    const c = r.client({ freshnessMs: { live: 60_000 } });
    await c.get('altcoinIndex');
    const n = () => r.hits('/v3/global/altcoin-index').length;
    const base = n();
    r.em.clock.advance(-3_600_000); // an NTP step or a user's change: the answer now seems an hour ahead
    try {
      const again = await c.get('altcoinIndex');
      assert.equal(again.fromCache, false); // was: served as fresh for the hour
      assert.equal(n(), base + 1);
      assert.equal((await c.get('altcoinIndex')).fromCache, true, 'the new answer is fresh by the clock as it now is');
    } finally {
      r.em.clock.advance(3_600_000);
    }
  });

  test('history class: a closed range keeps for a day, a range reaching today is live; returns is live', () => {
    const now = NOW;
    const closed = canonicalRequest('candles', 1, { from: '2026-01-01', to: '2026-03-01' });
    const open = canonicalRequest('candles', 1, { from: '2026-01-01' });
    const today = canonicalRequest('candles', 1, { from: '2026-01-01', to: new Date(now).toISOString() });
    assert.equal(freshnessOf(closed, now), 'history');
    assert.equal(freshnessOf(open, now), 'live');
    assert.equal(freshnessOf(today, now), 'live');
    assert.equal(freshnessOf(canonicalRequest('returns', 1, { period: 'monthly' }), now), 'live');
    assert.equal(freshnessOf(canonicalRequest('currencyMap', undefined, {}), now), 'reference');
    assert.equal(freshnessOf(canonicalRequest('historicalItem', undefined, { date: '2026-03-14', currencyIds: '1' }), now), 'history');
    // the same instant as ISO, seconds and ms is one key
    const ms = Date.parse('2026-03-01T00:00:00Z');
    assert.equal(canonicalRequest('candles', 1, { from: ms / 1000 }).key, canonicalRequest('candles', 1, { from: '2026-03-01T00:00:00Z' }).key);
  });

  test('a closed candle range is served from cache after the live TTL, and refetched after a day', async () => {
    const c = r.client();
    const q = { from: '2026-01-01', to: '2026-02-01' };
    const first = await c.get('candles', { id: 1, query: q });
    assert.ok(first.data.length > 20);
    const n = () => r.hits('/v3/currencies/1/historical').length;
    const base = n();
    r.em.clock.advance(2 * 3_600_000);
    assert.equal((await c.get('candles', { id: 1, query: q })).fromCache, true);
    assert.equal(n(), base);
    r.em.clock.advance(DAY);
    assert.equal((await c.get('candles', { id: 1, query: q })).fromCache, false);
    assert.equal(n(), base + 1);
  });

  test('refreshAll() drops cached responses', async () => {
    const c = r.client();
    await c.get('trending');
    assert.equal((await c.get('trending')).fromCache, true);
    c.refreshAll();
    assert.equal((await c.get('trending')).fromCache, false);
  });
});

describe('credits and plan', () => {
  test('meter credits equal the server accounting and /v3/status dailyUsed', async () => {
    const key = SECRET_SANDBOX;
    const usage0 = r.em.usage(key).dailyUsed;
    const c = r.client({ key });
    await c.get('markets', { query: { limit: 250 } });
    await c.get('markets', { query: { limit: 250, convert: 'EUR' } }); // 2 credits
    await c.get('markets', { query: { limit: 10, include: 'sparkline7d', convert: 'EUR' } }); // 3 credits
    await c.get('currencyMap');
    await c.get('trending');
    await c.get('trending'); // cache hit, free
    const m = c.meter.snapshot();
    const usage = r.em.usage(key);
    assert.equal(m.credits, usage.dailyUsed - usage0);
    assert.equal(m.credits, 1 + 2 + 3 + 1 + 1);
    assert.equal(m.byEndpoint.markets.credits, 6);
    assert.equal(usage.byPath[ENDPOINTS.markets.path].credits, 6);
    const st = await c.status({ force: true });
    assert.equal(st.credits.dailyUsed, usage.dailyUsed);
    assert.equal(c.meter.snapshot().plan?.credits.dailyUsed, usage.dailyUsed);
    snapshots.push(c.meter.snapshot());
  });

  test("meter dispatches 'change' and reset() starts again", async () => {
    const c = r.client();
    let events = 0;
    c.meter.addEventListener('change', () => events++);
    await c.get('tags');
    await c.status(); // learned alongside the first request (no second call): its answer may come after tags
    assert.ok(events >= 2, `events: ${events}`); // status + tags
    c.meter.reset();
    assert.equal(c.meter.snapshot().requests, 0);
    assert.equal(c.meter.snapshot().plan?.plan, 'Pro', 'the plan survives a reset');
  });

  test('an endpoint above the plan: ENDPOINT_NOT_AVAILABLE with requiredPlan, no request once the plan is known', async () => {
    const c = r.client({ key: SECRET_SANDBOX });
    await c.status();
    const before = r.log.length;
    const e = await rejects(c.get('tokenomics', { id: 1 }), 'ENDPOINT_NOT_AVAILABLE');
    assert.equal(e.requiredPlan, 'Advanced');
    assert.equal(e.endpoint, 'tokenomics');
    assert.match(e.message, /Advanced plan/);
    assert.equal(r.log.length, before, 'known from /v3/status: not sent');
  });

  test('the server-side plan error also carries requiredPlan', async () => {
    // a server whose /v3/status lists nothing and names a plan the endpoint table does not know: the client cannot pre-check
    const c = r.client({ key: SECRET_SANDBOX, fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).includes('/v3/status')) {
        const body = (await res.json()) as Record<string, unknown>;
        return new Response(JSON.stringify({ ...body, plan: 'Starter', endpoints: [] }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      return res;
    } });
    const e = await rejects(c.get('returns', { id: 1, query: { period: 'yearly' } }), 'ENDPOINT_NOT_AVAILABLE');
    assert.equal(e.requiredPlan, 'Advanced');
    assert.equal(e.status, 403);
    assert.equal(r.log.at(-1)?.code, 'ENDPOINT_NOT_AVAILABLE');
  });

  test('no key: NO_API_KEY without a request; bad key: API_KEY_INVALID; inactive: NO_ACTIVE_SUBSCRIPTION', async () => {
    const before = r.log.length;
    const e = await rejects(r.client({ key: null }).get('trending'), 'NO_API_KEY');
    assert.match(e.message, /task pane/);
    assert.equal(r.log.length, before);
    await rejects(r.client({ key: 'not-a-key' }).get('trending'), 'API_KEY_INVALID');
    await rejects(r.client({ key: 'demo-inactive' }).get('trending'), 'NO_ACTIVE_SUBSCRIPTION');
  });

  test('a key change applies to the next request and drops caches and the learned plan', async () => {
    const keys = new MemoryKeyStore(SECRET_SANDBOX);
    const c = new MarketClient({ baseUrl: r.em.url, keyStore: keys, now: () => r.em.clock.now() });
    await c.get('trending');
    await c.status(); // the plan is learned alongside the first request
    assert.equal(c.meter.snapshot().plan?.plan, 'Sandbox');
    keys.setKey(SECRET_PRO);
    c.onKeyChanged();
    assert.equal(c.meter.snapshot().plan, null);
    const f = await c.get('trending');
    assert.equal(f.fromCache, false);
    await c.status();
    assert.equal(c.meter.snapshot().plan?.plan, 'Pro');
    assert.equal(r.log.at(-1)?.key, SECRET_PRO);
  });

  test("an answer to /v3/status for the old key, landing after a key change, is not learned as the new key's plan", async () => {
    const keys = new MemoryKeyStore(SECRET_SANDBOX);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The status answer is handed over only when the test says: after the key has changed.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const res = await globalThis.fetch(input, init);
      if (new URL(String(input)).pathname.endsWith('/status')) await held;
      return res;
    };
    const c = new MarketClient({ baseUrl: r.em.url, keyStore: keys, now: () => r.em.clock.now(), fetch });
    const old = c.status();
    await new Promise((resolve) => setTimeout(resolve, 50)); // asked with the Sandbox key
    keys.setKey(SECRET_PRO);
    c.onKeyChanged();
    release();
    assert.equal((await old).plan, 'Sandbox', "the caller still gets the answer it asked for");
    assert.equal(c.meter.snapshot().plan, null, "not the new key's plan");
    await c.status();
    assert.equal(c.meter.snapshot().plan?.plan, 'Pro');
  });

  test('daily budget: after N credits today, BUDGET_EXCEEDED without calling the API', async () => {
    const c = r.client();
    c.setDailyBudget(2);
    await c.get('categories');
    await c.get('personsMap');
    const before = r.log.length;
    const e = await rejects(c.get('blockchainMap'), 'BUDGET_EXCEEDED');
    assert.match(e.message, /2 of 2/);
    assert.equal(r.log.length, before);
    await rejects(c.get('markets', { query: { convert: 'EUR' } }), 'BUDGET_EXCEEDED');
    c.setDailyBudget(null);
    await c.get('blockchainMap');
  });

  test('credit cost rule of the table matches what the client is charged for history buckets', async () => {
    const c = r.client();
    const f = await c.get('candles', { id: 2, query: { from: '2025-06-01', to: '2026-03-01' } });
    const m = c.meter.snapshot();
    assert.equal(m.byEndpoint.candles.credits, creditCost('candles', {}, f.data.length));
    assert.ok(m.byEndpoint.candles.credits > 1);
  });
});

describe('pagination', () => {
  test('every endpoint that pages by offset or page number gives its page size in the table (nothing falls back)', () => {
    const paged = Object.entries(ENDPOINTS).filter(([, e]) => 'paging' in e && (e.paging === 'offset' || e.paging === 'page'));
    assert.ok(paged.length >= 4, paged.map(([n]) => n).join(', '));
    for (const [name, e] of paged) assert.ok(typeof (e as { pageSize?: number }).pageSize === 'number', `${name}: no pageSize`);
  });

  test('getPages follows markets by offset/limit=250 and stops at maxItems', async () => {
    const c = r.client();
    const f = await c.getPages('markets', { maxItems: 600 });
    assert.equal(f.data.length, 600);
    const urls = r.hits('/v3/currencies/markets').slice(-3).map((e) => e.url);
    assert.deepEqual(urls, [
      '/v3/currencies/markets?limit=250',
      '/v3/currencies/markets?limit=250&offset=250',
      '/v3/currencies/markets?limit=250&offset=500',
    ]);
    assert.deepEqual(f.data.slice(0, 3).map((x) => x.rank), [1, 2, 3]);
    assert.equal(new Set(f.data.map((x) => x.id)).size, 600);
  });

  test('getPages walks page-numbered endpoints until hasNextPage is false, or to maxItems', async () => {
    const c = r.client();
    const path = ENDPOINTS.upcomingUnlocks.path;
    let since = r.hits(path).length;
    const capped = await c.getPages('upcomingUnlocks', { query: { daysAhead: 365 }, maxItems: 80 });
    assert.equal(capped.data.length, 80);
    assert.deepEqual(r.hits(path).slice(since).map((e) => e.url), [`${path}?daysAhead=365`, ...[2, 3, 4].map((p) => `${path}?daysAhead=365&page=${p}`)]);
    since = r.hits(path).length;
    const all = await c.getPages('upcomingUnlocks', { query: { daysAhead: 60 } });
    const pages = r.hits(path).length - since;
    assert.equal(all.meta?.hasNextPage, false);
    assert.equal(all.meta?.page, pages);
    assert.ok(pages >= 2, `pages: ${pages}`);
    assert.ok(all.data.length > (pages - 1) * 25 && all.data.length <= pages * 25);
  });

  test('getPages moves `from` past the last candle while pages are full', async () => {
    const c = r.client();
    const f = await c.getPages('candles', { id: 1, query: { from: '2015-01-01', limit: 1000 } });
    const times = f.data.map((x) => x.time);
    assert.ok(times.every((t, i) => i === 0 || t > times[i - 1]), 'increasing, no duplicates');
    assert.equal(times[0], Date.parse('2015-01-01'));
    assert.ok(times.at(-1)! >= NOW - DAY, 'up to today');
    assert.equal(c.meter.snapshot().byEndpoint.candles.requests, Math.ceil(f.data.length / 1000) + (f.data.length % 1000 === 0 ? 1 : 0));
  });
});

describe('the key stays secret', () => {
  test('no error, error JSON, console line or meter snapshot contains the key', async () => {
    assert.ok(seenErrors.length >= 10, `errors checked: ${seenErrors.length}`);
    for (const e of seenErrors) {
      const text = `${e.message}\n${JSON.stringify(e)}\n${e.stack ?? ''}\n${String(e)}`;
      for (const s of SECRETS) assert.ok(!text.includes(s), `key leaked in ${e.code}`);
    }
    assert.ok(snapshots.length >= 3);
    for (const m of snapshots) for (const s of SECRETS) assert.ok(!JSON.stringify(m).includes(s));
    for (const line of consoleOutput) for (const s of SECRETS) assert.ok(!line.includes(s), 'key in console output');
    assert.ok(r.log.some((e) => e.key === SECRET_PRO), 'the key was sent (as X-Api-Key)');
    assert.ok(seenErrors.every((e) => e instanceof ApiError));
  });
});
