/**
 * How a worksheet function is declared in the engine's tables, and the
 * argument readers the tables share (Excel's rules for numbers in ranges,
 * lifting a function over an array, the first error winning).
 */
import {
  NA,
  VALUE,
  cols,
  isErrorValue,
  isFormattedNumber,
  isGrid,
  isOmitted,
  isRef,
  numberFromText,
  toBoolean,
  toNumber,
  type ErrorValue,
  type Grid,
  type Result,
  type Value,
} from './values';
import type { DateSystem } from './date-system';

export interface Context {
  /** A result's values: a reference read, an omitted argument blank. */
  value(r: Result): Value | Grid;
  now(): number;
  /** The workbook's date system: the serials date functions read and return (date-system.ts). */
  readonly dateSystem: DateSystem;
  readonly at: { row: number; col: number };
}

export type Thunk = () => Result;

export interface FunctionDef {
  min?: number;
  max?: number;
  fn: (args: Result[], ctx: Context) => Result;
  /** For IF, IFERROR, CHOOSE...: arguments evaluated only when needed. */
  lazy?: (args: Thunk[], ctx: Context) => Result;
}

export type FunctionTable = Readonly<Record<string, FunctionDef>>;

export const def = (min: number | undefined, max: number | undefined, fn: FunctionDef['fn']): FunctionDef => ({ min, max, fn });
export const lazyDef = (min: number, max: number | undefined, lazy: NonNullable<FunctionDef['lazy']>): FunctionDef => ({
  min,
  max,
  lazy,
  fn: () => VALUE,
});

/** A value as a grid: one value is [[v]]. */
export const asGrid = (v: Value | Grid): Grid => (isGrid(v) ? v : [[v]]);

/** A grid's cells, rows then columns. */
export function cells(g: Grid): Value[] {
  const out: Value[] = [];
  for (const r of g) for (const c of r) out.push(c);
  return out;
}

/**
 * The numbers of an aggregate's arguments, by Excel's rule (STDEV.S, AVERAGE,
 * MAX... pages on support.microsoft.com): in a range or array only numbers
 * count (text, logical values and blanks are skipped); a value typed directly
 * counts if it is a number, a logical value or text that reads as a number,
 * and other text is #VALUE!. An error anywhere is the result: "when a formula
 * refers to a cell containing #N/A, the formula returns the #N/A error value"
 * (NA function page).
 */
export function numbersOf(args: Result[], ctx: Context): number[] | ErrorValue {
  const out: number[] = [];
  for (const a of args) {
    if (isOmitted(a)) {
      out.push(0); // SUM(1,) counts the empty argument as 0
      continue;
    }
    const v = ctx.value(a);
    if (isRef(a) || isGrid(v)) {
      for (const c of cells(asGrid(v))) {
        if (typeof c === 'number') out.push(c);
        else if (isFormattedNumber(c)) out.push(c.basicValue);
        else if (isErrorValue(c)) return c;
      }
      continue;
    }
    const n = toNumber(v as Value, ctx.dateSystem);
    if (typeof n !== 'number') return n;
    out.push(n);
  }
  return out;
}

/** One number from a scalar argument (or the error it is). */
export function numberArg(r: Result, ctx: Context, fallback?: number): number | ErrorValue {
  if (isOmitted(r) && fallback !== undefined) return fallback;
  const v = ctx.value(r);
  if (isGrid(v)) return toNumber(v[0]?.[0] ?? null, ctx.dateSystem);
  return toNumber(v, ctx.dateSystem);
}

export function booleanArg(r: Result, ctx: Context, fallback: boolean): boolean | ErrorValue {
  if (isOmitted(r)) return fallback;
  const v = ctx.value(r);
  return toBoolean(isGrid(v) ? (v[0]?.[0] ?? null) : v);
}

/** An argument as a grid (a range, an array, or one value). */
export function gridArg(r: Result, ctx: Context): Grid {
  return asGrid(ctx.value(r));
}

/** A one-row or one-column grid as a list, and which way it runs; null when it is neither. */
export function vectorOf(g: Grid): { values: Value[]; byRow: boolean } | null {
  if (g.length === 1) return { values: g[0], byRow: false };
  if (cols(g) === 1) return { values: g.map((r) => r[0]), byRow: true };
  return null;
}

/**
 * Calls `f` once per cell when an argument meant to be one value is an array
 * (Excel lifts such functions: `=ROUND(A1:A3,2)` spills three values).
 */
export function lifted(values: (Value | Grid)[], f: (xs: Value[]) => Value): Value | Grid {
  const grids = values.filter(isGrid) as Grid[];
  if (grids.length === 0) return f(values as Value[]);
  const h = Math.max(...grids.map((g) => g.length));
  const w = Math.max(...grids.map(cols));
  const at = (v: Value | Grid, r: number, c: number): Value | undefined => {
    if (!isGrid(v)) return v;
    const rr = v.length === 1 ? 0 : r;
    const cc = v[0].length === 1 ? 0 : c;
    return rr < v.length && cc < v[0].length ? v[rr][cc] : undefined;
  };
  const out: Grid = [];
  for (let r = 0; r < h; r++) {
    const row: Value[] = [];
    for (let c = 0; c < w; c++) {
      const xs = values.map((v) => at(v, r, c));
      row.push(xs.some((x) => x === undefined) ? NA : f(xs as Value[]));
    }
    out.push(row);
  }
  return out;
}

export { numberFromText };
