/**
 * Lookup, reference and dynamic-array functions: INDEX, MATCH, XMATCH,
 * XLOOKUP, VLOOKUP, HLOOKUP, FILTER, SORT, SORTBY, UNIQUE, SEQUENCE, TRANSPOSE,
 * TAKE, DROP, ROWS, COLUMNS, ROW, COLUMN. @formulajs/formulajs 4.6.1 has no
 * XLOOKUP, FILTER or SEQUENCE and sorts numbers as text, so these are written
 * here after Microsoft's pages for each function. Errors in the data are
 * values: they pass through to the result, where Excel passes them.
 */
import { asGrid, booleanArg, def, gridArg, lifted, numberArg, vectorOf, type Context, type FunctionTable } from './function-def';
import { criterion } from './criteria';
import type { DateSystem } from './date-system';
import {
  NA,
  REF,
  VALUE,
  cols,
  compareValues,
  isErrorValue,
  isGrid,
  isOmitted,
  isRef,
  plain,
  toBoolean,
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

function transpose(g: Grid): Grid {
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
  FILTER: def(2, 3, filter),
  SORT: def(1, 4, sort),
  SORTBY: def(2, 255, sortBy),
  UNIQUE: def(1, 3, unique),
  SEQUENCE: def(1, 4, sequence),
  TRANSPOSE: def(1, 1, (args, ctx) => transpose(gridArg(args[0], ctx))),
  TAKE: def(2, 3, slice(true)),
  DROP: def(2, 3, slice(false)),
  ROWS: def(1, 1, (args, ctx) => (isRef(args[0]) ? args[0].bottom - args[0].top + 1 : gridArg(args[0], ctx).length)),
  COLUMNS: def(1, 1, (args, ctx) => (isRef(args[0]) ? args[0].right - args[0].left + 1 : cols(gridArg(args[0], ctx)))),
  ROW: def(0, 1, (args, ctx) => refArg(args, ctx).top),
  COLUMN: def(0, 1, (args, ctx) => refArg(args, ctx).left),
};

export { NA, REF };
