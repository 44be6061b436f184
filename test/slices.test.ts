/**
 * Slices: formulas start in the order offered, a slice at a time, and the
 * event loop gets a turn between slices (so a request started by the first
 * slice can leave before the last formula has started).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Slices } from '../src/formulas/slices';

const turn = () => new Promise((r) => setImmediate(r));

test('the first slice starts at once; the rest start in order, a slice per task, with the event loop in between', async () => {
  const started: number[] = [];
  const slices = new Slices<number>(3, (i) => void started.push(i));
  const now = Array.from({ length: 8 }, (_, i) => slices.offer(i));
  assert.deepEqual(started, [0, 1, 2], 'a slice of 3 started synchronously');
  assert.deepEqual(now, [true, true, true, false, false, false, false, false], 'offer() says which started at once');
  // One look per turn of the event loop: each later slice is a task of its own turn.
  const tasksSeen: number[] = []; // how many had started when each interleaved task ran
  const look = () => {
    tasksSeen.push(started.length);
    if (started.length < 8) setImmediate(look);
  };
  setImmediate(look);
  while (started.length < 8) await turn();
  await turn(); // the last look
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6, 7], 'every item started, in the order offered');
  assert.deepEqual(tasksSeen, [6, 8], 'slices of 3 over two more turns of the event loop (I/O runs between turns)');
  // Once idle, a new item starts at once again.
  await turn();
  await turn();
  assert.equal(slices.offer(8), true);
  assert.deepEqual(started.at(-1), 8);
});
