/**
 * Contract tests of the emulator's HTTP layer, over real HTTP (global fetch)
 * against in-process servers on free ports, with the real synthetic market.
 *
 *   node --import tsx --test test/emulator-http.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import * as v from 'valibot';
import {
  ENDPOINTS,
  ENDPOINT_NAMES,
  PLAN_LIMITS,
  creditCost,
  planAllows,
  type EndpointName,
  type ParamSpec,
} from '../src/api/endpoints';
import { StatusBody, EnvelopeStatus, ErrorBody, PageMeta } from '../src/api/records';
import type { MarketDataSource } from '../src/emulator/contract';
import { FaultInjector, parseFaultSpec } from '../src/emulator/faults';
import { RateLimiter } from '../src/emulator/rate-limit';
import { DEMO_KEYS, matchRoute, parseLatency, startEmulator, type Emulator, type EmulatorOptions } from '../src/emulator/server';
import { FROZEN_ISO, FROZEN_NOW } from '../harness/instant';

const NOW = FROZEN_NOW;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** The first instant of the UTC month `months` after the one holding `ms`: a credit period's bounds. */
const monthStart = (ms: number, months = 0) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth() + months, 1);

let market: MarketDataSource;
const started: Emulator[] = [];

async function emulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const em = await startEmulator({ market, now: NOW, ...opts });
  started.push(em);
  return em;
}

interface Res {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  ms: number;
}

async function get(em: Emulator, path: string, key: string | null = 'demo-pro', init: RequestInit = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  if (key !== null) headers['X-Api-Key'] = key;
  const t0 = performance.now();
  const res = await fetch(em.url + path, { ...init, headers });
  const text = await res.text();
  const ms = performance.now() - t0;
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body, ms };
}

/** Assert an error response: status, code, exact body shape, CORS headers, and an optional message match. */
function assertError(r: Res, status: number, code: string, message?: string | RegExp): void {
  assert.equal(r.status, status, `expected ${status} ${code}, got ${r.status} ${r.text}`);
  assert.ok(v.is(ErrorBody, r.body), `error body shape: ${r.text}`);
  assert.deepEqual(Object.keys(r.body), ['error']);
  assert.deepEqual(Object.keys(r.body.error).sort(), ['code', 'message', 'status']);
  assert.equal(r.body.error.code, code);
  assert.equal(r.body.error.status, status);
  assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
  if (typeof message === 'string') assert.equal(r.body.error.message, message);
  else if (message) assert.match(r.body.error.message ?? '', message);
}

let btcId = 0;
let blockchainId = 0;

/** A query holding every required parameter of an endpoint, with plausible values. */
function sampleQuery(name: EndpointName, now: number): Record<string, string> {
  const q: Record<string, string> = {};
  for (const [k, p] of Object.entries(ENDPOINTS[name].params) as [string, ParamSpec][]) {
    if (!('required' in p) || !p.required) continue;
    switch (p.kind) {
      case 'int': q[k] = String(p.min); break;
      case 'enum': q[k] = p.values[0]; break;
      case 'time': q[k] = iso(now - 30 * DAY); break;
      case 'string': q[k] = 'bit'; break;
      case 'ids': q[k] = String(btcId); break;
    }
  }
  return q;
}

function samplePath(name: EndpointName, currencyId = btcId): string {
  const p: string = ENDPOINTS[name].path;
  return p.replace('{id}', String(p.startsWith('/v3/blockchains/') ? blockchainId : currencyId));
}

function withQuery(path: string, q: Record<string, string>): string {
  const s = new URLSearchParams(q).toString();
  return s ? `${path}?${s}` : path;
}

before(async () => {
  const { createMarket } = await import('../src/emulator/market/index');
  market = await createMarket({});
  // ids for the shape tests, read over HTTP
  const em = await emulator({ rpm: 10_000 });
  const map = await get(em, '/v3/currencies/map');
  assert.equal(map.status, 200, map.text);
  const btc = (map.body.data as { id: number; slug: string }[]).find((c) => c.slug === 'bitcoin');
  assert.ok(btc, 'bitcoin is in the currency map');
  btcId = btc.id;
  const chains = await get(em, '/v3/blockchains/map');
  assert.equal(chains.status, 200, chains.text);
  assert.ok(chains.body.data.length > 0, 'blockchain map is not empty');
  blockchainId = chains.body.data[0].id;
});

after(async () => {
  await Promise.all(started.map((em) => em.close()));
});

// ---------------------------------------------------------------- shapes

