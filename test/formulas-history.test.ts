/**
 * CRYPTO.OHLCV, HISTORICAL, RETURNS, SPARKLINE, PERFORMANCE through the formula
 * text → calculation host → client → local API server, as Excel would call them.
 *
 *   node --import tsx --test test/formulas-history.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { calculate } from '../src/cli/calculate';
import { loadFunctionMetadata } from '../src/cli/metadata';
import type { Session } from '../src/cli/session';
import { toSerial } from '../src/formulas/cells';
import { FROZEN_NOW as NOW } from '../harness/instant';
import { testSession } from './support/frozen-session';
import { TEST_WORKBOOK } from './support/workbook';
import { behindHostile } from './support/behind-hostile';
import { close, failed as failure, formulaChecks, numberIn as num, valueOf as grid } from './support/formula-checks';

const TODAY = Math.floor(toSerial(NOW)); // 46096
const serial = (iso: string) => toSerial(Date.parse(`${iso}T00:00:00Z`));
const HISTORICAL_PATH = '/v3/currencies/historical';
/** Not the frozen instant, on purpose: ten days after quonosyn's first point (2025-12-30), while the young coin's hours are all within reach. */
const QUONOSYN_TEN_DAYS_OLD = Date.parse('2026-01-09T12:00:00.000Z');

let s: Session;
before(async () => {
  // A frozen clock makes "today" and every value reproducible; a generous rate
  // limit keeps the pacer out of the way (rate limits have their own tests).
  s = await testSession({ emulator: { rpm: 2000 } });
});
after(async () => {
  await s?.close();
});

const { calc, grid: table, num: one } = formulaChecks(() => s);

const OHLCV_HEADER = ['Date', 'Open', 'High', 'Low', 'Close', 'Volume'];

