/**
 * Excel's one rule for reading text as a number, used wherever the engine
 * needs a number and has text: operators (="1,000"*2), VALUE, DATEVALUE,
 * TIMEVALUE, date and number arguments, criteria, COUNT of a typed value.
 * VALUE's page: text "can be in any of the constant number, date, or time
 * formats recognized by Microsoft Excel. If text is not in one of these
 * formats, VALUE returns the #VALUE! error value", and Excel "automatically
 * converts text to numbers as necessary" (support.microsoft.com/excel/value-function;
 * its examples: "$1,000" is 1000, "16:48:00"-"12:00:00" is 0.2). [MS-OI29500]
 * 2.1.1061: "if string is not formatted using a number, currency, date, or
 * time format, #VALUE! is returned" (learn.microsoft.com/openspecs/office_standards/ms-oi29500/4d0498fc-d6fd-4844-9c3e-82fb61cff764).
 *
 * Locale: en-US is assumed (the add-in's format codes are en-US too). A
 * workbook in another locale reads "1.000,5", "31/12/2024" or "€5" its own
 * way in Excel; here they are no number. That much is a guess for other locales.
 *
 * The forms read, en-US (each from what Excel accepts typed into a cell):
 *   numbers     12  -1.5  .5  1e3  1,000  1,000.25  $1,000  -$5  (1,000)  50%  1 1/2
 *   dates       2024-01-31  2024/1/31  1/31/2024  1/31/24  1-31-2024  1/31
 *               31-Jan-2024  31 Jan 2024  31-Jan  Jan 31, 2024  January 31 2024  Jan-2024
 *   times       12:30  12:30:45  12:30:45.5  12:30 PM  12 PM  25:00 (a duration)
 *   date + time 2024-01-31 12:30  1/31/2024 4:48 PM
 * Two-digit years 00–29 are 2000–2029, 30–99 are 1930–1999 ("How Excel works
 * with two-digit year numbers", learn.microsoft.com/troubleshoot/microsoft-365-apps/excel/two-digit-year-numbers).
 * A date without a year is in the current year (DATEVALUE page: "If the year
 * portion of the date_text argument is omitted, DATEVALUE uses the current
 * year from your computer's built-in clock"); without a day, the month's first
 * (Jan-2024 is 2024-01-01: Excel's reading of "mmm-yyyy", a guess beyond the pages).
 * A day is the workbook's serial (date-system.ts): 2024-01-01 is 45292 in the
 * 1900 system and 43830 in 1904; a day before the system's first is no number.
 * Times are fractions of a day in either system.
 */
import { toSerial } from '../formulas/cells';
import { firstYear, workbookSerial, type DateSystem } from './date-system';

/** What kind of text it was: DATEVALUE wants a day, TIMEVALUE a time. */
export type TextNumberKind = 'number' | 'date' | 'time' | 'date-time';

export interface TextNumber {
  value: number;
  kind: TextNumberKind;
  /** The time written, as a fraction of a day ("25:00" is 1.0417), for a time or a date and time. */
  time?: number;
}

/** Text Excel reads as a number, or null (then #VALUE! wherever a number was needed). `now` (epoch ms) gives a date without a year its year. */
export function numberFromText(s: string, system: DateSystem, now: number = Date.now()): number | null {
  return readText(s, system, now)?.value ?? null;
}

