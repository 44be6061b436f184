/**
 * A key change (MarketClient.onKeyChanged) while the old key's requests are
 * on their way: their answers go to whoever asked them and teach the client
 * nothing about the new key (review 2026-11-27). Over real HTTP against the
 * emulator; the old key's answers are held by a fetch wrapper until the key
 * has changed.
 *
 *   node --import tsx --test test/key-change.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, MemoryKeyStore } from '../src/client/index';
import { BatchFetch } from '../src/client/batch-fetch';
import { RankBook } from '../src/client/coin-map';
import { ListQuotes } from '../src/client/list-quotes';
import { QuoteCache } from '../src/client/quote-cache';
import type { Answer, Requester } from '../src/client/types';
import { SECRET_PRO, SECRET_SANDBOX, rig, type Rig } from './client-harness';

let r: Rig;
before(async () => {
  r = await rig({ rpm: 10_000 });
});
after(async () => {
  await r.close();
});

const GLOBAL = '/v3/global/market';

/**
 * The old (Sandbox) key's request to `path` is answered `status` with `code`, once the test releases it; every
 * other request reaches the emulator. `asked` settles when the old key's request has been sent.
 */
function heldOldAnswer(path: string, status: number, code: string, message: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let sent!: () => void;
  const asked = new Promise<void>((resolve) => (sent = resolve));
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (new URL(String(input)).pathname === path && new Headers(init?.headers).get('x-api-key') === SECRET_SANDBOX) {
      sent();
      await held;
      return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json' } });
    }
    return globalThis.fetch(input, init);
  };
  return { fetch, asked, release };
}

/** The new key's request for /v3/global/market goes out and is answered. */
async function newKeyAnswered(c: ReturnType<Rig['client']>): Promise<void> {
  const before = r.hits(GLOBAL).length;
  const f = await c.get('globalMarket');
  assert.equal(f.fromCache, false);
  assert.equal(r.hits(GLOBAL).length, before + 1, 'the new key asked the service');
  assert.equal(r.hits(GLOBAL).at(-1)?.key, SECRET_PRO);
}

/**
 * `ask` goes with the old (Sandbox) key, whose answer to `path` (`status`, `code`) is held until the key has
 * changed to the Pro key; then it lands. `meanwhile` runs after the change, before the old answer lands. The
 * client, what the old request got, and what `meanwhile` gave.
 */
async function oldAnswerAfterChange<M = undefined>(
  path: string,
  status: number,
  code: string,
  message: string,
  ask: (c: ReturnType<Rig['client']>) => Promise<unknown>,
  meanwhile: (c: ReturnType<Rig['client']>) => M = () => undefined as M,
) {
  const keys = new MemoryKeyStore(SECRET_SANDBOX);
  const h = heldOldAnswer(path, status, code, message);
  const c = r.client({ keyStore: keys, fetch: h.fetch });
  const old = ask(c).catch((e: unknown) => e);
  await h.asked;
  keys.setKey(SECRET_PRO);
  c.onKeyChanged();
  const during = meanwhile(c);
  h.release();
  return { c, old: (await old) as { code?: string }, during };
}

test("the old key's 401, landing after the new key was saved, does not lock the new key out", async () => {
  const { c, old } = await oldAnswerAfterChange(GLOBAL, 401, 'API_KEY_INVALID', 'API key is invalid', (k) => k.get('globalMarket'));
  assert.equal(old.code, 'API_KEY_INVALID', 'the old request gets its own answer');
  await newKeyAnswered(c);
});

test("the old key's refusal of an endpoint, landing after the key change, does not refuse it to the new key", async () => {
  const { c, old } = await oldAnswerAfterChange(GLOBAL, 403, 'ENDPOINT_NOT_AVAILABLE', 'Endpoint is not available in your plan', (k) => k.get('globalMarket'));
  assert.equal(old.code, 'ENDPOINT_NOT_AVAILABLE');
  await newKeyAnswered(c);
});