describe('CRYPTO.OHLCV', () => {
  test('daily candles: header row, one row per day, serial dates oldest first, sane prices', async () => {
    const g = await table('=CRYPTO.OHLCV("solana","2024-01-01","2024-01-31")');
    assert.deepEqual(g[0], OHLCV_HEADER);
    assert.equal(g.length, 1 + 31);
    g.slice(1).forEach((r, i) => {
      assert.equal(r.length, 6);
      assert.equal(r[0], serial('2024-01-01') + i);
      const [o, h, l, c, v] = r.slice(1).map(num);
      for (const x of [o, h, l, c, v]) assert.ok(x > 0);
      assert.ok(h >= Math.max(o, c) && l <= Math.min(o, c), `OHLC out of order in ${JSON.stringify(r)}`);
    });
  });

  test('a weekly candle aggregates the daily candles of its week (Monday to Sunday)', async () => {
    const weekly = await table('=CRYPTO.OHLCV("solana","2024-01-01","2024-01-28","weekly")');
    const daily = (await table('=CRYPTO.OHLCV("solana","2024-01-01","2024-01-28")')).slice(1);
    assert.deepEqual(weekly[0], OHLCV_HEADER);
    assert.equal(weekly.length, 1 + 4);
    weekly.slice(1).forEach((w, k) => {
      const days = daily.slice(k * 7, k * 7 + 7);
      assert.equal(w[0], serial('2024-01-01') + 7 * k);
      assert.equal(w[0], days[0][0]);
      assert.equal(w[1], days[0][1], 'weekly open = open of the week\'s first day');
      assert.equal(w[4], days[6][4], 'weekly close = close of the week\'s last day');
      assert.equal(num(w[2]), Math.max(...days.map((d) => num(d[2]))));
      assert.equal(num(w[3]), Math.min(...days.map((d) => num(d[3]))));
      close(num(w[5]), days.reduce((a, d) => a + num(d[5]), 0), 1e-6);
    });
    // STOCKHISTORY's interval number 1 is weekly.
    assert.deepEqual(await table('=CRYPTO.OHLCV("solana","2024-01-01","2024-01-28",1)'), weekly);
  });

  test('a year given alone means that year; monthly closes equal the last daily close of each month', async () => {
    const daily = await table('=CRYPTO.OHLCV("bitcoin","2024")');
    assert.equal(daily.length, 1 + 366);
    assert.equal(daily[1][0], serial('2024-01-01'));
    assert.equal(daily[366][0], serial('2024-12-31'));
    const monthly = await table('=CRYPTO.OHLCV("bitcoin","2024",,"monthly")');
    assert.equal(monthly.length, 1 + 12);
    for (let m = 0; m < 12; m++) {
      const row = monthly[1 + m];
      const start = toSerial(Date.UTC(2024, m, 1));
      const lastDay = toSerial(Date.UTC(2024, m + 1, 1)) - 1;
      assert.equal(row[0], start);
      const last = daily.find((r) => r[0] === lastDay)!;
      assert.equal(row[4], last[4], `close of ${m + 1}/2024`);
    }
    assert.deepEqual(await table('=CRYPTO.OHLCV("bitcoin","2024",,2)'), monthly);
  });

  test('a weekly or monthly row is its whole period, past end too, and the end parameter\'s help says so', async () => {
    // Bitcoin, end 2024-02-10: February's row is the whole month (the API's monthly candle), its close 2024-02-29's.
    const month = await table('=CRYPTO.OHLCV("bitcoin","2024-02-01","2024-02-10","monthly",0,"date","close")');
    const feb29 = await table('=CRYPTO.OHLCV("bitcoin","2024-02-29","2024-02-29",,0,"date","close")');
    assert.deepEqual(month, [[serial('2024-02-01'), feb29[0][1]]]);
    const week = await table('=CRYPTO.OHLCV("bitcoin","2024-02-26","2024-02-29","weekly",0,"date","close")');
    const sunday = await table('=CRYPTO.OHLCV("bitcoin","2024-03-03","2024-03-03",,0,"close")');
    assert.deepEqual(week, [[serial('2024-02-26'), sunday[0][0]]]);
    const end = (await loadFunctionMetadata()).find((f) => f.id === 'OHLCV')!.parameters.find((p) => p.name === 'end')!;
    assert.match(end.description ?? '', /weekly or monthly row covers its whole period/);
    assert.match(end.description ?? '', /after end/);
  });

  test("fields' 0 is STOCKHISTORY's Date, as a blank fields cell arrives on older desktop builds: a table of dates, which the fields help says", async () => {
    assert.deepEqual(await table('=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-02",,1,0)'), [['Date'], [serial('2024-01-01')], [serial('2024-01-02')]]);
    const fields = (await loadFunctionMetadata()).find((f) => f.id === 'OHLCV')!.parameters.find((p) => p.name === 'fields')!;
    assert.match(fields.description ?? '', /A blank cell here is 0, Date, on older desktop builds: leave it out and name the columns\.$/);
  });

  test('STOCKHISTORY property numbers pick and order the columns', async () => {
    const all = await table('=CRYPTO.OHLCV("bitcoin","2024-03-01","2024-03-05")');
    const picked = await table('=CRYPTO.OHLCV("bitcoin","2024-03-01","2024-03-05",0,1,0,1,2,3,4,5)');
    assert.deepEqual(picked[0], ['Date', 'Close', 'Volume', 'Open', 'High', 'Low']);
    assert.equal(picked.length, all.length);
    for (let i = 1; i < all.length; i++) {
      const [d, o, h, l, c, v] = all[i];
      assert.deepEqual(picked[i], [d, c, v, o, h, l]);
    }
    const two = await table('=CRYPTO.OHLCV("bitcoin","2024-03-01","2024-03-05",0,1,4,1)');
    assert.deepEqual(two[0], ['High', 'Close']);
    assert.deepEqual(two[1], [all[1][2], all[1][4]]);
  });

  test('field names give the other candle fields, consistent with OHLC', async () => {
    const g = await table(
      '=CRYPTO.OHLCV("ethereum","2024-03-01","2024-03-10","daily",1,"date","open","high","low","close","avg","circulatingSupply","priceChangePercent","volumeChangePercent","circulatingSupplyChangePercent")',
    );
    assert.deepEqual(g[0], ['Date', 'Open', 'High', 'Low', 'Close', 'Average', 'Circulating supply', 'Price change %', 'Volume change %', 'Circulating supply change %']);
    assert.equal(g.length, 11);
    for (const r of g.slice(1)) {
      const [o, h, l, c, avg, supply, pct] = r.slice(1, 8).map(num);
      close(avg, (o + h + l + c) / 4, 1e-6);
      assert.ok(supply > 1e8);
      assert.ok(Math.abs(pct - ((c - o) / o) * 100) < 1e-3, `priceChangePercent ${pct} vs ${((c - o) / o) * 100}`);
      assert.equal(typeof r[8], 'number');
      assert.equal(typeof r[9], 'number');
    }
  });

  test('headers 0 leaves the header row out; 2 is read as 1', async () => {
    const g = await table('=CRYPTO.OHLCV("bitcoin","2024-03-01","2024-03-05",,0)');
    assert.equal(g.length, 5);
    assert.equal(g[0][0], serial('2024-03-01'));
    const withHeaders = await table('=CRYPTO.OHLCV("bitcoin","2024-03-01","2024-03-05",,2)');
    assert.deepEqual(withHeaders[0], OHLCV_HEADER);
    assert.deepEqual(withHeaders.slice(1), g);
  });

  test('with the default currency EUR, OHLCV\'s, RETURNS\', SPARKLINE\'s and TVL\'s money headers say USD (their numbers are USD); a USD workbook keeps the plain headers', async () => {
    const eur = await testSession({ settings: { defaultCurrency: 'EUR' }, emulator: { rpm: 2000 } });
    try {
      const candles = await table('=CRYPTO.OHLCV("bitcoin","2024-03-01","2024-03-02")', eur);
      assert.deepEqual(candles[0], ['Date', 'Open (USD)', 'High (USD)', 'Low (USD)', 'Close (USD)', 'Volume (USD)']);
      // The same USD numbers as in a USD workbook: only the header says which currency.
      assert.deepEqual(candles.slice(1), (await table('=CRYPTO.OHLCV("bitcoin","2024-03-01","2024-03-02")')).slice(1));
      const other = await table('=CRYPTO.OHLCV("bitcoin","2024-03-01","2024-03-01",,1,"date","avg","circulatingSupply","priceChangePercent")', eur);
      assert.deepEqual(other[0], ['Date', 'Average (USD)', 'Circulating supply', 'Price change %']);
      const r = await table('=CRYPTO.RETURNS("bitcoin","monthly",1,"2024-01","2024-01")', eur);
      assert.deepEqual(r[0], ['Date', 'Closing price (USD)', 'Return %']);
      // The chart formulas too: SPARKLINE's points and TVL are USD by the spec (review-r2 #3).
      assert.deepEqual((await table('=CRYPTO.SPARKLINE("bitcoin",1,"2D",,"1d")', eur))[0], ['Time', 'Price (USD)', 'Volume (USD)']);
      assert.deepEqual((await table('=CRYPTO.TVL("solana","3D")', eur))[0], ['Date', 'TVL (USD)', 'Total TVL (USD)']);
      // The reason: the same workbook's PRICE is EUR.
      assert.notEqual(await one('=CRYPTO.PRICE("bitcoin")', eur), await one('=CRYPTO.PRICE("bitcoin")'));
    } finally {
      await eur.close();
    }
    assert.deepEqual((await table('=CRYPTO.RETURNS("bitcoin","monthly",1,"2024-01","2024-01")'))[0], ['Date', 'Closing price', 'Return %']);
    assert.deepEqual((await table('=CRYPTO.TVL("solana","3D")'))[0], ['Date', 'TVL', 'Total TVL']);
  });

  test('a multi-year daily series comes back whole: every day, no gaps', async () => {
    const g = await table('=CRYPTO.OHLCV("bitcoin","2016-01-01","2025-12-31",,0,0,1)');
    assert.equal(g.length, 3653);
    g.forEach((r, i) => {
      assert.equal(r[0], serial('2016-01-01') + i);
      assert.ok(num(r[1]) > 0);
    });
  });

  test('an omitted end means up to today; Excel serial dates are accepted', async () => {
    const g = await table(`=CRYPTO.OHLCV("bitcoin",${serial('2026-03-01')})`);
    assert.equal(g.length, 1 + 15);
    assert.equal(g[g.length - 1][0], TODAY);
    assert.equal(g[1][0], serial('2026-03-01'));
  });

  test('hourly candles: the last 30 days, one row per hour, up to the current hour', async () => {
    const g = await table('=CRYPTO.OHLCV("bitcoin","30D",,"hourly")');
    assert.deepEqual(g[0], OHLCV_HEADER);
    assert.equal(g.length, 1 + 720);
    const body = g.slice(1);
    for (let i = 1; i < body.length; i++) close(num(body[i][0]) - num(body[i - 1][0]), 1 / 24, 1e-6);
    close(num(body[body.length - 1][0]), toSerial(NOW), 1e-9);
    const twoDays = await table('=CRYPTO.OHLCV("bitcoin","2026-03-14",,"hourly",0)');
    assert.equal(twoDays.length, 24 + 13);
    assert.deepEqual(twoDays[twoDays.length - 1], body[body.length - 1]);
  });

  test('bad arguments are #VALUE! naming what is allowed', async () => {
    const iv = failure(await calc('=CRYPTO.OHLCV("bitcoin","2024-01-01",,"yearly")'));
    assert.equal(iv.error, '#VALUE!');
    for (const w of ['"daily"', '"weekly"', '"monthly"', '"hourly"']) assert.ok(iv.message.includes(w), iv.message);
    const f = failure(await calc('=CRYPTO.OHLCV("bitcoin","2024-01-01",,,1,"close","bogus")'));
    assert.equal(f.error, '#VALUE!');
    assert.match(f.message, /bogus/);
    assert.match(f.message, /circulatingSupply/);
    const n = failure(await calc('=CRYPTO.OHLCV("bitcoin","2024-01-01",,,1,6)'));
    assert.equal(n.error, '#VALUE!');
    const order = failure(await calc('=CRYPTO.OHLCV("bitcoin","2024-02-01","2024-01-01")'));
    assert.equal(order.error, '#VALUE!');
    const date = failure(await calc('=CRYPTO.OHLCV("bitcoin","last tuesday")'));
    assert.equal(date.error, '#VALUE!');
  });

  test('an impossible date is #VALUE!, not next month\'s candles; a start in the future says so', async () => {
    const o = await calc('=CRYPTO.OHLCV("bitcoin","2024-02-30")');
    assert.ok('error' in o);
    assert.equal(o.error, '#VALUE!');
    assert.equal(o.message, 'start is not a date that exists; got "2024-02-30"');
    const f = await calc('=CRYPTO.OHLCV("bitcoin","2031-01-01")');
    assert.ok('error' in f);
    assert.equal(f.error, '#VALUE!');
    assert.equal(f.message, 'start must not be in the future; got 2031-01-01');
  });

  // The rule table in src/formulas/reach.ts: no silent truncation.
  const REACH = 'Hourly candles reach back 30 days on the Pro plan (from 2026-02-13); ask for a later start or a daily interval';

  test('hourly candles from before their reach: #N/A naming the reach the service showed, not 30 days passed off as the range', async () => {
    // The hours the local API server keeps (720, a guess) start 2026-02-13 13:00; the start asked is years before.
    const open = failure(await calc('=CRYPTO.OHLCV("bitcoin","2010-01-01",,"hourly")'));
    assert.equal(open.error, '#N/A');
    assert.equal(open.message, REACH);
    // a range wholly inside the history but before the reach: the same words
    const old = failure(await calc('=CRYPTO.OHLCV("bitcoin","2025-01-01","2025-01-05","hourly")'));
    assert.equal(old.error, '#N/A');
    assert.equal(old.message, REACH);
    // a start on the reach's first day is served from its first hour (the reach counts hours, a start is a day)
    assert.equal((await table('=CRYPTO.OHLCV("bitcoin","2026-02-13",,"hourly",0)')).length, 720);
  });

  test('before the coin\'s history: wholly, #N/A naming when it starts (not a header row alone); partly, from its first day as STOCKHISTORY', async () => {
    // The local API server's bitcoin series starts 2015-01-01 (its first generated day).
    for (const iv of ['', '"weekly"', '"hourly"']) {
      const e = failure(await calc(`=CRYPTO.OHLCV("bitcoin","1990-01-01","1990-02-01",${iv})`));
      assert.equal(e.error, '#N/A', iv);
      assert.equal(e.message, 'No Bitcoin candles between 1990-01-01 and 1990-02-01; its history starts 2015-01-01', iv);
    }
    // A start before the first day: the candles from it, as STOCKHISTORY starts at the first trading day.
    const g = await table('=CRYPTO.OHLCV("bitcoin","2014-12-01","2015-01-10")');
    assert.deepEqual(g[0], OHLCV_HEADER);
    assert.equal(g.length, 1 + 10);
    assert.equal(g[1][0], serial('2015-01-01'));
    // hourly too, when the coin's hours start within the reach: a coin 10 days old, asked from a month before it
    const young = await testSession({ emulator: { rpm: 2000 } }, QUONOSYN_TEN_DAYS_OLD);
    try {
      const h = grid(await calc('=CRYPTO.OHLCV("quonosyn","2025-12-01",,"hourly",0,"date")', young));
      assert.equal(h[0][0], serial('2025-12-30'), 'its first hour');
      assert.equal(h.length, 10 * 24 + 13, 'every hour since, up to the current one');
    } finally {
      await young.close();
    }
  });

  test('the service refusing a range as deeper than the plan (403 PLAN_LIMIT_EXCEEDED, [doc]): #N/A with its words and the way out', async () => {
    const h = await behindHostile((r) => r.url.startsWith('/v3/currencies/1/ohlcv')
      ? { status: 403, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'PLAN_LIMIT_EXCEEDED', message: 'History range exceeds your plan', status: 403 } }) }
      : null, { emulator: { rpm: 2000 }, workbook: TEST_WORKBOOK, key: 'demo-pro' });
    try {
      const e = failure(await calc('=CRYPTO.OHLCV("bitcoin","2025-01-01","2025-01-05","hourly")', h.session));
      assert.equal(e.error, '#N/A');
      assert.equal(e.message, 'Hourly candles do not reach back that far on the Pro plan (the service: History range exceeds your plan); ask for a later start or a daily interval');
    } finally {
      await h.close();
    }
  });

  test('an unknown coin is #N/A naming it', async () => {
    const e = failure(await calc('=CRYPTO.OHLCV("notacoinxyz","2024-01-01")'));
    assert.equal(e.error, '#N/A');
    assert.match(e.message, /notacoinxyz/);
  });
});

