/**
 * STATS, CORREL, DATA and any fiat currency, through formula text → calculation
 * host → client → the local API server over HTTP. STATS and CORREL are checked
 * against a reference computed here, independently, from the local API
 * server's own candles (read from its market in-process, not through the
 * add-in); the fiat conversions against the fiat list read over HTTP.
 *
 *   node --import tsx --test test/formulas-analytics.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Candle, FiatItem, MarketItem } from '../src/api/records';
import type { Session } from '../src/cli/session';
import { frozenSession, FROZEN_NOW } from './support/frozen-session';
import { formulaChecks, numberIn, valueOf } from './support/formula-checks';

const FIAT = '/v3/fiat/list';
const MARKETS = '/v3/currencies/markets';

let s: Session;
before(async () => {
  s = await frozenSession({ emulator: { rpm: 5000 } });
});
after(() => s?.close());

const { calc } = formulaChecks(() => s);
const grid = valueOf;
const num = numberIn;
/** Equal within a relative tolerance, absolute below 1 (returns and correlations are small numbers). */
const near = (a: number, b: number, rel = 1e-9, what = '') =>
  assert.ok(Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b)), `${what} ${a} ≉ ${b}`);
const usage = (on: Session = s) => on.emulator!.usage('demo-pro');
const requestsTo = (path: string, on: Session = s) => usage(on).byPath[path]?.requests ?? 0;

// ---------------------------------------------------------------- the reference

const ids: Record<string, number> = {};
/** The local API server's daily candles of a coin in 2024, straight from its market (spec shape, no client). */
function candles2024(slug: string): Candle[] {
  const h = s.emulator!.market.handlers;
  ids[slug] ??= (h.currencyMap({ query: {}, now: FROZEN_NOW }).data as { id: number; slug: string }[]).find((c) => c.slug === slug)!.id;
  const r = h.candles({ id: ids[slug], query: { from: '2024-01-01T00:00:00.000Z', to: '2024-12-31T23:59:59.999Z' }, now: FROZEN_NOW });
  return (r.data as Candle[]).filter((c) => c.time < Date.UTC(2025, 0, 1));
}

/**
 * The statistics as a textbook computes them, written apart from src/analytics: one pass of
 * sums (Σx, Σx², Σxy) rather than two-pass moments, the drawdown from a running maximum, the
 * year's candles being one per day with no gaps (checked). The period starts at the open of its
 * first day (CRYPTO.RETURNS' close / period open − 1): the prices are that open, then each close,
 * so the first day's return is in every statistic (CORREL's too).
 */
function reference(c: Candle[], bench: Candle[], rf: number) {
  const close = [Number(c[0].open), ...c.map((x) => Number(x.close))];
  const times = [c[0].time - 86_400_000, ...c.map((x) => x.time)];
  for (let i = 1; i < c.length; i++) assert.equal(c[i].time - c[i - 1].time, 86_400_000, 'consecutive days');
  const logr = close.slice(1).map((x, i) => Math.log(x / close[i]));
  const simple = close.slice(1).map((x, i) => x / close[i] - 1);
  const n = logr.length;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const varOf = (xs: number[]) => (sum(xs.map((x) => x * x)) - sum(xs) ** 2 / xs.length) / (xs.length - 1);
  const vol = Math.sqrt(varOf(logr) * 365);
  let peak = -Infinity, mdd = 0;
  for (const x of close) {
    peak = Math.max(peak, x);
    mdd = Math.min(mdd, x / peak - 1);
  }
  const bclose = new Map([[bench[0].time - 86_400_000, Number(bench[0].open)], ...bench.map((x): [number, number] => [x.time, Number(x.close)])]);
  const xs: number[] = [], ys: number[] = [];
  for (let i = 1; i < times.length; i++) {
    const b0 = bclose.get(times[i - 1]), b1 = bclose.get(times[i]);
    if (b0 === undefined || b1 === undefined) continue;
    xs.push(logr[i - 1]);
    ys.push(Math.log(b1 / b0));
  }
  const m = xs.length;
  const cov = (sum(xs.map((x, i) => x * ys[i])) - (sum(xs) * sum(ys)) / m) / (m - 1);
  const days = (times[n] - times[0]) / 86_400_000;
  const vwapNum = sum(c.map((x) => Number(x.avg) * Number(x.volume)));
  return {
    return: close[n] / close[0] - 1,
    cagr: (close[n] / close[0]) ** (365 / days) - 1,
    volatility: vol,
    maxDrawdown: mdd,
    sharpe: (365 * (sum(simple) / n - ((1 + rf) ** (1 / 365) - 1))) / vol,
    beta: cov / varOf(ys),
    correlation: cov / Math.sqrt(varOf(xs) * varOf(ys)),
    vwap: vwapNum / sum(c.map((x) => Number(x.volume))),
  };
}

