/**
 * STATS and CORREL: risk and return from daily closes (src/analytics), over the
 * very candles OHLCV reads. Each coin's candles come from OHLCV's own daily
 * request (history.ts: dailyCandles), so a sheet holding OHLCV, STATS and
 * CORREL over the same range pays for each coin's candles once, and a
 * recalculation pays nothing while they are cached.
 */
import * as A from '../analytics';
import type { Candle } from '../api/records';
import { isoDay } from '../api/utc-day';
import {
  choiceArg, choicesOf, coinArg, currencyArg, flatCells, flatValues, headersArg, numberArg, scalar, type Arg,
} from './args';
import { rangeArgs, type Span } from './span-args';
import { CellError, EMPTY, FormulaError, formulaError, invalidValue, type Cell, type Grid } from './cells';
import { fiatRate, type FiatRate } from './currency';
import { scopeOf, toFormulaError } from './failure';
import { dailyCandles } from './history';
import { checkCandleReach } from './reach';
import type { Catalog, FormulaContext } from './formula-context';

const blank = (v: Arg) => flatValues(v, { zeroIsBlank: true }).length === 0;
/** A row's Coin label: the input as typed (a basic value that came as a data-type object, its basic value). */
const label = (cell: Arg): Cell => {
  const input = scalar(cell);
  return typeof input === 'string' || typeof input === 'number' || typeof input === 'boolean' ? String(input) : EMPTY;
};

/** A coin's daily series over the range, or why it has none. */
interface Series {
  name: string;
  /** The period's prices: the first day's open, then each day's close (A.periodBars). */
  bars: A.DailyBar[];
  returns: A.DailyReturns;
  /** Its first candle starts after the range does (a coin listed within it): that day, else null. */
  startsLate: number | null;
}

const toBar = (c: Candle): A.DailyBar => ({ time: c.time, open: Number(c.open), close: Number(c.close), avg: Number(c.avg), volume: Number(c.volume) });

/**
 * One coin's candles as a series. Unreadable candles fail the coin: statistics over silently skipped days would be wrong.
 * `now`: the one clock reading `span` was made with (dailyCandles).
 */
async function seriesOf(ctx: FormulaContext, input: string | number, span: Span, now: number): Promise<Series> {
  const ref = await ctx.client.resolveCoin(input);
  const res = await dailyCandles(ctx, ref.id, span, now);
  if (res.rejected?.length) {
    throw formulaError('MISSING_FIELD', `${res.rejected.length} daily candle(s) of ${ref.name} could not be read (${res.rejected[0].message}): statistics would skip those days`);
  }
  // None in the range: OHLCV's own #N/A, naming the day the coin's history starts when that is
  // after the range (one 1-credit request, on this failure only; OHLCV's cell shares it).
  await checkCandleReach(ctx, ref, 'day', span, res.data);
  if (res.data.length === 0) throw formulaError('NOT_FOUND', `No daily candles for ${ref.name} from ${isoDay(span.start)} to ${isoDay(span.end - 1)}`);
  // From the open of the range's first day, so its first day's move counts, as in CRYPTO.RETURNS (series.ts).
  const bars = A.periodBars(res.data.map(toBar));
  const first = res.data.reduce((t, c) => Math.min(t, c.time), Number.POSITIVE_INFINITY);
  return { name: ref.name, bars, returns: A.dailyReturns(bars, 'log'), startsLate: first > span.start ? first : null };
}

/**
 * One coin's failure: what is wrong with the coin itself (the rule's scope `item`: unknown, bad
 * input, unreadable or no candles, not traded) costs its own row; a failure of the whole call (the
 * plan, an outage) fails the formula, so the host keeps the last good table instead of rows of errors.
 */
function ownRowError(e: unknown, caller: string): FormulaError {
  const err = toFormulaError(e, caller);
  if (scopeOf(err) === 'call') throw err;
  return err;
}

/** Loads every coin at once (the client shares repeated ones); a blank keeps its place as null. */
function loadAll(ctx: FormulaContext, inputs: readonly Arg[], span: Span, now: number): Promise<(Series | FormulaError | null)[]> {
  return Promise.all(
    // A coin that is not one (TRUE, 10,000 characters) fails its own row too, naming the argument.
    inputs.map((input) => (input === null ? Promise.resolve(null) : Promise.resolve().then(() => seriesOf(ctx, coinArg(input, 'coins'), span, now)).catch((e: unknown) => ownRowError(e, ctx.caller)))),
  );
}

// ---------------------------------------------------------------- STATS