test("the old key's /v3/status refused, landing after the key change, does not refuse the new key", async () => {
  // A Basic endpoint waits for the plan: it fails with the old key's read of it (the plan gate's own handler).
  const { c, old } = await oldAnswerAfterChange('/v3/status', 401, 'API_KEY_INVALID', 'API key is invalid', (k) => k.get('contracts', { id: 1 }));
  assert.equal(old.code, 'API_KEY_INVALID');
  await newKeyAnswered(c);
  assert.equal((await c.status()).plan, 'Pro');
});

test("a request asked after the key change does not join the old key's request still on its way", async () => {
  const { c, old, during } = await oldAnswerAfterChange(GLOBAL, 401, 'API_KEY_INVALID', 'API key is invalid', (k) => k.get('globalMarket'), (k) => ({
    before: r.hits(GLOBAL).length,
    now: k.get('globalMarket'),
  }));
  assert.equal(old.code, 'API_KEY_INVALID');
  const f = await during.now;
  assert.equal(typeof f.data.totalMarketCap, 'string');
  assert.equal(c.meter.snapshot().sharedCalls, 0, 'not a shared call');
  assert.equal(r.hits(GLOBAL).length, during.before + 1);
  assert.equal(r.hits(GLOBAL).at(-1)?.key, SECRET_PRO);
});

test("a coin asked after the key change does not wait on the currency map load the old key asked for", async () => {
  const MAP = '/v3/currencies/map';
  const { old, during } = await oldAnswerAfterChange(MAP, 401, 'API_KEY_INVALID', 'API key is invalid', (k) => k.resolveCoin('bitcoin'), (k) => ({
    before: r.hits(MAP).length,
    now: k.resolveCoin('ethereum'),
  }));
  assert.equal(old.code, 'API_KEY_INVALID', 'the old load fails for whoever asked it');
  assert.equal((await during.now).slug, 'ethereum', 'the new key loads its own map');
  assert.equal(r.hits(MAP).length, during.before + 1);
  assert.equal(r.hits(MAP).at(-1)?.key, SECRET_PRO);
});

// ------------------------------------------------ requests still waiting when the key changes

/** Records the key of every request sent (to `inner`) once `w.on` is set, and counts the profiles sent. */
function watchedFetch(inner: typeof globalThis.fetch = globalThis.fetch) {
  const w = { on: false, keys: [] as (string | null)[], profiles: 0 };
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (w.on) w.keys.push(new Headers(init?.headers).get('x-api-key'));
    if (new URL(String(input)).pathname.startsWith('/v3/currencies/')) w.profiles++;
    return inner(input, init);
  };
  return { w, fetch };
}

/** A client on its own emulator at the plans' own rates (Sandbox: 10 a minute), whose pacer waits until `wake()`. */
async function pacedClient(keys: MemoryKeyStore, fetch: typeof globalThis.fetch) {
  const own = await rig();
  let wake!: () => void;
  const woken = new Promise<void>((resolve) => (wake = resolve));
  const c = own.client({
    keyStore: keys,
    fetch,
    // The pacer's wait for the window to free a slot ends when the test says (and the clock moves on by it).
    sleep: async (ms, signal) => {
      await new Promise<void>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('woken')));
        void woken.then(() => resolve());
      });
      own.em.clock.advance(ms);
    },
  });
  return { c, wake, close: () => own.close() };
}

/** Until `cond` holds, on the event loop's turns (bounded: a failure names what was awaited). */
async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; i < 5_000 && !cond(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.ok(cond(), `timed out waiting for ${what}`);
}

test('a request waiting for the plan when the key is removed is not sent with the removed key', async () => {
  const keys = new MemoryKeyStore(SECRET_PRO);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let statusAsked!: () => void;
  const asked = new Promise<void>((resolve) => (statusAsked = resolve));
  const { w, fetch } = watchedFetch(async (input, init) => {
    if (new URL(String(input)).pathname === '/v3/status') {
      statusAsked();
      await held;
    }
    return globalThis.fetch(input, init);
  });
  const c = r.client({ keyStore: keys, fetch });
  const p = c.get('contracts', { id: 1 }).catch((e: unknown) => e); // a Basic endpoint: waits for the plan
  await asked;
  keys.setKey(null); // "Remove key"
  c.onKeyChanged();
  w.on = true;
  release();
  assert.equal(((await p) as { code?: string }).code, 'NO_API_KEY');
  assert.deepEqual(w.keys, [], 'nothing was sent after the key was removed');
});