describe('every endpoint answers demo-pro with a valid body', () => {
  let em: Emulator;
  before(async () => {
    em = await emulator({ rpm: 10_000 });
  });

  for (const name of ENDPOINT_NAMES) {
    test(`${name} ${ENDPOINTS[name].path}`, async () => {
      const spec = ENDPOINTS[name];
      let r = await get(em, withQuery(samplePath(name), sampleQuery(name, NOW)));
      // Not every coin has every kind of data (bitcoin has no VC investors): try
      // the top coins of the markets list until one answers.
      if (r.status === 404 && spec.path.startsWith('/v3/currencies/{id}')) {
        const top = await get(em, '/v3/currencies/markets?limit=100');
        for (const c of top.body.data as { id: number }[]) {
          r = await get(em, withQuery(samplePath(name, c.id), sampleQuery(name, NOW)));
          if (r.status !== 404) break;
        }
      }
      assert.equal(r.status, 200, r.text.slice(0, 500));
      assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      assert.equal(r.headers.get('access-control-expose-headers'), 'Retry-After');
      if (name === 'status') {
        const parsed = v.safeParse(StatusBody, r.body);
        assert.ok(parsed.success, JSON.stringify(parsed.issues?.slice(0, 3)));
        assert.equal(r.body.data, undefined, '/v3/status is not wrapped');
        return;
      }
      const keys = Object.keys(r.body);
      assert.deepEqual(keys, 'pageSize' in spec ? ['data', 'meta', 'status'] : ['data', 'status']);
      const data = v.safeParse(spec.data, r.body.data);
      assert.ok(data.success, `${name} data: ${JSON.stringify(data.issues?.slice(0, 3).map((i) => [i.message, v.getDotPath(i)]))}`);
      assert.ok(v.is(EnvelopeStatus, r.body.status), JSON.stringify(r.body.status));
      assert.deepEqual(Object.keys(r.body.status).sort(), ['timestamp', 'usedCredits']);
      assert.equal(r.body.status.timestamp, NOW);
      if ('pageSize' in spec) {
        const metaSchema = 'meta' in spec ? spec.meta : PageMeta;
        const meta = v.safeParse(metaSchema, r.body.meta);
        assert.ok(meta.success, `${name} meta: ${JSON.stringify(r.body.meta)}`);
        // Fixed per endpoint (spec); the markets list pages by offset/limit and reports its limit.
        const limitParam = (spec.params as Record<string, ParamSpec>).limit;
        const expectedSize = limitParam?.kind === 'int' ? limitParam.default : spec.pageSize;
        assert.equal(r.body.meta.pageSize, expectedSize, 'meta.pageSize');
        assert.ok(r.body.data.length <= r.body.meta.pageSize, 'no more items than pageSize');
        assert.equal(r.body.meta.page, 1);
      }
      const expected = name === 'ping' ? 0 : creditCost(name, sampleQuery(name, NOW), Array.isArray(r.body.data) ? r.body.data.length : 0);
      assert.equal(r.body.status.usedCredits, expected);
    });
  }

  test('/v3/status lists exactly the paths each plan may call', async () => {
    for (const [key, plan] of Object.entries(DEMO_KEYS)) {
      if (!plan) continue;
      const r = await get(em, '/v3/status', key);
      assert.equal(r.status, 200);
      assert.equal(r.body.plan, plan);
      assert.equal(r.body.rateLimitPerMinute, 10_000, 'rpm override shows in rateLimitPerMinute');
      const expected = ENDPOINT_NAMES.filter((n) => planAllows(plan, ENDPOINTS[n].plan)).map((n) => ENDPOINTS[n].path);
      assert.deepEqual(r.body.endpoints, expected);
      assert.equal(r.body.credits.dailyLimit, PLAN_LIMITS[plan].dailyCredits);
      assert.equal(r.body.credits.monthlyLimit, PLAN_LIMITS[plan].monthlyCredits);
      assert.equal(r.body.currentPeriodStart, iso(monthStart(NOW)));
      assert.equal(r.body.currentPeriodEnd, iso(monthStart(NOW, 1)));
    }
    const sandbox = await get(em, '/v3/status', 'demo-sandbox');
    assert.ok(!sandbox.body.endpoints.includes(ENDPOINTS.tokenomics.path));
    assert.ok(sandbox.body.endpoints.includes(ENDPOINTS.markets.path));
  });
});

// ---------------------------------------------------------------- errors