const COINS = ['bitcoin', 'ethereum', 'solana', 'dogecoin', 'chainlink'];
const FIELDS = ['return', 'cagr', 'volatility', 'maxDrawdown', 'sharpe', 'beta', 'correlation', 'vwap'] as const;

describe('CRYPTO.STATS', () => {
  test('agrees with the reference computation on the local API server\'s candles, every field, every coin', async () => {
    const g = grid(await calc(`=CRYPTO.STATS({${COINS.map((c) => `"${c}"`).join(';')}},"2024",,"ethereum",,0.04)`));
    assert.deepEqual(g[0], ['Coin', 'Return (fraction)', 'CAGR (fraction)', 'Volatility, annualized (fraction)', 'Max drawdown (fraction)', 'Sharpe ratio', 'Beta vs Ethereum', 'Correlation vs Ethereum', 'VWAP (USD)']);
    const bench = candles2024('ethereum');
    COINS.forEach((coin, i) => {
      const row = g[i + 1];
      assert.equal(row[0], coin);
      const want = reference(candles2024(coin), bench, 0.04);
      FIELDS.forEach((f, k) => near(num(row[k + 1]), want[f], 1e-8, `${coin} ${f}`));
    });
    // Against itself: beta and correlation 1.
    near(num(g[2][6]), 1, 1e-12);
    near(num(g[2][7]), 1, 1e-12);
  });

  test('one coin and one field is one value in one cell; fields by name in any order and case', async () => {
    const want = reference(candles2024('solana'), candles2024('bitcoin'), 0);
    const v = grid(await calc('=CRYPTO.STATS("solana","2024",,,"Volatility")'));
    assert.equal(v.length, 1);
    assert.equal(v[0].length, 1);
    near(num(v[0][0]), want.volatility, 1e-8);
    const two = grid(await calc('=CRYPTO.STATS("solana","2024",,,"beta,maxDrawdown",,0)'));
    assert.equal(two.length, 1);
    near(num(two[0][1]), want.beta, 1e-8, 'beta vs bitcoin by default');
    near(num(two[0][2]), want.maxDrawdown, 1e-8);
    // headers given as 1: a table even for one value
    assert.deepEqual(grid(await calc('=CRYPTO.STATS("solana","2024",,,"cagr",,1)'))[0], ['Coin', 'CAGR (fraction)']);
  });

  test('no request beyond OHLCV\'s: after OHLCV over a range, STATS and CORREL over it send no candle request', async () => {
    const fresh = await frozenSession({ emulator: { rpm: 5000 } });
    try {
      for (const c of ['bitcoin', 'dogecoin', 'litecoin']) grid(await calc(`=CRYPTO.OHLCV("${c}","2024-02-01","2024-11-30")`, fresh));
      const before = usage(fresh);
      grid(await calc('=CRYPTO.STATS({"dogecoin";"litecoin"},"2024-02-01","2024-11-30")', fresh));
      grid(await calc('=CRYPTO.CORREL({"bitcoin";"dogecoin";"litecoin"},"2024-02-01","2024-11-30")', fresh));
      const after = usage(fresh);
      assert.equal(after.requests - before.requests, 0, 'no request at all');
      assert.equal(after.dailyUsed, before.dailyUsed, 'no credit');
    } finally {
      await fresh.close();
    }
  });

  test('a bad coin fails its own row; an unknown benchmark or field, or a riskFree of 5 meaning 5 %, fails the formula saying what is allowed', async () => {
    const g = grid(await calc('=CRYPTO.STATS({"bitcoin";"nosuchcoin"},"2024")'));
    assert.equal(typeof g[1][1], 'number');
    assert.ok(g[2].slice(1).every((c) => typeof c === 'object' && c !== null && /nosuchcoin/.test((c as { message: string }).message)));
    const b = await calc('=CRYPTO.STATS("solana","2024",,"nosuchcoin","beta")');
    assert.ok('error' in b && b.error === '#N/A' && /benchmark/.test(b.message), JSON.stringify(b));
    const f = await calc('=CRYPTO.STATS("solana","2024",,,"alpha")');
    assert.ok('error' in f && f.error === '#VALUE!' && /return, cagr, volatility, maxDrawdown, sharpe, beta, correlation, vwap/.test(f.message));
    const rf = await calc('=CRYPTO.STATS("solana","2024",,,"sharpe",5)');
    assert.ok('error' in rf && rf.error === '#VALUE!' && /0\.05/.test(rf.message));
  });

  test('a statistic with too little data is #N/A saying why, not 0', async () => {
    const v = await calc(`=CRYPTO.STATS("bitcoin","2024-03-01","2024-03-01",,"volatility")`);
    assert.ok('error' in v && v.error === '#N/A' && /needs two daily returns/.test(v.message), JSON.stringify(v));
  });

  test('vwap in another currency is the USD vwap at the fiat list\'s rate, said in the header; the fractions do not change', async () => {
    const usd = grid(await calc('=CRYPTO.STATS("bitcoin","2024",,,"return,vwap")'));
    const gbp = grid(await calc('=CRYPTO.STATS("bitcoin","2024",,,"return,vwap",,,"gbp")'));
    assert.equal(gbp[0][2], "VWAP (GBP at today's rate)");
    assert.equal(gbp[1][1], usd[1][1]);
    near(num(gbp[1][2]), num(usd[1][2]) / (await usdPer('GBP')), 1e-12);
  });
});

