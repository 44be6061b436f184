/**
 * Reading formula arguments the way Excel hands them over: omitted optional
 * arguments arrive as null; an empty cell as null (Excel on the web, newer
 * desktop builds) or as 0 (older desktop builds, also inside ranges and
 * repeating arguments: office-js#4702, #5262, #1951); dates as serial numbers
 * in the workbook's date system, or text; on CustomFunctionsRuntime 1.4 a
 * data-type cell as its object (the generated functions.json sets
 * allowCustomDataForDataTypeAny). A bad argument is #VALUE! naming the allowed values.
 * Date arguments (spans, ranges, a day) are read by span-args.ts.
 *
 * The blank rule: where 0 is not a value an argument takes (a coin, a date, a
 * text, a field name, a choice without a 0), a 0 is read as not given, so a
 * blank cell means the same on every build. Numbers keep their 0: a count of 0
 * is #VALUE! naming the range and the 0, since a typed 0 is a mistake to show,
 * not to cover. Where 0 is a value (headers: STOCKHISTORY's 0 hides the header
 * row; TRUE/FALSE; OHLCV's fields, where 0 is Date) a blank cell on an older
 * desktop build cannot be told from a typed 0.
 */
import { quotedOr } from '../api/words';
import { invalidValue } from './cells';
import { coinFromDataType, describeDataType, isDataType } from './data-type-arg';

export type Arg = unknown;

/** Empty: omitted, a blank cell on the web and newer builds, or empty text. */
export const isBlank = (v: Arg) => v === null || v === undefined || v === '';
/** Not given where 0 is not a value the argument takes (see the blank rule above). */
export const notGiven = (v: Arg) => isBlank(v) || v === 0;
/**
 * notGiven, for a parameter typed "string" in functions.json (every custom enum, currency and field):
 * there the 0 of a blank cell on an older desktop build is converted to the parameter's type and may
 * arrive as "0" (docs/preview-runtime.md, "Blank cells": the preview's model, a guess where Excel's
 * pages are silent). No text, field name or currency code is "0".
 */
export const notGivenText = (v: Arg) => notGiven(v) || v === '0';

/**
 * A single value from a possibly 1x1 range. A basic value that arrived as a
 * data-type object (a formatted number, a string, a boolean) is its basicValue.
 */
export function scalar(v: Arg): Arg {
  if (Array.isArray(v)) {
    if (v.length === 1 && Array.isArray(v[0]) && v[0].length === 1) v = v[0][0];
    else if (v.length === 1 && !Array.isArray(v[0])) v = v[0];
  }
  return basicValueOf(v);
}

/** Excel's basic cell values as objects (DoubleCellValue, FormattedNumberCellValue, StringCellValue, BooleanCellValue). */
const BASIC_TYPES = new Set(['Double', 'FormattedNumber', 'String', 'Boolean']);
function basicValueOf(v: Arg): Arg {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const o = v as { type?: unknown; basicValue?: unknown };
  return typeof o.type === 'string' && BASIC_TYPES.has(o.type) && 'basicValue' in o ? o.basicValue : v;
}

/** No slug, symbol or name is longer; longer text is not a coin (and is not worth a fuzzy match). */
export const MAX_COIN_TEXT = 100;

/** A coin: id (number), or id/slug/symbol/name text, or a data type that names one. */
export function coinArg(v: Arg, name = 'coin'): string | number {
  v = scalar(v);
  if (isDataType(v)) return coinFromDataType(v, name);
  if (v === 0) v = null; // a blank cell on older desktop builds: no coin is 0
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v > 0) return v;
    throw invalidValue(`${name} as a number is a coin id, a positive whole number; got ${shown(v)}`);
  }
  if (typeof v === 'string' && v.trim() !== '') {
    const text = v.trim();
    if (text.length > MAX_COIN_TEXT) throw invalidValue(`${name} must be a coin id, slug, symbol or name of at most ${MAX_COIN_TEXT} characters; got ${text.length}`);
    return text;
  }
  if (isBlank(v)) throw invalidValue(`${name} is required: a coin id, slug, symbol or name, e.g. "bitcoin" or "BTC"`);
  throw invalidValue(`${name} must be a coin id, slug, symbol or name, e.g. "bitcoin" or "BTC"; got ${shown(v)}`);
}

/** A value as an error message shows it: short, and never an object's insides. */
export function shown(v: Arg): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : JSON.stringify(String(v));
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return 'a range';
  if (isDataType(v)) return describeDataType(v);
  return 'an error or unsupported value';
}

/** Longer text is a paste gone wrong, not a name or a query. */
export const MAX_TEXT = 200;

/** Text argument; null when omitted. A range or an error value is #VALUE! naming the argument. */
export function textArg(v: Arg, name: string): string | null {
  v = scalar(v);
  if (notGivenText(v)) return null;
  if (Array.isArray(v)) throw invalidValue(`${name} takes one value; got ${shown(v)}`);
  if (typeof v === 'object' && !(v instanceof Date)) throw invalidValue(`${name} must be text; got ${shown(v)}`);
  const text = String(v).trim();
  if (text.length > MAX_TEXT) throw invalidValue(`${name} must be at most ${MAX_TEXT} characters; got ${text.length}`);
  return text;
}

/**
 * One of a fixed set of values, matched case-insensitively. `choices` maps
 * every accepted spelling to its canonical value; `allowed` is what the error
 * lists.
 */
