/**
 * The history review of 2026-11-27: STATS/CORREL share OHLCV's candle request on a moving clock,
 * HISTORICAL serves items it holds, month-end look-backs, RETURNS' unreadable rows, the history-start
 * check's freshness, and STATS' vwap in another currency as one cell.
 *
 *   node --import tsx --test test/history-review.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Session } from '../src/cli/session';
import { canonicalRequest, freshnessOf } from '../src/client/canonical-request';
import { analyticsFormulas } from '../src/formulas/analytics';
import { CellError, DateCell } from '../src/formulas/cells';
import { historyFormulas } from '../src/formulas/history';
import { spanArg } from '../src/formulas/span-args';
import { testSession } from './support/frozen-session';
import { formulaChecks } from './support/formula-checks';

const DAY = 86_400_000;

let s: Session;
before(async () => { s = await testSession({ emulator: { rpm: 2000 } }); });
after(async () => { await s?.close(); });
const { num, failure } = formulaChecks(() => s);
const requestsTo = (path: string) => s.emulator!.usage('demo-pro').byPath[path]?.requests ?? 0;

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

// ---------------------------------------------------------------- #2: HISTORICAL serves the items it holds

test('#2 HISTORICAL cells whose items of a past day are held ask nothing again, in whatever grouping', async () => {
  const PATH = '/v3/currencies/historical';
  await num('=CRYPTO.PRICE("bitcoin")'); // the coin map, so the cells below come within one window
  const at = (coins: string[]) => Promise.all(coins.map((c) => num(`=CRYPTO.HISTORICAL("${c}","2024-02-29")`)));
  const a = requestsTo(PATH);
  const first = await at(['bitcoin', 'ethereum', 'solana']);
  assert.equal(requestsTo(PATH) - a, 1, 'three cells at one date: one request');
  // One of them alone (its row edited), then all three with a fourth: only the fourth is asked.
  assert.equal(await num('=CRYPTO.HISTORICAL("ethereum","2024-02-29")'), first[1]);
  assert.equal(requestsTo(PATH) - a, 1, 'ethereum alone: its item is held');
  const again = await at(['bitcoin', 'ethereum', 'solana', 'cardano']);
  assert.deepEqual(again.slice(0, 3), first);
  assert.equal(requestsTo(PATH) - a, 2, 'only cardano is new');
  await at(['cardano', 'solana']);
  assert.equal(requestsTo(PATH) - a, 2, 'both held, in two requests of their own: no new one');
});

// ---------------------------------------------------------------- #3: month and year look-backs at a month end

test('#3 "1M", "6M", "1Y" at a month end start on that month\'s last day, as EDATE counts', () => {
  const startOf = (v: string, now: string) => new Date(spanArg(v, 'start', Date.parse(now), '1900')!.start).toISOString().slice(0, 10);
  assert.equal(startOf('1M', '2026-03-31T12:00:00Z'), '2026-02-28');
  assert.equal(startOf('1M', '2024-03-30T00:00:00Z'), '2024-02-29');
  assert.equal(startOf('6M', '2026-08-31T12:00:00Z'), '2026-02-28');
  assert.equal(startOf('1Y', '2024-02-29T12:00:00Z'), '2023-02-28');
  assert.equal(startOf('13M', '2026-01-31T23:59:59Z'), '2024-12-31');
  // Days that every month has stay as they were.
  assert.equal(startOf('1M', '2026-03-15T12:00:00Z'), '2026-02-15');
  assert.equal(startOf('12M', '2026-03-15T12:00:00Z'), '2025-03-15');
  assert.equal(startOf('30D', '2026-03-31T12:00:00Z'), '2026-03-01');
});

// ---------------------------------------------------------------- #4: RETURNS' unreadable periods

describe('#4 RETURNS: an unreadable period is its own #N/A row at its place, not left out', () => {
  const months = ['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06'];
  /** The answer with 2024-03 unreadable, oldest first or newest first. */
  function returnsCtx(newestFirst: boolean) {
    const raw = newestFirst ? [...months].reverse() : months;
    const data = raw.filter((m) => m !== '2024-03').map((m) => ({ date: `${m}-01T00:00:00.000Z`, closingPrice: '100', pricePercentChange: 1 }));
    const rejected = [{ index: raw.indexOf('2024-03'), id: null, label: null, field: 'closingPrice', message: 'The API answered without closingPrice', missing: true }];
    const client = {
      async resolveCoin() { return { id: 1, name: 'Bitcoin', slug: 'bitcoin' }; },
      async get() { return { data, rejected, stale: false, fetchedAt: 0, fromCache: false }; },
      meter: { snapshot: () => ({}) },
    };
    return { client, settings: { defaultCurrency: 'USD', dateSystem: '1900' }, now: () => Date.parse('2026-03-15T12:00:00Z'), caller: 'RETURNS' } as any;
  }
  /** The Date column as ISO months, "#N/A" for an error row. */
  const dates = (g: any[][]) => g.map((r) => (r[0] instanceof CellError ? '#N/A' : r[0] instanceof DateCell ? new Date(Math.round((r[0].serial - 25569) * DAY)).toISOString().slice(0, 7) : String(r[0])));

  for (const newestFirst of [false, true]) {
    test(`all periods, the answer ${newestFirst ? 'newest' : 'oldest'} first`, async () => {
      const g = await historyFormulas.RETURNS(returnsCtx(newestFirst), 'bitcoin', 'monthly', 0, null, null, null);
      assert.deepEqual(dates(g as any[][]), ['2024-01', '2024-02', '#N/A', '2024-04', '2024-05', '2024-06']);
      assert.match((g as any[][])[2][1].message, /without closingPrice/);
    });
  }
  test('a range that may hold it shows it; one that cannot leaves it out', async () => {
    const ctx = returnsCtx(false);
    assert.deepEqual(dates(await historyFormulas.RETURNS(ctx, 'bitcoin', 'monthly', 0, '2024-02', '2024-04') as any[][]), ['2024-02', '#N/A', '2024-04']);
    assert.deepEqual(dates(await historyFormulas.RETURNS(ctx, 'bitcoin', 'monthly', 0, '2024-05', '2024-06') as any[][]), ['2024-05', '2024-06']);
    assert.deepEqual(dates(await historyFormulas.RETURNS(ctx, 'bitcoin', 'monthly', 0, '2024-01', '2024-01') as any[][]), ['2024-01']);
  });
});

