/**
 * What the formula engine computes with: Excel's values (numbers, text,
 * booleans, blank, errors), formatted numbers as custom functions return them
 * on CustomFunctionsRuntime 1.4, arrays, and references (a cell or range,
 * read only when a function needs its values). Coercions follow Excel's rules
 * for operators; each rule names its source.
 */
import { isEntityValue, isErrorValue, isFormattedNumber, type EntityValue, type ErrorValue, type FormattedNumberValue } from '../preview/runtime/values';
import type { DateSystem } from './date-system';
import { numberFromText } from './text-numbers';

export { isEntityValue, isErrorValue, isFormattedNumber, type EntityValue, type ErrorValue, type FormattedNumberValue };
export { numberFromText };

export type Scalar = number | string | boolean | null;
/** An entity (a data type) is a value of its own: its fields are read with `A1.Price`; operators see #VALUE!. */
export type Value = Scalar | ErrorValue | FormattedNumberValue | EntityValue;
export type Grid = Value[][];
/** A rectangle of cells, 1-based and inclusive. */
export interface Ref {
  kind: 'ref';
  top: number;
  left: number;
  bottom: number;
  right: number;
}
/** An argument left out: `F(1,,3)`. */
export const OMITTED = Object.freeze({ kind: 'omitted' as const });
export type Omitted = typeof OMITTED;
export type Result = Value | Grid | Ref | Omitted;

export const isRef = (r: unknown): r is Ref => typeof r === 'object' && r !== null && (r as Ref).kind === 'ref';
export const isOmitted = (r: unknown): r is Omitted => r === OMITTED;
export const isGrid = (r: unknown): r is Grid => Array.isArray(r);

export const xlError = (error: string, message?: string): ErrorValue => (message ? { error, message } : { error });

/**
 * Excel's error codes and what each means, for a cell (or the CLI) whose error
 * has no message of its own. Wording after Microsoft's "How to correct a #…
 * error" pages (support.microsoft.com).
 */
export const ERROR_MEANINGS: Readonly<Record<string, string>> = {
  '#N/A': 'A value is not available to the formula.',
  '#VALUE!': 'A value in the formula is of the wrong type.',
  '#REF!': 'The formula refers to a cell that is not valid.',
  '#NAME?': 'The formula contains text that is not a known function or name.',
  '#DIV/0!': 'The formula divides by zero or by an empty cell.',
  '#NUM!': 'The formula gives a number that is not valid or too large.',
  '#NULL!': 'The ranges in the formula do not intersect.',
  '#CALC!': 'The calculation engine cannot compute this formula (an empty array, for instance).',
  '#SPILL!': 'The result would spill over cells that are not blank.',
  '#BUSY!': 'The add-in is still calculating this value.',
  '#FIELD!': 'The field is not in the data type, or the cell is not a data type.',
};

export const errorMessage = (e: ErrorValue): string => e.message || ERROR_MEANINGS[e.error] || e.error;

export const DIV0 = Object.freeze(xlError('#DIV/0!'));
export const VALUE = Object.freeze(xlError('#VALUE!'));
export const NA = Object.freeze(xlError('#N/A'));
export const NUM = Object.freeze(xlError('#NUM!'));

/**
 * A formatted number is its basicValue to everything but the grid; an entity is
 * #VALUE!, its basicValue (Excel.EntityCellValue: basicValue "#VALUE!").
 */
export const plain = (v: Value): Scalar | ErrorValue => (isFormattedNumber(v) ? v.basicValue : isEntityValue(v) ? VALUE : v);

export function finite(n: number): number | ErrorValue {
  if (!Number.isFinite(n)) return NUM;
  return n === 0 ? 0 : n; // no -0 in a cell
}

const EPOCH_MS = Date.UTC(1899, 11, 30);
import { DAY_MS } from '../api/utc-day';
export const serialOf = (ms: number) => (ms - EPOCH_MS) / DAY_MS;
export const msOf = (serial: number) => EPOCH_MS + Math.round(serial * DAY_MS);