describe('errors', () => {
  let em: Emulator;
  before(async () => {
    em = await emulator({ rpm: 10_000 });
  });

  test('401 API_KEY_MISSING without a key (and with an empty one)', async () => {
    assertError(await get(em, '/v3/currencies/markets', null), 401, 'API_KEY_MISSING', 'API key is missing');
    assertError(await get(em, '/v3/currencies/markets', ''), 401, 'API_KEY_MISSING');
    assertError(await get(em, '/v3/status', null), 401, 'API_KEY_MISSING');
  });

  test('401 API_KEY_INVALID for an unknown key', async () => {
    assertError(await get(em, '/v3/currencies/markets', 'nope'), 401, 'API_KEY_INVALID');
  });

  test('403 NO_ACTIVE_SUBSCRIPTION for demo-inactive, /v3/status and /v3/ping included', async () => {
    assertError(await get(em, '/v3/currencies/markets', 'demo-inactive'), 403, 'NO_ACTIVE_SUBSCRIPTION', 'No active subscription found');
    assertError(await get(em, '/v3/status', 'demo-inactive'), 403, 'NO_ACTIVE_SUBSCRIPTION');
    assertError(await get(em, '/v3/ping', 'demo-inactive'), 403, 'NO_ACTIVE_SUBSCRIPTION');
  });

  test('403 ENDPOINT_NOT_AVAILABLE in the live words, which do not name the plan', async () => {
    const live = 'Endpoint is not available in your plan';
    assertError(await get(em, samplePath('tokenomics'), 'demo-sandbox'), 403, 'ENDPOINT_NOT_AVAILABLE', live);
    assertError(await get(em, samplePath('vcPressure'), 'demo-advanced'), 403, 'ENDPOINT_NOT_AVAILABLE', live);
    assertError(await get(em, '/v3/currencies/search?query=bit', 'demo-sandbox'), 403, 'ENDPOINT_NOT_AVAILABLE', live);
    assert.equal((await get(em, '/v3/currencies/search?query=bit', 'demo-basic')).status, 200);
  });

  test('400 VALIDATION_ERROR: unknown, out-of-range, bad enum, missing, repeated, inherited names', async () => {
    assertError(await get(em, '/v3/currencies/list?limit=2'), 400, 'VALIDATION_ERROR', 'property limit should not exist');
    assertError(await get(em, '/v3/currencies/markets?limit=251'), 400, 'VALIDATION_ERROR', 'limit must not be greater than 250');
    assertError(await get(em, '/v3/currencies/markets?limit=0'), 400, 'VALIDATION_ERROR', 'limit must not be less than 1');
    assertError(await get(em, '/v3/currencies/markets?offset=50001'), 400, 'VALIDATION_ERROR', 'offset must not be greater than 50000');
    assertError(await get(em, '/v3/currencies/markets?limit=abc'), 400, 'VALIDATION_ERROR', 'limit must be an integer number');
    assertError(await get(em, '/v3/currencies/markets?sortBy=price'), 400, 'VALIDATION_ERROR', /^sortBy must be one of the following values: /);
    assertError(await get(em, '/v3/currencies/markets?convert=GBP'), 400, 'VALIDATION_ERROR', /convert must be one of/);
    assertError(await get(em, `/v3/currencies/${btcId}/analytics/returns`), 400, 'VALIDATION_ERROR', 'period should not be empty');
    assertError(await get(em, '/v3/currencies/markets?limit=1&limit=2'), 400, 'VALIDATION_ERROR', 'limit must not be repeated');
    assertError(await get(em, '/v3/currencies/markets?toString=1'), 400, 'VALIDATION_ERROR', 'property toString should not exist');
    // several problems in one message
    const r = await get(em, '/v3/currencies/markets?limit=251&foo=1');
    assertError(r, 400, 'VALIDATION_ERROR');
    assert.match(r.body.error.message, /property foo should not exist/);
    assert.match(r.body.error.message, /limit must not be greater than 250/);
    // the live wording: one "property X should not exist" per unknown name, joined by "; "
    assertError(await get(em, '/v3/currencies/list?limit=2&orderBy=rank&orderDirection=asc'), 400, 'VALIDATION_ERROR',
      'property limit should not exist; property orderBy should not exist; property orderDirection should not exist');
  });

  test('400 VALIDATION_ERROR for an id that is not a positive integer', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '01', '1e3', '99999999999999999999']) {
      assertError(await get(em, `/v3/currencies/${bad}/tokenomics`), 400, 'VALIDATION_ERROR', 'id must be a positive integer');
    }
    assertError(await get(em, '/v3/currencies/bitcoin'), 400, 'VALIDATION_ERROR', 'id must be a positive integer');
    assertError(await get(em, '/v3/blockchains/x/tvl/chart'), 400, 'VALIDATION_ERROR', 'id must be a positive integer');
  });

  test("404 NOT_FOUND for unknown currency and blockchain ids, with the spec's message", async () => {
    assertError(await get(em, '/v3/currencies/987654321'), 404, 'NOT_FOUND', 'Resource not found');
    assertError(await get(em, '/v3/currencies/987654321/tokenomics'), 404, 'NOT_FOUND', 'Resource not found');
    assertError(await get(em, '/v3/blockchains/987654321'), 404, 'NOT_FOUND', 'Resource not found');
    assertError(await get(em, '/v3/blockchains/987654321/tvl/change'), 404, 'NOT_FOUND', 'Resource not found');
  });

  test('404 Cannot GET for unknown routes; other methods are 404 too', async () => {
    assertError(await get(em, '/v3/nope'), 404, 'NOT_FOUND', 'Cannot GET /v3/nope');
    // the live wording names the path and the query as asked
    assertError(await get(em, '/v3/currencies/markets/extra?x=1'), 404, 'NOT_FOUND', 'Cannot GET /v3/currencies/markets/extra?x=1');
    assertError(await get(em, '/v3/currency/markets?limit=250'), 404, 'NOT_FOUND', 'Cannot GET /v3/currency/markets?limit=250');
    assertError(await get(em, '/v3/ping/'), 404, 'NOT_FOUND', 'Cannot GET /v3/ping/');
    assertError(await get(em, '/'), 404, 'NOT_FOUND', 'Cannot GET /');
    assertError(await get(em, '/v3/ping', 'demo-pro', { method: 'POST', body: '{}' }), 404, 'NOT_FOUND', 'Cannot POST /v3/ping');
    assertError(await get(em, '/v3/ping', 'demo-pro', { method: 'DELETE' }), 404, 'NOT_FOUND', 'Cannot DELETE /v3/ping');
  });

  test('order of checks: route, key, rate limit, plan, validation', async () => {
    assertError(await get(em, '/v3/nope', null), 404, 'NOT_FOUND'); // route before key
    assertError(await get(em, '/v3/currencies/abc', null), 401, 'API_KEY_MISSING'); // key before id validation
    assertError(await get(em, '/v3/currencies/abc/tokenomics?foo=1', 'demo-sandbox'), 403, 'ENDPOINT_NOT_AVAILABLE'); // plan before validation
    assertError(await get(em, '/v3/currencies/markets?foo=1', 'demo-inactive'), 403, 'NO_ACTIVE_SUBSCRIPTION');
  });

  test('403 PLAN_LIMIT_EXCEEDED: the sparkline reaches as deep as the documented table says, per plan and interval', async () => {
    // [doc] Basic 30 days at 5m/15m/1h and 1 year at 1d; Advanced 30 days and 2 years; Pro 90 days and 5 years,
    // counted in whole UTC days back from today's start.
    const today = Math.floor(NOW / DAY) * DAY;
    const spark = (key: string, days: number, interval: string) =>
      get(em, `/v3/currencies/${btcId}/sparkline?interval=${interval}&from=${iso(today - days * DAY)}`, key);
    for (const [key, intraday, daily] of [['demo-basic', 30, 365], ['demo-advanced', 30, 730], ['demo-pro', 90, 1825]] as const) {
      assert.equal((await spark(key, intraday, '1h')).status, 200, `${key}: ${intraday} days at 1h`);
      assertError(await spark(key, intraday + 1, '15m'), 403, 'PLAN_LIMIT_EXCEEDED');
      assert.equal((await spark(key, daily, '1d')).status, 200, `${key}: ${daily} days at 1d`);
      assertError(await spark(key, daily + 1, '1d'), 403, 'PLAN_LIMIT_EXCEEDED');
    }
  });

  test('errors cost nothing', async () => {
    const before = em.usage('demo-basic');
    assertError(await get(em, '/v3/currencies/markets?limit=251', 'demo-basic'), 400, 'VALIDATION_ERROR');
    assertError(await get(em, samplePath('tokenomics'), 'demo-basic'), 403, 'ENDPOINT_NOT_AVAILABLE');
    assertError(await get(em, '/v3/currencies/987654321', 'demo-basic'), 404, 'NOT_FOUND');
    const afterUsage = em.usage('demo-basic');
    assert.equal(afterUsage.dailyUsed, before.dailyUsed);
    assert.equal(afterUsage.monthlyUsed, before.monthlyUsed);
    assert.equal(afterUsage.requests, before.requests);
    assert.equal(afterUsage.errors, before.errors + 3);
  });
});

