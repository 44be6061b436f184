/**
 * What one answer's status.usedCredits may add to the day's spend: at most
 * REPORTED_CREDITS_FACTOR times what the endpoint table says the request costs;
 * above that the table's cost is counted, and nothing absurd is persisted
 * (review finding F5: one answer reporting 1e15 refused every metered request
 * with BUDGET_EXCEEDED until UTC midnight, across reloads).
 *
 *   npx tsx --test test/credit-bound.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { creditCost } from '../src/api/endpoints';
import { MemoryKvStore } from '../src/client/index';
import { DAILY_SPEND_KEY } from '../src/client/daily-spend';
import { REPORTED_CREDITS_FACTOR } from '../src/client/credit-meter';
import { NOW, rig, type Rig } from './client-harness';

let r: Rig;
before(async () => {
  r = await rig({});
});
after(() => r.close());

const DAY = Math.floor(NOW / 86_400_000);

/** A client whose answers from `path` report `credits(items)` as status.usedCredits. */
function reporting(path: string, credits: (items: number) => number, storage = new MemoryKvStore()) {
  const c = r.client({
    key: 'demo-pro',
    storage,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (new URL(String(input)).pathname !== path || !res.ok) return res;
      const body = (await res.json()) as { data: unknown; status: { usedCredits: number } };
      body.status.usedCredits = credits(Array.isArray(body.data) ? body.data.length : 0);
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  c.setDailyBudget(1000);
  return c;
}

test('an absurd usedCredits counts the table cost: the budget still serves, and storage keeps a real figure', async () => {
  const kv = new MemoryKvStore();
  const c = reporting('/v3/global/market', () => 1e15, kv);
  await c.get('globalMarket');
  assert.equal(c.meter.creditsToday(), 1, 'the table cost of one flat request');
  await c.get('fearGreed'); // was BUDGET_EXCEEDED: 1e15 of 1000 credits spent
  await c.flushStorage();
  assert.deepEqual(JSON.parse((await kv.get(DAILY_SPEND_KEY))!), { day: DAY, credits: 2 });
});

test('within the bound the figure is believed; above it, the table cost (by the items a chart returned)', async () => {
  const query = { from: '2024-01-01' };
  let bound = 0;
  const within = reporting('/v3/global/fear-greed/chart', (n) => (bound = creditCost('fearGreedChart', query, n) * REPORTED_CREDITS_FACTOR));
  await within.get('fearGreedChart', { query });
  assert.ok(bound >= REPORTED_CREDITS_FACTOR);
  assert.equal(within.meter.creditsToday(), bound, 'a service that charges more than the table is believed up to the bound');
  let cost = 0;
  const above = reporting('/v3/global/fear-greed/chart', (n) => (cost = creditCost('fearGreedChart', query, n)) * REPORTED_CREDITS_FACTOR + 1);
  await above.get('fearGreedChart', { query });
  assert.equal(above.meter.creditsToday(), cost);
});

test('an absurd figure stored by an earlier session is not counted toward today', async () => {
  const kv = new MemoryKvStore();
  await kv.set(DAILY_SPEND_KEY, JSON.stringify({ day: DAY, credits: 1e15 }));
  const c = reporting('/v3/global/market', (n) => n, kv);
  await c.get('fearGreed'); // was BUDGET_EXCEEDED until UTC midnight
  assert.equal(c.meter.creditsToday(), 1);
  // a real earlier figure still counts
  const kv2 = new MemoryKvStore();
  await kv2.set(DAILY_SPEND_KEY, JSON.stringify({ day: DAY, credits: 400 }));
  const c2 = reporting('/v3/global/market', (n) => n, kv2);
  await c2.get('fearGreed');
  assert.equal(c2.meter.creditsToday(), 401);
});
