/**
 * Aggregates: SUM, AVERAGE, MIN, MAX, MEDIAN, LARGE, SMALL, STDEV.S and the
 * like, COUNT and COUNTA, SUMPRODUCT, and the conditional ones (SUMIF(S),
 * COUNTIF(S), AVERAGEIF(S), MAXIFS, MINIFS). Numbers are gathered by Excel's
 * rule (numbersOf); the statistics themselves are @formulajs/formulajs's.
 */
import * as formulajs from '@formulajs/formulajs';
import { criterion, type Criterion } from './criteria';
import { asGrid, cells, def, lifted, numberArg, numbersOf, type Context, type FunctionDef, type FunctionTable } from './function-def';
import {
  DIV0,
  NUM,
  VALUE,
  cols,
  finite,
  isErrorValue,
  isFormattedNumber,
  isGrid,
  isOmitted,
  isRef,
  numberFromText,
  plain,
  xlError,
  type ErrorValue,
  type Grid,
  type Result,
  type Value,
} from './values';

const fjs = formulajs as unknown as Record<string, any>;

/** A statistic over the gathered numbers; `least` numbers needed, or #DIV/0! (as Excel answers STDEV.S of one value). */
function over(least: number, f: (xs: number[]) => number | Error): FunctionDef {
  return def(1, 255, (args, ctx) => {
    const xs = numbersOf(args, ctx);
    if (!Array.isArray(xs)) return xs;
    if (xs.length < least) return DIV0;
    const r = f(xs);
    return r instanceof Error ? xlError(r.message) : finite(r);
  });
}

/** LARGE(array, k), PERCENTILE.INC(array, k)...: the array by the range rule, k lifted over an array. */
function ranked(f: (xs: number[], k: number) => number | Error): FunctionDef {
  return def(2, 2, (args, ctx) => {
    const xs = numbersOf([args[0]], ctx);
    if (!Array.isArray(xs)) return xs;
    return lifted([ctx.value(args[1])], ([kv]) => {
      const k = typeof kv === 'number' ? kv : numberArg(kv, ctx);
      if (typeof k !== 'number') return k;
      if (xs.length === 0) return NUM;
      const r = f(xs, k);
      return r instanceof Error ? xlError(r.message) : finite(r);
    });
  });
}

function kth(order: 1 | -1) {
  return (xs: number[], k: number): number | Error => {
    const i = Math.ceil(k) - 1;
    if (i < 0 || i >= xs.length) return new Error('#NUM!');
    return [...xs].sort((a, b) => order * (b - a))[i];
  };
}

/** COUNT: numbers only; errors and text are not counted (COUNT page). */
function count(args: Result[], ctx: Context): number {
  let n = 0;
  for (const a of args) {
    if (isOmitted(a)) continue;
    const v = ctx.value(a);
    if (isRef(a) || isGrid(v)) {
      for (const c of cells(asGrid(v))) if (typeof c === 'number' || isFormattedNumber(c)) n++;
    } else if (typeof v === 'number' || typeof v === 'boolean' || isFormattedNumber(v)) n++;
    else if (typeof v === 'string' && numberFromText(v, ctx.dateSystem) !== null) n++; // "a text representation of numbers" (COUNT page): the engine's one rule
  }
  return n;
}

/** COUNTA: every value that is not blank, errors and "" included (COUNTA page). */
function countA(args: Result[], ctx: Context): number {
  let n = 0;
  for (const a of args) {
    if (isOmitted(a)) continue;
    const v = ctx.value(a);
    if (isRef(a) || isGrid(v)) n += cells(asGrid(v)).filter((c) => c !== null).length;
    else n++;
  }
  return n;
}

/** SUMPRODUCT: arrays of one size multiplied cell by cell; non-numbers are 0; an error is the result. */
function sumProduct(args: Result[], ctx: Context): Value {
  const grids = args.map((a) => asGrid(ctx.value(a)));
  const h = grids[0].length;
  const w = cols(grids[0]);
  if (grids.some((g) => g.length !== h || cols(g) !== w)) return xlError('#VALUE!', 'SUMPRODUCT needs arrays of the same size');
  let sum = 0;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      let p = 1;
      for (const g of grids) {
        const v = plain(g[r][c]);
        if (isErrorValue(v)) return v;
        p *= typeof v === 'number' ? v : 0;
      }
      sum += p;
    }
  }
  return finite(sum);
}

/** The (range, criteria) pairs of a *IFS call, checked to be one size. */
function matcher(pairs: Result[], ctx: Context): { size: [number, number]; test: (r: number, c: number) => boolean } | ErrorValue {
  const ranges: Grid[] = [];
  const tests: Criterion[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    ranges.push(asGrid(ctx.value(pairs[i])));
    const spec = ctx.value(pairs[i + 1]);
    const one = plain(isGrid(spec) ? (spec[0]?.[0] ?? null) : spec);
    if (isErrorValue(one)) return one;
    tests.push(criterion(one, ctx.dateSystem));
  }
  const h = ranges[0].length;
  const w = cols(ranges[0]);
  if (ranges.some((g) => g.length !== h || cols(g) !== w)) return xlError('#VALUE!', 'The criteria ranges must be the same size');
  return { size: [h, w], test: (r, c) => ranges.every((g, k) => tests[k](g[r][c])) };
}

/** The values a conditional aggregate takes: where every criterion holds, numbers from `values`. */
function matched(values: Grid, m: { size: [number, number]; test: (r: number, c: number) => boolean }): number[] | ErrorValue {
  const out: number[] = [];
  const [h, w] = m.size;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (!m.test(r, c)) continue;
      const v = plain(values[r]?.[c] ?? null);
      if (isErrorValue(v)) return v;
      if (typeof v === 'number') out.push(v);
    }
  }
  return out;
}

