/**
 * Reading formula arguments the way Excel hands them over: omitted optional
 * arguments arrive as null, an empty cell as null (web) or 0 (desktop), dates
 * as serial numbers or text. A bad argument is #VALUE! naming the allowed values.
 */
import { fromSerial, invalidValue } from './cells';

export type Arg = unknown;

const isBlank = (v: Arg) => v === null || v === undefined || v === '';

/** A single value from a possibly 1x1 range. */
export function scalar(v: Arg): Arg {
  if (Array.isArray(v)) {
    if (v.length === 1 && Array.isArray(v[0]) && v[0].length === 1) return v[0][0];
    if (v.length === 1 && !Array.isArray(v[0])) return v[0];
  }
  return v;
}

/** No slug, symbol or name is longer; longer text is not a coin (and is not worth a fuzzy match). */
export const MAX_COIN_TEXT = 100;

/** A coin: id (number), or id/slug/symbol/name text. */
export function coinArg(v: Arg, name = 'coin'): string | number {
  v = scalar(v);
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
  return 'an error or unsupported value';
}

/** Longer text is a paste gone wrong, not a name or a query. */
export const MAX_TEXT = 200;

/** Text argument; null when omitted. A range or an error value is #VALUE! naming the argument. */
export function textArg(v: Arg, name: string): string | null {
  v = scalar(v);
  if (isBlank(v)) return null;
  if (typeof v === 'object' && !(v instanceof Date)) throw invalidValue(`${name} takes one value; got ${shown(v)}`);
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
  if (isBlank(v)) {
    if (fallback !== undefined) return fallback;
    throw invalidValue(`${name} is required: ${allowed ?? listChoices(choices)}`);
  }
  const key = String(v).trim().toLowerCase();
  if (key in choices) return choices[key];
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

/** Headers argument: 0 none, 1 show (default); STOCKHISTORY's 2 (show with identifier) is read as 1. */
export function headersArg(v: Arg, fallback = true): boolean {
  v = scalar(v);
  if (v === 2 || v === '2') return true;
  return boolArg(v, 'headers', fallback);
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
export function currencyArg(v: Arg, fallback: string): string {
  v = scalar(v);
  if (isBlank(v)) return fallback;
  const code = typeof v === 'string' ? v.trim().toUpperCase() : '';
  if (!/^[A-Z]{3}$/.test(code)) throw invalidValue(`currency must be a three-letter currency code such as "USD", "EUR", "GBP" or "JPY"; got ${shown(v)}`);
  return code;
}

// ---------------------------------------------------------------- dates

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const startOfUtcDay = (ms: number) => Math.floor(ms / DAY) * DAY;

/** A span of time [start, end) that a date argument denotes. */
export interface Span {
  start: number;
  end: number;
}

const DATE_HELP =
  'a date (an Excel date, "2024-03-15"), a period ("2024", "2024Q1", "2024-03") or a look-back ("30D", "12W", "6M", "1Y")';

/**
 * A date argument as the span it denotes: an Excel serial date or ISO text is
 * that UTC day; "2024" the year, "2024Q1" the quarter, "2024-03" the month;
 * "30D"/"12W"/"6M"/"1Y" the span from that long ago until now.
 */
export function spanArg(v: Arg, name: string, now: number): Span | null {
  v = scalar(v);
  if (isBlank(v)) return null;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 1 || v > 2_958_465) throw invalidValue(`${name} must be ${DATE_HELP}`);
    const start = startOfUtcDay(fromSerial(v));
    if (start < 0) throw invalidValue(`${name} must be a date from 1970 on; got ${isoDay(start)}`);
    return { start, end: start + DAY };
  }
  if (v instanceof Date) {
    const start = startOfUtcDay(v.getTime());
    return { start, end: start + DAY };
  }
  const s = String(v).trim().toUpperCase();
  let m: RegExpMatchArray | null;
  if ((m = s.match(/^(\d{4})$/))) {
    const y = Number(m[1]);
    return { start: Date.UTC(y, 0, 1), end: Date.UTC(y + 1, 0, 1) };
  }
  if ((m = s.match(/^(\d{4})-?Q([1-4])$/))) {
    const y = Number(m[1]), q = Number(m[2]) - 1;
    return { start: Date.UTC(y, q * 3, 1), end: Date.UTC(y, q * 3 + 3, 1) };
  }
  if ((m = s.match(/^(\d{4})-(\d{1,2})$/))) {
    const y = Number(m[1]), mo = Number(m[2]) - 1;
    if (mo < 0 || mo > 11) throw invalidValue(`${name} must be ${DATE_HELP}; got ${shown(v)}`);
    return { start: Date.UTC(y, mo, 1), end: Date.UTC(y, mo + 1, 1) };
  }
  if ((m = s.match(/^(\d{1,4})\s*([DWMY])$/))) {
    const n = Number(m[1]);
    const d = new Date(now);
    if (m[2] === 'D') d.setTime(now - n * DAY);
    else if (m[2] === 'W') d.setTime(now - n * 7 * DAY);
    else if (m[2] === 'M') d.setUTCMonth(d.getUTCMonth() - n);
    else d.setUTCFullYear(d.getUTCFullYear() - n);
    return { start: startOfUtcDay(d.getTime()), end: now };
  }
  if ((m = s.match(/^(\d{4})-(\d{2})-(\d{2})/))) {
    // Date.parse rolls 2024-02-30 over into March: a day the month lacks is a mistake, not a date.
    const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
    if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) {
      throw invalidValue(`${name} is not a date that exists; got ${shown(v)}`);
    }
    const ms = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
    if (Number.isFinite(ms)) {
      const start = startOfUtcDay(ms);
      return { start, end: start + DAY };
    }
  }
  throw invalidValue(`${name} must be ${DATE_HELP}; got ${shown(v)}`);
}