export function choiceArg<T>(v: Arg, name: string, choices: Readonly<Record<string, T>>, fallback: NoInfer<T> | undefined, allowed?: string): T {
  v = scalar(v);
  // A 0 is a blank on older desktop builds, unless 0 is a choice (STOCKHISTORY's interval 0, daily).
  // A parameter with a custom enum is typed "string", so the 0 may arrive as "0".
  if (isBlank(v) || ((v === 0 || v === '0') && !Object.hasOwn(choices, '0'))) {
    if (fallback !== undefined) return fallback;
    throw invalidValue(`${name} is required: ${allowed ?? listChoices(choices)}`);
  }
  if (typeof v === 'object') throw invalidValue(`${name} must be ${allowed ?? listChoices(choices)}; got ${shown(v)}`);
  const key = String(v).trim().toLowerCase();
  if (Object.hasOwn(choices, key)) return choices[key];
  throw invalidValue(`${name} must be ${allowed ?? listChoices(choices)}; got ${shown(v)}`);
}
function listChoices(choices: Readonly<Record<string, unknown>>): string {
  return Object.keys(choices).map((k) => `"${k}"`).join(', ');
}

/** Choices where each canonical value is accepted as itself. */
export function choicesOf<const T extends string>(values: readonly T[]): Record<string, T> {
  return Object.fromEntries(values.map((x) => [x.toLowerCase(), x])) as Record<string, T>;
}

export function boolArg(v: Arg, name: string, fallback: boolean): boolean {
  v = scalar(v);
  if (isBlank(v)) return fallback;
  if (typeof v === 'boolean') return v;
  if (v === 0 || v === 1) return v === 1;
  const s = String(v).trim().toLowerCase();
  if (['true', '1', 'yes'].includes(s)) return true;
  if (['false', '0', 'no'].includes(s)) return false;
  throw invalidValue(`${name} must be TRUE/FALSE or 1/0; got ${shown(v)}`);
}

/**
 * Headers argument: 0 none, 1 show (default); STOCKHISTORY's 2 (show with identifier) is read as 1.
 * `misplaced`: what to say instead of "must be TRUE/FALSE" when the value is not a headers value but
 * reads as another argument's (a start date where a formula takes headers before start); null when it does not.
 */
export function headersArg(v: Arg, fallback = true, misplaced?: (v: Arg) => string | null): boolean {
  v = scalar(v);
  if (v === 2 || v === '2') return true;
  try {
    return boolArg(v, 'headers', fallback);
  } catch (e) {
    const say = misplaced?.(v);
    throw say ? invalidValue(say) : e;
  }
}

export function intArg(v: Arg, name: string, min: number, max: number, fallback: number | undefined): number {
  v = scalar(v);
  if (isBlank(v)) {
    if (fallback !== undefined) return fallback;
    throw invalidValue(`${name} is required: a whole number from ${min} to ${max}`);
  }
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (!Number.isInteger(n) || n < min || n > max) {
    throw invalidValue(`${name} must be a whole number from ${min} to ${max}; got ${shown(v)}`);
  }
  return n;
}

export function numberArg(v: Arg, name: string, fallback: number | undefined): number | undefined {
  v = scalar(v);
  if (isBlank(v)) return fallback;
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (!Number.isFinite(n)) throw invalidValue(`${name} must be a number; got ${shown(v)}`);
  return n;
}

/**
 * A currency: an ISO 4217 code, any case ("usd", "GBP"), upper-cased. Whether the fiat list
 * has it is checked where it is used (currency.ts), since that takes a request.
 */
/** The codes a currency argument's message and AutoComplete list (src/functions' Currency enums) suggest; any fiat code of the provider's list is taken. */
export const SUGGESTED_CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY'] as const;

/** A three-letter currency code, upper case; `suggested` are the codes its message names (history formulas name only the ones they take). */
export function currencyArg(v: Arg, fallback: string, suggested: readonly string[] = SUGGESTED_CURRENCIES): string {
  v = scalar(v);
  if (notGivenText(v)) return fallback;
  const code = typeof v === 'string' ? v.trim().toUpperCase() : '';
  if (!/^[A-Z]{3}$/.test(code)) throw invalidValue(`currency must be a three-letter currency code such as ${quotedOr(suggested)}; got ${shown(v)}`);
  return code;
}

/** A field name from a record, matched case-insensitively. */
export function fieldArg<T extends string>(v: Arg, fields: readonly T[], name = 'field'): T | null {
  v = scalar(v);
  if (notGivenText(v)) return null; // no field is named 0
  if (typeof v === 'object') throw invalidValue(`${name} must be one of: ${fields.join(', ')}; got ${shown(v)}`);
  const key = String(v).trim().toLowerCase();
  const hit = fields.find((f) => f.toLowerCase() === key);
  if (hit) return hit;
  throw invalidValue(`${name} must be one of: ${fields.join(', ')}; got ${shown(v)}`);
}

/**
 * Every cell of a range of coins, flattened, blanks kept as null (a spilled
 * answer lines up with them). No coin is 0: a 0 is a blank on older desktop builds.
 */
export function flatCells(v: Arg): Arg[] {
  const cells = Array.isArray(v) ? v.flat(2) : [v];
  return cells.map((x) => (notGiven(basicValueOf(x)) ? null : x));
}

/**
 * Every value of a range or repeating argument, flattened, blanks dropped;
 * with `zeroIsBlank` (a list where 0 is no value, such as QUOTE's field names)
 * the 0s older desktop builds pass for blank cells too.
 */
export function flatValues(v: Arg, opts: { zeroIsBlank?: boolean } = {}): Arg[] {
  const blank = opts.zeroIsBlank ? notGiven : isBlank;
  const cells = Array.isArray(v) ? v.flat(2) : [v];
  return cells.map(basicValueOf).filter((x) => !blank(x));
}
