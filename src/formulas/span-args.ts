/**
 * Date arguments as the spans of time they denote: an Excel serial date (in
 * the workbook's date system) or ISO text is that UTC day; a period ("2024",
 * "2024Q1", "2024-03") the period; a look-back ("30D", "12W", "6M", "1Y") the
 * span from that long ago until now. A bad one is #VALUE! naming DATE_HELP.
 * The blank rule is args.ts's: no date is 0.
 */
import { DAY_MS, isoDay, startOfUtcDay } from '../api/utc-day';
import { notGiven, scalar, shown, type Arg } from './args';
import { fromSerial, invalidValue, serialFrom, type DateSystem } from './cells';

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
export function spanArg(v: Arg, name: string, now: number, dates: DateSystem): Span | null {
  v = scalar(v);
  if (notGiven(v)) return null; // no date is 0: a blank cell on older desktop builds
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 1 || v > 2_958_465) throw invalidValue(`${name} must be ${DATE_HELP}`);
    const start = startOfUtcDay(fromSerial(serialFrom(v, dates)));
    // A year typed as a number (=FEARGREED(2025)) is serial 2025, a day in 1905; as text it is the year (review-r3 #8).
    const year = Number.isInteger(v) && v >= 1970 && v <= 2999 ? `; for the year ${v}, give it as text: "${v}"` : '';
    if (start < 0) throw invalidValue(`${name} must be a date from 1970 on; got ${isoDay(start)}${year}`);
    return { start, end: start + DAY_MS };
  }
  if (v instanceof Date) {
    const start = startOfUtcDay(v.getTime());
    return { start, end: start + DAY_MS };
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
    const unit = m[2];
    const start = unit === 'D' ? now - n * DAY_MS : unit === 'W' ? now - n * 7 * DAY_MS : monthsBefore(now, unit === 'M' ? n : 12 * n);
    return { start: startOfUtcDay(start), end: now };
  }
  if ((m = s.match(/^(\d{4})-(\d{2})-(\d{2})/))) {
    // Date.parse rolls 2024-02-30 over into March: a day the month lacks is a mistake, not a date.
    const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
    if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) {
      throw invalidValue(`${name} is not a date that exists; got ${shown(v)}`);
    }
    // A time without an offset is UTC too: Date.parse reads "2024-03-15T00:30" and "2024-03-15 00:30" in the
    // machine's zone, so one workbook gave other days elsewhere (review 2026-11-27 #4). An offset or Z is as given.
    const noZone = s.match(/^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/);
    const ms = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : noZone ? `${noZone[1]}T${noZone[2]}Z` : s);
    if (Number.isFinite(ms)) {
      const start = startOfUtcDay(ms);
      return { start, end: start + DAY_MS };
    }
  }
  throw invalidValue(`${name} must be ${DATE_HELP}; got ${shown(v)}`);
}

/**
 * The UTC day `months` months before `now`, as Excel's EDATE(now, -months) counts: the same day of the month,
 * or that month's last day when it has fewer (support.microsoft.com/excel/edate-function; EDATE of 2026-03-31
 * and -1 is 2026-02-28). setUTCMonth rolled 2026-02-31 over to 2026-03-03, three days short (review 2026-11-27: history #3).
 */
function monthsBefore(now: number, months: number): number {
  const d = new Date(now);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() - months;
  const y = Math.floor(total / 12), mo = total - y * 12;
  const last = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  return Date.UTC(y, mo, Math.min(d.getUTCDate(), last));
}

/**
 * A start/end pair: start from the start's span, end from the end's span (default: now). Serials in
 * the workbook's date system: no default, so a formula cannot forget it (a 1904 workbook's serials
 * read as 1900 ones are four years early).
 */
export function rangeArgs(start: Arg, end: Arg, now: number, dates: DateSystem, defaultStart?: (now: number) => number): Span {
  const a = spanArg(start, 'start', now, dates);
  const b = spanArg(end, 'end', now, dates);
  const from = a ? a.start : defaultStart ? defaultStart(now) : null;
  if (from === null) throw invalidValue(`start is required: ${DATE_HELP}`);
  if (from > now) throw invalidValue(`start must not be in the future; got ${isoDay(from)}`);
  // A single period given as start alone ("2024") means that whole period.
  const to = b ? Math.min(b.end, now) : a && notGiven(scalar(end)) && a.end < now && isPeriodText(start) ? a.end : now;
  if (to <= from) throw invalidValue(`end must be after start; got start ${isoDay(from)}, end ${isoDay(to - 1)}`);
  return { start: from, end: to };
}
function isPeriodText(v: Arg): boolean {
  v = scalar(v);
  return typeof v === 'string' && /^\s*\d{4}(-?Q[1-4]|-\d{1,2})?\s*$/i.test(v);
}

/** Whether a value reads as a date argument: a date, a period or a look-back, as spanArg reads it. */
export function readsAsDate(v: Arg, now: number, dates: DateSystem): boolean {
  try {
    return spanArg(v, 'date', now, dates) !== null;
  } catch {
    return false;
  }
}

/** A single point in time (HISTORICAL's date): the start of the day given. */
export function dateArg(v: Arg, name: string, now: number, dates: DateSystem): number {
  const span = spanArg(v, name, now, dates);
  if (!span) throw invalidValue(`${name} is required: ${DATE_HELP}`);
  return span.start;
}
