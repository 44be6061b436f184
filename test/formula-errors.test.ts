/**
 * The errors formulas raise themselves read the one table (client/error-rules.ts):
 * their code is a row, and the row decides the Excel error, whether the last good
 * value stands in, and what a failure costs (a coin's row or the whole call).
 * Formulas run on a stand-in client: no server.
 *
 *   node --import tsx --test test/formula-errors.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Candle } from '../src/api/records';
import { ApiError } from '../src/client/api-error';
import { ERROR_RULES, type ErrorCode } from '../src/client/error-rules';
import type { Quote } from '../src/client/quote';
import { FROZEN_NOW } from '../harness/instant';
import { CellError, FormulaError, formulaError } from '../src/formulas/cells';
import { analyticsFormulas } from '../src/formulas/analytics';
import { fiatRate } from '../src/formulas/currency';
import { globalFormulas } from '../src/formulas/global';
import type { FormulaContext } from '../src/formulas/formula-context';
import { marketFormulas } from '../src/formulas/market';
import { candleRefusal, checkSparklineReach } from '../src/formulas/reach';
import { supplyFormulas } from '../src/formulas/supply';
import { errorWords } from '../src/taskpane/error-words';

const DAY = 86_400_000;

/** A formula context whose client is `client` (only what the formula under test calls). */
function ctxOf(client: object, caller = 'TEST'): FormulaContext {
  return {
    client: { meter: { snapshot: () => ({ plan: null }) }, ...client } as unknown as FormulaContext['client'],
    settings: { defaultCurrency: 'USD', dateSystem: '1900' },
    now: () => FROZEN_NOW,
    caller,
  };
}

/** The FormulaError a call rejects (or throws) with. */
async function failure(run: () => unknown): Promise<FormulaError> {
  try {
    await run();
  } catch (e) {
    assert.ok(e instanceof FormulaError, `a FormulaError, not ${String(e)}`);
    return e;
  }
  assert.fail('expected a failure');
}

/** The error's Excel error and last-good flag are its row's. */
function followsRow(e: FormulaError, code: ErrorCode): void {
  assert.equal(e.apiCode, code, e.message);
  assert.equal(e.code, ERROR_RULES[code].cell, `${code}: its Excel error`);
  assert.equal(e.lastGood, ERROR_RULES[code].lastGood, `${code}: its last good value`);
}

const quote = (q: Partial<Quote>): Quote => ({
  id: 1, slug: 'coin', symbol: 'C', name: 'Coin', rank: 1, currency: 'USD', price: 1, marketCap: 1, volume24h: 1, volume24hBase: 1,
  fullyDilutedValuation: 1, high24h: 1, low24h: 1, change24h: 0, change7d: 0, change30d: 0, change3m: 0, changeYtd: 0,
  circulatingSupply: 1, totalSupply: 1, maxSupply: 1, isTraded: true, lastUpdated: FROZEN_NOW, stale: false, ...q,
});
const quoting = (q: Quote) => ctxOf({ quote: async () => q, quoteNow: () => undefined }, 'DATA');

test('DATA: a coin not traded is NOT_TRADED in PRICE\'s words; a value the coin lacks is NOT_FOUND; a field its answer lacks keeps the last good value', async () => {
  const upcoming = quote({ name: 'Upcoming', isTraded: false, price: null, volume24h: null });
  const notTraded = await failure(() => marketFormulas.DATA(quoting(upcoming), 'upcoming', 'volume24h', null));
  followsRow(notTraded, 'NOT_TRADED');
  assert.equal(notTraded.message, 'Upcoming has no volume24h (not traded)');
  const price = await failure(() => marketFormulas.PRICE(quoting(upcoming), 'upcoming', null));
  assert.equal(price.message, 'Upcoming has no market price (not traded)', 'PRICE: the same wording');

  const noMax = await failure(() => marketFormulas.DATA(quoting(quote({ name: 'Ether', maxSupply: null })), 'ether', 'maxSupply', null));
  followsRow(noMax, 'NOT_FOUND');
  assert.equal(noMax.message, 'Ether has no maxSupply');
  assert.equal(errorWords(noMax.apiCode!), 'No such data');

  const listed = quote({ absent: { fields: new Set(['maxSupply']), source: 'the list of currencies' } });
  const absent = await failure(() => marketFormulas.DATA(quoting(listed), 'coin', 'maxSupply', null));
  followsRow(absent, 'MISSING_FIELD');
  assert.equal(absent.lastGood, true, 'the row says the last good value stands in');
});

