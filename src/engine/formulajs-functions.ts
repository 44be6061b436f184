/**
 * Every other worksheet function @formulajs/formulajs (MIT) implements: math,
 * text, financial, engineering and the remaining statistics. Arguments go in
 * as its functions expect them (numbers, text, 2-D arrays, Error objects for
 * errors); what comes back is turned into cell values. A function meant for
 * one value is lifted over an array argument, as Excel does.
 */
import * as formulajs from '@formulajs/formulajs';
import { format as formatNumber } from 'numfmt';
import { def, lifted, type Context, type FunctionDef } from './function-def';
import { serial1900, serialToFormat, workbookSerial, type DateSystem } from './date-system';
import { NUM, finite, isErrorValue, isGrid, isOmitted, mapGrid, plain, serialOf, toNumber, toText, xlError, type ErrorValue, type Grid, type Result, type Value } from './values';

/** An error handed to formulajs: its code as the message (formulajs compares messages), ours kept beside it. */
class CellErrorObject extends Error {
  constructor(readonly value: ErrorValue) {
    super(value.error);
  }
}

const toJs = (v: Value): unknown => {
  const x = plain(v);
  return isErrorValue(x) ? new CellErrorObject(x) : x;
};

function fromJs(r: unknown): Value | Grid {
  if (r instanceof CellErrorObject) return r.value;
  if (r instanceof Error) return xlError(r.message.startsWith('#') ? r.message : '#VALUE!');
  if (typeof r === 'number') return Number.isNaN(r) ? xlError('#NUM!') : finite(r);
  if (typeof r === 'string' || typeof r === 'boolean') return r;
  if (r instanceof Date) return Number.isNaN(r.getTime()) ? xlError('#VALUE!') : serialOf(r.getTime() - r.getTimezoneOffset() * 60_000);
  if (Array.isArray(r)) {
    const rows = r.map((row) => (Array.isArray(row) ? row : [row]));
    return rows.map((row) => row.map((c) => { const v = fromJs(c); return isGrid(v) ? v[0][0] : v; }));
  }
  return r === null || r === undefined ? 0 : xlError('#VALUE!');
}

/**
 * Functions of single values, lifted over arrays. The others (NPV, IRR,
 * CORREL, TEXTJOIN...) take their ranges whole.
 */
const SCALAR = new Set(
  `ABS ACOS ACOSH ASIN ASINH ATAN ATAN2 ATANH CEILING CEILING.MATH CHAR CLEAN CODE COS COSH DEGREES DOLLAR EVEN EXACT EXP FACT
  FIND FIXED FLOOR FLOOR.MATH INT ISEVEN ISODD LEFT LEN LN LOG LOG10 LOWER MID MOD MROUND ODD POWER PROPER QUOTIENT RADIANS
  REPLACE REPT RIGHT ROUND ROUNDDOWN ROUNDUP SEARCH SIGN SIN SINH SQRT SUBSTITUTE TAN TANH TRIM TRUNC UPPER NUMBERVALUE
  PMT FV PV NPER RATE IPMT PPMT EFFECT NOMINAL`.split(/\s+/),
);

/**
 * Those of them whose every argument is a number. Excel reads a text argument
 * of theirs by its one rule (=SQRT("1,000"), =ROUND("$1.5",0), =ABS("-5%")),
 * TRUE as 1 and a blank as 0, where formulajs reads only JavaScript's numbers;
 * so their arguments are made numbers here first (values.ts toNumber). Text
 * that is no number is #VALUE!, as in Excel.
 */
const NUMERIC_ARGUMENTS = new Set(
  `ABS ACOS ACOSH ASIN ASINH ATAN ATAN2 ATANH CEILING CEILING.MATH CHAR COS COSH DEGREES EVEN EXP FACT FLOOR FLOOR.MATH INT
  ISEVEN ISODD LN LOG LOG10 MOD MROUND ODD POWER QUOTIENT RADIANS ROUND ROUNDDOWN ROUNDUP SIGN SIN SINH SQRT TAN TANH TRUNC
  PMT FV PV NPER RATE IPMT PPMT EFFECT NOMINAL`.split(/\s+/),
);

const fjs = formulajs as unknown as Record<string, unknown>;

