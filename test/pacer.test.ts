/**
 * The pacer's queue under cancellation: a waiter that aborts is rejected at
 * once and skipped when it comes up (not spliced out: aborting thousands of
 * queued requests at once stays linear), the others keep their order, and
 * once nobody waits the pump stops sleeping.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Pacer } from '../src/client/pacer';
import type { Sleep } from '../src/client/clock';

/** A clock that moves only when told: a sleep ends when advance() is called (or when it is woken). */
function controlledClock() {
  let now = 1_000_000;
  const sleeps: { ms: number; woken: boolean; end: () => void }[] = [];
  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      const s = { ms, woken: false, end: () => undefined as void };
      sleeps.push(s);
      const onWake = () => {
        s.woken = true;
        reject(new Error('woken'));
      };
      if (signal?.aborted) return onWake();
      signal?.addEventListener('abort', onWake, { once: true });
      s.end = () => {
        signal?.removeEventListener('abort', onWake);
        now += ms;
        resolve();
      };
    });
  /** Ends the pacer's current sleep (the latest one not woken). */
  const advance = () => {
    const s = sleeps.at(-1);
    if (s && !s.woken) s.end();
  };
  return { now: () => now, sleep, sleeps, advance };
}

const settle = () => new Promise((r) => setImmediate(r));

test('aborted waiters are rejected at once and skipped; the rest go in order, one per window at 1/min', async () => {
  const clock = controlledClock();
  const pacer = new Pacer({ rpm: 1, now: clock.now, sleep: clock.sleep, marginMs: 0 });
  await pacer.acquire(); // the window's one slot
  const controllers = Array.from({ length: 5 }, () => new AbortController());
  const granted: number[] = [];
  const rejected: number[] = [];
  const waits = controllers.map((c, i) =>
    pacer.acquire(c.signal).then(
      () => void granted.push(i),
      (e: { code?: string }) => {
        assert.equal(e.code, 'ABORTED');
        rejected.push(i);
      },
    ),
  );
  assert.equal(pacer.waiting, 5);
  controllers[1].abort();
  controllers[3].abort();
  await settle();
  assert.deepEqual(rejected, [1, 3], 'rejected as they aborted, without waiting for their turn');
  assert.equal(pacer.waiting, 3, 'the aborted ones no longer count as waiting');
  for (let k = 0; k < 3; k++) {
    clock.advance();
    await settle();
  }
  await Promise.all(waits);
  assert.deepEqual(granted, [0, 2, 4], 'the others in the order asked');
  assert.equal(pacer.waiting, 0);
  assert.equal(pacer.recentSends().length, 1, 'one send per window: the earlier ones have left it');
});

test('when every waiter aborts, the pump stops sleeping and nothing is sent', async () => {
  const clock = controlledClock();
  const pacer = new Pacer({ rpm: 1, now: clock.now, sleep: clock.sleep, marginMs: 0 });
  await pacer.acquire();
  const sentBefore = pacer.recentSends().length;
  const controllers = Array.from({ length: 1000 }, () => new AbortController());
  const waits = controllers.map((c) => pacer.acquire(c.signal).catch((e: { code?: string }) => e.code));
  await settle();
  for (const c of controllers) c.abort();
  const codes = await Promise.all(waits);
  assert.ok(codes.every((c) => c === 'ABORTED'));
  assert.equal(pacer.waiting, 0);
  await settle();
  assert.ok(clock.sleeps.at(-1)?.woken, 'the sleep for the next slot was cut short');
  assert.equal(pacer.recentSends().length, sentBefore, 'no slot was taken for anyone');
  // A new waiter after all that goes once the window allows, not behind 1,000 ghosts.
  const next = pacer.acquire();
  await settle();
  assert.equal(pacer.waiting, 1);
  clock.advance();
  await next;
  assert.equal(pacer.waiting, 0);
  assert.equal(clock.sleeps.filter((x) => !x.woken).length, 1, 'one sleep for the new waiter: the aborted ones took none');
});