// ---------------------------------------------------------------- credits

describe('credits', () => {
  let em: Emulator;
  before(async () => {
    em = await emulator({ rpm: 10_000 });
  });

  async function status(key: string) {
    const r = await get(em, '/v3/status', key);
    assert.equal(r.status, 200);
    return r.body as v.InferOutput<typeof StatusBody>;
  }

  test('markets: 1, +1 EUR, +1 sparkline7d, +2 both; status.usedCredits equals the growth of dailyUsed', async () => {
    const cases: [string, number][] = [
      ['/v3/currencies/markets', 1],
      ['/v3/currencies/markets?convert=USD', 1],
      ['/v3/currencies/markets?convert=EUR', 2],
      ['/v3/currencies/markets?include=sparkline7d', 2],
      ['/v3/currencies/markets?convert=EUR&include=sparkline7d&limit=5', 3],
    ];
    let total = (await status('demo-advanced')).credits.dailyUsed;
    assert.equal(total, 0);
    for (const [path, cost] of cases) {
      const r = await get(em, path, 'demo-advanced');
      assert.equal(r.status, 200, r.text.slice(0, 300));
      assert.equal(r.body.status.usedCredits, cost, path);
      const s = await status('demo-advanced');
      assert.equal(s.credits.dailyUsed - total, r.body.status.usedCredits, `dailyUsed grew by usedCredits for ${path}`);
      total = s.credits.dailyUsed;
    }
    assert.equal(total, 9);
    const s = await status('demo-advanced');
    assert.equal(s.credits.monthlyUsed, 9);
    assert.equal(s.credits.dailyRemaining, PLAN_LIMITS.Advanced.dailyCredits - 9);
    assert.equal(s.credits.monthlyRemaining, PLAN_LIMITS.Advanced.monthlyCredits - 9);
    const u = em.usage('demo-advanced');
    assert.equal(u.dailyUsed, 9);
    assert.deepEqual(u.byPath['/v3/currencies/markets'], { requests: 5, credits: 9 });
    assert.equal(u.byPath['/v3/status'].credits, 0, '/v3/status is free');
  });

  test('sparkline7d and convert=EUR change the data', async () => {
    const plain = await get(em, '/v3/currencies/markets?limit=3');
    const spark = await get(em, '/v3/currencies/markets?limit=3&include=sparkline7d');
    assert.equal(plain.body.data[0].sparkline7d, undefined);
    assert.ok(Array.isArray(spark.body.data[0].sparkline7d));
    const eur = await get(em, '/v3/currencies/markets?limit=3&convert=EUR');
    assert.notEqual(eur.body.data[0].price, plain.body.data[0].price);
  });

  test('daily candles over 365 days cost 1 + ceil((365 - 100) / 100) = 4', async () => {
    const q = { from: iso(NOW - 365 * DAY), to: iso(NOW) };
    const r = await get(em, withQuery(samplePath('candles'), q), 'demo-pro');
    assert.equal(r.status, 200, r.text.slice(0, 300));
    const n = r.body.data.length;
    assert.ok(n >= 301 && n <= 400, `365 days of daily candles, got ${n}`);
    assert.equal(r.body.status.usedCredits, 4);
    assert.equal(r.body.status.usedCredits, creditCost('candles', q, n));
    const short = await get(em, withQuery(samplePath('candles'), { from: iso(NOW - 30 * DAY), to: iso(NOW) }), 'demo-pro');
    assert.equal(short.body.status.usedCredits, 1);
  });

  test('ping and status are free', async () => {
    const before = em.usage('demo-sandbox').dailyUsed;
    const p = await get(em, '/v3/ping', 'demo-sandbox');
    assert.equal(p.status, 200);
    assert.equal(p.body.status.usedCredits, 0);
    await status('demo-sandbox');
    assert.equal(em.usage('demo-sandbox').dailyUsed, before);
    assert.equal(em.usage('demo-sandbox').requests, 2);
  });

  test('403 PLAN_LIMIT_EXCEEDED when a request would exceed the daily limit; resets on the next UTC day', async () => {
    const ctl = await emulator({ rpm: 10_000, clock: () => NOW });
    ctl.setUsage('demo-sandbox', { dailyUsed: 399, monthlyUsed: 399 });
    assertError(await get(ctl, '/v3/currencies/markets?convert=EUR', 'demo-sandbox'), 403, 'PLAN_LIMIT_EXCEEDED', 'Daily credit limit exceeded');
    const ok = await get(ctl, '/v3/currencies/markets', 'demo-sandbox');
    assert.equal(ok.status, 200, 'reaching the limit exactly is allowed');
    assertError(await get(ctl, '/v3/currencies/markets', 'demo-sandbox'), 403, 'PLAN_LIMIT_EXCEEDED', 'Daily credit limit exceeded');
    const s = await get(ctl, '/v3/status', 'demo-sandbox');
    assert.equal(s.status, 200, 'status answers at the limit (free)');
    assert.equal(s.body.credits.dailyUsed, 400);
    assert.equal(s.body.credits.dailyRemaining, 0);
    assert.equal((await get(ctl, '/v3/ping', 'demo-sandbox')).status, 200, 'ping answers at the limit (free)');
    // the next UTC day, in the same credit period (the frozen instant is not its month's last day)
    const tomorrow = Math.floor(NOW / DAY) * DAY + DAY;
    assert.equal(monthStart(tomorrow), monthStart(NOW), 'tomorrow is in the same month');
    ctl.clock.set(tomorrow);
    const next = await get(ctl, '/v3/currencies/markets', 'demo-sandbox');
    assert.equal(next.status, 200, next.text.slice(0, 200));
    assert.equal(ctl.usage('demo-sandbox').dailyUsed, 1);
    assert.equal(ctl.usage('demo-sandbox').monthlyUsed, 401);
    // monthly limit
    ctl.setUsage('demo-sandbox', { monthlyUsed: PLAN_LIMITS.Sandbox.monthlyCredits });
    assertError(await get(ctl, '/v3/currencies/markets', 'demo-sandbox'), 403, 'PLAN_LIMIT_EXCEEDED', 'Monthly credit limit exceeded');
    // the next credit period
    ctl.clock.set(monthStart(NOW, 1));
    assert.equal((await get(ctl, '/v3/currencies/markets', 'demo-sandbox')).status, 200);
    const nextPeriod = await get(ctl, '/v3/status', 'demo-sandbox');
    assert.equal(nextPeriod.body.credits.monthlyUsed, 1);
    assert.equal(nextPeriod.body.currentPeriodStart, iso(monthStart(NOW, 1)));
  });
});

