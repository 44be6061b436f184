/**
 * The hourly reach check (src/formulas/reach.ts firstHourlyCandle: one hourly candle from a day on,
 * no `to`) is kept an hour (freshness class `window`: the plan's window of hours moves an hour per
 * hour); a real hourly read keeps its freshness (review 2026-11-27: hourly reach check).
 *
 *   node --import tsx --test test/hourly-reach.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Session } from '../src/cli/session';
import { canonicalRequest, freshnessOf } from '../src/client/canonical-request';
import { testSession } from './support/frozen-session';
import { formulaChecks } from './support/formula-checks';

let s: Session;
before(async () => { s = await testSession({ emulator: { rpm: 2000 } }); });
after(async () => { await s?.close(); });
const { num, grid, failure } = formulaChecks(() => s);
/** Credits paid on the hourly candles' path (/v3/currencies/{id}/ohlcv). */
const hourlyCredits = () => Object.entries(s.emulator!.usage('demo-pro').byPath).filter(([p]) => p.endsWith('/ohlcv')).reduce((n, [, u]) => n + (u.credits ?? 0), 0);

test('hourly candles before the reach: the reach check is asked once an hour, not once a minute', async () => {
  await num('=CRYPTO.PRICE("bitcoin")');
  const before0 = hourlyCredits();
  // Within bitcoin's history, before the hours this key gets: the read is empty, the check finds where they start.
  const e1 = await failure('=CRYPTO.OHLCV("bitcoin","2025-01-01","2025-01-05","hourly")');
  assert.match(e1.message, /^Hourly candles reach back 30 days on the Pro plan \(from 2026-02-13\)/);
  const paid = hourlyCredits() - before0;
  assert.equal(paid, 2, 'the read and the check, once');
  s.emulator!.clock.advance(61_000);
  const e2 = await failure('=CRYPTO.OHLCV("bitcoin","2025-01-01","2025-01-05","hourly")');
  assert.equal(e2.message, e1.message);
  assert.equal(hourlyCredits() - before0, paid, 'a minute later: the same answer, no credit');
  s.emulator!.clock.advance(3_600_000);
  await failure('=CRYPTO.OHLCV("bitcoin","2025-01-01","2025-01-05","hourly")');
  assert.equal(hourlyCredits() - before0, paid + 1, 'an hour later: the check is asked again (the read is history, kept a day)');
});

test('a real hourly read up to now keeps its live freshness: a minute later it is asked again', async () => {
  await num('=CRYPTO.PRICE("bitcoin")');
  const rows = (await grid('=CRYPTO.OHLCV("bitcoin","2026-03-14",,"hourly",0)')).length;
  assert.ok(rows > 24, 'the hours since 2026-03-14');
  const before0 = hourlyCredits();
  s.emulator!.clock.advance(61_000);
  assert.equal((await grid('=CRYPTO.OHLCV("bitcoin","2026-03-14",,"hourly",0)')).length, rows);
  assert.ok(hourlyCredits() > before0, 'a minute later: asked again');
});

test('only the one-candle check with no `to` is kept an hour; other hourly requests keep their class', () => {
  const of = (name: 'candles' | 'ohlcv', q: Record<string, string>) => freshnessOf(canonicalRequest(name, 1, q), Date.parse('2026-03-15T12:00:00Z'));
  assert.equal(of('ohlcv', { from: '2025-01-01', limit: '1' }), 'window');
  assert.equal(of('ohlcv', { from: '2025-01-01', limit: '1', interval: 'hour' }), 'window', 'the default interval is the same request');
  assert.equal(of('ohlcv', { from: '2025-01-01' }), 'live');
  assert.equal(of('ohlcv', { from: '2025-01-01', limit: '2' }), 'live');
  assert.equal(of('ohlcv', { from: '2026-03-14', to: '2026-03-15T12:00:00Z' }), 'live');
  assert.equal(of('ohlcv', { from: '2025-01-01', to: '2025-01-05', limit: '1' }), 'history');
  assert.equal(of('ohlcv', { from: '2025-01-01', to: '2025-01-05' }), 'history');
  // the daily ones as before (history #5)
  assert.equal(of('candles', { from: '2021-01-04', limit: '1' }), 'reference');
  assert.equal(of('candles', { from: '2021-01-04', limit: '1', interval: 'week' }), 'live');
});
