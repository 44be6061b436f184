/**
 * usd-money.ts's usdHeader is history.ts's rule (OHLCV, TVL), kept in a module
 * global.ts can import without an import cycle: the two must answer alike
 * until history.ts re-exports it.
 *
 *   node --import tsx --test test/usd-money.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usdHeader as historyRule } from '../src/formulas/history';
import { plainFieldArg, usdFieldLabel, usdHeader } from '../src/formulas/usd-money';

test('usdHeader: the history rule, for USD and EUR', () => {
  for (const defaultCurrency of ['USD', 'EUR'] as const) {
    const settings = { defaultCurrency, dateSystem: '1900' as const };
    assert.equal(usdHeader('Close', settings), historyRule('Close', settings), defaultCurrency);
  }
  assert.equal(usdHeader('Price', { defaultCurrency: 'EUR' }), 'Price (USD)');
  assert.equal(usdHeader('Price', { defaultCurrency: 'USD' }), 'Price');
});

test('a Field/Value label: money fields only; a copied label is read back as the plain field', () => {
  const label = usdFieldLabel(new Set(['totalMarketCap']), { defaultCurrency: 'EUR' });
  assert.deepEqual([label('totalMarketCap'), label('activeTickers')], ['totalMarketCap (USD)', 'activeTickers']);
  assert.equal(plainFieldArg('totalMarketCap (usd)'), 'totalMarketCap');
  assert.equal(plainFieldArg([['totalMarketCap (USD) ']]), 'totalMarketCap');
  assert.equal(plainFieldArg(3), 3);
});
