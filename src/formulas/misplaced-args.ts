/**
 * Argument-position slips: a value its own parameter refuses but another
 * parameter of the same formula takes, such as GAINERS(10) (a count where the
 * period goes) or DOMINANCE("30D") (a look-back where the asset goes). The
 * #VALUE! keeps its "must be" and adds which parameter the value fits, with the
 * formula written that way (review-r3 #8), as RETURNS/SPARKLINE's headers
 * hint does (history.ts misplacedStart, which writes its formulas with
 * formulaCall below).
 */
import { isBlank, scalar, type Arg } from './args';
import { FormulaError, invalidValue } from './cells';
import { readsAsDate } from './span-args';
import type { FormulaContext } from './formula-context';

/** One parameter: its name as the help shows it, and whether a value is one it takes (blank never is). */
export interface Param {
  name: string;
  takes: (v: Arg) => boolean;
}

/** A formula as it was called: its name, its parameters in order, the arguments given (as many as there are parameters). */
export interface Call {
  fn: string;
  params: readonly Param[];
  args: readonly Arg[];
}

/** 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st. */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/**
 * A value as formula text: text in quotes (quotes doubled), numbers and booleans as typed, a
 * blank as nothing; null for what a formula cannot spell (a range, a data type, an error).
 */
export function formulaText(v: Arg): string | null {
  v = scalar(v);
  if (isBlank(v)) return '';
  if (typeof v === 'string') return `"${v.replace(/"/g, '""')}"`;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** Longer, the formula is a paste gone wrong, not one to repeat in a message (args.ts MAX_TEXT's reason). */
const MAX_FORMULA = 200;

/** `=CRYPTO.FN(a,b)`, trailing blanks left out; null when an argument cannot be spelled, or the formula runs past MAX_FORMULA. */
export function formulaCall(fn: string, args: readonly Arg[]): string | null {
  const texts = args.map(formulaText);
  if (texts.some((t) => t === null)) return null;
  while (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
  const written = `=CRYPTO.${fn}(${texts.join(',')})`;
  return written.length > MAX_FORMULA ? null : written;
}

/**
 * Where the argument at `at` (0-based) is refused by its own parameter but taken by another:
 * "count is the 2nd argument: =CRYPTO.GAINERS(,10)". The value moves there; a value already
 * there moves back to `at` when that takes it (a swap), else the formula is left out rather
 * than drop what was typed. A 0 where a parameter does not take one is a blank cell on older
 * desktop builds (blankFor), never misplaced, and written as nothing. Null when no other parameter takes it.
 */
export function misplacedHint(call: Call, at: number): string | null {
  const { params } = call;
  const v = scalar(call.args[at]);
  if (blankFor(params[at], v) || params[at].takes(v)) return null;
  const to = params.findIndex((p, j) => j !== at && p.takes(v));
  if (to < 0) return null;
  const where = `${params[to].name} is the ${ordinal(to + 1)} argument`;
  const args = params.map((p, i) => {
    const x = scalar(call.args[i]);
    return blankFor(p, x) ? null : x;
  });
  const there = args[to];
  args[at] = null;
  if (!isBlank(there)) {
    if (!params[at].takes(there)) return where;
    args[at] = typed(there, params[at]);
  }
  args[to] = typed(v, params[to]);
  const written = formulaCall(call.fn, args);
  return written ? `${where}: ${written}` : where;
}

/**
 * A number or TRUE/FALSE that arrived as text moves as typed: a parameter with a custom enum is
 * typed "string" (functions.json), so GAINERS(10)'s period arrives as "10"; written
 * =CRYPTO.GAINERS(,10), as it was typed, not (,"10").
 */
function typed(v: Arg, p: Param): Arg {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  const as = /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : /^(true|false)$/i.test(s) ? s.toLowerCase() === 'true' : v;
  return as !== v && p.takes(as) ? as : v;
}

/**
 * Blank, or the 0 of a blank cell on older desktop builds where the parameter takes no 0 (args.ts's
 * blank rule), which arrives as "0" in a parameter typed string (a custom enum's: args.ts notGivenText).
 */
const blankFor = (p: Param, v: Arg) => isBlank(v) || ((v === 0 || v === '0') && !p.takes(v));

/** read(); its #VALUE! with `hint()` added after its message when there is one. */
export function orHint<T>(read: () => T, hint: () => string | null): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof FormulaError) || e.code !== '#VALUE!') throw e;
    const say = hint();
    throw say ? invalidValue(`${e.message}; ${say}`) : e;
  }
}

/** read() of the argument(s) at `at`; a #VALUE! names where the first misplaced one of them goes. */
export function readPlaced<T>(call: Call, at: number | readonly number[], read: () => T): T {
  const places = typeof at === 'number' ? [at] : at;
  return orHint(read, () => places.map((i) => misplacedHint(call, i)).find((h) => h !== null) ?? null);
}

// ---------------------------------------------------------------- what common parameters take

const text = (v: Arg) => (typeof v === 'string' ? v.trim().toLowerCase() : null);

/** headersArg's values: TRUE/FALSE, 1/0, 2 (STOCKHISTORY's), and their text. */
export const takesHeaders = (v: Arg): boolean =>
  typeof v === 'boolean' || v === 0 || v === 1 || v === 2 || ['true', 'false', 'yes', 'no', '0', '1', '2'].includes(text(v) ?? '');

/** One of choiceArg's keys (any case). */
export const takesChoice = (choices: Readonly<Record<string, unknown>>) => (v: Arg): boolean =>
  typeof v === 'string' && Object.hasOwn(choices, v.trim().toLowerCase());

/** One of fieldArg's names (any case). */
export const takesField = (names: readonly string[]) => (v: Arg): boolean =>
  typeof v === 'string' && names.some((n) => n.toLowerCase() === v.trim().toLowerCase());

/** intArg's whole numbers from min to max, typed or as text. */
export const takesWhole = (min: number, max: number) => (v: Arg): boolean => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : NaN;
  return Number.isInteger(n) && n >= min && n <= max;
};

/** A date, period or look-back, as span-args.ts reads one in this workbook. */
export const takesDate = (ctx: FormulaContext) => (v: Arg): boolean =>
  !isBlank(v) && v !== 0 && readsAsDate(v, ctx.now(), ctx.settings.dateSystem);
