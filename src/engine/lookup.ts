/**
 * Lookup and reference functions: INDEX, MATCH, XMATCH, XLOOKUP, VLOOKUP,
 * HLOOKUP, ROWS, COLUMNS, ROW, COLUMN (the dynamic-array ones, FILTER, SORT...,
 * are dynamic-arrays.ts). @formulajs/formulajs 4.6.1 has no XLOOKUP, so these
 * are written here after Microsoft's pages for each function. Errors in the
 * data are values: they pass through to the result, where Excel passes them.
 */
import { asGrid, booleanArg, def, gridArg, lifted, numberArg, vectorOf, type Context, type FunctionTable } from './function-def';
import { criterion } from './criteria';
import { transpose } from './dynamic-arrays';
import type { DateSystem } from './date-system';
import {
  VALUE,
  cols,
  compareValues,
  isErrorValue,
  isGrid,
  isOmitted,
  isRef,
  plain,
  xlError,
  type ErrorValue,
  type Grid,
  type Result,
  type Scalar,
  type Value,
} from './values';

const intOf = (n: number) => Math.trunc(n);

/**
 * INDEX(array, row_num, [column_num]): the value at that place (a reference
 * when given one); 0 for a whole row or column; #REF! outside. An error given
 * as the array is the result (`=INDEX(NA(),1,2)` is #N/A).
 */
function index(args: Result[], ctx: Context): Result {
  const [a, rArg, cArg] = args;
  const whole = ctx.value(a);
  if (!isGrid(whole) && isErrorValue(whole)) return whole;
  const rn = numberArg(rArg ?? 0, ctx, 0);
  if (typeof rn !== 'number') return rn;
  const cn = cArg === undefined ? undefined : numberArg(cArg, ctx, 0);
  if (cn !== undefined && typeof cn !== 'number') return cn;
  const g = asGrid(whole);
  const h = g.length;
  const w = cols(g);
  let r = intOf(rn);
  let c = cn === undefined ? undefined : intOf(cn);
  // One row given one index: the index is the column (INDEX({1,2,3},2) is 2).
  if (c === undefined) {
    if (h === 1) [r, c] = [1, r];
    else c = w === 1 ? 1 : 0;
  }
  if (r < 0 || c < 0 || r > h || c > w) return xlError('#REF!', `INDEX: row ${r}, column ${c} is outside a ${h}×${w} array`);
  if (isRef(a)) {
    return {
      kind: 'ref',
      top: r === 0 ? a.top : a.top + r - 1,
      bottom: r === 0 ? a.bottom : a.top + r - 1,
      left: c === 0 ? a.left : a.left + c - 1,
      right: c === 0 ? a.right : a.left + c - 1,
    };
  }
  if (r === 0 && c === 0) return g;
  if (r === 0) return g.map((row) => [row[c! - 1]]);
  if (c === 0) return [g[r - 1]];
  return g[r - 1][c - 1];
}

/** Where `needle` is in `list`: exact (text without regard to case, wildcards when asked), or the next smaller/larger. */
function find(needle: Value, list: Value[], mode: 0 | -1 | 1 | 2, reverse: boolean, system: DateSystem): number {
  const n = plain(needle);
  if (isErrorValue(n)) return -1;
  const exact = mode === 2 && typeof n === 'string' ? criterion(n, system) : (v: Value) => {
    const x = plain(v);
    return !isErrorValue(x) && x !== null && typeof x === typeof n && compareValues(x, n as Scalar) === 0;
  };
  let best = -1;
  for (let k = 0; k < list.length; k++) {
    const i = reverse ? list.length - 1 - k : k;
    if (exact(list[i])) return i;
    if (mode === -1 || mode === 1) {
      const x = plain(list[i]);
      if (isErrorValue(x) || x === null || typeof x !== typeof n) continue;
      const c = compareValues(x, n as Scalar);
      if (mode === -1 && c < 0 && (best < 0 || compareValues(x, plain(list[best]) as Scalar) > 0)) best = i;
      if (mode === 1 && c > 0 && (best < 0 || compareValues(x, plain(list[best]) as Scalar) < 0)) best = i;
    }
  }
  return best;
}

/** MATCH's approximate modes assume a sorted list: the last place not past the value. */
function findSorted(needle: Value, list: Value[], descending: boolean): number {
  const n = plain(needle);
  if (isErrorValue(n)) return -1;
  let best = -1;
  for (let i = 0; i < list.length; i++) {
    const x = plain(list[i]);
    if (isErrorValue(x) || x === null || typeof x !== typeof n) continue;
    const c = compareValues(x, n as Scalar);
    if (descending ? c >= 0 : c <= 0) best = i;
    else break;
  }
  return best;
}

const notFound = (fn: string, v: Value): ErrorValue => {
  const x = plain(v);
  return xlError('#N/A', `${fn} found no match for ${typeof x === 'string' ? JSON.stringify(x) : isErrorValue(x) ? x.error : String(x)}`);
};

