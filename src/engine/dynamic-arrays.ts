/**
 * Dynamic-array functions: FILTER, SORT, SORTBY, UNIQUE, SEQUENCE, TRANSPOSE,
 * TAKE, DROP. @formulajs/formulajs 4.6.1 has no FILTER or SEQUENCE and sorts
 * numbers as text, so these are written here after Microsoft's pages for each
 * function. Errors in the data are values: they pass through to the result,
 * where Excel passes them; an empty result is #CALC!.
 */
import { booleanArg, def, gridArg, numberArg, vectorOf, type Context, type FunctionTable } from './function-def';
import { cols, compareValues, isErrorValue, isOmitted, plain, toBoolean, xlError, type ErrorValue, type Grid, type Result, type Scalar, type Value } from './values';

export function transpose(g: Grid): Grid {
  const w = cols(g);
  return Array.from({ length: w }, (_, c) => g.map((r) => r[c]));
}

function filter(args: Result[], ctx: Context): Result {
  const g = gridArg(args[0], ctx);
  const include = gridArg(args[1], ctx);
  const byRows = cols(include) === 1 && include.length === g.length;
  const byCols = include.length === 1 && cols(include) === cols(g);
  if (!byRows && !byCols) return xlError('#VALUE!', 'FILTER: include must be a row or column as long as the array');
  const flags = byRows ? include.map((r) => r[0]) : include[0];
  const keep: boolean[] = [];
  for (const f of flags) {
    const b = toBoolean(plain(f));
    if (typeof b !== 'boolean') return b;
    keep.push(b);
  }
  const out = byRows ? g.filter((_, i) => keep[i]) : g.map((r) => r.filter((_, j) => keep[j]));
  if (out.length === 0 || cols(out) === 0) {
    return args[2] === undefined || isOmitted(args[2]) ? xlError('#CALC!', 'FILTER found nothing to keep') : ctx.value(args[2]);
  }
  return out;
}

/** Rows compared by the given keys (Excel's order; blanks last, errors after them). */
function compareBy(keys: { at: (i: number) => Value; order: number }[]) {
  const rank = (v: Scalar | ErrorValue) => (v === null ? 1 : isErrorValue(v) ? 2 : 0);
  return (i: number, j: number): number => {
    for (const k of keys) {
      const a = plain(k.at(i));
      const b = plain(k.at(j));
      const ra = rank(a);
      const rb = rank(b);
      const c = ra !== rb ? ra - rb : ra === 0 ? k.order * compareValues(a as Scalar, b as Scalar) : 0;
      if (c !== 0) return c;
    }
    return i - j;
  };
}

function sort(args: Result[], ctx: Context): Result {
  const g0 = gridArg(args[0], ctx);
  const byCol = booleanArg(args[3] ?? false, ctx, false);
  if (typeof byCol !== 'boolean') return byCol;
  const g = byCol ? transpose(g0) : g0;
  const idx = numberArg(args[1] ?? 1, ctx, 1);
  const ord = numberArg(args[2] ?? 1, ctx, 1);
  if (typeof idx !== 'number') return idx;
  if (typeof ord !== 'number') return ord;
  if (idx < 1 || idx > cols(g)) return xlError('#VALUE!', `SORT: sort_index ${idx} is outside the array`);
  if (ord !== 1 && ord !== -1) return xlError('#VALUE!', 'SORT: sort_order is 1 (ascending) or -1 (descending)');
  const order = g.map((_, i) => i).sort(compareBy([{ at: (i) => g[i][Math.trunc(idx) - 1], order: ord }]));
  const out = order.map((i) => g[i]);
  return byCol ? transpose(out) : out;
}