// ---------------------------------------------------------------- #5: the history-start check is reference data

test('#5 the "its history starts D" check is asked once a day, not once a minute; other requests keep their freshness', async () => {
  // The daily candles' path (/v3/currencies/{id}/historical), not HISTORICAL's items (/v3/currencies/historical).
  const credits = () => Object.entries(s.emulator!.usage('demo-pro').byPath).filter(([p]) => p.endsWith('/historical') && p !== '/v3/currencies/historical').reduce((n, [, u]) => n + (u.credits ?? 0), 0);
  await num('=CRYPTO.PRICE("bitcoin")');
  const before0 = credits();
  const e1 = await failure('=CRYPTO.HISTORICAL("sui","2021-01-04")');
  assert.match(e1.message, /its history starts/);
  const paid = credits() - before0;
  assert.ok(paid >= 1, 'the check is paid once');
  s.emulator!.clock.advance(61_000);
  const e2 = await failure('=CRYPTO.HISTORICAL("sui","2021-01-04")');
  assert.equal(e2.message, e1.message);
  assert.equal(credits() - before0, paid, 'a minute later: the same answer, no credit');
  // Only the two reach checks (the hourly one: test/hourly-reach.test.ts): a range up to now, or one candle by week, stays live.
  const of = (name: 'candles' | 'ohlcv', q: Record<string, string>) => freshnessOf(canonicalRequest(name, 1, q), Date.parse('2026-03-15T12:00:00Z'));
  assert.equal(of('candles', { from: '2021-01-04', limit: '1' }), 'reference');
  assert.equal(of('candles', { from: '2021-01-04' }), 'live');
  assert.equal(of('candles', { from: '2021-01-04', limit: '1', interval: 'week' }), 'live');
  assert.equal(of('ohlcv', { from: '2021-01-04', limit: '1' }), 'window');
  assert.equal(of('candles', { from: '2021-01-04', to: '2021-02-01', limit: '1' }), 'history');
});

// ---------------------------------------------------------------- #6: STATS' vwap in another currency as one cell