function xlookup(args: Result[], ctx: Context): Result {
  const [lookup, inArg, outArg, ifNot, modeArg, searchArg] = args;
  const within = vectorOf(gridArg(inArg, ctx));
  if (!within) return xlError('#VALUE!', 'XLOOKUP looks in one row or one column');
  const out = gridArg(outArg, ctx);
  const mode = numberArg(modeArg ?? 0, ctx, 0);
  const search = numberArg(searchArg ?? 1, ctx, 1);
  if (typeof mode !== 'number') return mode;
  if (typeof search !== 'number') return search;
  if (![0, -1, 1, 2].includes(mode)) return xlError('#VALUE!', 'XLOOKUP match_mode is 0, -1, 1 or 2');
  if (![1, -1, 2, -2].includes(search)) return xlError('#VALUE!', 'XLOOKUP search_mode is 1, -1, 2 or -2');
  if (within.byRow ? out.length !== within.values.length : cols(out) !== within.values.length) {
    return xlError('#VALUE!', 'XLOOKUP: the return array must match the lookup array in length');
  }
  const pick = (needle: Value): Value | Grid => {
    const i = find(needle, within.values, mode as 0 | -1 | 1 | 2, search < 0, ctx.dateSystem);
    if (i < 0) return ifNot === undefined || isOmitted(ifNot) ? notFound('XLOOKUP', needle) : ctx.value(ifNot);
    if (within.byRow) return cols(out) === 1 ? out[i][0] : [out[i]];
    return out.length === 1 ? out[0][i] : out.map((row) => [row[i]]);
  };
  const needles = ctx.value(lookup);
  if (!isGrid(needles)) return pick(needles);
  return lifted([needles], ([n]) => {
    const r = pick(n);
    return isGrid(r) ? r[0][0] : r;
  });
}

function match(args: Result[], ctx: Context): Result {
  const list = vectorOf(gridArg(args[1], ctx));
  if (!list) return xlError('#N/A', 'MATCH looks in one row or one column');
  const type = numberArg(args[2] ?? 1, ctx, 1);
  if (typeof type !== 'number') return type;
  return lifted([ctx.value(args[0])], ([needle]) => {
    const i = type === 0 ? find(needle, list.values, typeof plain(needle) === 'string' ? 2 : 0, false, ctx.dateSystem) : findSorted(needle, list.values, type < 0);
    return i < 0 ? notFound('MATCH', needle) : i + 1;
  });
}

function xmatch(args: Result[], ctx: Context): Result {
  const list = vectorOf(gridArg(args[1], ctx));
  if (!list) return xlError('#VALUE!', 'XMATCH looks in one row or one column');
  const mode = numberArg(args[2] ?? 0, ctx, 0);
  const search = numberArg(args[3] ?? 1, ctx, 1);
  if (typeof mode !== 'number') return mode;
  if (typeof search !== 'number') return search;
  return lifted([ctx.value(args[0])], ([needle]) => {
    const i = find(needle, list.values, mode as 0 | -1 | 1 | 2, search < 0, ctx.dateSystem);
    return i < 0 ? notFound('XMATCH', needle) : i + 1;
  });
}

function vlookup(vertical: boolean) {
  return (args: Result[], ctx: Context): Result => {
    let table = gridArg(args[1], ctx);
    if (!vertical) table = transpose(table);
    const k = numberArg(args[2], ctx);
    if (typeof k !== 'number') return k;
    const approx = booleanArg(args[3] ?? true, ctx, true);
    if (typeof approx !== 'boolean') return approx;
    const name = vertical ? 'VLOOKUP' : 'HLOOKUP';
    if (k < 1) return VALUE;
    if (k > cols(table)) return xlError('#REF!', `${name}: column ${k} is outside the table`);
    const keys = table.map((r) => r[0]);
    return lifted([ctx.value(args[0])], ([needle]) => {
      const i = approx ? findSorted(needle, keys, false) : find(needle, keys, typeof plain(needle) === 'string' ? 2 : 0, false, ctx.dateSystem);
      return i < 0 ? notFound(name, needle) : table[i][Math.trunc(k) - 1];
    });
  };
}

function refArg(args: Result[], ctx: Context): { top: number; left: number; bottom: number; right: number } {
  const a = args[0];
  if (a !== undefined && isRef(a)) return a;
  return { top: ctx.at.row, left: ctx.at.col, bottom: ctx.at.row, right: ctx.at.col };
}

export const LOOKUP: FunctionTable = {
  INDEX: def(2, 4, index),
  MATCH: def(2, 3, match),
  XMATCH: def(2, 4, xmatch),
  XLOOKUP: def(3, 6, xlookup),
  VLOOKUP: def(3, 4, vlookup(true)),
  HLOOKUP: def(3, 4, vlookup(false)),
  ROWS: def(1, 1, (args, ctx) => (isRef(args[0]) ? args[0].bottom - args[0].top + 1 : gridArg(args[0], ctx).length)),
  COLUMNS: def(1, 1, (args, ctx) => (isRef(args[0]) ? args[0].right - args[0].left + 1 : cols(gridArg(args[0], ctx)))),
  ROW: def(0, 1, (args, ctx) => refArg(args, ctx).top),
  COLUMN: def(0, 1, (args, ctx) => refArg(args, ctx).left),
};