describe('CRYPTO.HISTORICAL', () => {
  test('the price at a date is that day\'s daily close; DATE() and ISO text agree', async () => {
    const p = await one('=CRYPTO.HISTORICAL("bitcoin","2024-06-15")');
    const candle = await table('=CRYPTO.OHLCV("bitcoin","2024-06-15","2024-06-15",,0,"close")');
    assert.deepEqual(candle, [[p]]);
    assert.equal(await one('=CRYPTO.HISTORICAL("bitcoin",DATE(2024,6,15))'), p);
    assert.equal(await one('=CRYPTO.HISTORICAL("BTC",DATE(2024,6,15),"price","USD")'), p);
  });

  test('fields: market cap = price x circulating supply; storedTime is within that day', async () => {
    const price = await one('=CRYPTO.HISTORICAL("ethereum","2024-06-15")');
    const cap = await one('=CRYPTO.HISTORICAL("ethereum","2024-06-15","marketCap")');
    const supply = await one('=CRYPTO.HISTORICAL("ethereum","2024-06-15","circulatingSupply")');
    const vol = await one('=CRYPTO.HISTORICAL("ethereum","2024-06-15","volume24h")');
    const volBase = await one('=CRYPTO.HISTORICAL("ethereum","2024-06-15","volume24hBase")');
    close(cap, price * supply, 1e-6);
    close(volBase, vol / price, 1e-5);
    const stored = await one('=CRYPTO.HISTORICAL("ethereum","2024-06-15","storedTime")');
    assert.ok(stored >= serial('2024-06-15') && stored < serial('2024-06-16'), String(stored));
  });

  test('EUR converts at that day\'s rate', async () => {
    const usd = await one('=CRYPTO.HISTORICAL("bitcoin","2024-06-15")');
    const eur = await one('=CRYPTO.HISTORICAL("bitcoin","2024-06-15",,"EUR")');
    assert.notEqual(eur, usd);
    assert.ok(eur / usd > 0.7 && eur / usd < 1.1, `EUR/USD ${eur / usd}`);
  });

  test('twenty cells for twenty coins at one date share ONE request', async () => {
    const coins = ['bitcoin', 'ethereum', 'tether', 'ripple', 'binancecoin', 'solana', 'usd-coin', 'dogecoin', 'tron', 'cardano',
      'chainlink', 'avalanche', 'stellar', 'toncoin', 'bitcoin-cash', 'shiba-inu', 'litecoin', 'polkadot', 'uniswap', 'near'];
    await one('=CRYPTO.PRICE("bitcoin")'); // the currency map is loaded; only history requests are counted below
    const before = s.emulator!.usage('demo-pro').byPath[HISTORICAL_PATH]?.requests ?? 0;
    const outs = await Promise.all(coins.map((c) => calc(`=CRYPTO.HISTORICAL("${c}","2024-02-29")`)));
    const after = s.emulator!.usage('demo-pro').byPath[HISTORICAL_PATH]?.requests ?? 0;
    assert.equal(after - before, 1, 'one historical request for all twenty cells');
    const values = outs.map((o) => num(grid(o)[0][0]));
    assert.equal(new Set(values).size, 20, 'each cell got its own coin');
    // Each value is its own coin's: bitcoin's equals its daily close that day.
    const btc = await table('=CRYPTO.OHLCV("bitcoin","2024-02-29","2024-02-29",,0,1)');
    assert.equal(values[0], btc[0][0]);
    close(values[2], 1, 0.05); // tether
  });

  test('a coin without data at that date fails only its own cell', async () => {
    const outs = await Promise.all(
      ['bitcoin', 'ethereum', 'sui', 'solana'].map((c) => calc(`=CRYPTO.HISTORICAL("${c}","2021-01-04")`)),
    );
    for (const k of [0, 1, 3]) assert.equal(typeof grid(outs[k])[0][0], 'number', JSON.stringify(outs[k]));
    const e = failure(outs[2]);
    assert.equal(e.error, '#N/A');
    // A day before the coin's history says when it starts, as OHLCV's #N/A does (it was "no historical data for Sui on 2021-01-04").
    const starts = /^No Sui data on 2021-01-04; its history starts (\d{4}-\d{2}-\d{2})$/.exec(e.message);
    assert.ok(starts, e.message);
    assert.ok(starts[1] > '2021-01-04');
    assert.equal(typeof (await one(`=CRYPTO.HISTORICAL("sui","${starts[1]}")`)), 'number', 'its first day has a price');
  });

  test('when the shared request fails, every waiting cell settles with #N/A', async () => {
    const t = await testSession({ emulator: { rpm: 2000 }, client: { maxRetries: 0 } });
    try {
      t.emulator!.faults.queue({ kind: '500', times: 5, path: HISTORICAL_PATH });
      const outs = await Promise.all(
        ['bitcoin', 'ethereum', 'solana', 'cardano', 'tron'].map((c) => calc(`=CRYPTO.HISTORICAL("${c}","2024-01-10")`, t)),
      );
      for (const o of outs) assert.equal(failure(o).error, '#N/A');
      t.emulator!.faults.clear();
      // Nothing is left pending or poisoned: the next batch works.
      assert.ok(num(grid(await calc('=CRYPTO.HISTORICAL("bitcoin","2024-01-11")', t))[0][0]) > 0);
    } finally {
      await t.close();
    }
  });

  test('a canceled cell settles at once without failing the others in its batch', async () => {
    const abort = new AbortController();
    const canceled = calculate(s.host, '=CRYPTO.HISTORICAL("bitcoin","2023-05-05")', { signal: abort.signal });
    const kept = calc('=CRYPTO.HISTORICAL("ethereum","2023-05-05")');
    setTimeout(() => abort.abort(), 1);
    const e = failure(await canceled);
    assert.equal(e.error, '#N/A');
    assert.match(e.message, /Cancel/);
    assert.ok(num(grid(await kept)[0][0]) > 0);
  });

  test('bad arguments: a future date, an unknown field, an unknown coin', async () => {
    const future = failure(await calc('=CRYPTO.HISTORICAL("bitcoin","2027-01-01")'));
    assert.equal(future.error, '#VALUE!');
    const field = failure(await calc('=CRYPTO.HISTORICAL("bitcoin","2024-01-01","open")'));
    assert.equal(field.error, '#VALUE!');
    for (const w of ['price', 'marketCap', 'volume24h', 'volume24hBase', 'circulatingSupply', 'storedTime']) assert.ok(field.message.includes(w), field.message);
    const coin = failure(await calc('=CRYPTO.HISTORICAL("notacoinxyz","2024-01-01")'));
    assert.equal(coin.error, '#N/A');
    assert.match(coin.message, /notacoinxyz/);
  });
});