describe('CRYPTO.CORREL', () => {
  test('the matrix agrees with the reference, is symmetric with 1 on the diagonal, coins as row and column headers', async () => {
    const g = grid(await calc(`=CRYPTO.CORREL({${COINS.map((c) => `"${c}"`).join(',')}},"2024")`));
    assert.deepEqual(g[0], ['', ...COINS]);
    assert.deepEqual(g.slice(1).map((r) => r[0]), COINS);
    const n = COINS.length;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const x = num(g[i + 1][j + 1]);
        assert.equal(x, num(g[j + 1][i + 1]), 'symmetric');
        if (i === j) assert.equal(x, 1);
        else near(x, reference(candles2024(COINS[i]), candles2024(COINS[j]), 0).correlation, 1e-8, `${COINS[i]}/${COINS[j]}`);
      }
    }
    const bare = grid(await calc(`=CRYPTO.CORREL({"bitcoin";"ethereum"},"2024",,0)`));
    assert.deepEqual(bare, g.slice(1, 3).map((r) => r.slice(1, 3)));
  });

  test('an unknown coin fills its row and column with #N/A naming it', async () => {
    const g = grid(await calc('=CRYPTO.CORREL({"bitcoin","nosuchcoin","ethereum"},"2024")'));
    for (let k = 1; k <= 3; k++) {
      for (const c of [g[2][k], g[k][2]]) assert.ok(typeof c === 'object' && c !== null && /nosuchcoin/.test((c as { message: string }).message));
    }
    assert.equal(g[1][1], 1);
  });
});

