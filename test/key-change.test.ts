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
import { MemoryKeyStore } from '../src/client/index';
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

test("the old key's 401, landing after the new key was saved, does not lock the new key out", async () => {
  const keys = new MemoryKeyStore(SECRET_SANDBOX);
  const h = heldOldAnswer(GLOBAL, 401, 'API_KEY_INVALID', 'API key is invalid');
  const c = r.client({ keyStore: keys, fetch: h.fetch });
  const old = c.get('globalMarket').catch((e: unknown) => e);
  await h.asked;
  keys.setKey(SECRET_PRO);
  c.onKeyChanged();
  h.release();
  assert.equal(((await old) as { code?: string }).code, 'API_KEY_INVALID', 'the old request gets its own answer');
  await newKeyAnswered(c);
});

test("the old key's refusal of an endpoint, landing after the key change, does not refuse it to the new key", async () => {
  const keys = new MemoryKeyStore(SECRET_SANDBOX);
  const h = heldOldAnswer(GLOBAL, 403, 'ENDPOINT_NOT_AVAILABLE', 'Endpoint is not available in your plan');
  const c = r.client({ keyStore: keys, fetch: h.fetch });
  const old = c.get('globalMarket').catch((e: unknown) => e);
  await h.asked;
  keys.setKey(SECRET_PRO);
  c.onKeyChanged();
  h.release();
  assert.equal(((await old) as { code?: string }).code, 'ENDPOINT_NOT_AVAILABLE');
  await newKeyAnswered(c);
});

test("the old key's /v3/status refused, landing after the key change, does not refuse the new key", async () => {
  const keys = new MemoryKeyStore(SECRET_SANDBOX);
  const h = heldOldAnswer('/v3/status', 401, 'API_KEY_INVALID', 'API key is invalid');
  const c = r.client({ keyStore: keys, fetch: h.fetch });
  // A Basic endpoint waits for the plan: it fails with the old key's read of it (the plan gate's own handler).
  const old = c.get('contracts', { id: 1 }).catch((e: unknown) => e);
  await h.asked;
  keys.setKey(SECRET_PRO);
  c.onKeyChanged();
  h.release();
  assert.equal(((await old) as { code?: string }).code, 'API_KEY_INVALID');
  await newKeyAnswered(c);
  assert.equal((await c.status()).plan, 'Pro');
});

test("a request asked after the key change does not join the old key's request still on its way", async () => {
  const keys = new MemoryKeyStore(SECRET_SANDBOX);
  const h = heldOldAnswer(GLOBAL, 401, 'API_KEY_INVALID', 'API key is invalid');
  const c = r.client({ keyStore: keys, fetch: h.fetch });
  const old = c.get('globalMarket').catch((e: unknown) => e);
  await h.asked;
  keys.setKey(SECRET_PRO);
  c.onKeyChanged();
  const before = r.hits(GLOBAL).length;
  const now = c.get('globalMarket');
  h.release();
  assert.equal(((await old) as { code?: string }).code, 'API_KEY_INVALID');
  const f = await now;
  assert.equal(typeof f.data.totalMarketCap, 'string');
  assert.equal(c.meter.snapshot().sharedCalls, 0, 'not a shared call');
  assert.equal(r.hits(GLOBAL).length, before + 1);
  assert.equal(r.hits(GLOBAL).at(-1)?.key, SECRET_PRO);
});