function sortBy(args: Result[], ctx: Context): Result {
  const g = gridArg(args[0], ctx);
  const keys: { at: (i: number) => Value; order: number }[] = [];
  for (let k = 1; k < args.length; k += 2) {
    const by = vectorOf(gridArg(args[k], ctx));
    if (!by || by.values.length !== g.length) return xlError('#VALUE!', 'SORTBY: each by_array is a column as long as the array');
    const o = numberArg(args[k + 1] ?? 1, ctx, 1);
    if (typeof o !== 'number') return o;
    keys.push({ at: (i) => by.values[i], order: o < 0 ? -1 : 1 });
  }
  return g.map((_, i) => i).sort(compareBy(keys)).map((i) => g[i]);
}

function unique(args: Result[], ctx: Context): Result {
  const g0 = gridArg(args[0], ctx);
  const byCol = booleanArg(args[1] ?? false, ctx, false);
  const once = booleanArg(args[2] ?? false, ctx, false);
  if (typeof byCol !== 'boolean') return byCol;
  if (typeof once !== 'boolean') return once;
  const g = byCol ? transpose(g0) : g0;
  const key = (row: Value[]) => JSON.stringify(row.map((v) => { const x = plain(v); return typeof x === 'string' ? x.toLowerCase() : x; }));
  const counts = new Map<string, number>();
  for (const row of g) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
  const seen = new Set<string>();
  const out = g.filter((row) => {
    const k = key(row);
    if (seen.has(k) || (once && counts.get(k)! > 1)) return false;
    seen.add(k);
    return true;
  });
  if (out.length === 0) return xlError('#CALC!', 'UNIQUE found no value that occurs exactly once');
  return byCol ? transpose(out) : out;
}

function sequence(args: Result[], ctx: Context): Result {
  const [r, c, s, st] = [numberArg(args[0], ctx), numberArg(args[1] ?? 1, ctx, 1), numberArg(args[2] ?? 1, ctx, 1), numberArg(args[3] ?? 1, ctx, 1)];
  const bad = [r, c, s, st].find((x) => typeof x !== 'number');
  if (bad !== undefined) return bad as ErrorValue;
  const h = Math.trunc(r as number);
  const w = Math.trunc(c as number);
  if (h < 1 || w < 1) return xlError('#CALC!', 'SEQUENCE needs at least one row and one column');
  if (h * w > 1_048_576) return xlError('#NUM!', 'SEQUENCE is larger than a sheet');
  return Array.from({ length: h }, (_, i) => Array.from({ length: w }, (_, j) => (s as number) + (i * w + j) * (st as number)));
}

/** TAKE and DROP: rows and columns from the start (positive) or the end (negative). */
function slice(take: boolean) {
  return (args: Result[], ctx: Context): Result => {
    const g = gridArg(args[0], ctx);
    const part = (n: Result | undefined, len: number): [number, number] | ErrorValue => {
      if (n === undefined || isOmitted(n)) return [0, len];
      const k = numberArg(n, ctx);
      if (typeof k !== 'number') return k;
      const m = Math.trunc(k);
      if (take) return m >= 0 ? [0, Math.min(m, len)] : [Math.max(0, len + m), len];
      return m >= 0 ? [Math.min(m, len), len] : [0, Math.max(0, len + m)];
    };
    const r = part(args[1], g.length);
    const c = part(args[2], cols(g));
    if (!Array.isArray(r)) return r;
    if (!Array.isArray(c)) return c;
    const out = g.slice(r[0], r[1]).map((row) => row.slice(c[0], c[1]));
    return out.length && out[0].length ? out : xlError('#CALC!', 'The result is an empty array');
  };
}

export const DYNAMIC_ARRAYS: FunctionTable = {
  FILTER: def(2, 3, filter),
  SORT: def(1, 4, sort),
  SORTBY: def(2, 255, sortBy),
  UNIQUE: def(1, 3, unique),
  SEQUENCE: def(1, 4, sequence),
  TRANSPOSE: def(1, 1, (args, ctx) => transpose(gridArg(args[0], ctx))),
  TAKE: def(2, 3, slice(true)),
  DROP: def(2, 3, slice(false)),
};