/** numberFromText, and which kind of text it read. */
export function readText(s: string, system: DateSystem, now: number = Date.now()): TextNumber | null {
  // The longest text read here is a number's; past 64 characters (a sentence in a cell COUNTIF scans) none is.
  if (s.length > 64) return null;
  if (SIMPLE_NUMBER.test(s)) return { value: Number(s), kind: 'number' }; // the common case, at once
  const trimmed = s.trim();
  const t = /\s\s/.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
  if (t === '' || !wordsRead(t)) return null;
  const n = plainNumber(t) ?? mixedFraction(t);
  if (n !== null) return { value: n, kind: 'number' };
  const time = timeOfDay(t);
  if (time !== null) return { value: time, kind: 'time', time };
  // A date, alone or followed by a time after a space.
  for (let cut = t.length; cut > 0; cut = t.lastIndexOf(' ', cut - 1)) {
    const day = dayOf(t.slice(0, cut), system, now);
    if (day === null) continue;
    if (cut === t.length) return { value: day, kind: 'date' };
    const at = timeOfDay(t.slice(cut + 1));
    if (at !== null) return { value: day + at, kind: 'date-time', time: at };
  }
  return null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Digits, a point, an exponent: what JavaScript's Number reads as Excel does. */
const SIMPLE_NUMBER = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/** Every word the forms below use: months, AM/PM, an exponent's e. */
const WORDS = new Set(['e', 'a', 'p', 'am', 'pm', 'sept', ...MONTHS, ...MONTH_NAMES]);

/** Whether every word in the text is one of WORDS ("Jan." too): "bitcoin 5" is rejected at once. */
function wordsRead(t: string): boolean {
  const words = t.match(/[a-z]+/gi);
  return words === null || words.every((w) => WORDS.has(w.toLowerCase()));
}

// ---- numbers ---------------------------------------------------------------

/** Digits with en-US thousands separators in groups of three, or none; a decimal point; an exponent. */
const DIGITS = /^(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * A number, as typed in en-US: a sign (or parentheses, accounting's negative),
 * a dollar sign on either side of the sign, a trailing percent sign. Not
 * JavaScript's Number(): "0x1F", "0b1" and "Infinity" are no numbers in Excel.
 */
function plainNumber(t: string): number | null {
  let body = t;
  let sign = 1;
  const paren = /^\((.*)\)$/.exec(body);
  if (paren) {
    body = paren[1].trim();
    sign = -1;
  }
  let percent = false;
  if (body.endsWith('%')) {
    percent = true;
    body = body.slice(0, -1).trimEnd();
  }
  const m = /^(\$?)([+-]?)(\$?)(.*)$/.exec(body)!;
  if (m[1] && m[3]) return null; // "$-$5"
  if (paren && m[2]) return null; // "(-5)"
  if (m[2] === '-') sign = -sign;
  const digits = m[4];
  if (!DIGITS.test(digits)) return null;
  const v = sign * Number(digits.replace(/,/g, ''));
  if (!Number.isFinite(v)) return null;
  return percent ? v / 100 : v;
}

/**
 * A whole number and a fraction after a space: "1 1/2" is 1.5, "0 3/4" 0.75, as
 * Excel reads them typed (a fraction alone, "1/2", is a date: January 2).
 */
function mixedFraction(t: string): number | null {
  const m = /^([+-]?)(\d+) (\d+)\/(\d+)$/.exec(t);
  if (!m || Number(m[4]) === 0) return null;
  const v = Number(m[2]) + Number(m[3]) / Number(m[4]);
  return m[1] === '-' ? -v : v;
}

// ---- times -----------------------------------------------------------------

/**
 * A time of day as a fraction of a day: h:mm, h:mm:ss, h:mm:ss.s, with AM or
 * PM (then 0–12 hours), or h AM/PM. Without AM/PM the hours may pass 24, a
 * duration ("25:00" is 1 day and 1 hour, as Excel reads it when typed).
 */
function timeOfDay(t: string): number | null {
  const m = /^(\d{1,4})(?::(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?)?(?: ?([ap])m?)?$/i.exec(t);
  if (!m || (m[2] === undefined && m[4] === undefined)) return null; // "12" alone is a number, not a time
  let h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  const sec = m[3] === undefined ? 0 : Number(m[3]);
  if (min >= 60 || sec >= 60) return null;
  if (m[4] !== undefined) {
    if (h > 12) return null;
    h = (h % 12) + (m[4].toLowerCase() === 'p' ? 12 : 0);
  }
  return (h * 3600 + min * 60 + sec) / 86_400;
}

// ---- dates -----------------------------------------------------------------


/** A month's number (1–12) from its en-US name or three-letter abbreviation ("Sept" too); null for other words. */
function monthNamed(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  const i = MONTHS.indexOf(w);
  if (i >= 0) return i + 1;
  const j = MONTH_NAMES.indexOf(w);
  if (j >= 0) return j + 1;
  return w === 'sept' ? 9 : null;
}

/** A year as written: four digits as they are, two by Excel's 1930 cut-off; null for other lengths. */
function yearOf(text: string): number | null {
  if (/^\d{4}$/.test(text)) return Number(text);
  if (/^\d{2}$/.test(text)) {
    const y = Number(text);
    return y < 30 ? 2000 + y : 1900 + y;
  }
  return null;
}

const MONTH = '([a-z]+\\.?)';

/** The en-US day forms: each gives [year text | null, month, day | null]. */
const DAY_FORMS: readonly { re: RegExp; parts: (m: RegExpExecArray) => [string | null, number | null, string | null] }[] = [
  { re: /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/, parts: (m) => [m[1], Number(m[2]), m[3]] }, // 2024-01-31, 2024/1/31
  { re: /^(\d{1,2})[-/](\d{1,2})[-/](\d{2}|\d{4})$/, parts: (m) => [m[3], Number(m[1]), m[2]] }, // 1/31/2024, 1-31-24 (month first: en-US)
  { re: /^(\d{1,2})\/(\d{1,2})$/, parts: (m) => [null, Number(m[1]), m[2]] }, // 1/31: this year
  { re: new RegExp(`^(\\d{1,2})[- ]${MONTH}(?:[- ](\\d{2}|\\d{4}))?$`, 'i'), parts: (m) => [m[3] ?? null, monthNamed(m[2]), m[1]] }, // 31-Jan-2024, 31 Jan, 5-JUL
  { re: new RegExp(`^${MONTH} (\\d{1,2}),? (\\d{4})$`, 'i'), parts: (m) => [m[3], monthNamed(m[1]), m[2]] }, // Jan 31, 2024; January 31 2024
  { re: new RegExp(`^${MONTH}[- ](\\d{4})$`, 'i'), parts: (m) => [m[2], monthNamed(m[1]), null] }, // Jan-2024: its first day
];

/** Text naming a day, as the workbook's serial; null for other text, a day that does not exist, or one before the system's first. */
function dayOf(t: string, system: DateSystem, now: number): number | null {
  for (const form of DAY_FORMS) {
    const m = form.re.exec(t);
    if (!m) continue;
    const [yearText, month, dayText] = form.parts(m);
    const year = yearText === null ? new Date(now).getUTCFullYear() : yearOf(yearText);
    const day = dayText === null ? 1 : Number(dayText);
    if (year === null || month === null || year < firstYear(system) || year > 9999) return null;
    const ms = Date.UTC(year, month - 1, day);
    const back = new Date(ms);
    if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null; // 2024-02-30, 2024-13-45
    return workbookSerial(toSerial(ms), system);
  }
  return null;
}
