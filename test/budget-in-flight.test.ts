/**
 * The daily credit budget counts the requests admitted and still on their
 * way, not only those answered: a recalculation's concurrent requests spent
 * far past it (review 2026-11-27). Over real HTTP against the emulator.
 *
 *   node --import tsx --test test/budget-in-flight.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, type Rig } from './client-harness';

let r: Rig;
before(async () => {
  r = await rig({ rpm: 10_000 });
});
after(async () => {
  await r.close();
});

/** Each outcome: 'answered', or the error's code. */
const outcome = (p: Promise<unknown>) => p.then(() => 'answered', (e: { code?: string }) => e.code ?? String(e));

test('twenty profiles asked at once under a budget of 3 spend 3 credits', async () => {
  const c = r.client();
  await c.status();
  c.setDailyBudget(3);
  const before = r.hits().length;
  const errors: string[] = [];
  const out = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      c.get('profile', { id: i + 1 }).then(
        () => 'answered',
        (e: { code: string; message: string }) => {
          errors.push(e.message);
          return e.code;
        },
      ),
    ),
  );
  assert.equal(out.filter((o) => o === 'answered').length, 3);
  assert.deepEqual(new Set(out.filter((o) => o !== 'answered')), new Set(['BUDGET_EXCEEDED']));
  assert.equal(c.meter.creditsToday(), 3);
  assert.equal(r.hits().length - before, 3, 'three requests sent');
  assert.match(errors[0], /^Daily credit budget reached \(3 of 3 credits spent today, UTC\)\. Raise it in the task pane\.$/);
  // Answered, the three count once: in the meter, no longer held.
  c.setDailyBudget(4);
  assert.equal(await outcome(c.get('profile', { id: 21 })), 'answered');
  assert.equal(c.meter.creditsToday(), 4);
});

test('requests waiting for the plan are held against the budget as they are admitted', async () => {
  const c = r.client(); // the plan not known yet: a Basic endpoint waits for /v3/status after the budget check
  c.setDailyBudget(2);
  const out = await Promise.all(Array.from({ length: 6 }, (_, i) => outcome(c.get('contracts', { id: i + 1 }))));
  assert.equal(out.filter((o) => o === 'BUDGET_EXCEEDED').length, 4);
  assert.ok(c.meter.creditsToday() <= 2, `spent ${c.meter.creditsToday()}`);
});

test('a request that fails gives its hold on the budget back', async () => {
  const c = r.client();
  await c.status();
  c.setDailyBudget(1);
  const failing = outcome(c.get('profile', { id: 987_654_321 })); // no such coin: NOT_FOUND, no credit
  const refused = outcome(c.get('profile', { id: 1 })); // asked while the first holds the only credit
  assert.deepEqual([await failing, await refused], ['NOT_FOUND', 'BUDGET_EXCEEDED']);
  assert.equal(await outcome(c.get('profile', { id: 1 })), 'answered', 'the failed request held nothing after it');
  assert.equal(c.meter.creditsToday(), 1);
});