// ---------------------------------------------------------------- rate limit

describe('rate limit', () => {
  test('demo-sandbox: 10 per sliding minute, then 429 with Retry-After; a slot frees as the window slides', async () => {
    let t = NOW;
    const em = await emulator({ clock: () => t });
    for (let i = 0; i < 9; i++) {
      assert.equal((await get(em, '/v3/ping', 'demo-sandbox')).status, 200, `request ${i + 1}`);
      t += 1000;
    }
    assert.equal((await get(em, '/v3/status', 'demo-sandbox')).status, 200, '10th request (status counts too)');
    t = NOW + 30_000;
    const r = await get(em, '/v3/currencies/markets', 'demo-sandbox');
    assertError(r, 429, 'RATE_LIMIT_EXCEEDED', 'Rate limit exceeded');
    assert.equal(r.headers.get('retry-after'), '30', 'the first slot frees at NOW + 60 s');
    assert.equal(r.headers.get('access-control-expose-headers'), 'Retry-After');
    // rate limit comes before the plan check
    assertError(await get(em, samplePath('tokenomics'), 'demo-sandbox'), 429, 'RATE_LIMIT_EXCEEDED');
    // other keys are not affected
    assert.equal((await get(em, '/v3/ping', 'demo-basic')).status, 200);
    t = NOW + 59_500;
    assert.equal((await get(em, '/v3/ping', 'demo-sandbox')).headers.get('retry-after'), '1', 'at least 1 s');
    t = NOW + 60_000;
    assert.equal((await get(em, '/v3/ping', 'demo-sandbox')).status, 200, 'the first slot freed');
    const again = await get(em, '/v3/ping', 'demo-sandbox');
    assert.equal(again.status, 429);
    assert.equal(again.headers.get('retry-after'), '1', 'the second slot frees at NOW + 61 s');
    // refused requests did not take slots: 429s cost nothing either
    assert.equal(em.usage('demo-sandbox').dailyUsed, 0);
  });

  test('rpm override applies to every plan and shows in /v3/status; clock.advance slides the window', async () => {
    const em = await emulator({ rpm: 3, clock: () => NOW });
    const s = await get(em, '/v3/status', 'demo-pro');
    assert.equal(s.body.rateLimitPerMinute, 3);
    assert.equal((await get(em, '/v3/ping', 'demo-pro')).status, 200);
    assert.equal((await get(em, '/v3/ping', 'demo-pro')).status, 200);
    const r = await get(em, '/v3/ping', 'demo-pro');
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '60');
    em.clock.advance(60_000);
    assert.equal((await get(em, '/v3/ping', 'demo-pro')).status, 200);
  });

  test('plan limits without override', async () => {
    const em = await emulator({ clock: () => NOW });
    for (const [key, plan] of Object.entries(DEMO_KEYS)) {
      if (!plan) continue;
      const s = await get(em, '/v3/status', key);
      assert.equal(s.body.rateLimitPerMinute, PLAN_LIMITS[plan].rateLimitPerMinute);
      assert.equal(em.rateLimitFor(key), PLAN_LIMITS[plan].rateLimitPerMinute);
    }
  });

  test('RateLimiter unit: sliding window and Retry-After', () => {
    const rl = new RateLimiter(60_000);
    assert.deepEqual(rl.take('k', 2, 0), { allowed: true, remaining: 1 });
    assert.deepEqual(rl.take('k', 2, 10_000), { allowed: true, remaining: 0 });
    assert.deepEqual(rl.take('k', 2, 10_001), { allowed: false, retryAfter: 50 });
    assert.deepEqual(rl.take('k', 2, 60_000), { allowed: true, remaining: 0 });
    assert.deepEqual(rl.take('k', 2, 60_000), { allowed: false, retryAfter: 10 });
    assert.equal(rl.count('k', 60_000), 2);
  });
});

