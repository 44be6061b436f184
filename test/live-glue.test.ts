/**
 * LIVEPRICE's Excel wiring (src/functions/live.ts) in Node, with Office.js's
 * globals stood in for: a runtime that cannot start shows its failure through
 * the one mapping every formula's failure takes (formulas/failure.ts).
 *
 *   node --import tsx --test test/live-glue.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { customFunctionsStandIn, removeOfficeGlobals } from './support/office-globals';

const g = globalThis as Record<string, unknown>;
after(removeOfficeGlobals);

test('a runtime that cannot start: #N/A saying so as any formula\'s unexpected error', async () => {
  g.OfficeRuntime = {
    storage: {
      getItem: () => Promise.reject(new Error('storage is gone')),
      setItem: () => Promise.resolve(),
      removeItem: () => Promise.resolve(),
    },
  };
  g.CustomFunctions = customFunctionsStandIn();
  const { livePrice } = await import('../src/functions/live');
  const result = await new Promise<unknown>((resolve) => {
    livePrice('bitcoin', 60, 'USD' as never, { setResult: resolve, onCanceled: () => undefined } as never);
  });
  const e = result as { code: string; message: string };
  assert.equal(e.code, '#N/A');
  assert.equal(e.message, 'LIVEPRICE: unexpected error: storage is gone');
});

test('a stale price reaches the cell marked "(stale)" as every formula\'s stale value (a formatted number on CustomFunctionsRuntime 1.4), a fresh one as the number (review-r2 #2)', async () => {
  const { liveResult } = await import('../src/functions/live');
  const { FormattedCell } = await import('../src/formulas/cells');
  const { STALE_FORMAT } = await import('../src/formulas/provenance');
  const runtime14 = (yes: boolean) => {
    g.Office = { context: { requirements: { isSetSupported: (set: string, v: string) => yes && set === 'CustomFunctionsRuntime' && v === '1.4' } } };
  };
  runtime14(true);
  assert.deepEqual(liveResult(new FormattedCell(104029.343, STALE_FORMAT)), { type: 'FormattedNumber', basicValue: 104029.343, numberFormat: STALE_FORMAT });
  assert.equal(liveResult(104029.343), 104029.343);
  // An Excel without formatted numbers: the plain number, as PRICE's stale value there.
  runtime14(false);
  assert.equal(liveResult(new FormattedCell(104029.343, STALE_FORMAT)), 104029.343);
});
