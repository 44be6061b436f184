/**
 * Review 2026-11-27 (transport, findings 5-8): what a failed answer does to the
 * pacing of the requests after it. The 429 that ends a request's tries still
 * holds the pacer for its Retry-After; a Retry-After shorter than the backoff
 * (a proxy's 0) does not shorten it; a server cannot name the client's own
 * codes; a clock set back does not stretch the pacer's waits. Each failed
 * before its fix.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENDPOINTS } from '../src/api/endpoints';
import { Pacer } from '../src/client/pacer';
import { startHostileServer } from '../harness/hostile-server';
import { rig } from './client-harness';

test('the 429 that ends the tries holds the pacer: the next request waits its Retry-After', async () => {
  const r = await rig();
  try {
    for (const o of [{}, { maxRetries: 0 }]) {
      const c = r.client(o);
      await c.status();
      const tries = (o.maxRetries ?? 3) + 1; // every try refused: the last one ends the request
      for (let i = 0; i < tries; i++) r.em.faults.queue({ kind: '429', retryAfter: 30, path: ENDPOINTS.trending.path });
      const since = r.log.length;
      await assert.rejects(c.get('trending'), { code: 'RATE_LIMIT_EXCEEDED' });
      await c.get('tags');
      const seen = r.log.slice(since);
      const refused = seen.filter((s) => s.status === 429);
      assert.equal(refused.length, tries, `${JSON.stringify(o)}: every try was sent`);
      const tags = seen.find((s) => s.url.startsWith(ENDPOINTS.tags.path));
      assert.ok(tags, 'tags was sent');
      const after = tags.at - refused.at(-1)!.at;
      assert.ok(after >= 30_000, `${JSON.stringify(o)}: tags sent ${after} ms after a 429 that said 30 s`);
    }
  } finally {
    await r.close();
  }
});

test('an outage whose Retry-After is 0 or a past date is retried with backoff, not back to back', async () => {
  const r = await rig();
  const hostile = await startHostileServer(r.em.url);
  try {
    for (const retryAfter of ['0', 'Thu, 01 Jan 1970 00:00:00 GMT']) {
      const tries: number[] = [];
      // The service is down (/v3/status too: the plan stays unknown) behind a proxy that says "ask again now".
      hostile.play((req) => {
        if (req.url.split('?')[0] === ENDPOINTS.currencyMap.path) tries.push(r.em.clock.now());
        return { status: 503, headers: { 'content-type': 'application/json', 'retry-after': retryAfter }, body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'down' } }) };
      });
      const c = r.client({ baseUrl: hostile.url });
      await assert.rejects(c.get('currencyMap'), { code: 'INTERNAL_ERROR' });
      assert.ok(tries.length > 2, `Retry-After ${retryAfter}: retried (${tries.length} tries)`);
      // Full jitter at random 0.5: at least half the first backoff (500 ms) between any two tries.
      const gaps = tries.slice(1).map((t, i) => t - tries[i]);
      assert.ok(Math.min(...gaps) >= 250, `Retry-After ${retryAfter}: tries ${Math.min(...gaps)} ms apart (gaps ${gaps.join(', ')})`);
    }
  } finally {
    await hostile.close();
    await r.close();
  }
});

test("a server cannot name the client's or formulas' own codes: what its status means stands in", async () => {
  const r = await rig();
  const hostile = await startHostileServer(r.em.url);
  try {
    const cases = [
      // a 503 naming ABORTED was a cancellation: not retried, no last good value, the cell "Canceled"
      { status: 503, named: 'ABORTED', code: 'INTERNAL_ERROR', tries: 4 },
      // a 401 naming NO_API_KEY told the user to add the key they had set
      { status: 401, named: 'NO_API_KEY', code: 'API_KEY_INVALID', tries: 1 },
      // a 400 naming TIMEOUT or INVALID_ARGUMENT: retried, or the #VALUE! of a bad argument
      { status: 400, named: 'TIMEOUT', code: 'UNEXPECTED_RESPONSE', tries: 1 },
      { status: 400, named: 'INVALID_ARGUMENT', code: 'UNEXPECTED_RESPONSE', tries: 1 },
    ];
    for (const k of cases) {
      let tries = 0;
      hostile.play((req) => {
        if (req.url.split('?')[0] !== ENDPOINTS.fearGreed.path) return null;
        tries++;
        return { status: k.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: k.named, message: 'no' } }) };
      });
      const c = r.client({ baseUrl: hostile.url });
      await assert.rejects(c.get('fearGreed'), (e: { code?: string }) => {
        assert.equal(e.code, k.code, `${k.status} naming ${k.named}`);
        return true;
      });
      assert.equal(tries, k.tries, `${k.status} naming ${k.named}: tries`);
    }
  } finally {
    await hostile.close();
    await r.close();
  }
});

test('a clock set back does not stretch the pacer: the window and the hold wait as long as they did', async () => {
  let t = 1_800_000_000_000;
  const sleep = async () => assert.fail('no slot taken here waits');
  const full = new Pacer({ rpm: 10, now: () => t, sleep });
  for (let i = 0; i < 10; i++) await full.acquire();
  assert.equal(full.delayMs(), 61_000, 'a full window: a window (60 s and the margin) to wait');
  t -= 3_600_000; // the system clock corrected back an hour
  assert.equal(full.delayMs(), 61_000, 'the clock went back: still a window, not an hour more');
  t += 61_000;
  assert.equal(full.delayMs(), 0, 'a window later the slots are free');
  assert.equal(full.recentSends().length, 0);

  const held = new Pacer({ rpm: 10, now: () => t, sleep });
  held.holdUntil(t + 30_000); // a 429's Retry-After
  t -= 3_600_000;
  assert.equal(held.delayMs(), 30_000, 'the hold lasts as given');
  t += 30_000;
  assert.equal(held.delayMs(), 0);
});