type Stat = 'return' | 'cagr' | 'volatility' | 'maxDrawdown' | 'sharpe' | 'beta' | 'correlation' | 'vwap';
export const STATS_FIELDS: readonly Stat[] = ['return', 'cagr', 'volatility', 'maxDrawdown', 'sharpe', 'beta', 'correlation', 'vwap'];
const STAT_CHOICES: Record<string, Stat> = { ...choicesOf(STATS_FIELDS), maxdd: 'maxDrawdown', drawdown: 'maxDrawdown', vol: 'volatility', corr: 'correlation' };

interface Context {
  bench: Series | null;
  riskFree: number;
  rate: FiatRate | null;
}

/** Each statistic: its header, its value, and why it can be undefined (the #N/A message). */
const STATS: Record<Stat, {
  header: (c: Context, cur: string) => string;
  value: (s: Series, c: Context) => number | null;
  undefinedWhy: string | ((s: Series) => string);
}> = {
  return: { header: () => 'Return (fraction)', value: (s) => A.totalReturn(s.bars), undefinedWhy: 'needs a price at the start of the range and a close after it' },
  cagr: {
    header: () => 'CAGR (fraction)', value: (s) => A.cagr(s.bars),
    // GIPS: returns for periods of less than one year must not be annualized (analytics/stats.ts).
    undefinedWhy: (s) => {
      const days = `${A.spanDays(s.bars)} day${A.spanDays(s.bars) === 1 ? '' : 's'}`;
      // A coin listed within the range: its history is what is short, not the range (review-r2 #8).
      const short = s.startsLate !== null ? `${s.name}'s history in this range starts ${isoDay(s.startsLate)}, ${days}` : `this one is ${days}`;
      return `needs a range of at least a year (${A.MIN_CAGR_DAYS} days), and ${short}: a shorter return is not annualized; use return`;
    },
  },
  volatility: {
    header: () => 'Volatility, annualized (fraction)', value: (s) => A.volatilityOf(s.returns.values), undefinedWhy: 'needs two daily returns (two consecutive days)',
  },
  maxDrawdown: { header: () => 'Max drawdown (fraction)', value: (s) => A.maxDrawdown(s.bars), undefinedWhy: 'needs a daily close' },
  sharpe: {
    header: () => 'Sharpe ratio', value: (s, c) => A.sharpe(s.bars, c.riskFree), undefinedWhy: 'needs two daily returns and a price that moved',
  },
  beta: {
    header: (c) => `Beta vs ${c.bench?.name ?? 'benchmark'}`, value: (s, c) => (c.bench ? A.beta(s.returns, c.bench.returns) : null),
    undefinedWhy: 'needs two days of returns shared with the benchmark, whose price moved',
  },
  correlation: {
    header: (c) => `Correlation vs ${c.bench?.name ?? 'benchmark'}`, value: (s, c) => (c.bench ? A.correlation(s.returns, c.bench.returns) : null),
    undefinedWhy: 'needs two days of returns shared with the benchmark, and prices that moved',
  },
  vwap: {
    header: (_c, cur) => (cur === 'USD' ? 'VWAP (USD)' : `VWAP (${cur} at today's rate)`),
    value: (s, c) => {
      const usd = A.vwap(s.bars);
      return usd === null ? null : c.rate ? usd / c.rate.usdPerUnit : usd;
    },
    undefinedWhy: 'needs daily volume in the range',
  },
};

function statsFields(v: Arg): Stat[] {
  const raw = flatValues(v, { zeroIsBlank: true }).flatMap((x) => (typeof x === 'string' ? x.split(',').map((s) => s.trim()).filter(Boolean) : [x]));
  if (raw.length === 0) return [...STATS_FIELDS];
  return raw.map((f) => choiceArg(f, 'fields', STAT_CHOICES, undefined, STATS_FIELDS.join(', ')));
}

/** An annual rate as a fraction (Excel's 5 % is 0.05); 5 meaning 5 % is caught, not read as 500 %. */
function riskFreeArg(v: Arg): number {
  const rf = numberArg(v, 'riskFree', 0)!;
  if (rf <= -1 || rf > 1) throw invalidValue(`riskFree is an annual rate as a fraction, from above -1 to 1: 0.05 (or 5%) for 5 %; got ${rf}`);
  return rf;
}