// ---------------------------------------------------------------- CORS

describe('CORS', () => {
  test('preflight for any /v3 path', async () => {
    const em = await emulator();
    for (const path of ['/v3/currencies/markets', '/v3/status', '/v3/does/not/exist']) {
      const res = await fetch(em.url + path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://localhost:3000', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.equal(res.headers.get('access-control-allow-methods'), 'GET, OPTIONS');
      assert.equal(res.headers.get('access-control-allow-headers'), 'X-Api-Key, Content-Type');
      assert.ok(Number(res.headers.get('access-control-max-age')) > 0);
      assert.equal(await res.text(), '');
    }
    const outside = await fetch(em.url + '/other', { method: 'OPTIONS' });
    assert.equal(outside.status, 404);
    await outside.text();
    // preflights need no key and take no rate-limit slot
    assert.equal(em.rateLimiter.count('demo-sandbox', em.clock.now()), 0);
  });

  test('every response carries Access-Control-Allow-Origin and exposes Retry-After', async () => {
    const em = await emulator();
    for (const [path, key] of [['/v3/ping', 'demo-pro'], ['/v3/ping', null], ['/v3/nope', 'demo-pro'], ['/v3/status', 'demo-basic']] as const) {
      const r = await get(em, path, key, { headers: { Origin: 'https://localhost:3000' } });
      assert.equal(r.headers.get('access-control-allow-origin'), '*', path);
      assert.equal(r.headers.get('access-control-expose-headers'), 'Retry-After', path);
    }
  });
});

// ---------------------------------------------------------------- faults

describe('faults', () => {
  test('queued 500, 429 with Retry-After, malformed, drop', async () => {
    const em = await emulator();
    em.faults.queue({ kind: '500', times: 2 }, { kind: '429', retryAfter: 2 }, { kind: 'malformed' });
    assert.equal(em.faults.pending, 4);
    assertError(await get(em, '/v3/ping'), 500, 'INTERNAL_ERROR', 'Internal server error');
    assertError(await get(em, '/v3/currencies/markets?limit=2'), 500, 'INTERNAL_ERROR');
    const r429 = await get(em, '/v3/ping');
    assertError(r429, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(r429.headers.get('retry-after'), '2');
    const bad = await get(em, '/v3/currencies/markets');
    assert.equal(bad.status, 200);
    assert.equal(bad.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.throws(() => JSON.parse(bad.text), SyntaxError);
    assert.equal((await get(em, '/v3/ping')).status, 200, 'the queue is used up');
    em.faults.queue({ kind: 'drop' });
    await assert.rejects(fetch(em.url + '/v3/ping', { headers: { 'X-Api-Key': 'demo-pro' } }), TypeError);
    assert.equal((await get(em, '/v3/ping')).status, 200, 'serves again after a drop');
    assert.deepEqual(em.stats().faults, { '429': 1, '500': 2, hang: 0, malformed: 1, drop: 1, slow: 0 });
    assert.equal(em.usage('demo-pro').dailyUsed, 0, 'faults cost nothing');
  });

  test('slow: the normal answer, late by slowMs', async () => {
    const em = await emulator({ slowMs: 300 });
    const plain = await get(em, '/v3/currencies/markets?limit=2');
    em.faults.queue({ kind: 'slow' });
    const t0 = performance.now();
    const late = await get(em, '/v3/currencies/markets?limit=2');
    const ms = performance.now() - t0;
    assert.equal(late.status, 200);
    assert.equal(late.text.replace(/"timestamp":\d+/, ''), plain.text.replace(/"timestamp":\d+/, ''), 'the same answer');
    assert.ok(ms >= 290, `answered after ${ms.toFixed(0)} ms`);
    assert.equal(em.stats().faults.slow, 1);
  });

  test('a queued fault with a path waits for that path', async () => {
    const em = await emulator();
    em.faults.queue({ kind: '500', path: '/v3/currencies/markets' });
    assert.equal((await get(em, '/v3/ping')).status, 200);
    assert.equal((await get(em, '/v3/currencies/markets?limit=1')).status, 500);
    assert.equal((await get(em, '/v3/currencies/markets?limit=1')).status, 200);
  });

  test('hang: no answer until the client gives up; close() does not hang', async () => {
    const em = await startEmulator({ market, now: NOW });
    em.faults.queue({ kind: 'hang', times: 2 });
    const t0 = performance.now();
    await assert.rejects(
      fetch(em.url + '/v3/ping', { headers: { 'X-Api-Key': 'demo-pro' }, signal: AbortSignal.timeout(300) }),
      (err: Error) => err.name === 'TimeoutError' || err.name === 'AbortError',
    );
    assert.ok(performance.now() - t0 >= 290, 'the request did not complete early');
    // a second hung request left open while the server closes
    const pending = fetch(em.url + '/v3/ping', { headers: { 'X-Api-Key': 'demo-pro' } }).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((r) => setTimeout(r, 50));
    const c0 = performance.now();
    await em.close();
    const closeMs = performance.now() - c0;
    assert.ok(closeMs < 1000, `close took ${closeMs} ms`);
    assert.equal(await pending, 'failed');
  });

  test('random faults are reproducible from the seed', async () => {
    const run = async (seed: number) => {
      const em = await emulator({ faults: '500:0.3,429:0.2', seed, rpm: 10_000 });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await get(em, '/v3/ping')).status);
      return statuses;
    };
    const a = await run(7);
    const b = await run(7);
    const c = await run(8);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
    assert.ok(a.includes(500) && a.includes(429) && a.includes(200), a.join(','));
  });

  test('fault spec parsing', () => {
    assert.deepEqual(parseFaultSpec('429:0.05,500:0.05,hang:0.01,malformed:0.02,drop:0.01'), {
      '429': 0.05, '500': 0.05, hang: 0.01, malformed: 0.02, drop: 0.01,
    });
    assert.deepEqual(parseFaultSpec(''), {});
    assert.throws(() => parseFaultSpec('503:0.1'), /unknown fault kind/);
    assert.throws(() => parseFaultSpec('500:2'), /./);
    assert.throws(() => parseFaultSpec('500:0.6,429:0.6'), /more than 1/);
    assert.throws(() => parseFaultSpec('500'), /kind:share/);
    const f = new FaultInjector('500:1', 1);
    assert.equal(f.next('/v3/ping')?.kind, '500');
    f.clear();
    assert.equal(f.next('/v3/ping'), null);
  });
});

// ---------------------------------------------------------------- latency and speed

describe('latency and speed', () => {
  test('--latency adds at least the latency; jitter stays within bounds', async () => {
    const em = await emulator({ latency: 80 });
    for (let i = 0; i < 3; i++) {
      const r = await get(em, '/v3/ping');
      assert.equal(r.status, 200);
      assert.ok(r.ms >= 79, `took ${r.ms} ms`);
    }
    const errors = await get(em, '/v3/ping', null);
    assert.ok(errors.ms >= 79, 'errors are delayed too');
    em.setLatency('40:30');
    const times: number[] = [];
    for (let i = 0; i < 8; i++) times.push((await get(em, '/v3/ping')).ms);
    assert.ok(times.every((ms) => ms >= 9), times.join(','));
    assert.deepEqual(parseLatency('50:20'), { ms: 50, jitter: 20 });
    assert.deepEqual(parseLatency('50'), { ms: 50, jitter: 0 });
    assert.throws(() => parseLatency('fast'));
  });

  test('a markets page of 250 items on loopback', async () => {
    const em = await emulator({ rpm: 100_000 });
    const path = '/v3/currencies/markets?limit=250';
    await get(em, path); // warm-up
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 20; i++) {
      const r = await get(em, path);
      assert.equal(r.status, 200);
      assert.equal(r.body.data.length, 250);
      bytes = r.text.length;
      times.push(r.ms);
    }
    times.sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    console.log(`markets page of 250 items: mean ${mean.toFixed(2)} ms, median ${times[10].toFixed(2)} ms, max ${times[19].toFixed(2)} ms, ${(bytes / 1024).toFixed(0)} KiB`);
    // Client and server share this process's thread; the median keeps GC pauses and a busy machine from flaking it.
    assert.ok(times[10] < 50, `median ${times[10]} ms`);
    assert.ok(mean < 100, `mean ${mean} ms`);
  });
});

