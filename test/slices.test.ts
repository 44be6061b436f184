/**
 * Slices: formulas start in the order asked, a slice at a time, and the event
 * loop gets a turn between slices (so a request started by the first slice can
 * leave before the last formula has started).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Slices } from '../src/formulas/slices';

test('the first slice starts at once; the rest start in order, a slice per task, with the event loop in between', async () => {
  const slices = new Slices(3);
  const started: number[] = [];
  const tasksSeen: number[] = []; // how many had started when each interleaved task ran
  const waits = Array.from({ length: 8 }, (_, i) => {
    const turn = slices.turn();
    if (turn === null) {
      started.push(i);
      return Promise.resolve();
    }
    return turn.then(() => void started.push(i));
  });
  assert.deepEqual(started, [0, 1, 2], 'a slice of 3 started synchronously');
  // One look per turn of the event loop: each later slice is a task of its own turn.
  const look = () => {
    tasksSeen.push(started.length);
    if (started.length < 8) setImmediate(look);
  };
  setImmediate(look);
  await Promise.all(waits);
  await new Promise((r) => setImmediate(r)); // the last look
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6, 7], 'every caller started, in the order asked');
  assert.deepEqual(tasksSeen, [6, 8], 'slices of 3 over two more turns of the event loop (I/O runs between turns)');
  // Once idle, a new caller starts at once again.
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.equal(slices.turn(), null);
});

test('run(): the same order and slices as turn(), its value or failure passed on, one promise per call', async () => {
  const slices = new Slices(2);
  const started: number[] = [];
  const results = Array.from({ length: 5 }, (_, i) =>
    slices.run(() => {
      started.push(i);
      if (i === 3) throw new Error('boom');
      return i * 10;
    }),
  );
  assert.deepEqual(started, [0, 1], 'a slice of 2 started synchronously');
  const settled = await Promise.allSettled(results);
  assert.deepEqual(started, [0, 1, 2, 3, 4], 'every caller started, in the order asked');
  assert.deepEqual(settled.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), [0, 10, 20, 'boom', 40]);
});
