/**
 * Tolerant boundary, strict core: documented variants read as the core
 * record, extra fields ignored, a missing optional field an empty cell, a
 * missing needed field #N/A naming it, and one malformed item in a page of
 * 250 markets costing that coin only. Over real HTTP: the local API server's
 * answers are rewritten in flight.
 *
 *   node --import tsx --test test/tolerant-answers.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as R from '../src/api/records';
import { ENDPOINTS } from '../src/api/endpoints';
import { readData } from '../src/api/read-data';
import { calculate, type JsonCell } from '../src/cli/calculate';
import type { Session } from '../src/cli/session';
import { frozenSession } from './support/frozen-session';

/** A fetch that lets `rewrite` change the `data` of markets answers. */
function rewritingFetch(path: string, rewrite: (data: Record<string, unknown>[]) => void): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (new URL(String(input)).pathname !== path || res.status !== 200) return res;
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    rewrite(body.data);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}

const MARKETS = ENDPOINTS.markets.path;
let good: Session;
let bad: Session;
before(async () => {
  good = await frozenSession();
  bad = await frozenSession({
    client: {
      fetch: rewritingFetch(MARKETS, (items) => {
        if (items.length < 250) return;
        delete items[5].price; // a field every quote needs
        delete items[7].marketCap; // nullable: an empty cell
        items[8].brandNewField = { nested: true }; // extra: ignored
      }),
    },
  });
});
after(async () => {
  await Promise.all([good?.close(), bad?.close()]);
});

async function value(s: Session, f: string): Promise<JsonCell[][]> {
  const out = await calculate(s.host, f);
  assert.ok('value' in out, `${f}: ${JSON.stringify(out)}`);
  return out.value;
}

describe('a page of 250 markets with one malformed item', () => {
  test("every other coin's cells are right; that coin's cells name the field", async () => {
    const top = (await value(good, '=CRYPTO.MARKETS(12,,,,,,,,0)')).map((r) => r[3] as string); // slugs, rank order
    const list = `{${top.map((s) => `"${s}"`).join(';')}}`;
    const want = await value(good, `=CRYPTO.QUOTE(${list},"price,marketCap,volume24h",,0)`);
    const got = await value(bad, `=CRYPTO.QUOTE(${list},"price,marketCap,volume24h",,0)`);
    for (let i = 0; i < top.length; i++) {
      if (i === 5) {
        for (const cell of got[i].slice(1)) {
          assert.equal((cell as { error: string }).error, '#N/A', `${top[i]}: #N/A`);
          assert.match((cell as { message: string }).message, /The API answered without price/);
        }
      } else if (i === 7) {
        assert.deepEqual(got[i], [want[i][0], want[i][1], '', want[i][3]], 'missing marketCap: an empty cell, the rest right');
      } else {
        assert.deepEqual(got[i], want[i], `${top[i]} unchanged`);
      }
    }
    const p = await calculate(bad.host, `=CRYPTO.PRICE("${top[5]}")`);
    assert.ok('error' in p, JSON.stringify(p));
    assert.equal(p.error, '#N/A');
    assert.match(p.message, /^The API answered without price/);
    assert.equal(await value(bad, `=CRYPTO.PRICE("${top[6]}")`).then((g) => g[0][0]), want[6][1]);
  });

  test('MARKETS keeps the table: that coin is a row of #N/A naming the field, the other rows are right', async () => {
    const want = await value(good, '=CRYPTO.MARKETS(20)');
    const got = await value(bad, '=CRYPTO.MARKETS(20)');
    assert.equal(got.length, want.length);
    assert.deepEqual(got[0], want[0], 'headers');
    for (let r = 1; r < want.length; r++) {
      if (r === 6) {
        assert.ok(got[r].every((c) => typeof c === 'object' && c !== null && /without price/.test((c as { message: string }).message)));
      } else if (r !== 8) {
        assert.deepEqual(got[r], want[r], `row ${r}`);
      }
    }
  });

  test("the pane's error log names the field and the endpoint", async () => {
    const logged = bad.host.errors().filter((e) => /without price/.test(e.message));
    assert.ok(logged.length > 0, JSON.stringify(bad.host.errors()));
    for (const e of logged) assert.ok(e.message.includes(MARKETS), `names the endpoint: ${e.message}`);
    assert.ok(logged.some((e) => e.code === 'MISSING_FIELD'), JSON.stringify(logged));
  });
});