describe('CRYPTO.RETURNS', () => {
  test("a range before the coin's history: #N/A naming when it starts, not a header row alone", async () => {
    const e = failure(await calc('=CRYPTO.RETURNS("bitcoin","monthly",1,"1990-01-01","1990-06-01")'));
    assert.equal(e.error, '#N/A');
    assert.equal(e.message, 'No monthly returns for Bitcoin from 1990-01-01 to 1990-06-01; its history starts 2015-01-01');
  });

  test('yearly: closing price of a closed year = the last daily close of that year; return = open to close', async () => {
    const g = await table('=CRYPTO.RETURNS("bitcoin","yearly")');
    assert.deepEqual(g[0], ['Date', 'Closing price', 'Return %']);
    const body = g.slice(1);
    assert.ok(body.length >= 10, `${body.length} years`);
    for (let i = 1; i < body.length; i++) assert.ok(num(body[i][0]) > num(body[i - 1][0]), 'oldest first');
    assert.equal(body[body.length - 1][0], serial('2026-01-01'), 'the current, incomplete year is last');
    const y2024 = body.find((r) => r[0] === serial('2024-01-01'));
    assert.ok(y2024, 'a row for 2024');
    const daily = await table('=CRYPTO.OHLCV("bitcoin","2024",,,0,"open","close")');
    const open = num(daily[0][0]);
    const closing = num(daily[daily.length - 1][1]);
    assert.equal(y2024[1], closing);
    assert.ok(Math.abs(num(y2024[2]) - ((closing - open) / open) * 100) < 0.01, `${y2024[2]} vs ${((closing - open) / open) * 100}`);
  });

  test('monthly and quarterly periods start on the 1st; headers 0', async () => {
    const m = await table('=CRYPTO.RETURNS("solana","monthly",0)');
    assert.equal(typeof m[0][0], 'number');
    for (const r of m) assert.equal(new Date((num(r[0]) - 25569) * 86_400_000).getUTCDate(), 1);
    const q = await table('=CRYPTO.RETURNS("solana","quarterly")');
    assert.ok(Math.abs(m.length / (q.length - 1) - 3) < 1, `${m.length} months vs ${q.length - 1} quarters`);
    const quarterMonths = new Set(q.slice(1).map((r) => new Date((num(r[0]) - 25569) * 86_400_000).getUTCMonth()));
    for (const mo of quarterMonths) assert.ok([0, 3, 6, 9].includes(mo));
  });

  test('dates where headers goes (3rd, before start, unlike OHLCV): #VALUE! saying where start goes, the formula written that way', async () => {
    const e = failure(await calc('=CRYPTO.RETURNS("bitcoin","monthly","2024-01-01","2024-06-30")'));
    assert.equal(e.error, '#VALUE!');
    assert.equal(e.message, 'headers is the 3rd argument (1 or 0) and start the 4th; got "2024-01-01" as headers: =CRYPTO.RETURNS("bitcoin","monthly",1,"2024-01-01","2024-06-30")');
    // The formula it offers answers: the months of the range.
    const fixed = await table(e.message.slice(e.message.indexOf('=CRYPTO.')));
    assert.deepEqual(fixed.slice(1).map((r) => r[0]), [0, 1, 2, 3, 4, 5].map((m) => toSerial(Date.UTC(2024, m, 1))));
    // A year typed as a number, a serial date: the same advice, the year as text.
    assert.match(failure(await calc('=CRYPTO.RETURNS("bitcoin","yearly",2024)')).message, /start the 4th; got 2024 as headers: =CRYPTO\.RETURNS\("bitcoin","yearly",1,"2024"\)$/);
    assert.match(failure(await calc('=CRYPTO.RETURNS("bitcoin","monthly",DATE(2024,1,1))')).message, /=CRYPTO\.RETURNS\("bitcoin","monthly",1,45292\)$/);
    // Anything else keeps the TRUE/FALSE message.
    assert.equal(failure(await calc('=CRYPTO.RETURNS("bitcoin","monthly","abc")')).message, 'headers must be TRUE/FALSE or 1/0; got "abc"');
  });

  test('a bad period is #VALUE! naming the three', async () => {
    const e = failure(await calc('=CRYPTO.RETURNS("bitcoin","weekly")'));
    assert.equal(e.error, '#VALUE!');
    for (const w of ['monthly', 'quarterly', 'yearly']) assert.ok(e.message.includes(w), e.message);
  });
});

