/**
 * LIVEPRICE follows a settings change that lands while its runtime loads
 * (src/functions/live.ts with src/office/runtime.ts, Office.js's globals stood
 * in for): the cell ends on the new runtime's stream, and the old one, disposed,
 * polls no more (review 2026-11-27: entities #4). A file of its own: the
 * runtime is one per module, as one per start of the add-in.
 *
 *   node --import tsx --test test/live-runtime-change.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { customFunctionsStandIn, removeOfficeGlobals } from './support/office-globals';

const g = globalThis as Record<string, unknown>;
after(removeOfficeGlobals);

test('settings applied while a LIVEPRICE cell waits for its runtime: the cell moves to the new stream, the old one stays stopped', async () => {
  const items = new Map<string, string>();
  g.OfficeRuntime = {
    storage: {
      getItem: async (k: string) => items.get(k) ?? null,
      setItem: async (k: string, v: string) => void items.set(k, v),
      removeItem: async (k: string) => void items.delete(k),
    },
  };
  g.CustomFunctions = customFunctionsStandIn();
  g.Office = { context: { requirements: { isSetSupported: () => false } } };
  const { getRuntime, applySettings } = await import('../src/office/runtime');
  const { livePrice } = await import('../src/functions/live');
  const old = await getRuntime();
  // The change first, then the cell: the change tells its runtime to the listeners before the cell's load resolves.
  const changed = applySettings({ ...old.settings });
  let cancel!: () => void;
  livePrice('bitcoin', 60, 'USD' as never, {
    setResult: () => undefined,
    set onCanceled(fn: () => void) {
      cancel = fn;
    },
  } as never);
  const next = await changed;
  try {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.notEqual(next, old);
    assert.equal(next.stream.stats().listeners, 1, 'the cell is on the new runtime\'s stream');
    assert.equal(old.stream.stats().listeners, 0, 'and not on the old, disposed one');
    assert.equal(old.stream.stats().timerPending, false, 'which polls no more');
    cancel();
    assert.equal(next.stream.stats().listeners, 0, 'cancelled, it leaves');
  } finally {
    // A failure here must not leave a stream polling (the process would not end).
    old.stream.dispose();
    next.stream.dispose();
  }
});
