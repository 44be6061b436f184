/**
 * The workbook's date system for the engine. Its date functions compute on
 * 1900-system serials (values.ts serialOf/msOf); a workbook on the 1904
 * system holds the same day 1,462 days lower, and its serial 0 is 1904-01-01
 * ("Date systems in Excel", support.microsoft.com/office/e7fe7167-48a9-4b96-bb53-5612a800b487;
 * "Differences between the 1900 and the 1904 date system in Excel",
 * learn.microsoft.com/troubleshoot/microsoft-365-apps/excel/1900-and-1904-date-system).
 * The offset is the add-in's own (serialFrom/serialIn, formulas/cells.ts);
 * this adds the lower limit: in either system a serial below 0 is no date.
 */
import { getFormatDateInfo, isDateFormat } from 'numfmt';
import { fromSerial, serialFrom, serialIn, type DateSystem } from '../formulas/cells';

export type { DateSystem };

/** The first year a workbook on this system has days in. */
export const firstYear = (system: DateSystem): number => (system === '1904' ? 1904 : 1900);

/** A day given as a 1900-system serial, as the workbook holds it; null before the system's first day. */
export function workbookSerial(serial1900: number, system: DateSystem): number | null {
  const s = serialIn(serial1900, system);
  return s < 0 ? null : s;
}

/** A serial the workbook holds, as the 1900-system serial the functions compute with; null before the system's first day. */
export function serial1900(serial: number, system: DateSystem): number | null {
  return serial < 0 ? null : serialFrom(serial, system);
}

/** An elapsed-time token ([h], [mm], [ss]): the format counts a duration, not a day's clock. */
const ELAPSED = /\[(h+|m+|s+)\]/i;

/**
 * The number numfmt (which reads serials in the 1900 system only) should format
 * under `code`: a calendar format's 1900 serial, so a 1904 workbook shows its own
 * day; the number itself for a number format or an elapsed time ([h]:mm counts
 * 1.5 as 36:00 in either system: no day is read). Before the system's first day,
 * the number as it is. TEXT and the preview's cells both format through this.
 */
export function serialToFormat(code: string, n: number, system: DateSystem): number {
  if (system === '1900' || !isDateFormat(code) || ELAPSED.test(code)) return n;
  return serial1900(n, system) ?? n;
}

/** 9999-12-31, Excel's last day, in the 1900 system ("Excel specifications and limits"). */
const LAST_DAY_1900 = 2_958_465;

/**
 * A serial the workbook holds, shown under `code`, as ISO 8601 text: the day
 * (2024-01-01) when the format shows a day, then its time to the minute
 * (2024-01-01T12:30Z), or to the second when the format shows seconds, in UTC
 * (the add-in's dates are UTC). null when the format shows no day (a number
 * format, a time of day, an elapsed [h]:mm), or outside the system's days.
 * The time is rounded to the nearest second first (12:29:59.7 is 12:30).
 */
export function isoDate(serial: number, code: string, system: DateSystem): string | null {
  const shows = getFormatDateInfo(code);
  if (!isDateFormat(code) || !(shows.year || shows.month || shows.day) || ELAPSED.test(code)) return null;
  const day = serial1900(serial, system);
  if (day === null || !(day < LAST_DAY_1900 + 1)) return null;
  const text = new Date(Math.round(fromSerial(day) / 1000) * 1000).toISOString(); // 2024-01-01T12:30:05.000Z
  if (shows.seconds) return `${text.slice(0, 19)}Z`;
  return shows.hours || shows.minutes ? `${text.slice(0, 16)}Z` : text.slice(0, 10);
}