for (const [change, next, code] of [['removed', null, 'NO_API_KEY'], ['replaced', SECRET_PRO, 'ABORTED']] as const) {
  test(`requests queued under the rate limit when the key is ${change} are not sent with the old key`, async () => {
    const keys = new MemoryKeyStore(SECRET_SANDBOX);
    const { w, fetch } = watchedFetch();
    const { c, wake, close } = await pacedClient(keys, fetch);
    try {
      assert.equal((await c.status()).rateLimitPerMinute, 10);
      const all = Array.from({ length: 12 }, (_, i) => c.get('profile', { id: i + 1 }).then(() => 'answered', (e: { code?: string }) => e.code));
      await until('9 sent, 3 queued', () => w.profiles === 9 && c.queuedForRate === 3);
      keys.setKey(next);
      c.onKeyChanged();
      w.on = true;
      wake();
      const out = await Promise.all(all);
      assert.deepEqual(out.filter((o) => o !== 'answered'), [code, code, code], 'the queued ones are not sent');
      assert.deepEqual(w.keys, [], 'nothing was sent after the key change');
    } finally {
      await close();
    }
  });
}

test('requests queued under the rate limit at Refresh all data go, with the same key', async () => {
  const keys = new MemoryKeyStore(SECRET_SANDBOX);
  const { w, fetch } = watchedFetch();
  const { c, wake, close } = await pacedClient(keys, fetch);
  try {
    await c.status();
    const all = Array.from({ length: 12 }, (_, i) => c.get('profile', { id: i + 1 }).then(() => 'answered', (e: { code?: string }) => e.code));
    await until('9 sent, 3 queued', () => w.profiles === 9 && c.queuedForRate === 3);
    c.refreshAll();
    w.on = true;
    wake();
    assert.deepEqual(await Promise.all(all), Array(12).fill('answered'));
    assert.ok(w.keys.length >= 3, 'the three queued ones were sent');
    assert.deepEqual(new Set(w.keys), new Set([SECRET_SANDBOX]), 'with the key they were asked with');
  } finally {
    await close();
  }
});

// ------------------------------------------------ what the quote batches learn

test("the old key's refusal of the markets list, landing after the key change, does not keep the new key off it", async () => {
  // The batches' requester, as the lifecycle answers them: the old (Sandbox) key's markets page is refused once the
  // key has changed; the new key's pages are answered.
  const asked: string[] = [];
  let oldKey = true;
  const refuse: ((e: unknown) => void)[] = [];
  const requester: Requester = {
    now: () => 0,
    request: (cr): Promise<Answer> => {
      asked.push(cr.key);
      if (cr.name === 'markets' && oldKey) return new Promise((_, reject) => refuse.push(reject));
      if (cr.name === 'markets') return Promise.resolve({ entry: { data: [], fetchedAt: 0, timestamp: null }, stale: false, fromCache: false });
      return Promise.reject(new ApiError({ code: 'NETWORK_ERROR', message: 'no answer' }));
    },
  };
  const bf = new BatchFetch({ requester, ranks: new RankBook(), ttlMs: () => 60_000 }, new QuoteCache(100, () => 0, () => 60_000), new ListQuotes({ requester, gathering: () => false }));
  const waiting = (ids: number[]) => new Map(ids.map((id) => [id, { settle: () => undefined }]));
  bf.probe('EUR', undefined, new AbortController().signal); // the cold start's page, beside the map
  const old = bf.fetch(waiting([1]), 'EUR', undefined, new AbortController().signal);
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(refuse.length >= 1, "the old key's markets pages are on their way");
  bf.clear(); // MarketClient.onKeyChanged() → QuoteBatcher.clear()
  oldKey = false;
  for (const reject of refuse) reject(new ApiError({ code: 'ENDPOINT_NOT_AVAILABLE', message: 'Endpoint is not available in your plan', status: 403, endpoint: 'markets' }));
  await old;
  asked.length = 0;
  await bf.fetch(waiting([2, 3]), 'EUR', undefined, new AbortController().signal);
  assert.ok(asked.some((k) => k.startsWith('markets')), `the new key's batch reads the markets list; it asked ${asked.join(', ')}`);
});