async function stats(
  ctx: FormulaContext, coins: Arg, start: Arg, end: Arg, benchmark: Arg, fields: Arg, riskFree: Arg, headers: Arg, currency: Arg,
): Promise<Grid> {
  const inputs = flatCells(coins);
  if (inputs.every((x) => x === null)) throw invalidValue('coins is required: a coin or a range of coins');
  const now = ctx.now();
  const span = rangeArgs(start, end, now, ctx.settings.dateSystem);
  const names = statsFields(fields);
  const rf = riskFreeArg(riskFree);
  const one = inputs.length === 1 && names.length === 1 && blank(headers);
  const showHeaders = headersArg(headers);
  const cur = currencyArg(currency, 'USD');
  // A lone vwap cell has no header to say "at today's rate": a past figure converted at today's rate would pass for
  // the period's own, which every other history formula refuses (history.ts historyCurrency). So it is refused here
  // too, before any request, with the forms that say what they give (review 2026-11-27: history #6).
  if (one && names[0] === 'vwap' && cur !== 'USD') {
    throw invalidValue(
      `CRYPTO.STATS gives vwap as a single cell in USD only; got "${cur}": the candles are USD, and at today's ${cur} rate ` +
        `a past VWAP would be off by however far the rate has moved since. Leave currency blank for USD, or give headers 1 ` +
        `for a table whose header says "VWAP (${cur} at today's rate)"`,
    );
  }
  const benchInput = names.includes('beta') || names.includes('correlation') ? coinArg(blank(benchmark) ? 'bitcoin' : scalar(benchmark), 'benchmark') : null;
  // Everything at once: the benchmark's candles, the fiat rate and every coin's candles.
  const [bench, rate, rows] = await Promise.all([
    benchInput === null ? null : seriesOf(ctx, benchInput, span, now).catch((e: unknown) => {
      const err = toFormulaError(e, ctx.caller);
      throw err.apiCode === 'UNKNOWN_COIN' || err.apiCode === 'NOT_FOUND' ? formulaError(err.apiCode, `benchmark: ${err.message}`) : err;
    }),
    names.includes('vwap') && cur !== 'USD' ? fiatRate(ctx.client, cur) : null,
    loadAll(ctx, inputs, span, now),
  ]);
  const c: Context = { bench, riskFree: rf, rate };
  const cell = (s: Series, f: Stat): Cell => {
    const x = STATS[f].value(s, c);
    const why = STATS[f].undefinedWhy;
    return x === null || !Number.isFinite(x) ? new CellError('#N/A', `${f} of ${s.name} is undefined here: it ${typeof why === 'string' ? why : why(s)}`) : x;
  };
  if (one) {
    const s = rows[0]!;
    if (s instanceof FormulaError) throw s;
    const x = cell(s, names[0]);
    if (x instanceof CellError) throw formulaError('UNDEFINED', x.message);
    return [[x]];
  }
  const body: Grid = rows.map((s, i) => {
    if (s === null) return [EMPTY, ...names.map(() => EMPTY)];
    if (s instanceof FormulaError) return [label(inputs[i]), ...names.map(() => s.toCell())];
    return [label(inputs[i]), ...names.map((f) => cell(s, f))];
  });
  return showHeaders ? [['Coin', ...names.map((f) => STATS[f].header(c, cur))], ...body] : body;
}

// ---------------------------------------------------------------- CORREL

/** n coins make n² cells and n candle requests. */
export const MAX_CORREL_COINS = 200;

async function correl(ctx: FormulaContext, coins: Arg, start: Arg, end: Arg, headers: Arg): Promise<Grid> {
  // As STATS: a blank (or the 0 an older desktop build passes for one) keeps its place, as an
  // empty row and column, so the matrix lines up with the coins. Blanks after the last coin are
  // left off: a generous range (A2:A500) would otherwise spill a mostly empty 499 × 499 square.
  const inputs = flatCells(coins);
  while (inputs.length > 0 && inputs[inputs.length - 1] === null) inputs.pop();
  if (inputs.length === 0) throw invalidValue('coins is required: a range of coins');
  if (inputs.length > MAX_CORREL_COINS) throw invalidValue(`coins: at most ${MAX_CORREL_COINS} coins (a blank between them counts: it keeps its row and column); got ${inputs.length}`);
  const now = ctx.now();
  const span = rangeArgs(start, end, now, ctx.settings.dateSystem);
  const showHeaders = headersArg(headers);
  const loaded = await loadAll(ctx, inputs, span, now);
  const good = loaded.filter((s): s is Series => s !== null && !(s instanceof FormulaError));
  const m = A.correlationMatrix(good.map((s) => s.returns));
  const at = new Map(good.map((s, k) => [s, k]));
  const body: Grid = loaded.map((a, i) =>
    loaded.map((b, j): Cell => {
      if (a === null || b === null) return EMPTY;
      if (a instanceof FormulaError) return a.toCell();
      if (b instanceof FormulaError) return b.toCell();
      const x = m[at.get(a as Series)!][at.get(b as Series)!];
      const names = i === j ? (a as Series).name : `${(a as Series).name} and ${(b as Series).name}`;
      return x === null ? new CellError('#N/A', `Correlation of ${names} is undefined here: it needs two days of returns in common, and prices that moved`) : x;
    }),
  );
  if (!showHeaders) return body;
  const labels = inputs.map(label);
  return [[EMPTY, ...labels], ...body.map((row, i) => [labels[i], ...row])];
}

export const analyticsFormulas: Catalog = {
  STATS: stats,
  CORREL: correl,
};
