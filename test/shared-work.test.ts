/**
 * Work many cells wait on stops when they have all gone (src/client/shared-work.ts,
 * src/client/cancellation.ts): a quote batch, the coin map and a historical batch
 * under a failing service, over real HTTP. Each case is run twice: with a caller
 * that stays (the retries happen) and with one that leaves (they do not).
 *
 *   node --import tsx --test test/shared-work.test.ts
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MAX_RETRIES, MarketClient } from '../src/client/client';
import { MAP_MAX_RETRIES } from '../src/client/client-options';
import { abortable, onAbort } from '../src/client/cancellation';
import { SharedWork } from '../src/client/shared-work';
import { NOW, rig, type Rig } from './client-harness';

test('SharedWork: stops when every signal that joined has aborted; counted once per signal; a caller without one stays', () => {
  const w = new SharedWork();
  const a = new AbortController();
  const b = new AbortController();
  w.join(a.signal);
  w.join(a.signal);
  w.join(b.signal);
  a.abort();
  assert.equal(w.abandoned, false, 'b still waits');
  b.abort();
  assert.equal(w.abandoned, true, 'nobody waits');
  assert.equal(w.signal.aborted, true);

  const pinned = new SharedWork();
  const c = new AbortController();
  pinned.join(c.signal);
  pinned.join(undefined);
  c.abort();
  assert.equal(pinned.abandoned, false, 'a caller without a signal waits to the end');

  const late = new SharedWork();
  late.join(AbortSignal.abort());
  assert.equal(late.abandoned, true, 'its only caller had gone before it began');
});

test('onAbort: thousands of waiters on one signal, each told once; a stopped one is not', async () => {
  const c = new AbortController();
  let told = 0;
  const stops = Array.from({ length: 5_000 }, () => onAbort(c.signal, () => told++));
  for (const stop of stops.slice(0, 1_000)) stop();
  c.abort();
  assert.equal(told, 4_000);
  c.abort();
  assert.equal(told, 4_000, 'once');
  const gone = new AbortController();
  const p = abortable(new Promise(() => undefined), gone.signal);
  gone.abort();
  await assert.rejects(p, (e: unknown) => (e as { code?: string }).code === 'ABORTED');
});

/** Sends of `path` the client made, by a fetch that counts them; `onSend` sees each. */
function counting(r: Rig, onSend: (path: string) => void) {
  const sends: string[] = [];
  const client = r.client({
    fetch: (input, init) => {
      const path = new URL(String(input)).pathname;
      sends.push(path);
      onSend(path);
      return fetch(input, init);
    },
  });
  return { client, sends: (p: string) => sends.filter((s) => s === p).length };
}

/** Let retries that would happen happen: backoff sleeps advance the emulator's clock, so a moment of real time is plenty. */
const settleDown = () => new Promise((r) => setTimeout(r, 300));

async function failingAfterWarmUp(r: Rig, client: MarketClient, warm: () => Promise<unknown>) {
  await client.status();
  await warm();
  client.refreshAll();
  r.em.faults.setRates({ 500: 1 });
}

/**
 * Requests to `path` after the service starts failing every answer, for a caller that leaves
 * (aborts as the first goes out) or stays (its signal never aborts).
 */
async function sendsUnder500s(o: { path: string; leaves: boolean; warm(c: MarketClient): Promise<unknown>; ask(c: MarketClient, signal: AbortSignal): Promise<unknown> }): Promise<number> {
  const r = await rig();
  try {
    const caller = new AbortController();
    let failing = false;
    const { client, sends } = counting(r, (p) => {
      if (failing && o.leaves && p === o.path) setImmediate(() => caller.abort());
    });
    await failingAfterWarmUp(r, client, () => o.warm(client));
    failing = true;
    const before = sends(o.path);
    await assert.rejects(o.ask(client, caller.signal));
    await settleDown();
    return sends(o.path) - before;
  } finally {
    await r.close();
  }
}

const day = Date.UTC(2025, 0, 1);
const BITCOIN_THEN = { id: 1, name: 'Bitcoin', date: day, currency: 'USD' as const };

for (const leaves of [false, true]) {
  const who = leaves ? 'its only caller leaves: no retry follows' : 'its caller stays: retried';

  test(`a quote batch under 500s, ${who}`, async () => {
    const sent = await sendsUnder500s({ path: '/v3/currencies/markets', leaves, warm: (c) => c.quote('bitcoin'), ask: (c, signal) => c.quote('bitcoin', { signal }) });
    if (leaves) assert.equal(sent, 1, 'the first attempt only');
    else assert.equal(sent, MAP_MAX_RETRIES + 1, 'every attempt (a markets page many cells wait on: client.ts SHARED)');
  });

  test(`the coin map under 500s, ${who}`, async () => {
    const sent = await sendsUnder500s({ path: '/v3/currencies/map', leaves, warm: async () => undefined, ask: (c, signal) => c.resolveCoin('bitcoin', { signal }) });
    if (leaves) assert.equal(sent, 1, 'the first attempt only');
    else assert.ok(sent > DEFAULT_MAX_RETRIES + 1, `the map's many tries: ${sent}`);
  });

  test(`a historical batch under 500s, ${who}`, async () => {
    assert.ok(day < NOW);
    const sent = await sendsUnder500s({ path: '/v3/currencies/historical', leaves, warm: async () => undefined, ask: (c, signal) => c.historical(BITCOIN_THEN, { signal }) });
    if (leaves) assert.equal(sent, 1, 'the first attempt only');
    else assert.equal(sent, DEFAULT_MAX_RETRIES + 1, 'every attempt');
  });
}

test('one caller leaving a batch it shares does not stop it for the other', async () => {
  const r = await rig();
  try {
    const { client } = counting(r, () => undefined);
    await failingAfterWarmUp(r, client, () => client.quote('bitcoin'));
    r.em.faults.clear();
    const gone = new AbortController();
    const stays = new AbortController();
    const a = client.quote('bitcoin', { signal: gone.signal });
    const b = client.quote('ethereum', { signal: stays.signal });
    gone.abort();
    await assert.rejects(a);
    const q = await b;
    assert.ok(q.price !== null && q.price > 0);
  } finally {
    await r.close();
  }
});