describe('STATS and CORREL over a period: from the open of its first day, as RETURNS', () => {
  const isErr = (c: unknown): c is { error: string; message: string } => typeof c === 'object' && c !== null && 'error' in c;

  test('STATS return is RETURNS\' period return (close / period open − 1) and last close / first open of the OHLCV the formulas give', async () => {
    // (Not quarterly: the RETURNS test below counts the quarterly list's request on this session.)
    for (const [range, period] of [['"2024"', 'yearly'], ['"2024-01"', 'monthly'], ['"2024-07"', 'monthly']] as const) {
      const ret = num(grid(await calc(`=CRYPTO.STATS("bitcoin",${range},,,"return")`))[0][0]);
      const r = grid(await calc(`=CRYPTO.RETURNS("bitcoin","${period}",0,${range},${range})`));
      assert.equal(r.length, 1, `${range}: one period`);
      // RETURNS gives percent points to 4 decimals.
      assert.ok(Math.abs(ret * 100 - num(r[0][2])) <= 5e-5 + 1e-9, `${range}: STATS ${ret * 100} % vs RETURNS ${r[0][2]} %`);
      const o = grid(await calc(`=CRYPTO.OHLCV("bitcoin",${range},,,0,"open","close")`));
      near(ret, num(o[o.length - 1][1]) / num(o[0][0]) - 1, 1e-12, `${range}: last close / first open`);
    }
    // The review's repro: 2024 is 31.49 % (RETURNS), not 33.33 % (from the first close in the range).
    assert.equal(Math.round(num(grid(await calc('=CRYPTO.STATS("bitcoin","2024",,,"return")'))[0][0]) * 1e4), 3149);
  });

  test('CORREL\'s series take the first day\'s return too: its matrix is STATS\' correlation, day for day', async () => {
    const m = grid(await calc('=CRYPTO.CORREL({"bitcoin";"ethereum"},"2024",,0)'));
    const c = num(grid(await calc('=CRYPTO.STATS("ethereum","2024",,"bitcoin","correlation")'))[0][0]);
    assert.equal(m[0][1], c);
    near(c, reference(candles2024('ethereum'), candles2024('bitcoin'), 0).correlation, 1e-8);
  });

  test('a coin whose history starts after the range: #N/A says when it starts, in STATS and CORREL, as OHLCV does', async () => {
    const why = /^No Arbitrum candles between 2022-01-01 and 2022-12-31; its history starts 2023-03-23$/;
    const one = await calc('=CRYPTO.STATS("arbitrum","2022",,,"return")');
    assert.ok('error' in one && one.error === '#N/A' && why.test(one.message), JSON.stringify(one));
    const ohlcv = await calc('=CRYPTO.OHLCV("arbitrum","2022")');
    assert.ok('error' in ohlcv && why.test(ohlcv.message), 'the same words as OHLCV');
    const g = grid(await calc('=CRYPTO.STATS({"bitcoin";"arbitrum"},"2022",,,"return,volatility")'));
    assert.equal(typeof g[1][1], 'number');
    assert.ok(g[2].slice(1).every((x) => isErr(x) && x.error === '#N/A' && why.test(x.message)), JSON.stringify(g[2]));
    const m = grid(await calc('=CRYPTO.CORREL({"arbitrum";"bitcoin"},"2022")'));
    assert.ok([m[1][1], m[1][2], m[2][1]].every((x) => isErr(x) && why.test(x.message)), JSON.stringify(m));
    assert.equal(m[2][2], 1);
    // Its one request (where the history starts) is OHLCV's: after OHLCV's cell, STATS sends none.
    const fresh = await frozenSession({ emulator: { rpm: 5000 } });
    try {
      await calc('=CRYPTO.OHLCV("arbitrum","2022")', fresh);
      const before = usage(fresh);
      const again = await calc('=CRYPTO.STATS("arbitrum","2022",,,"return")', fresh);
      assert.ok('error' in again && why.test(again.message));
      assert.equal(usage(fresh).requests, before.requests, 'no request');
    } finally {
      await fresh.close();
    }
  });

  test('a coin listed within the range is measured from its first day (open), the table keeping its shape', async () => {
    const g = grid(await calc('=CRYPTO.STATS({"bitcoin";"arbitrum"},"2023",,,"return")'));
    assert.deepEqual(g.map((r) => r.length), [2, 2, 2]);
    const o = grid(await calc('=CRYPTO.OHLCV("arbitrum","2023",,,0,"date","open","close")'));
    assert.equal(o[0][0], 45008, 'its history starts 2023-03-23');
    near(num(g[2][1]), num(o[o.length - 1][2]) / num(o[0][1]) - 1, 1e-12);
  });

  test('cagr under a year is #N/A saying why and to use return, in its one cell; a year or more is annualized', async () => {
    const g = grid(await calc('=CRYPTO.STATS({"bitcoin";"ethereum"},"2024-01-01","2024-01-10",,"return,cagr,volatility")'));
    for (const row of g.slice(1)) {
      assert.equal(typeof row[1], 'number');
      assert.equal(typeof row[3], 'number', 'the rest of the row answers');
      assert.ok(isErr(row[2]) && row[2].error === '#N/A', JSON.stringify(row[2]));
      assert.match(row[2].message, /^cagr of \w+ is undefined here: it needs a range of at least a year \(365 days\), and this one is 10 days: .*use return$/);
    }
    const short = await calc('=CRYPTO.STATS("bitcoin","2023-01-01","2023-12-30",,"cagr")');
    assert.ok('error' in short && short.error === '#N/A' && /this one is 364 days/.test(short.message), JSON.stringify(short));
    // 2023: 365 days, the exponent is 1 (cagr = return); 2024: 366 days.
    const y23 = grid(await calc('=CRYPTO.STATS("bitcoin","2023",,,"return,cagr",,0)'))[0];
    near(num(y23[2]), num(y23[1]), 1e-12, '2023');
    const y24 = grid(await calc('=CRYPTO.STATS("bitcoin","2024",,,"return,cagr",,0)'))[0];
    near(num(y24[2]), (1 + num(y24[1])) ** (365 / 366) - 1, 1e-12, '2024');
    // A year's range, a coin listed within it: its history is what is short, not the range (review-r2 #8).
    const late = await calc('=CRYPTO.STATS("arbitrum","2023",,,"cagr")');
    assert.ok('error' in late && late.error === '#N/A', JSON.stringify(late));
    assert.match(late.message, /and Arbitrum's history in this range starts 2023-03-23, 284 days: a shorter return is not annualized; use return$/); // was: "this one is 284 days"
  });
});

describe('CRYPTO.CORREL and blank cells', () => {
  test('a blank coin, or the 0 an older desktop build passes for one, keeps an empty row and column, as in STATS', async () => {
    const full = grid(await calc('=CRYPTO.CORREL({"bitcoin";"ethereum"},"2024",,0)'));
    const gap = grid(await calc('=CRYPTO.CORREL({"bitcoin";"";"ethereum"},"2024",,0)'));
    assert.deepEqual(gap, [[full[0][0], '', full[0][1]], ['', '', ''], [full[1][0], '', full[1][1]]]);
    // 0 is a blank; blanks after the last coin add nothing.
    const zero = grid(await calc('=CRYPTO.CORREL({"bitcoin";0;"ethereum";"";0},"2024")'));
    assert.deepEqual(zero, [['', 'bitcoin', '', 'ethereum'], ['bitcoin', 1, '', full[0][1]], ['', '', '', ''], ['ethereum', full[1][0], '', 1]]);
    // Its rows line up with STATS' over the same coins.
    const st = grid(await calc('=CRYPTO.STATS({"bitcoin";0;"ethereum"},"2024",,,"volatility")'));
    assert.deepEqual(st.slice(1).map((r) => r[0]), zero.slice(1).map((r) => r[0]));
    const none = await calc('=CRYPTO.CORREL({"";0},"2024")');
    assert.ok('error' in none && none.error === '#VALUE!' && /coins is required/.test(none.message), JSON.stringify(none));
  });
});

// ---------------------------------------------------------------- currencies

let fiatList: FiatItem[] | null = null;
/** US dollars per unit of `code`, read from the fiat list over HTTP, as a user could. */
async function usdPer(code: string): Promise<number> {
  if (!fiatList) {
    const r = await fetch(`${s.emulator!.url}${FIAT}`, { headers: { 'X-Api-Key': 'demo-pro' } });
    fiatList = ((await r.json()) as { data: FiatItem[] }).data;
  }
  return Number(fiatList.find((f) => f.symbol === code)!.price);
}

describe('any fiat currency', () => {
  test('=CRYPTO.PRICE("bitcoin","GBP") is the USD price converted with the fiat list\'s GBP rate; codes in any case', async () => {
    const usd = num(grid(await calc('=CRYPTO.PRICE("bitcoin")'))[0][0]);
    const gbp = num(grid(await calc('=CRYPTO.PRICE("bitcoin","GBP")'))[0][0]);
    assert.equal(gbp, usd / (await usdPer('GBP')));
    assert.equal(num(grid(await calc('=CRYPTO.PRICE("bitcoin","gbp")'))[0][0]), gbp);
    const jpy = num(grid(await calc('=CRYPTO.PRICE("bitcoin","JPY")'))[0][0]);
    assert.equal(jpy, usd / (await usdPer('JPY')));
    // EUR keeps the API's own convert, which the list's EUR rate matches.
    const eur = num(grid(await calc('=CRYPTO.PRICE("bitcoin","EUR")'))[0][0]);
    near(eur, usd / (await usdPer('EUR')), 1e-8, 'EUR');
  });

  test('QUOTE, DATA, MARKETS and PROFILE convert money fields and leave supplies and percentages alone', async () => {
    const rate = await usdPer('CHF');
    const q = grid(await calc('=CRYPTO.QUOTE({"bitcoin";"solana"},"price,marketCap,volume24h,circulatingSupply,percentChange.h24",,0)'));
    const qc = grid(await calc('=CRYPTO.QUOTE({"bitcoin";"solana"},"price,marketCap,volume24h,circulatingSupply,percentChange.h24","CHF",0)'));
    for (let r = 0; r < 2; r++) {
      for (const k of [1, 2, 3]) near(num(qc[r][k]), num(q[r][k]) / rate, 1e-12);
      assert.equal(qc[r][4], q[r][4]);
      assert.equal(qc[r][5], q[r][5]);
    }
    assert.equal(num(grid(await calc('=CRYPTO.DATA("solana","marketCap","CHF")'))[0][0]), qc[1][2]);
    const m = grid(await calc('=CRYPTO.MARKETS(3,,,,,,,,0,"price,fdv,maxSupply")'));
    const mc = grid(await calc('=CRYPTO.MARKETS(3,,,,,,,"chf",0,"price,fdv,maxSupply")'));
    m.forEach((row, i) => {
      near(num(mc[i][0]), num(row[0]) / rate, 1e-12);
      if (row[1] !== '') near(num(mc[i][1]), num(row[1]) / rate, 1e-12);
      assert.equal(mc[i][2], row[2]);
    });
    const p = num(grid(await calc('=CRYPTO.PROFILE("bitcoin","price")'))[0][0]);
    near(num(grid(await calc('=CRYPTO.PROFILE("bitcoin","price","CHF")'))[0][0]), p / rate, 1e-12);
    assert.equal(grid(await calc('=CRYPTO.PROFILE("bitcoin","high24hUsd","CHF")'))[0][0], grid(await calc('=CRYPTO.PROFILE("bitcoin","high24hUsd")'))[0][0]);
  });

  test('every cell shares one fiat list request; USD and EUR send none', async () => {
    const fresh = await frozenSession({ emulator: { rpm: 5000 } });
    try {
      await Promise.all(['PRICE("bitcoin","EUR")', 'PRICE("ethereum")', 'DATA("solana","price","eur")'].map((f) => calc(`=CRYPTO.${f}`, fresh)));
      assert.equal(requestsTo(FIAT, fresh), 0);
      const cells = ['bitcoin', 'ethereum', 'solana', 'dogecoin'].flatMap((c) => [`PRICE("${c}","GBP")`, `DATA("${c}","marketCap","JPY")`, `QUOTE("${c}",,"aud")`, `PROFILE("${c}","price","sek")`]);
      const out = await Promise.all(cells.map((f) => calc(`=CRYPTO.${f}`, fresh)));
      out.forEach((o, i) => assert.ok('value' in o, `${cells[i]}: ${JSON.stringify(o)}`));
      assert.equal(requestsTo(FIAT, fresh), 1);
    } finally {
      await fresh.close();
    }
  });

  test('history in a currency it cannot give is #VALUE! naming the reason; USD is accepted where history is USD', async () => {
    for (const f of [
      '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-05",,,"close","GBP")',
      '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-05",,,"EUR")',
      '=CRYPTO.HISTORICAL("bitcoin","2024-01-01","price","GBP")',
      '=CRYPTO.RETURNS("bitcoin","yearly",,,,"JPY")',
    ]) {
      const o = await calc(f);
      assert.ok('error' in o && o.error === '#VALUE!', `${f}: ${JSON.stringify(o)}`);
      assert.match(o.message, /gives history in USD.* only; got ".*": .*today's .* rate/, f);
    }
    const usd = grid(await calc('=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-05",,,"close","USD")'));
    assert.deepEqual(usd, grid(await calc('=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-05",,,"close")')));
    // A mistyped field is still a field error, not a currency one.
    const typo = await calc('=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-05",,,"opn")');
    assert.ok('error' in typo && /fields must be/.test(typo.message));
    // HISTORICAL in EUR: the API's own conversion of that day.
    assert.equal(typeof grid(await calc('=CRYPTO.HISTORICAL("bitcoin","2024-01-01","price","eur")'))[0][0], 'number');
  });
});

describe('CRYPTO.DATA', () => {
  test('one value per cell: the same number QUOTE shows; a field the coin lacks is #N/A saying so', async () => {
    const q = grid(await calc('=CRYPTO.QUOTE("ethereum","price,percentChange.h24,rank,name",,0)'))[0];
    assert.deepEqual(
      await Promise.all(['price', 'change24h', 'rank', 'name'].map(async (f) => grid(await calc(`=CRYPTO.DATA("ethereum","${f}")`))[0][0])),
      q.slice(1),
    );
    const none = await calc('=CRYPTO.DATA("ethereum","maxSupply")');
    assert.ok('error' in none && none.error === '#N/A' && /Ethereum has no maxSupply/.test(none.message));
    assert.equal(s.host.errors().find((e) => e.formula === 'DATA')?.code, 'NOT_FOUND', 'a row of the one table, not NO_VALUE');
    const bad = await calc('=CRYPTO.DATA("ethereum","colour")');
    assert.ok('error' in bad && bad.error === '#VALUE!' && /percentChange\.h24/.test(bad.message));
  });

  test('500 DATA cells over 300 coins cost the same credits as 500 PRICE cells, in as many requests', async () => {
    const top = s.emulator!.market.handlers.markets({ query: { limit: '250', offset: '0' }, now: FROZEN_NOW }).data as MarketItem[];
    const next = s.emulator!.market.handlers.markets({ query: { limit: '250', offset: '250' }, now: FROZEN_NOW }).data as MarketItem[];
    const coins = [...top, ...next].slice(0, 300).map((c) => c.id);
    const fields = ['price', 'marketCap', 'volume24h', 'percentChange.h24', 'percentChange.d7', 'rank', 'circulatingSupply'];
    const spend = async (cell: (id: number, i: number) => string) => {
      const fresh = await frozenSession({ emulator: { rpm: 5000 } });
      try {
        const out = await Promise.all(Array.from({ length: 500 }, (_, i) => calc(cell(coins[i % 300], i), fresh)));
        const errors = out.filter((o) => !('value' in o)).length;
        assert.equal(errors, 0, JSON.stringify(out.find((o) => !('value' in o))));
        const u = usage(fresh);
        return { credits: u.dailyUsed, requests: u.requests, markets: u.byPath[MARKETS]?.requests ?? 0 };
      } finally {
        await fresh.close();
      }
    };
    const price = await spend((id) => `=CRYPTO.PRICE(${id})`);
    const data = await spend((id, i) => `=CRYPTO.DATA(${id},"${fields[i % fields.length]}")`);
    assert.deepEqual(data, price);
    assert.ok(price.markets >= 2 && price.credits <= 3, `few pages: ${JSON.stringify(price)}`);
  });
});

describe('CRYPTO.MARKETS fields and stablecoins; CRYPTO.RETURNS between dates', () => {
  test('fields pick and order the columns by QUOTE\'s names', async () => {
    const g = grid(await calc('=CRYPTO.MARKETS(20,,,,,,,,,"name,price,percentChange.d7")'));
    assert.deepEqual(g[0], ['Name', 'Price', 'Change 7d %']);
    assert.equal(g.length, 21);
    const full = grid(await calc('=CRYPTO.MARKETS(20)'));
    g.slice(1).forEach((r, i) => assert.deepEqual(r, [full[i + 1][1], full[i + 1][5], full[i + 1][7]]));
  });

  test('excludeStablecoins TRUE leaves out the Stablecoin category and still fills the count', async () => {
    const all = grid(await calc('=CRYPTO.MARKETS(300,,,,,,,,0,"slug")')).map((r) => r[0]);
    const stables = grid(await calc('=CRYPTO.MARKETS(250,,,"stablecoin",,,,,0,"slug")')).map((r) => r[0]);
    assert.ok(stables.includes('tether') && stables.includes('usd-coin'));
    const none = grid(await calc('=CRYPTO.MARKETS(260,,,,,,,,0,"slug",TRUE)')).map((r) => r[0]);
    assert.equal(none.length, 260);
    assert.ok(none.every((x) => !stables.includes(x)), 'no stablecoin');
    assert.deepEqual(none, all.filter((x) => !stables.includes(x)).slice(0, 260), 'the others in rank order');
  });

  test('RETURNS between dates: the periods overlapping the range, from the same one request', async () => {
    const all = grid(await calc('=CRYPTO.RETURNS("bitcoin","monthly")'));
    const before = requestsTo('/v3/currencies/{id}/analytics/returns');
    const y2024 = grid(await calc('=CRYPTO.RETURNS("bitcoin","monthly",,"2024")'));
    assert.equal(y2024.length, 13);
    const start = all.findIndex((r) => r[0] === 45292); // 2024-01-01
    assert.deepEqual(y2024.slice(1), all.slice(start, start + 12));
    const q = grid(await calc('=CRYPTO.RETURNS("bitcoin","quarterly",0,"2024-02-15","2024-08-01")'));
    assert.deepEqual(q.map((r) => r[0]), [45292, 45383, 45474], 'Q1, Q2, Q3 of 2024');
    assert.equal(requestsTo('/v3/currencies/{id}/analytics/returns'), before + 1, 'the quarterly list once, the monthly one from the cache');
  });
});