test('#6 STATS\' vwap in another currency as a single cell is refused, before any request; the table labels it', async () => {
  const candles = () => s.emulator!.usage('demo-pro').byPath['/v3/currencies/{id}/historical']?.requests ?? 0;
  const { calc } = formulaChecks(() => s);
  await num('=CRYPTO.PRICE("bitcoin")');
  const before0 = candles();
  for (const cur of ['GBP', 'eur']) {
    const out = await calc(`=CRYPTO.STATS("bitcoin","2020",,,"vwap",,,"${cur}")`);
    assert.ok('error' in out && out.error === '#VALUE!', JSON.stringify(out));
    assert.match(out.message, new RegExp(`single cell in USD only; got "${cur.toUpperCase()}".*today's ${cur.toUpperCase()} rate.*headers 1`));
  }
  assert.equal(candles(), before0, 'refused before any request');
  // USD alone, and the labelled table, still answer.
  assert.equal(typeof (await num('=CRYPTO.STATS("bitcoin","2020",,,"vwap")')), 'number');
  const t = await calc('=CRYPTO.STATS("bitcoin","2020",,,"vwap",,1,"GBP")');
  assert.ok('value' in t, JSON.stringify(t));
  assert.deepEqual(t.value[0], ['Coin', "VWAP (GBP at today's rate)"]);
  assert.equal(typeof t.value[1][1], 'number');
});

// ---------------------------------------------------------------- #5 (follow-up): unreadable candles among sorted ones

describe('#5 an unreadable candle of a page answered newest first sits between the dates it was between', () => {
  const SERIES = /^\/v3\/currencies\/\d+\/(historical|ohlcv|sparkline)$/;
  const SPOILED = new Set(['2024-03-02', '2024-03-07']);
  /** A fetch answering each candle page (and sparkline) newest first, the candles of the SPOILED days unreadable (a time that is no number). */
  const newestFirstSpoiled: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (!SERIES.test(new URL(String(input)).pathname) || res.status !== 200) return res;
    const body = (await res.json()) as { data: { time: unknown }[] };
    for (const c of body.data) if (SPOILED.has(new Date(Number(c.time)).toISOString().slice(0, 10))) c.time = 'x';
    return new Response(JSON.stringify({ ...body, data: [...body.data].reverse() }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  let bad: Session;
  before(async () => { bad = await testSession({ client: { fetch: newestFirstSpoiled } }); });
  after(async () => { await bad?.close(); });
  const day = (c: unknown) => (typeof c === 'number' ? new Date(Math.round((c - 25569) * DAY)).toISOString().slice(0, 10) : c !== null && typeof c === 'object' && 'error' in c ? String(c.error) : String(c));

  test('OHLCV: answer [03-08, BAD 03-07, 03-06, 03-05, 03-04] reads 03-04, 03-05, 03-06, #N/A, 03-08', async () => {
    const { grid } = formulaChecks(() => bad);
    const g = await grid('=CRYPTO.OHLCV("bitcoin","2024-03-04","2024-03-08",,0,"date")');
    assert.deepEqual(g.map((r) => day(r[0])), ['2024-03-04', '2024-03-05', '2024-03-06', '#N/A', '2024-03-08']);
  });

  test('several pages, each newest first with an unreadable candle: each one between its neighbours in the answer', async () => {
    // Pages of 4: [03-04, 03-03, BAD, 03-01], [03-08, BAD, 03-06, 03-05], [03-12 .. 03-09].
    const f = await bad.client.getPages('candles', { id: 1, query: { from: '2024-03-01', to: '2024-03-12', limit: 4 } });
    const rows: string[] = f.data.map((c) => day(c.time / DAY + 25569));
    for (const r of [...(f.rejected ?? [])].sort((a, b) => a.index - b.index)) rows.splice(r.index, 0, '#N/A');
    assert.deepEqual(rows, ['2024-03-01', '#N/A', '2024-03-03', '2024-03-04', '2024-03-05', '2024-03-06', '#N/A', '2024-03-08', '2024-03-09', '2024-03-10', '2024-03-11', '2024-03-12']);
  });

  test('SPARKLINE (review 2026-11-27): answer [03-09, 03-08, BAD 03-07, 03-06] reads 03-06, #N/A, 03-08, 03-09', async () => {
    // Its index in the answer (2) would put the #N/A row after 03-08 once the points are sorted oldest first.
    const { grid } = formulaChecks(() => bad);
    const g = await grid('=CRYPTO.SPARKLINE("bitcoin",0,"2024-03-06","2024-03-09","1d")');
    assert.deepEqual(g.map((r) => day(r[0])), ['2024-03-06', '#N/A', '2024-03-08', '2024-03-09']);
  });
});