describe('CRYPTO.SPARKLINE', () => {
  test('the last 7 days hourly: Time, Price, Volume, oldest first, ending now', async () => {
    const g = await table('=CRYPTO.SPARKLINE("ethereum")');
    assert.deepEqual(g[0], ['Time', 'Price', 'Volume']);
    const body = g.slice(1);
    assert.equal(body.length, 168);
    for (let i = 1; i < body.length; i++) close(num(body[i][0]) - num(body[i - 1][0]), 1 / 24, 1e-6);
    const last = num(body[body.length - 1][0]);
    assert.ok(last <= toSerial(NOW) && last > toSerial(NOW) - 1 / 24, `last point ${last}`);
    for (const r of body) assert.ok(num(r[1]) > 0 && num(r[2]) > 0);
    const noHeaders = await table('=CRYPTO.SPARKLINE("ethereum",0)');
    assert.deepEqual(noHeaders, body);
  });

  test('a range and an interval: 5m, 1h and 1d points agree with each other and with OHLCV', async () => {
    const five = await table('=CRYPTO.SPARKLINE("ethereum",0,"1D",,"5m")');
    for (let i = 1; i < five.length; i++) close(num(five[i][0]) - num(five[i - 1][0]), 1 / 288, 1e-6);
    const dayBefore = Math.floor(NOW / 86_400_000) * 86_400_000 - 86_400_000;
    assert.equal(five.length, Math.floor((NOW - dayBefore) / 300_000) + 1, 'from the day before, every 5 minutes up to now');
    const hourly = await table('=CRYPTO.SPARKLINE("ethereum",0,"1D")');
    const byTime = new Map(five.map((r) => [Math.round(num(r[0]) * 288), r[1]]));
    for (const r of hourly) assert.equal(byTime.get(Math.round(num(r[0]) * 288)), r[1], 'on the hour, 5m and 1h agree');
    const daily = await table('=CRYPTO.SPARKLINE("bitcoin",0,"2025-06-01","2025-06-30","1d")');
    assert.equal(daily.length, 30);
    const closes = await table('=CRYPTO.OHLCV("bitcoin","2025-06-01","2025-06-30",,0,"date","close")');
    assert.deepEqual(daily.map((r) => [r[0], r[1]]), closes, 'a daily point is the day\'s close');
    const bad = failure(await calc('=CRYPTO.SPARKLINE("bitcoin",,,,"4h")'));
    assert.equal(bad.error, '#VALUE!');
    assert.match(bad.message, /"5m", "15m", "1h" \(default\) or "1d"/);
  });

  test("deeper than the plan reaches: #N/A naming the plan's documented reach, from which day, and the way out", async () => {
    const pro = failure(await calc('=CRYPTO.SPARKLINE("bitcoin",,"120D",,"1h")'));
    assert.equal(pro.error, '#N/A');
    assert.equal(pro.message, 'CRYPTO.SPARKLINE: 5m, 15m and 1h points reach back 90 days on the Pro plan (from 2025-12-15); ask for a later start, or the 1d interval (5 years on this plan)');
    assert.equal((await table('=CRYPTO.SPARKLINE("bitcoin",0,"60D",,"1h")')).length, 60 * 24 + 13, 'within 90 days: fine');
    const t = await testSession({ key: 'demo-basic' });
    try {
      // the server's own 403 before the plan is known, then the formula's check: the same words
      for (let i = 0; i < 2; i++) {
        const e = failure(await calc('=CRYPTO.SPARKLINE("bitcoin",,"60D",,"15m")', t));
        assert.equal(e.error, '#N/A');
        assert.equal(e.message, 'CRYPTO.SPARKLINE: 5m, 15m and 1h points reach back 30 days on the Basic plan (from 2026-02-13); ask for a later start, or the 1d interval (1 year on this plan)');
      }
      assert.ok(grid(await calc('=CRYPTO.SPARKLINE("bitcoin",0,"60D",,"1d")', t)).length > 60, 'a daily interval reaches further');
      const daily = failure(await calc('=CRYPTO.SPARKLINE("bitcoin",,"2Y",,"1d")', t));
      assert.equal(daily.message, 'CRYPTO.SPARKLINE: Daily points reach back 1 year on the Basic plan (from 2025-03-15); ask for a later start');
    } finally {
      await t.close();
    }
  });

  test('Advanced reaches 2 years of daily points (documented), not 1; 30 days at 5m-1h', async () => {
    const t = await testSession({ key: 'demo-advanced' });
    try {
      const twoYears = grid(await calc('=CRYPTO.SPARKLINE("bitcoin",0,"2Y",,"1d")', t));
      assert.equal(twoYears.length, 2 * 365 + 1, 'every day from 2024-03-15 to today');
      assert.equal(twoYears[0][0], serial('2024-03-15'));
      const three = failure(await calc('=CRYPTO.SPARKLINE("bitcoin",,"3Y",,"1d")', t));
      assert.equal(three.error, '#N/A');
      assert.equal(three.message, 'CRYPTO.SPARKLINE: Daily points reach back 2 years on the Advanced plan (from 2024-03-15); ask for a later start');
      const hourly = failure(await calc('=CRYPTO.SPARKLINE("bitcoin",,"60D",,"1h")', t));
      assert.match(hourly.message, /reach back 30 days on the Advanced plan \(from 2026-02-13\); ask for a later start, or the 1d interval \(2 years on this plan\)$/);
    } finally {
      await t.close();
    }
  });

  test('a look-back, a date or an interval where headers goes (2nd): #VALUE! saying which argument it is, the formula written that way', async () => {
    const e = failure(await calc('=CRYPTO.SPARKLINE("bitcoin","30D")'));
    assert.equal(e.error, '#VALUE!');
    assert.equal(e.message, 'headers is the 2nd argument (1 or 0) and start the 3rd; got "30D" as headers: =CRYPTO.SPARKLINE("bitcoin",1,"30D")');
    assert.ok((await table(e.message.slice(e.message.indexOf('=CRYPTO.')))).length > 24 * 29, 'the offered formula answers 30 days of hours');
    assert.equal(
      failure(await calc('=CRYPTO.SPARKLINE("bitcoin","2024-01-01","2024-01-05")')).message,
      'headers is the 2nd argument (1 or 0) and start the 3rd; got "2024-01-01" as headers: =CRYPTO.SPARKLINE("bitcoin",1,"2024-01-01","2024-01-05")',
    );
    assert.equal(
      failure(await calc('=CRYPTO.SPARKLINE("bitcoin","1h")')).message,
      'headers is the 2nd argument (1 or 0) and interval the 5th; got "1h" as headers: =CRYPTO.SPARKLINE("bitcoin",1,,,"1h")',
    );
    // "5m" is an interval and a look-back (5 months): both are named.
    assert.match(failure(await calc('=CRYPTO.SPARKLINE("bitcoin","5m")')).message, /interval the 5th; .*=CRYPTO\.SPARKLINE\("bitcoin",1,,,"5m"\); for a look-back, start is the 3rd: =CRYPTO\.SPARKLINE\("bitcoin",1,"5m"\)$/);
  });

  test("a range before the coin's first point: #N/A naming the range, not a header row alone", async () => {
    const young = await testSession({ emulator: { rpm: 2000 } }, QUONOSYN_TEN_DAYS_OLD);
    try {
      const e = failure(await calc('=CRYPTO.SPARKLINE("quonosyn",,"2025-12-20","2025-12-25","1d")', young));
      assert.equal(e.error, '#N/A');
      assert.equal(e.message, 'No Quonosyn sparkline points between 2025-12-20 and 2025-12-25');
    } finally {
      await young.close();
    }
  });

  test('needs the Basic plan: a Sandbox key gets #N/A naming it', async () => {
    const t = await testSession({ key: 'demo-sandbox' });
    try {
      const e = failure(await calc('=CRYPTO.SPARKLINE("bitcoin")', t));
      assert.equal(e.error, '#N/A');
      assert.match(e.message, /Basic/);
      const h = failure(await calc('=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-05")', t));
      assert.equal(h.error, '#N/A');
      assert.match(h.message, /Advanced/);
    } finally {
      await t.close();
    }
  });
});

