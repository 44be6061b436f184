/**
 * Issue #22: nothing a server answers can hurt the user. A hostile server in
 * front of the local API server (harness/hostile-server.ts), over real HTTP,
 * plays the audit's scenarios; each assertion failed before its fix.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { calculate } from '../src/cli/calculate';
import { openSession, type Session } from '../src/cli/session';
import { MarketClient, MemoryKeyStore, MemoryKvStore } from '../src/client/index';
import { Pacer, MAX_HOLD_MS } from '../src/client/pacer';
import { parseRetryAfter } from '../src/client/error-answer';
import { startEmulator, type Emulator } from '../src/emulator/server';
import { startHostileServer, startWitness, type HostileServer } from '../harness/hostile-server';

const KEY = 'sk-hostile-7Q2fZ9-SECRET-4b1e';
let em: Emulator;
let hostile: HostileServer;
const sessions: Session[] = [];

before(async () => {
  em = await startEmulator({ keys: { [KEY]: 'Pro', 'demo-inactive': null }, rpm: 5000 });
  hostile = await startHostileServer(em.url);
});

after(async () => {
  for (const s of sessions) await s.close();
  await hostile.close();
  await em.close();
});

async function session(o: Parameters<typeof openSession>[0] = {}): Promise<Session> {
  const s = await openSession({ apiUrl: hostile.url, key: KEY, ...o, client: { maxRetries: 1, ...o.client } });
  sessions.push(s);
  return s;
}

const path = (url: string) => url.split('?')[0];
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
const noKey = (text: string) => assert.ok(!text.includes(KEY) && !text.includes(encodeURIComponent(KEY)), `the key leaked: ${text}`);

async function cell(s: Session, text: string): Promise<{ value?: unknown; error?: string; message?: string }> {
  const out = await calculate(s.host, text);
  return out as { value?: unknown; error?: string; message?: string };
}

test('1. a 429 with Retry-After 999999 s or an HTTP date in 2100 holds at most one rate window, and a new key or Refresh all data clears it', async () => {
  const now = Date.now();
  assert.equal(parseRetryAfter('999999', now), 999_999_000, 'the header as sent');
  const pacer = new Pacer({ rpm: 100, now: () => now, sleep: async () => undefined });
  pacer.holdUntil(now + 999_999_000);
  assert.equal(pacer.delayMs(), MAX_HOLD_MS, 'capped at one rate window');
  pacer.holdUntil(now + (parseRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', now) ?? 0));
  assert.ok(pacer.delayMs() <= MAX_HOLD_MS && MAX_HOLD_MS < 2 ** 31 - 1, 'never past a timer');
  pacer.clearHold();
  assert.equal(pacer.delayMs(), 0);

  // Over HTTP: one 429 with an absurd Retry-After, then the service is fine. The retry waits the cap
  // (here 300 ms), not the header: the same cell gets its value within its deadline (3 s here).
  let served429 = 0;
  hostile.play((r) => (path(r.url) === '/v3/currencies/markets' && served429++ === 0 ? json(429, { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow down' } }, { 'retry-after': '999999' }) : null));
  const s = await session({ client: { maxRetries: 1, maxRateLimitWaitMs: 300 }, host: { deadlineMs: 3_000 } });
  const first = await cell(s, '=CRYPTO.PRICE("bitcoin")');
  assert.equal(typeof (first.value as unknown[][])?.[0]?.[0], 'number', `a value after the capped wait: ${JSON.stringify(first)}`);
  assert.equal(served429, 2, 'the 429, then the retry');

  // With the default cap (a minute, longer than this session's 3 s deadline), the cell runs out of time
  // without promising what cannot happen; Refresh all data ends the hold at once.
  served429 = 0;
  const d = await session({ client: { maxRetries: 1 }, host: { deadlineMs: 3_000 } });
  const held = await cell(d, '=CRYPTO.PRICE("ethereum")');
  assert.equal(held.error, '#N/A');
  assert.match(held.message ?? '', /Rate limit|slow down/, 'the 429 named as the cause');
  d.client.refreshAll();
  const t1 = Date.now();
  const again = await cell(d, '=CRYPTO.PRICE("ethereum")');
  assert.equal(typeof (again.value as unknown[][])?.[0]?.[0], 'number', JSON.stringify(again));
  assert.ok(Date.now() - t1 < 3_000, 'no minute-long wait after Refresh all data');
  hostile.play(null);
});

test('2. a redirect to another origin is not followed: the key never reaches it, and the cell says why', async () => {
  const witness = await startWitness();
  try {
    for (const status of [301, 302, 307, 308]) {
      hostile.play((r) => (path(r.url) === '/v3/currencies/markets' ? { status, headers: { location: `${witness.url}${r.url}` } } : null));
      const s = await session();
      const out = await cell(s, '=CRYPTO.PRICE("bitcoin")');
      assert.equal(out.error, '#N/A', `HTTP ${status}`);
      assert.match(out.message ?? '', /redirect/);
      noKey(JSON.stringify(out));
    }
    assert.deepEqual(witness.seen, [], 'no request reached the other origin');
  } finally {
    hostile.play(null);
    await witness.close();
  }
});

test('3. an empty or mostly unreadable coin map is refused and the previous one kept; a coin given by id needs no map', async () => {
  hostile.play((r) => (path(r.url) === '/v3/currencies/map' ? json(200, { data: [], status: { usedCredits: 1, timestamp: Date.now() } }) : null));
  const s = await session({ client: { freshnessMs: { reference: 1 } } });
  const bitcoin = await cell(s, '=CRYPTO.PRICE("bitcoin")');
  assert.equal(bitcoin.error, '#N/A');
  assert.match(bitcoin.message ?? '', /empty/);
  const byId = await cell(s, '=CRYPTO.PRICE(1)');
  assert.equal(typeof (byId.value as unknown[][])?.[0]?.[0], 'number', `PRICE(1) without a map: ${JSON.stringify(byId)}`);

  // The service recovers: the map is asked again (nothing bad was kept) and text coins work.
  hostile.play(null);
  const recovered = await cell(s, '=CRYPTO.PRICE("bitcoin")');
  assert.equal(typeof (recovered.value as unknown[][])?.[0]?.[0], 'number', JSON.stringify(recovered));

  // A good map known: an unreadable one (its lifetime here is 1 ms) does not replace it.
  hostile.play(async (r, up) => {
    if (path(r.url) !== '/v3/currencies/map') return null;
    const real = JSON.parse((await up()).text) as { data: unknown[] };
    return json(200, { data: real.data.map(() => ({ nonsense: true })), status: { usedCredits: 1, timestamp: Date.now() } });
  });
  s.client.refreshAll();
  const kept = await cell(s, '=CRYPTO.PRICE("solana")');
  assert.equal(typeof (kept.value as unknown[][])?.[0]?.[0], 'number', `the previous map still serves: ${JSON.stringify(kept)}`);
  assert.ok(hostile.seen.some((r) => path(r.url) === '/v3/currencies/map'), 'the bad map was asked for');
  hostile.play(null);
});

test('4. a server echoing the key, in error code, message or a wrong-typed value, never gets it into a cell or the error log; an unknown code takes its status\'s meaning', async () => {
  hostile.play((r) =>
    path(r.url) === '/v3/currencies/markets' ? json(400, { error: { code: `BAD_${KEY}`, message: `key ${KEY} (${encodeURIComponent(KEY)}) is odd` } }) : null,
  );
  const s = await session();
  const out = await cell(s, '=CRYPTO.PRICE("bitcoin")');
  assert.ok(out.error, JSON.stringify(out));
  assert.ok(!JSON.stringify(out).includes('BAD_'), `the unknown code is not shown: ${JSON.stringify(out)}`);
  noKey(JSON.stringify(out));

  // A wrong-typed value that is the key: the validation message names the field, not the value.
  hostile.play(async (r) => {
    if (path(r.url) !== '/v3/global/fear-greed') return null;
    return json(200, { data: { currentValue: KEY, classification: 'Fear' }, status: { usedCredits: 1, timestamp: Date.now() } });
  });
  const fg = await cell(s, '=CRYPTO.FEARGREED()');
  assert.ok(fg.error, JSON.stringify(fg));
  noKey(JSON.stringify(fg));
  noKey(JSON.stringify(s.host.errors()));
  assert.ok(s.host.errors().length > 0, 'the errors were logged');

  // A 500 whose code is "constructor": retried, and an outage with the last good value rule.
  let hits = 0;
  hostile.play((r) => (path(r.url) === '/v3/global/altcoin-index' ? (hits++, json(500, { error: { code: 'constructor', message: 'x' } })) : null));
  const t = await session({ client: { maxRetries: 1, random: () => 0 } });
  const ai = await cell(t, '=CRYPTO.ALTSEASON()');
  assert.equal(ai.error, '#N/A');
  assert.match(ai.message ?? '', /Market data unavailable \(INTERNAL_ERROR\)/);
  assert.equal(hits, 2, 'retried once');
  hostile.play(null);
});

test('4b. an unreadable list item named by a slug that echoes the key: its cell names it scrubbed and clipped', async () => {
  hostile.play(async (r) => {
    if (path(r.url) !== '/v3/currencies/markets') return null;
    const up = await fetch(`${em.url}${r.url}`, { headers: { 'X-Api-Key': KEY } });
    const body = (await up.json()) as { data: { id: number; slug: string; price: unknown }[] };
    const btc = body.data.find((it) => it.id === 1)!;
    btc.slug = `echo ${KEY} ${KEY.toUpperCase()} ${'x'.repeat(5000)}`; // as sent, and in another case
    btc.price = 123; // wrong-typed: the item is set aside, and its cell says which
    return json(200, body);
  });
  const s = await session();
  const out = await cell(s, '=CRYPTO.PRICE(1)');
  hostile.play(null);
  assert.equal(out.error, '#N/A', JSON.stringify(out).slice(0, 300));
  assert.match(out.message ?? '', /The API answered price in an unexpected form \(expected string\) \(echo \*\*\* \*\*\* x+…, \/v3\/currencies\/markets\)/);
  noKey(JSON.stringify(out));
  noKey(JSON.stringify(s.host.errors()));
  assert.ok(!JSON.stringify(out).toUpperCase().includes(KEY.toUpperCase()), 'in no letter case either');
  assert.ok((out.message ?? '').length < 250, `clipped: ${out.message?.length} characters`);
});

test('4c. the key echoed in a string of a readable answer (a name, a website) never reaches a cell', async () => {
  hostile.play(async (r) => {
    if (path(r.url) !== '/v3/currencies/1') return null;
    const up = await fetch(`${em.url}${r.url}`, { headers: { 'X-Api-Key': KEY } });
    const body = (await up.json()) as { data: Record<string, unknown> };
    // As sent, in another case, and URL-encoded: each would be a cell value, saved with the workbook.
    return json(200, { ...body, data: { ...body.data, name: `Bitcoin ${KEY} ${KEY.toUpperCase()} ${encodeURIComponent(KEY)}` } });
  });
  const s = await session();
  const out = await cell(s, '=CRYPTO.PROFILE(1,"name")');
  hostile.play(null);
  assert.deepEqual(out.value, [['Bitcoin *** *** ***']], JSON.stringify(out));
  assert.ok(!JSON.stringify(out).toUpperCase().includes(KEY.toUpperCase()), 'in no letter case');
});

test('5. an answer past the byte cap (a gzip bomb) is refused while it streams, with a clear #N/A', async () => {
  const bomb = gzipSync(Buffer.alloc(40 * 1024 * 1024, 32)); // 40 MB of spaces in about 40 KB
  assert.ok(bomb.byteLength < 200_000);
  hostile.play((r) => (path(r.url) === '/v3/global/fear-greed' ? { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb } : null));
  const s = await session();
  const out = await cell(s, '=CRYPTO.FEARGREED()');
  assert.equal(out.error, '#N/A');
  assert.match(out.message ?? '', /larger than 16 MB/);
  hostile.play(null);
});

test('6. 1e400 and a 400-digit decimal are unreadable fields, not Infinity or 0', async () => {
  hostile.play((r) => (path(r.url) === '/v3/global/fear-greed' ? { status: 200, body: '{"data":{"currentValue":1e400,"classification":"Fear"},"status":{"usedCredits":1,"timestamp":0}}' } : null));
  const s = await session();
  const fg = await cell(s, '=CRYPTO.FEARGREED()');
  assert.equal(fg.error, '#N/A', `not ±Infinity: ${JSON.stringify(fg)}`);
  assert.match(fg.message ?? '', /currentValue/);

  hostile.play(async (r, up) => {
    if (path(r.url) !== '/v3/currencies/markets') return null;
    const real = JSON.parse((await up()).text) as { data: { slug: string; price: string }[] };
    for (const item of real.data) if (item.slug === 'bitcoin') item.price = `0.${'0'.repeat(400)}1`;
    return json(200, real);
  });
  const t = await session();
  const btc = await cell(t, '=CRYPTO.PRICE("bitcoin")');
  assert.equal(btc.error, '#N/A', `not 0: ${JSON.stringify(btc)}`);
  assert.match(btc.message ?? '', /price/);
  const eth = await cell(t, '=CRYPTO.PRICE("ethereum")');
  assert.equal(typeof (eth.value as unknown[][])?.[0]?.[0], 'number', 'the other coins on the page are read');
  hostile.play(null);
});

test('7. "constructor" and "__proto__" as a choice, field or view are clear #VALUE! cells that spend no request', async () => {
  const s = await session();
  await cell(s, '=CRYPTO.PRICE("bitcoin")');
  const before = hostile.seen.length;
  for (const text of [
    '=CRYPTO.HOLDERS("bitcoin","constructor")',
    '=CRYPTO.QUOTE("bitcoin","__proto__")',
    '=CRYPTO.DOMINANCE("constructor")',
    '=CRYPTO.TOKENOMICS("ethereum","toString")',
    '=CRYPTO.HISTORICAL("bitcoin","2024-01-01","hasOwnProperty")',
  ]) {
    const out = await cell(s, text);
    assert.equal(out.error, '#VALUE!', `${text}: ${JSON.stringify(out)}`);
    assert.match(out.message ?? '', /must be|one of|from:/, text);
  }
  assert.equal(hostile.seen.length, before, 'no request');
});

test('8. a page longer than its limit is cut to the limit', async () => {
  hostile.play(async (r, up) => {
    if (path(r.url) !== '/v3/currencies/markets') return null;
    const real = JSON.parse((await up()).text) as { data: unknown[] };
    return json(200, { ...real, data: [...real.data, ...real.data.slice(0, 50)] });
  });
  const client = new MarketClient({ baseUrl: hostile.url, keyStore: new MemoryKeyStore(KEY) });
  const page = await client.get('markets', { query: { offset: 0, limit: 100 } });
  assert.equal((page.data as unknown[]).length, 100);
  hostile.play(null);
});

test('9. an inactive key answers at once on every recalculation, without asking again', async () => {
  const s = await session({ key: 'demo-inactive' });
  const t0 = Date.now();
  const first = await cell(s, '=CRYPTO.PRICE("bitcoin")');
  assert.equal(first.error, '#N/A');
  assert.match(first.message ?? '', /no active subscription/i);
  assert.ok(Date.now() - t0 < 10_000, `no deadline wait: ${Date.now() - t0} ms`);
  const seen = hostile.seen.length;
  const second = await cell(s, '=CRYPTO.FEARGREED()');
  assert.match(second.message ?? '', /no active subscription/i);
  assert.equal(hostile.seen.length, seen, 'remembered: no request');
  s.keys.setKey(KEY);
  s.client.onKeyChanged();
  assert.equal(typeof ((await cell(s, '=CRYPTO.PRICE("bitcoin")')).value as unknown[][])?.[0]?.[0], 'number', 'a new key is asked about again');
});

test('10. the daily budget holds for the UTC day across new clients (a reload, new settings) on the same machine; another day starts again', async () => {
  const kv = new MemoryKvStore();
  const client = (now = Date.now) => {
    const c = new MarketClient({ baseUrl: em.url, keyStore: new MemoryKeyStore(KEY), storage: kv, now });
    c.setDailyBudget(3);
    return c;
  };
  const a = client();
  await a.get('globalMarket');
  await a.get('fearGreed');
  assert.equal(a.meter.creditsToday(), 2);
  await a.flushStorage();

  const b = client(); // a reload: a new client, the same machine
  await b.get('altcoinIndex');
  const err = await b.get('dominance').then(() => null, (e: unknown) => e as Error & { code?: string });
  assert.equal(err?.code, 'BUDGET_EXCEEDED', 'the third credit of the day was the last');
  assert.match(err?.message ?? '', /reached \(3 of 3 credits spent today, UTC\)/);

  const tomorrow = client(() => Date.now() + 86_400_000);
  await tomorrow.get('globalMarket'); // yesterday's figure does not count
  assert.equal(tomorrow.meter.creditsToday(), 1);

  // At the edge: a request costing more than what is left is said as such, not as "reached".
  const edge = new MarketClient({ baseUrl: em.url, keyStore: new MemoryKeyStore(KEY) });
  edge.setDailyBudget(1);
  const eur = await edge.get('markets', { query: { convert: 'EUR' } }).then(() => null, (e: unknown) => e as Error & { code?: string });
  assert.equal(eur?.code, 'BUDGET_EXCEEDED');
  assert.match(eur?.message ?? '', /needs 2 credits and 1 credit of 1 is left today/);
});
