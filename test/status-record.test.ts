/**
 * The /v3/status record the plan gate keeps and the meter's snapshot shows:
 * the schema's known fields only, copied within bounds (review finding F6: a
 * deeply nested extra field was kept, and every meter.snapshot() then overflowed
 * the stack in structuredClone).
 *
 *   npx tsx --test test/status-record.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, type Rig } from './client-harness';

let r: Rig;
before(async () => {
  r = await rig({});
});
after(() => r.close());

/** A client whose /v3/status answers carry `edit`'s changes. */
function withStatus(edit: (body: string) => string) {
  return r.client({
    key: 'demo-pro',
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (new URL(String(input)).pathname !== '/v3/status') return res;
      return new Response(edit(await res.text()), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
}

test('a deeply nested extra field in /v3/status is not kept, and the snapshot still works', async () => {
  const depth = 100_000; // 200 KB, far below the byte cap: the repro of F6
  const c = withStatus((t) => `${t.slice(0, -1)},"extra":${'['.repeat(depth)}${']'.repeat(depth)}}`);
  const answered = await c.status();
  assert.equal('extra' in answered, false, 'status() hands back the known fields only');
  const snap = c.meter.snapshot(); // threw RangeError: Maximum call stack size exceeded
  assert.ok(snap.plan);
  assert.equal(snap.plan.plan, 'Pro');
  assert.deepEqual(Object.keys(snap.plan).sort(), ['credits', 'currentPeriodEnd', 'currentPeriodStart', 'endpoints', 'plan', 'rateLimitPerMinute']);
});

test('extra fields at every level are dropped; endpoints keep strings only, within bounds', async () => {
  const c = withStatus((t) => {
    const s = JSON.parse(t) as Record<string, unknown> & { credits: Record<string, unknown>; endpoints: unknown[] };
    s.junk = { a: 1 };
    s.credits.secretExtra = 'x'.repeat(10_000);
    s.endpoints = [...s.endpoints, '/v3/' + 'x'.repeat(5_000), ...Array.from({ length: 5_000 }, (_, i) => `/v3/made-up/${i}`)];
    return JSON.stringify(s);
  });
  await c.status();
  const plan = c.meter.snapshot().plan!;
  assert.equal('junk' in plan, false);
  assert.deepEqual(Object.keys(plan.credits).sort(), ['dailyLimit', 'dailyRemaining', 'dailyUsed', 'monthlyLimit', 'monthlyRemaining', 'monthlyUsed']);
  assert.ok(plan.endpoints!.includes('/v3/currencies/markets'), 'the real paths are kept');
  assert.ok(plan.endpoints!.every((p) => p.length <= 200), 'an overlong path is dropped');
  assert.ok(plan.endpoints!.length <= 500, `${plan.endpoints!.length} paths kept`);
});