describe('CRYPTO.PERFORMANCE', () => {
  const FIELDS = ['athPriceUsd', 'athDate', 'atlPriceUsd', 'atlDate', 'athMarketCapUsd', 'fromAthPercent', 'fromAtlPercent', 'vcAvgRoi', 'icoRoi'];

  test('all fields as a field/value table; dates are serial dates; ATH above ATL', async () => {
    const g = await table('=CRYPTO.PERFORMANCE("bitcoin")');
    assert.deepEqual(g[0], ['Field', 'Value']);
    assert.deepEqual(g.slice(1).map((r) => r[0]), FIELDS);
    const v = Object.fromEntries(g.slice(1).map((r) => [r[0], r[1]]));
    assert.ok(num(v.athPriceUsd) > num(v.atlPriceUsd));
    for (const d of ['athDate', 'atlDate']) assert.ok(num(v[d]) >= serial('2013-01-01') && num(v[d]) <= TODAY + 1, `${d} ${v[d]}`);
    assert.ok(num(v.fromAthPercent) <= 0);
    assert.ok(num(v.fromAtlPercent) >= 0);
    for (const f of ['vcAvgRoi', 'icoRoi']) assert.ok(v[f] === '' || typeof v[f] === 'number');
    // Bitcoin's daily highs never exceed its all-time high.
    const highs = await table('=CRYPTO.OHLCV("bitcoin","2024",,,0,"high")');
    assert.ok(Math.max(...highs.map((r) => num(r[0]))) <= num(v.athPriceUsd) * (1 + 1e-9));
  });

  test('one field is that field\'s value', async () => {
    const g = await table('=CRYPTO.PERFORMANCE("solana")');
    const v = Object.fromEntries(g.slice(1).map((r) => [r[0], r[1]]));
    assert.deepEqual(await table('=CRYPTO.PERFORMANCE("solana","fromAthPercent")'), [[v.fromAthPercent]]);
    assert.deepEqual(await table('=CRYPTO.PERFORMANCE("solana","athdate")'), [[v.athDate]]);
    const e = failure(await calc('=CRYPTO.PERFORMANCE("solana","ath")'));
    assert.equal(e.error, '#VALUE!');
    assert.match(e.message, /athPriceUsd/);
  });
});