/** A value as an operator's number: blank is 0, TRUE is 1, text Excel reads as a number its number (text-numbers.ts), other text #VALUE!. */
export function toNumber(v: Value | Omitted, system: DateSystem): number | ErrorValue {
  if (v === null || v === OMITTED) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const n = numberFromText(v, system);
    return n === null ? VALUE : n;
  }
  if (isFormattedNumber(v)) return v.basicValue;
  if (isEntityValue(v)) return VALUE;
  return v as ErrorValue;
}

/** A number as Excel writes it into text (`=1/3&""`): up to 15 significant digits, no trailing zeros. */
export function numberText(n: number): string {
  if (n === 0) return '0';
  const abs = Math.abs(n);
  if (abs >= 1e21 || abs < 1e-9) return n.toExponential(14).replace(/\.?0+e/, 'E').replace('E+', 'E+');
  return String(Number(n.toPrecision(15)));
}

export function toText(v: Value | Omitted): string | ErrorValue {
  if (v === null || v === OMITTED) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (isFormattedNumber(v)) return numberText(v.basicValue);
  if (isEntityValue(v)) return VALUE;
  return v as ErrorValue;
}

export function toBoolean(v: Value | Omitted): boolean | ErrorValue {
  if (v === null || v === OMITTED) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') {
    if (/^true$/i.test(v.trim())) return true;
    if (/^false$/i.test(v.trim())) return false;
    return VALUE;
  }
  if (isFormattedNumber(v)) return v.basicValue !== 0;
  if (isEntityValue(v)) return VALUE;
  return v as ErrorValue;
}

/** Excel's order for comparisons and sorting: numbers < text < FALSE < TRUE; text without regard to case. */
export function compareValues(a: Scalar, b: Scalar): number {
  // A blank compares as 0, "" or FALSE, whichever the other side is.
  if (a === null) a = typeof b === 'string' ? '' : typeof b === 'boolean' ? false : 0;
  if (b === null) b = typeof a === 'string' ? '' : typeof a === 'boolean' ? false : 0;
  const rank = (x: Scalar) => (typeof x === 'number' ? 0 : typeof x === 'string' ? 1 : 2);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'string') {
    const x = a.toLowerCase();
    const y = (b as string).toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

export function cols(g: Grid): number {
  return g.length ? g[0].length : 0;
}

/** Applies f over a value or each cell of an array. */
export function mapGrid(v: Value | Grid, f: (x: Value) => Value): Value | Grid {
  return isGrid(v) ? v.map((r) => r.map(f)) : f(v);
}

/**
 * Element by element over two operands, as Excel's operators and lifted
 * functions do: an array meets a single value cell by cell; a one-row or
 * one-column array is stretched; cells outside the smaller array are #N/A.
 */
export function zip2(a: Value | Grid, b: Value | Grid, f: (x: Value, y: Value) => Value): Value | Grid {
  if (!isGrid(a) && !isGrid(b)) return f(a, b);
  const ga = isGrid(a) ? a : [[a]];
  const gb = isGrid(b) ? b : [[b]];
  const h = Math.max(ga.length, gb.length);
  const w = Math.max(cols(ga), cols(gb));
  const at = (g: Grid, r: number, c: number): Value | undefined => {
    const rr = g.length === 1 ? 0 : r;
    const cc = g[0].length === 1 ? 0 : c;
    return rr < g.length && cc < g[0].length ? g[rr][cc] : undefined;
  };
  const out: Grid = [];
  for (let r = 0; r < h; r++) {
    const row: Value[] = [];
    for (let c = 0; c < w; c++) {
      const x = at(ga, r, c);
      const y = at(gb, r, c);
      row.push(x === undefined || y === undefined ? NA : f(x, y));
    }
    out.push(row);
  }
  return out;
}