/** A start/end pair: start from the start's span, end from the end's span (default: now). */
export function rangeArgs(start: Arg, end: Arg, now: number, defaultStart?: (now: number) => number): Span {
  const a = spanArg(start, 'start', now);
  const b = spanArg(end, 'end', now);
  const from = a ? a.start : defaultStart ? defaultStart(now) : null;
  if (from === null) throw invalidValue(`start is required: ${DATE_HELP}`);
  if (from > now) throw invalidValue(`start must not be in the future; got ${isoDay(from)}`);
  // A single period given as start alone ("2024") means that whole period.
  const to = b ? Math.min(b.end, now) : a && isBlank(scalar(end)) && a.end < now && isPeriodText(start) ? a.end : now;
  if (to <= from) throw invalidValue(`end must be after start; got start ${isoDay(from)}, end ${isoDay(to - 1)}`);
  return { start: from, end: to };
}
function isPeriodText(v: Arg): boolean {
  v = scalar(v);
  return typeof v === 'string' && /^\s*\d{4}(-?Q[1-4]|-\d{1,2})?\s*$/i.test(v);
}

/** A single point in time (HISTORICAL's date): the start of the day given. */
export function dateArg(v: Arg, name: string, now: number): number {
  const span = spanArg(v, name, now);
  if (!span) throw invalidValue(`${name} is required: ${DATE_HELP}`);
  return span.start;
}

/** A field name from a record, matched case-insensitively. */
export function fieldArg<T extends string>(v: Arg, fields: readonly T[], name = 'field'): T | null {
  v = scalar(v);
  if (isBlank(v)) return null;
  const key = String(v).trim().toLowerCase();
  const hit = fields.find((f) => f.toLowerCase() === key);
  if (hit) return hit;
  throw invalidValue(`${name} must be one of: ${fields.join(', ')}; got ${shown(v)}`);
}

/** Every cell of a range or repeating argument, flattened, blanks kept as null (a spilled answer lines up with them). */
export function flatCells(v: Arg): Arg[] {
  if (!Array.isArray(v)) return [isBlank(v) ? null : v];
  return v.flat(2).map((x) => (isBlank(x) ? null : x));
}

/** Every value of a range or repeating argument, flattened, blanks dropped. */
export function flatValues(v: Arg): Arg[] {
  if (!Array.isArray(v)) return isBlank(v) ? [] : [v];
  return v.flat(2).filter((x) => !isBlank(x));
}
