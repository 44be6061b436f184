/**
 * LIVEPRICE's Excel wiring (src/functions/live.ts) in Node, with Office.js's
 * globals stood in for: a runtime that cannot start shows its failure through
 * the one mapping every formula's failure takes (formulas/failure.ts).
 *
 *   node --import tsx --test test/live-glue.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';

const g = globalThis as Record<string, unknown>;
after(() => {
  delete g.OfficeRuntime;
  delete g.CustomFunctions;
});

test('a runtime that cannot start: #N/A saying so as any formula\'s unexpected error', async () => {
  g.OfficeRuntime = {
    storage: {
      getItem: () => Promise.reject(new Error('storage is gone')),
      setItem: () => Promise.resolve(),
      removeItem: () => Promise.resolve(),
    },
  };
  g.CustomFunctions = {
    Error: class extends Error {
      constructor(readonly code: string, message?: string) {
        super(message);
      }
    },
    ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A' },
  };
  const { livePrice } = await import('../src/functions/live');
  const result = await new Promise<unknown>((resolve) => {
    livePrice('bitcoin', 60, 'USD' as never, { setResult: resolve, onCanceled: () => undefined } as never);
  });
  const e = result as { code: string; message: string };
  assert.equal(e.code, '#N/A');
  assert.equal(e.message, 'LIVEPRICE: unexpected error: storage is gone');
});