test('a fiat rate the list lacks is MISSING_FIELD, and the last good value stands in for it', async () => {
  const client = { get: async () => ({ data: [{ id: 1, symbol: 'GBP', name: 'Pound Sterling', price: null }], stale: false, fetchedAt: 0, fromCache: false }) };
  const e = await failure(() => fiatRate(client as never, 'GBP'));
  followsRow(e, 'MISSING_FIELD');
  assert.equal(e.lastGood, true);
});

test('a plan\'s depth is PLAN_LIMIT_EXCEEDED with its last good value; a credit limit keeps the client\'s error', () => {
  const ctx = ctxOf({});
  const depth = new ApiError({ code: 'PLAN_LIMIT_EXCEEDED', message: 'ohlcv: History range exceeds your plan.', status: 403 });
  const said = candleRefusal(depth, 'hour', ctx);
  assert.ok(said instanceof FormulaError);
  followsRow(said, 'PLAN_LIMIT_EXCEEDED');
  assert.match(said.message, /^Hourly candles do not reach back that far on this key \(the service: History range exceeds your plan\)/);
  // The transport marks a credit limit by the service's words; the formula does not read them again.
  const credits = new ApiError({ code: 'PLAN_LIMIT_EXCEEDED', message: 'ohlcv: Daily credit limit exceeded.', status: 403, creditLimit: true });
  assert.equal(candleRefusal(credits, 'hour', ctx), credits);
  const unmarked = new ApiError({ code: 'PLAN_LIMIT_EXCEEDED', message: 'ohlcv: credit where credit is due.', status: 403 });
  assert.ok(candleRefusal(unmarked, 'day', ctx) instanceof FormulaError, 'unmarked: a depth limit, whatever its words');

  let reach: unknown;
  try {
    checkSparklineReach('Basic', '1h', FROZEN_NOW - 400 * DAY, FROZEN_NOW);
  } catch (e) {
    reach = e;
  }
  assert.ok(reach instanceof FormulaError);
  followsRow(reach, 'PLAN_LIMIT_EXCEEDED');
});

// ---------------------------------------------------------------- STATS: the scope column

const candles = (n: number, move = true): Candle[] =>
  Array.from({ length: n }, (_, i) => {
    const p = String(move ? 100 + i : 100);
    return { time: Date.UTC(2024, 0, 1) + i * DAY, open: p, high: p, low: p, close: p, avg: p, volume: '10' } as unknown as Candle;
  });

/** Coins by name: their candles, or what asking for them throws. */
function statsCtx(coins: Record<string, Candle[] | { rejected: string } | Error>): FormulaContext {
  const names = Object.keys(coins);
  return ctxOf({
    resolveCoin: async (input: string) => ({ id: names.indexOf(input) + 1, name: input.toUpperCase(), slug: input, symbol: null }),
    getPages: async (_endpoint: string, req: { id: number }) => {
      const c = coins[names[req.id - 1]];
      if (c instanceof Error) throw c;
      if (!Array.isArray(c)) return { data: candles(5), rejected: [{ index: 0, id: null, label: null, message: c.rejected }], stale: false, fetchedAt: 0, fromCache: false };
      return { data: c, stale: false, fetchedAt: 0, fromCache: false };
    },
  }, 'STATS');
}
const stats = (ctx: FormulaContext, coins: string[], field: string) =>
  analyticsFormulas.STATS(ctx, coins.map((c) => [c]), '2024-01-01', '2024-01-31', null, field, null, null, null);

