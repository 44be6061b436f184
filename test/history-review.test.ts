/**
 * The history review of 2026-11-27: STATS/CORREL share OHLCV's candle request on a moving clock,
 * HISTORICAL serves items it holds, month-end look-backs, RETURNS' unreadable rows, the history-start
 * check's freshness, and STATS' vwap in another currency as one cell.
 *
 *   node --import tsx --test test/history-review.test.ts
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyticsFormulas } from '../src/formulas/analytics';
import { historyFormulas } from '../src/formulas/history';

const DAY = 86_400_000;

// ---------------------------------------------------------------- #1: one clock reading per call

/** A context whose clock moves a few ms during each coin lookup, as a live one does; it records the candle requests. */
function movingClockCtx() {
  let t = Date.parse('2026-03-15T12:34:56.789Z');
  const asked: string[] = [];
  const candles = Array.from({ length: 31 }, (_, i) => {
    const time = Date.parse('2026-02-13T00:00:00Z') + i * DAY;
    return { time, open: '100', high: '110', low: '90', close: String(100 + i), avg: '100', volume: '1000', circulatingSupply: '1', priceChangePercent: 1, volumeChangePercent: 1, circulatingSupplyChangePercent: 0 };
  });
  const client = {
    async resolveCoin() { t += 5; return { id: 1, name: 'Bitcoin', slug: 'bitcoin' }; },
    async getPages(name: string, req: { query: Record<string, string> }) { asked.push(`${name} ${JSON.stringify(req.query)}`); return { data: candles, stale: false, fetchedAt: t, fromCache: false }; },
    async get() { return { data: [], stale: false, fetchedAt: t, fromCache: false }; },
    meter: { snapshot: () => ({}) },
  };
  const ctx = { client, settings: { defaultCurrency: 'USD', dateSystem: '1900' }, now: () => t, caller: 'X' } as any;
  return { ctx, asked };
}

test('#1 OHLCV, STATS and CORREL over "30D" on a moving clock ask one request (one cache key)', async () => {
  const { ctx, asked } = movingClockCtx();
  await historyFormulas.OHLCV(ctx, 'bitcoin', '30D', null, null, null, null);
  await analyticsFormulas.STATS(ctx, 'bitcoin', '30D', null, null, 'return', null, null, null);
  await analyticsFormulas.STATS(ctx, 'bitcoin', '30D', null, null, 'return', null, null, null);
  await analyticsFormulas.CORREL(ctx, [['bitcoin'], ['bitcoin']], '30D', null, null);
  assert.equal(asked.length, 5);
  assert.deepEqual([...new Set(asked)], [asked[0]], asked.join('\n'));
  assert.match(asked[0], /"to":"2026-03-15T12:00:00.000Z"/, 'the hour OHLCV asks');
});