describe('reading records', () => {
  test('a missing needed field in a single record is #N/A naming it', async () => {
    const s = await frozenSession({
      client: {
        fetch: rewritingFetch('/v3/global/market', (d) => {
          delete (d as unknown as Record<string, unknown>).totalMarketCap;
        }),
      },
    });
    try {
      const out = await calculate(s.host, '=CRYPTO.GLOBAL("totalMarketCap")');
      assert.ok('error' in out || 'value' in out);
      const msg = 'error' in out ? out.message : (out.value[0][0] as { message: string }).message;
      assert.match(msg, /^The API answered without totalMarketCap/);
    } finally {
      await s.close();
    }
  });

  test('documented variants read as the core record; the strict shape passes uncopied', () => {
    const candle = { open: '1', high: '2', low: '0.5', close: '1.5', avg: '1.25', volume: '10', circulatingSupply: '100', priceChangePercent: 50, volumeChangePercent: null, circulatingSupplyChangePercent: null };
    const spec = [{ time: 1_700_000_000_000, ...candle }];
    const r0 = readData(ENDPOINTS.candles.data, spec, ENDPOINTS.candles.variant);
    assert.ok(r0.ok && r0.data === spec, 'spec shape: the same array');
    for (const date of [1_700_000_000_000, new Date(1_700_000_000_000).toISOString()]) {
      const r = readData(ENDPOINTS.candles.data, [{ date, ...candle, extra: 1 }], ENDPOINTS.candles.variant);
      assert.ok(r.ok && r.rejected === null);
      assert.equal((r.data as R.Candle[])[0].time, 1_700_000_000_000);
    }
    const unlock = { currencyId: 7, name: 'X', symbol: 'X', imageUrl: null, time: 1_700_000_000_000, tokenAmount: '5', usdAmount: '10', percentOfMcap: 1, percentOfSupply: 2, price: '2', marketCap: '1000', circulatingSupply: '500' };
    const u = readData(ENDPOINTS.upcomingUnlocks.data, [unlock], ENDPOINTS.upcomingUnlocks.variant);
    assert.ok(u.ok);
    const read = (u.data as R.UpcomingUnlock[])[0];
    assert.deepEqual([read.id, read.unlockTokens, read.unlockValue], [7, '5', '10']);
  });

  test('fear & greed and altcoin season: the snapshot, or a chart point read as one (the rest empty)', () => {
    const point = { time: 1_700_000_000_000, value: 63, classification: 'Greed', extra: true };
    const fg = readData(ENDPOINTS.fearGreed.data, point, ENDPOINTS.fearGreed.variant);
    assert.ok(fg.ok);
    assert.deepEqual(fg.data, { time: point.time, currentValue: 63, classification: 'Greed', extra: true }, 'value read as currentValue; extra fields kept but unread');
    const alt = readData(ENDPOINTS.altcoinIndex.data, { time: 1, value: 20, classification: 'Bitcoin Season', altcoinsMarketCap: '1' }, ENDPOINTS.altcoinIndex.variant);
    assert.ok(alt.ok);
    const a = alt.data as R.AltcoinIndexSnapshot;
    assert.deepEqual([a.currentValue, a.classification, a.yearlyHighValue, a.lastMonthValue], [20, 'Bitcoin Season', null, null]);
    const ms = readData(ENDPOINTS.altcoinIndex.data, { currentValue: 50, classification: 'Neutral', yearlyHighDate: 1_700_000_000_000, yearlyLowDate: null }, ENDPOINTS.altcoinIndex.variant);
    assert.ok(ms.ok);
    assert.equal((ms.data as R.AltcoinIndexSnapshot).yearlyHighDate, new Date(1_700_000_000_000).toISOString());
    const bad = readData(ENDPOINTS.fearGreed.data, { classification: 'Greed' }, ENDPOINTS.fearGreed.variant);
    assert.deepEqual(bad.ok ? null : bad.message, 'The API answered without currentValue');
  });

  for (const iso of [false, true]) test(`the sparkline's older documented answer {interval, days, points: [[${iso ? 'isoTime, "value"' : 'ms, price'}]]}: the same times and prices, empty volumes`, async () => {
    const older = await frozenSession({
      client: {
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          if (!/\/sparkline$/.test(new URL(String(input)).pathname) || res.status !== 200) return res;
          const body = (await res.json()) as { data: { time: number; price: string }[] };
          // [[ms, price]], or the docs' second chart convention [[isoTime, "value"]] (api-notes, "Round two").
          const points = body.data.map((p) => (iso ? [new Date(p.time).toISOString(), p.price] : [p.time, Number(p.price)]));
          return new Response(JSON.stringify({ ...body, data: { interval: '1h', days: 7, points } }), { status: 200 });
        },
      },
    });
    try {
      const want = await value(good, '=CRYPTO.SPARKLINE("solana",0)');
      const got = await value(older, '=CRYPTO.SPARKLINE("solana",0)');
      assert.equal(got.length, want.length);
      got.forEach((r, i) => {
        assert.equal(r[0], want[i][0]);
        assert.ok(Math.abs((r[1] as number) - (want[i][1] as number)) <= 1e-9 * (want[i][1] as number), 'price');
        assert.equal(r[2], '', 'no volume in that answer: an empty cell');
      });
    } finally {
      await older.close();
    }
  });

  test('a list keeps its readable items and names the unreadable ones', () => {
    const items = [
      { date: '2024-01-01T00:00:00.000Z', closingPrice: '1', pricePercentChange: 1 },
      { date: '2024-02-01T00:00:00.000Z', pricePercentChange: 2 },
      { date: '2024-03-01T00:00:00.000Z', closingPrice: 3, pricePercentChange: 3 },
    ];
    const r = readData(ENDPOINTS.returns.data, items);
    assert.ok(r.ok);
    assert.equal((r.data as unknown[]).length, 1);
    assert.deepEqual(r.rejected?.map((x) => [x.index, x.field, x.missing]), [[1, 'closingPrice', true], [2, 'closingPrice', false]]);
    assert.equal(r.rejected?.[0].message, 'The API answered without closingPrice');
  });
});