test('STATS and CORREL: every item-scoped failure costs its coin\'s row (NOT_TRADED and VALIDATION_ERROR too); a failure of the call fails the formula', async () => {
  for (const [code, err] of [
    ['NOT_TRADED', formulaError('NOT_TRADED', 'X has no market price (not traded)')],
    ['VALIDATION_ERROR', new ApiError({ code: 'VALIDATION_ERROR', message: 'candles: id must be a positive integer.', status: 400 })],
    ['UNKNOWN_COIN', new ApiError({ code: 'UNKNOWN_COIN', message: 'Unknown coin "x"' })],
  ] as const) {
    const ctx = statsCtx({ x: err, good: candles(10) });
    const g = (await stats(ctx, ['x', 'good'], 'return')) as unknown[][];
    const row = g.find((r) => r[0] === 'x')!;
    assert.ok(row[1] instanceof CellError, `${code}: its row`);
    assert.equal((row[1] as CellError).error, ERROR_RULES[code].cell, code);
    assert.equal(typeof g.find((r) => r[0] === 'good')![1], 'number', `${code}: the other coin answers`);
    const m = (await analyticsFormulas.CORREL(ctx, [['x'], ['good']], '2024-01-01', '2024-01-31', null)) as unknown[][];
    assert.ok(m[1][1] instanceof CellError && typeof m[2][2] === 'number', `${code}: CORREL, its row`);
  }
  const outage = new ApiError({ code: 'INTERNAL_ERROR', message: 'candles: down.', status: 500 });
  followsRow(await failure(() => stats(statsCtx({ x: outage, good: candles(10) }), ['x', 'good'], 'return')), 'INTERNAL_ERROR');
});

test('STATS of one coin: its own error keeps its code (unreadable candles keep the last good value); an undefined statistic is UNDEFINED', async () => {
  const unreadable = await failure(() => stats(statsCtx({ x: { rejected: 'The API answered without close' } }), ['x'], 'return'));
  followsRow(unreadable, 'MISSING_FIELD');
  const unknown = await failure(() => stats(statsCtx({ x: new ApiError({ code: 'UNKNOWN_COIN', message: 'Unknown coin "x"' }) }), ['x'], 'return'));
  followsRow(unknown, 'UNKNOWN_COIN');
  const flat = await failure(() => stats(statsCtx({ x: candles(10, false) }), ['x'], 'sharpe'));
  followsRow(flat, 'UNDEFINED');
  assert.match(flat.message, /^sharpe of X is undefined here/);
  assert.equal(errorWords('UNDEFINED'), ERROR_RULES.UNDEFINED.words);
});

test('a thing with no data is NOT_FOUND (vesting, holders, the USDT dominance since yesterday): #N/A, its own', async () => {
  const empty = { data: [], stale: false, fetchedAt: 0, fromCache: false };
  const ctx = ctxOf({ resolveCoin: async () => ({ id: 1, name: 'Bitcoin', slug: 'bitcoin', symbol: 'BTC' }), get: async () => empty });
  const vesting = await failure(() => supplyFormulas.VESTING(ctx, 'bitcoin', null, null));
  followsRow(vesting, 'NOT_FOUND');
  assert.equal(vesting.message, 'Bitcoin has no vesting data');
  const holders = await failure(() => supplyFormulas.HOLDERS(ctx, 'bitcoin', null, null));
  followsRow(holders, 'NOT_FOUND');
  const usdt = await failure(() => globalFormulas.DOMINANCE(ctx, 'usdt', null, null, null));
  followsRow(usdt, 'NOT_FOUND');
  assert.equal(usdt.message, 'No USDT dominance reading since yesterday');
  // refused includeUntracked: data the service does not have, #N/A as before (not VALIDATION_ERROR's #VALUE!)
  const refused = ctxOf({
    resolveCoin: async () => ({ id: 2, name: 'Sui', slug: 'sui', symbol: 'SUI' }),
    get: async () => {
      throw new ApiError({ code: 'VALIDATION_ERROR', message: 'vestingAllocations: property includeUntracked should not exist.', status: 400 });
    },
  });
  const untracked = await failure(() => supplyFormulas.VESTING(refused, 'sui', true, null));
  followsRow(untracked, 'NOT_FOUND');
  assert.equal(untracked.code, '#N/A');
});