function conditional(sumFirst: boolean, reduce: (xs: number[]) => Value): FunctionDef {
  return def(sumFirst ? 3 : 2, sumFirst ? 255 : 3, (args, ctx) => {
    // SUMIFS(sum_range, range1, criteria1, ...) or SUMIF(range, criteria, [sum_range])
    const pairs = sumFirst ? args.slice(1) : args.slice(0, 2);
    if (sumFirst && pairs.length % 2 !== 0) return xlError('#VALUE!', 'Criteria come in pairs: a range and its criteria');
    const m = matcher(pairs, ctx);
    if (isErrorValue(m)) return m;
    const target = sumFirst ? args[0] : args[2] !== undefined && !isOmitted(args[2]) ? args[2] : args[0];
    const xs = matched(asGrid(ctx.value(target)), m);
    return Array.isArray(xs) ? reduce(xs) : xs;
  });
}

function countIfs(args: Result[], ctx: Context): Value {
  if (args.length % 2 !== 0) return xlError('#VALUE!', 'Criteria come in pairs: a range and its criteria');
  const m = matcher(args, ctx);
  if (isErrorValue(m)) return m;
  let n = 0;
  for (let r = 0; r < m.size[0]; r++) for (let c = 0; c < m.size[1]; c++) if (m.test(r, c)) n++;
  return n;
}

const sum = (xs: number[]) => finite(xs.reduce((a, b) => a + b, 0));
const mean = (xs: number[]) => (xs.length ? finite(xs.reduce((a, b) => a + b, 0) / xs.length) : DIV0);

export const AGGREGATES: FunctionTable = {
  SUM: over(0, (xs) => xs.reduce((a, b) => a + b, 0)),
  AVERAGE: over(1, (xs) => xs.reduce((a, b) => a + b, 0) / xs.length),
  // "If the arguments contain no numbers, MAX returns 0" (MAX page); MIN likewise.
  MAX: over(0, (xs) => (xs.length ? Math.max(...xs) : 0)),
  MIN: over(0, (xs) => (xs.length ? Math.min(...xs) : 0)),
  MEDIAN: def(1, 255, (args, ctx) => {
    const xs = numbersOf(args, ctx);
    if (!Array.isArray(xs)) return xs;
    return xs.length ? finite(fjs.MEDIAN(...xs)) : NUM;
  }),
  PRODUCT: over(0, (xs) => (xs.length ? xs.reduce((a, b) => a * b, 1) : 0)),
  'STDEV.S': over(2, (xs) => fjs.STDEV.S(...xs)),
  STDEV: over(2, (xs) => fjs.STDEV.S(...xs)),
  'STDEV.P': over(1, (xs) => fjs.STDEV.P(...xs)),
  STDEVP: over(1, (xs) => fjs.STDEV.P(...xs)),
  'VAR.S': over(2, (xs) => fjs.VAR.S(...xs)),
  VAR: over(2, (xs) => fjs.VAR.S(...xs)),
  'VAR.P': over(1, (xs) => fjs.VAR.P(...xs)),
  VARP: over(1, (xs) => fjs.VAR.P(...xs)),
  GEOMEAN: over(1, (xs) => (xs.some((x) => x <= 0) ? new Error('#NUM!') : fjs.GEOMEAN(...xs))),
  DEVSQ: over(1, (xs) => fjs.DEVSQ(...xs)),
  AVEDEV: over(1, (xs) => fjs.AVEDEV(...xs)),
  SUMSQ: over(0, (xs) => xs.reduce((a, b) => a + b * b, 0)),
  'MODE.SNGL': over(1, (xs) => fjs.MODE.SNGL(...xs)),
  MODE: over(1, (xs) => fjs.MODE.SNGL(...xs)),
  LARGE: ranked(kth(1)),
  SMALL: ranked(kth(-1)),
  'PERCENTILE.INC': ranked((xs, k) => fjs.PERCENTILE.INC(xs, k)),
  PERCENTILE: ranked((xs, k) => fjs.PERCENTILE.INC(xs, k)),
  'PERCENTILE.EXC': ranked((xs, k) => fjs.PERCENTILE.EXC(xs, k)),
  'QUARTILE.INC': ranked((xs, k) => fjs.QUARTILE.INC(xs, k)),
  QUARTILE: ranked((xs, k) => fjs.QUARTILE.INC(xs, k)),
  COUNT: def(1, 255, (args, ctx) => count(args, ctx)),
  COUNTA: def(1, 255, (args, ctx) => countA(args, ctx)),
  COUNTBLANK: def(1, 1, (args, ctx) => cells(asGrid(ctx.value(args[0]))).filter((c) => c === null || c === '').length),
  SUMPRODUCT: def(1, 255, sumProduct),
  SUMIF: conditional(false, sum),
  SUMIFS: conditional(true, sum),
  AVERAGEIF: conditional(false, mean),
  AVERAGEIFS: conditional(true, mean),
  MAXIFS: conditional(true, (xs) => (xs.length ? Math.max(...xs) : 0)),
  MINIFS: conditional(true, (xs) => (xs.length ? Math.min(...xs) : 0)),
  COUNTIF: def(2, 2, (args, ctx) => {
    const spec = ctx.value(args[1]);
    // COUNTIF(range, {"a","b"}) counts each criterion: an array of counts.
    if (isGrid(spec)) return lifted([spec], ([s]) => countIfs([args[0], s], ctx));
    return countIfs(args, ctx);
  }),
  COUNTIFS: def(2, 254, countIfs),
};

export { VALUE };
