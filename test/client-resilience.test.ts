/**
 * Pacing, retries, timeouts, malformed answers, stale-on-failure and
 * cancellation, over real HTTP against the emulator on a controlled clock (the
 * client's sleep advances it, so minutes of pacing take milliseconds).
 *
 *   node --import tsx --test test/client-resilience.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import { realSleep } from '../src/client/clock';
import { MAP_MAX_RETRIES } from '../src/client/client-options';
import { SECRETS, SECRET_SANDBOX, consoleOutput, realDelay, rejects, rig, seenErrors, type Rig } from './client-harness';

const FG = ENDPOINTS.fearGreed.path;
let r: Rig;

before(async () => {
  r = await rig();
  // warm up (modules, connections, the market's caches) so real-time measurements measure the client
  const warm = r.client({ key: 'demo-pro' });
  await warm.get('markets', { query: { limit: 5 } });
  await warm.get('fearGreed');
});
after(async () => {
  await r.close();
});

describe('pacing', () => {
  test('25 distinct requests on a Sandbox key (10/min): no 429, spaced within the limit, well under a second', async () => {
    const c = r.client({ key: SECRET_SANDBOX });
    const since = r.log.length;
    const t0 = performance.now();
    const start = r.em.clock.now();
    // 25 distinct requests (different offsets): 24 metered + the lazy /v3/status
    const out = await Promise.all(Array.from({ length: 24 }, (_, i) => c.get('markets', { query: { limit: 5, offset: i * 5 } })));
    const realMs = performance.now() - t0;
    const seen = r.log.slice(since);
    assert.equal(out.length, 24);
    assert.equal(seen.length, 25);
    assert.equal(seen.filter((e) => e.status === 429).length, 0, 'no rate-limit error');
    assert.ok(seen.every((e) => e.status === 200));
    // any 10 consecutive requests... the 11th is at least 60 s after the 1st
    const at = seen.map((e) => e.at);
    for (let i = 10; i < at.length; i++) assert.ok(at[i] - at[i - 10] >= 60_000, `request ${i} came ${at[i] - at[i - 10]} ms after request ${i - 10}`);
    const simulated = r.em.clock.now() - start;
    assert.ok(simulated >= 120_000, `needed 2+ minutes of pacing, took ${simulated} ms simulated`);
    assert.ok(realMs < 1_000, `real time ${realMs.toFixed(0)} ms`);
    console.log(`# pacing: 25 requests on 10/min: ${(simulated / 1000).toFixed(0)} s simulated, ${realMs.toFixed(0)} ms real, 0 x 429`);
  });

  test('a burst on a Pro key asks /v3/status first and runs at the Pro rate, not the default Sandbox rate', async () => {
    // Real sleeps: what wakes the pacer here is /v3/status answering, not the clock.
    // Queued behind the burst, as it was, status left after the default rate's minute.
    const c = r.client({ sleep: realSleep });
    const since = r.log.length;
    const t0 = performance.now();
    // 30 distinct requests every plan has: none waits for the plan, all want a pacer slot at once
    const signal = AbortSignal.timeout(10_000); // a regression fails here instead of pacing for minutes
    await Promise.all(Array.from({ length: 30 }, (_, i) => c.get('markets', { query: { limit: 5, offset: 2000 + i * 5 }, signal })));
    const realMs = performance.now() - t0;
    const seen = r.log.slice(since);
    assert.equal(seen.length, 31);
    assert.match(seen[0].url, /^\/v3\/status/, '/v3/status took the first slot');
    assert.equal(c.rateLimitPerMinute, 100);
    assert.ok(realMs < 5_000, `30 requests on a 100/min key took ${realMs.toFixed(0)} ms`);
  });

  test('a failed /v3/status is asked again ahead of the requests queued at the default rate (paged history under faults)', async () => {
    // The cause of issue 17: /v3/status failed, so requests went at the lowest plan's 10/min;
    // the re-ask a minute later queued behind all of them, and every next page of paged
    // history waits for the plan: OHLCV cells stayed pending for many minutes.
    const c = r.client();
    r.em.faults.queue({ kind: '500', times: 4, path: ENDPOINTS.status.path });
    const since = r.log.length;
    const start = r.em.clock.now();
    const from = new Date(start - 120 * 86_400_000).toISOString();
    // 10 coins' daily candles in pages of 10: 12 pages each, every page after the first a new request
    const got = await Promise.all(Array.from({ length: 10 }, (_, i) => c.getPages('candles', { id: i + 1, query: { from, limit: 10 } })));
    const simulated = r.em.clock.now() - start;
    const statuses = r.log.slice(since).filter((e) => e.url.startsWith(ENDPOINTS.status.path));
    assert.deepEqual(statuses.map((e) => e.status), [500, 500, 500, 500, 200]);
    const failedAt = statuses[3].at;
    assert.ok(statuses[4].at - failedAt < 75_000, `status asked again ${statuses[4].at - failedAt} ms after it failed`);
    assert.equal(c.rateLimitPerMinute, 100);
    assert.ok(got.every((g) => g.data.length >= 119), 'every series complete');
    // About three windows: the first at the lowest plan's 10 (failed statuses give their slots back),
    // the re-ask in the first slot after it is due, then 100 a minute. The old code took many minutes.
    assert.ok(simulated < 200_000, `120 requests took ${(simulated / 1000).toFixed(0)} s simulated`);
  });

  test('a request waiting for the pacer can be aborted', async () => {
    const c = r.client({ key: SECRET_SANDBOX, sleep: (ms, signal) => new Promise((res, rej) => {
      const t = setTimeout(res, ms);
      signal?.addEventListener('abort', () => { clearTimeout(t); rej(new Error('aborted')); });
    }) });
    await c.status();
    // fill the window: 9 more metered requests after status
    r.em.setRpm(10_000);
    await Promise.all(Array.from({ length: 9 }, (_, i) => c.get('markets', { query: { limit: 3, offset: 1000 + i } })));
    r.em.setRpm(undefined);
    const ac = new AbortController();
    const p = c.get('markets', { query: { limit: 3, offset: 2000 }, signal: ac.signal });
    await realDelay(20);
    const since = r.log.length;
    ac.abort();
    await rejects(p, 'ABORTED');
    assert.equal(r.log.length, since, 'never sent');
  });
});

describe('retries', () => {
  test('a 429 with Retry-After: the retry comes no earlier than it says (controlled clock), and succeeds', async () => {
    const c = r.client();
    await c.status();
    r.em.faults.queue({ kind: '429', retryAfter: 7, path: FG });
    const since = r.log.length;
    const f = await c.get('fearGreed');
    const seen = r.log.slice(since);
    assert.deepEqual(seen.map((e) => e.status), [429, 200]);
    assert.ok(seen[1].at - seen[0].at >= 7_000, `retried after ${seen[1].at - seen[0].at} ms`);
    assert.equal(typeof f.data.currentValue, 'number');
  });

  test('a 503 with Retry-After: the retry waits as it says (the outage is expected to last that long), not the backoff', async () => {
    // RFC 9110 §10.2.3: with a 503, Retry-After says how long the service expects to be unavailable.
    // 20 s is past the longest backoff (BACKOFF_MAX_MS, 10 s), so only the header can explain the wait.
    let servedAt: number | null = null;
    const c = r.client({
      fetch: async (input, init) => {
        if (servedAt === null && new URL(String(input)).pathname === FG) {
          servedAt = r.em.clock.now();
          return new Response(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'maintenance' } }), { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '20' } });
        }
        return fetch(input, init);
      },
    });
    await c.status();
    const since = r.log.length;
    c.refreshAll();
    const f = await c.get('fearGreed');
    assert.equal(typeof f.data.currentValue, 'number');
    const retried = r.log.slice(since).filter((e) => e.url.startsWith(FG));
    assert.equal(retried.length, 1, 'one retry reached the server');
    assert.ok(servedAt !== null && retried[0].at - servedAt >= 20_000, `retried ${retried[0].at - (servedAt ?? 0)} ms after the 503`);
  });

  test('the 429 hold applies to the whole pacer, not just the request that got it', async () => {
    const c = r.client();
    await c.status();
    r.em.faults.queue({ kind: '429', retryAfter: 5, path: ENDPOINTS.trending.path });
    const since = r.log.length;
    // tags asks once the 429 is in (not after a fixed real delay: under load the 429 may take longer).
    const answered429 = async () => {
      while (!r.log.slice(since).some((e) => e.status === 429)) await realDelay(1);
    };
    await Promise.all([c.get('trending'), (async () => { await answered429(); await realDelay(5); return c.get('tags'); })()]);
    const seen = r.log.slice(since);
    const first429 = seen.find((e) => e.status === 429)!;
    const tags = seen.find((e) => e.url.startsWith(ENDPOINTS.tags.path))!;
    assert.ok(tags.at - first429.at >= 5_000, `tags sent ${tags.at - first429.at} ms after the 429`);
  });

  test('500 is retried with backoff and succeeds', async () => {
    const c = r.client();
    await c.status();
    r.em.faults.queue({ kind: '500', times: 2, path: FG });
    const since = r.log.length;
    c.refreshAll();
    await c.get('fearGreed');
    assert.deepEqual(r.log.slice(since).map((e) => e.status), [500, 500, 200]);
    assert.equal(c.meter.snapshot().byEndpoint.fearGreed.requests, 3);
  });

  test('after maxRetries, the 500 surfaces as INTERNAL_ERROR; 4xx are never retried', async () => {
    const c = r.client({ maxRetries: 2 });
    await c.status();
    r.em.faults.queue({ kind: '500', times: 3, path: FG });
    const since = r.log.length;
    const e = await rejects(c.get('fearGreed'), 'INTERNAL_ERROR');
    assert.equal(e.status, 500);
    assert.equal(r.log.length - since, 3);
    const s2 = r.log.length;
    await rejects(c.get('profile', { id: 987_654_321 }), 'NOT_FOUND');
    assert.equal(r.log.length - s2, 1, 'a 404 is not retried');
  });

  test('a hung response times out (timeoutMs) and is retried; all hung → TIMEOUT', async () => {
    const c = r.client({ timeoutMs: 100, maxRetries: 1 });
    await c.status();
    r.em.faults.queue({ kind: 'hang', path: FG });
    const t0 = performance.now();
    await c.get('fearGreed');
    const ms = performance.now() - t0;
    assert.ok(ms >= 100 && ms < 2_000, `recovered after ${ms.toFixed(0)} ms`);
    c.refreshAll();
    r.em.faults.queue({ kind: 'hang', times: 2, path: FG });
    const e = await rejects(c.get('fearGreed'), 'TIMEOUT');
    assert.equal(e.retryable, true);
  });

  test('a dropped connection is a retried NETWORK_ERROR', async () => {
    const c = r.client({ maxRetries: 0 });
    await c.status();
    r.em.faults.queue({ kind: 'drop', path: FG });
    await rejects(c.get('fearGreed'), 'NETWORK_ERROR');
    r.em.faults.queue({ kind: 'drop', path: FG });
    const c2 = r.client({ maxRetries: 1 });
    await c2.get('fearGreed');
  });

  test('the currency map, which every coin typed as text waits on, outlasts failures other requests give up on', async () => {
    const c = r.client({ maxRetries: 2 });
    await c.status();
    r.em.faults.queue({ kind: 'drop', times: 6, path: ENDPOINTS.currencyMap.path });
    const since = r.log.length;
    const ref = await c.resolveCoin('bitcoin');
    assert.equal(ref.slug, 'bitcoin');
    const mapCalls = r.log.slice(since).filter((e) => e.url.split('?')[0] === ENDPOINTS.currencyMap.path);
    assert.equal(mapCalls.length, 7, 'six dropped, the seventh answered');
    // Other requests keep the client's own budget: 2 retries.
    r.em.faults.queue({ kind: 'drop', times: 3, path: FG });
    await rejects(c.get('fearGreed'), 'NETWORK_ERROR');
  });

  test('malformed JSON is retried, then MALFORMED_RESPONSE', async () => {
    const c = r.client({ maxRetries: 2 });
    await c.status();
    r.em.faults.queue({ kind: 'malformed', path: FG });
    const since = r.log.length;
    await c.get('fearGreed');
    assert.deepEqual(r.log.slice(since).map((e) => e.status), [200, 200]);
    c.refreshAll();
    r.em.faults.queue({ kind: 'malformed', times: 3, path: FG });
    const e = await rejects(c.get('fearGreed'), 'MALFORMED_RESPONSE');
    assert.equal(e.endpoint, 'fearGreed');
  });

  test('an answer that does not match the schema is UNEXPECTED_RESPONSE naming the endpoint and field, never a wrong number', async () => {
    const c = r.client({ fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (!String(input).includes('/global/market')) return res;
      const body = (await res.json()) as { data: Record<string, unknown> };
      body.data.totalMarketCap = 12.5; // a number where a decimal string belongs
      return new Response(JSON.stringify(body), { status: 200 });
    } });
    const e = await rejects(c.get('globalMarket'), 'UNEXPECTED_RESPONSE');
    assert.equal(e.endpoint, 'globalMarket');
    assert.match(e.message, /globalMarket.*data\.totalMarketCap/);
  });
});

describe('stale on failure', () => {
  test('when a refresh fails, the last good value is served with stale:true; auth errors are not masked', async () => {
    const c = r.client({ maxRetries: 1 });
    const good = await c.get('fearGreed');
    r.em.clock.advance(61_000);
    r.em.faults.queue({ kind: '500', times: 2, path: FG });
    const stale = await c.get('fearGreed');
    assert.equal(stale.stale, true);
    assert.deepEqual(stale.data, good.data);
    assert.equal(stale.fetchedAt, good.fetchedAt);
    // the quote path too
    const q = await c.quote('bitcoin');
    r.em.clock.advance(61_000);
    // A markets page is tried until its deadline (many cells wait on it: client.ts SHARED).
    r.em.faults.queue({ kind: '500', times: MAP_MAX_RETRIES + 1, path: ENDPOINTS.markets.path });
    const sq = await c.quote('bitcoin');
    assert.equal(sq.stale, true);
    assert.equal(sq.price, q.price);
    // next refresh succeeds: fresh again
    const fresh = await c.get('fearGreed');
    assert.equal(fresh.stale, false);
  });

  test('an auth error is not masked by a stale value', async () => {
    const { MemoryKeyStore, MarketClient } = await import('../src/client/index');
    const keys = new MemoryKeyStore('demo-pro');
    const c = new MarketClient({ baseUrl: r.em.url, keyStore: keys, now: () => r.em.clock.now() });
    await c.get('fearGreed');
    r.em.clock.advance(61_000);
    keys.setKey('revoked-key');
    await rejects(c.get('fearGreed'), 'API_KEY_INVALID');
  });
});

describe('cancellation', () => {
  test('aborting a request in flight settles it with ABORTED (not retried); others sharing it still get the answer', async () => {
    const c = r.client();
    await c.status();
    r.em.setLatency(200);
    try {
      const ac = new AbortController();
      const since = r.log.length;
      const p1 = c.get('altcoinIndex', { signal: ac.signal });
      const p2 = c.get('altcoinIndex');
      await realDelay(30);
      ac.abort();
      await rejects(p1, 'ABORTED');
      const f = await p2;
      assert.equal(typeof f.data.currentValue, 'number');
      assert.equal(r.log.length - since, 1);
      // alone: the abort cancels the HTTP call
      const ac2 = new AbortController();
      const p3 = c.get('dominance', { signal: ac2.signal });
      await realDelay(30);
      ac2.abort();
      const t0 = performance.now();
      await rejects(p3, 'ABORTED');
      assert.ok(performance.now() - t0 < 100);
      const q = c.quote('ethereum', { signal: AbortSignal.abort() });
      await rejects(q, 'ABORTED');
    } finally {
      r.em.setLatency(0);
    }
  });
});

describe('the key stays secret', () => {
  test('not in errors, console', () => {
    assert.ok(seenErrors.length >= 8);
    for (const e of seenErrors) for (const s of [...SECRETS, 'demo-pro']) assert.ok(!JSON.stringify(e).includes(s) && !e.message.includes(s), e.message);
    for (const line of consoleOutput) for (const s of SECRETS) assert.ok(!line.includes(s));
  });
});