// ---------------------------------------------------------------- routing unit

test('matchRoute: static paths win over {id} templates', () => {
  assert.deepEqual(matchRoute('/v3/currencies/map'), { name: 'currencyMap' });
  assert.deepEqual(matchRoute('/v3/currencies/historical'), { name: 'historicalItem' });
  assert.deepEqual(matchRoute('/v3/currencies/12/historical'), { name: 'candles', rawId: '12' });
  assert.deepEqual(matchRoute('/v3/blockchains/7/tvl/chart'), { name: 'tvlChart', rawId: '7' });
  assert.equal(matchRoute('/v3/currencies'), null);
  assert.equal(matchRoute('/v3/currencies//tokenomics'), null);
});

// ---------------------------------------------------------------- CLI

test('the CLI starts, prints its URL and keys, answers, and exits on SIGTERM', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/emulator/cli.ts', '--port', '0', '--rpm', '5', '--now', FROZEN_ISO], {
    cwd: new URL('..', import.meta.url),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  try {
    const deadline = Date.now() + 20_000;
    while (!/Stop with Ctrl\+C/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) assert.fail(`CLI did not start: ${out}\n${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const m = /listening on (http:\/\/127\.0\.0\.1:(\d+))\/v3/.exec(out);
    assert.ok(m, out);
    assert.notEqual(m[2], '0');
    for (const key of Object.keys(DEMO_KEYS)) assert.ok(out.includes(key), `prints ${key}`);
    assert.match(out, /rpm:\s+5/);
    assert.ok(out.includes(`fixed at ${FROZEN_ISO}`), out);
    const res = await fetch(`${m[1]}/v3/status`, { headers: { 'X-Api-Key': 'demo-basic' } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { plan: string; rateLimitPerMinute: number };
    assert.equal(body.plan, 'Basic');
    assert.equal(body.rateLimitPerMinute, 5);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0, err);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test('the CLI refuses bad options with exit code 2 and a readable message', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/emulator/cli.ts', '--port', '0', '--faults', '503:0.1'], {
    cwd: new URL('..', import.meta.url),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const [code] = await once(child, 'exit');
  assert.equal(code, 2);
  assert.match(err, /unknown fault kind "503"/);
});

describe('dialects: the same market in each documented shape', () => {
  test('--dialect docs and legacy reshape status, candles, unlocks and tokenomics losslessly; other answers are identical', async () => {
    const [spec, docs, legacy] = await Promise.all(
      (['spec', 'docs', 'legacy'] as const).map((dialect) => emulator({ rpm: 10_000, dialect })),
    );
    const body = async (em: Emulator, path: string) => {
      const r = await get(em, path);
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const s = await body(spec, '/v3/status');
    const d = await body(docs, '/v3/status');
    const l = await body(legacy, '/v3/status');
    assert.ok(Array.isArray(s.endpoints));
    assert.deepEqual(d, Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'endpoints')), 'the spec shape without endpoints');
    assert.deepEqual(l, {
      status: 'ok', plan: s.plan, creditsTotal: s.credits.monthlyLimit, creditsUsed: s.credits.monthlyUsed,
      creditsRemaining: s.credits.monthlyRemaining, maxRPM: s.rateLimitPerMinute,
      currentPeriodStart: s.currentPeriodStart, currentPeriodEnd: s.currentPeriodEnd,
    });
    const candles = `/v3/currencies/${btcId}/historical?from=${iso(NOW - 14 * DAY).slice(0, 10)}`;
    const [cs, cd, cl] = [(await body(spec, candles)).data[0], (await body(docs, candles)).data[0], (await body(legacy, candles)).data[0]];
    assert.deepEqual([cd.date, 'time' in cd], [cs.time, false]);
    assert.equal(Date.parse(cl.date), cs.time);
    assert.equal(cd.close, cs.close);
    const u = (em: Emulator) => body(em, '/v3/currencies/upcoming-token-unlocks');
    const [us, ud] = [(await u(spec)).data[0], (await u(docs)).data[0]];
    assert.deepEqual([ud.currencyId, ud.tokenAmount, ud.usdAmount, 'id' in ud], [us.id, us.unlockTokens, us.unlockValue, false]);
    const same = '/v3/global/market';
    assert.deepEqual((await body(docs, same)).data, (await body(spec, same)).data);
  });
});