function formulajsFunction(name: string): ((...args: unknown[]) => unknown) | undefined {
  const direct = Object.hasOwn(fjs, name) ? fjs[name] : undefined;
  if (typeof direct === 'function') return direct as (...args: unknown[]) => unknown;
  // Dotted names live on objects: PERCENTILE.INC is PERCENTILE.INC, NORM.S.DIST is NORM.S.DIST.
  let v: unknown = fjs;
  for (const part of name.split('.')) {
    if (typeof v !== 'object' && typeof v !== 'function') return undefined;
    if (v === null || !Object.hasOwn(v as object, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return typeof v === 'function' && name.includes('.') ? (v as (...args: unknown[]) => unknown) : undefined;
}

function call(f: (...args: unknown[]) => unknown, args: unknown[]): Value | Grid {
  try {
    return fromJs(f(...args));
  } catch {
    return xlError('#VALUE!');
  }
}

/**
 * A number as numfmt formats it: numfmt reads dates in the 1900 system only
 * (its README: "it does not support the 1904 date system"), so a 1904
 * workbook's serial under a date format is first its 1900 one.
 */
function formatted(code: string, n: number, system: DateSystem): string {
  return formatNumber(code, serialToFormat(code, n, system));
}

/** TEXT(value, format_text) with Excel's format codes (numfmt, MIT). */
const TEXT: FunctionDef = def(2, 2, (args, ctx) =>
  lifted([ctx.value(args[0]), ctx.value(args[1])], ([v, f]) => {
    const code = toText(f);
    if (typeof code !== 'string') return code;
    const x = plain(v);
    if (isErrorValue(x)) return x;
    const n = typeof x === 'number' ? x : toNumber(x, ctx.dateSystem);
    try {
      return typeof n === 'number' ? formatted(code, n, ctx.dateSystem) : formatNumber(code, x ?? '');
    } catch {
      return xlError('#VALUE!', `TEXT: not a number format: ${code}`);
    }
  }),
);

/**
 * formulajs's functions that take or return dates, which read and return
 * 1900-system serials: the positions of their date parameters (holidays and
 * XIRR's and XNPV's schedules of dates included), and whether the result is a
 * date. Excel reads and returns the workbook's own serials. The positions are
 * the date arguments in each function's syntax on Microsoft's page for it
 * (support.microsoft.com/excel/functions/<name>-function; xnpv-function:
 * "XNPV(rate, values, dates)"). These are all of formulajs 4.6's functions that read a date
 * (parseDate) and that the engine does not define itself (dates.ts: DATE,
 * YEAR, EDATE, DAYS...; text-conversions.ts: DATEVALUE, TIMEVALUE;
 * treasury-bills.ts: TBILLPRICE, TBILLYIELD, TBILLEQ, which formulajs counts
 * 30/360; accrued-interest.ts: ACCRINT, whose first_interest and calc_method
 * formulajs ignores), but its undotted NETWORKDAYSINTL and WORKDAYINTL, which are no
 * Excel names; it has no ACCRINTM, COUPNCD, PRICE, YIELD, ODDFPRICE,
 * DURATION..., which stay #NAME?.
 */
const DATE_PARAMETERS: Readonly<Record<string, { dates: readonly number[]; returnsDate?: true }>> = {
  WEEKNUM: { dates: [0] },
  ISOWEEKNUM: { dates: [0] },
  DATEDIF: { dates: [0, 1] },
  DAYS360: { dates: [0, 1] },
  YEARFRAC: { dates: [0, 1] },
  NETWORKDAYS: { dates: [0, 1, 2] },
  'NETWORKDAYS.INTL': { dates: [0, 1, 3] },
  WORKDAY: { dates: [0, 2], returnsDate: true },
  'WORKDAY.INTL': { dates: [0, 3], returnsDate: true },
  COUPDAYS: { dates: [0, 1] },
  DISC: { dates: [0, 1] },
  PRICEDISC: { dates: [0, 1] },
  XIRR: { dates: [1] },
  XNPV: { dates: [2] },
};

/** A date argument's cell as formulajs reads it: a 1900-system serial; text that is no date is left for formulajs to refuse. */
function day1900(v: Value, system: DateSystem): Value {
  const x = plain(v);
  const n = typeof x === 'number' || typeof x === 'string' ? toNumber(x, system) : x;
  return typeof n === 'number' ? (serial1900(n, system) ?? NUM) : v;
}

/** formulajs's function, its date arguments and dated result in the workbook's date system. */
function inDateSystem(name: string, fn: FunctionDef['fn']): FunctionDef['fn'] {
  const params = DATE_PARAMETERS[name];
  if (!params) return fn;
  return (args, ctx) => {
    const dated = args.map((a, i) => (params.dates.includes(i) && !isOmitted(a) ? mapGrid(ctx.value(a), (v) => day1900(v, ctx.dateSystem)) : a));
    const r = fn(dated, ctx);
    return params.returnsDate ? mapGrid(r as Value | Grid, (v) => (typeof v === 'number' ? (workbookSerial(v, ctx.dateSystem) ?? NUM) : v)) : r;
  };
}

export function formulajsDef(name: string): FunctionDef | undefined {
  if (name === 'TEXT') return TEXT;
  const f = formulajsFunction(name);
  if (!f) return undefined;
  const scalar = SCALAR.has(name);
  const numeric = NUMERIC_ARGUMENTS.has(name);
  return def(undefined, undefined, inDateSystem(name, (args: Result[], ctx: Context) => {
    const values = args.map((a) => (isOmitted(a) ? undefined : ctx.value(a)));
    if (scalar) {
      return lifted(values.map((v) => v ?? null), (cellValues) => {
        const err = cellValues.find((x) => isErrorValue(plain(x)));
        if (err !== undefined) return err;
        const xs = numeric ? cellValues.map((x, i) => (values[i] === undefined ? x : toNumber(x, ctx.dateSystem))) : cellValues;
        const bad = xs.findIndex((x) => isErrorValue(x));
        if (bad >= 0) {
          const text = plain(cellValues[bad]);
          return typeof text === 'string' ? xlError('#VALUE!', `${name}: ${JSON.stringify(text)} is not a number`) : xs[bad];
        }
        const r = call(f, xs.map((x, i) => (values[i] === undefined ? undefined : toJs(x))));
        return isGrid(r) ? r[0][0] : r;
      });
    }
    // Excel propagates an error given as a single value.
    const err = values.find((v) => v !== undefined && !isGrid(v) && isErrorValue(plain(v)));
    if (err !== undefined) return err as Value;
    return call(f, values.map((v) => (v === undefined ? undefined : isGrid(v) ? v.map((row) => row.map(toJs)) : toJs(v))));
  }));
}
