/**
 * usd-money.ts: the one "(USD)" label rule for money the API gives in USD only.
 *
 *   node --import tsx --test test/usd-money.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainFieldArg, usdFieldLabel, usdHeader } from '../src/formulas/usd-money';

test('usdHeader: plain in a USD workbook, "(USD)" in any other', () => {
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
