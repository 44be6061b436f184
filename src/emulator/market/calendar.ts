/**
 * UTC calendar arithmetic. Day indices count whole UTC days from EPOCH (2015-01-01),
 * the first day of every generated series; hour indices count hours from EPOCH.
 */
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
export const EPOCH = Date.UTC(2015, 0, 1);
/** The day the well-known coins' price levels are pinned to (their "anchor" prices). */
export const ANCHOR_DAY = Math.round((Date.UTC(2025, 5, 1) - EPOCH) / DAY);

export type Period = 'day' | 'week' | 'month' | 'quarter' | 'year';

export const dayIndex = (t: number): number => Math.floor((t - EPOCH) / DAY);
export const dayStart = (d: number): number => EPOCH + d * DAY;
export const hourIndex = (t: number): number => Math.floor((t - EPOCH) / HOUR);
export const hourStart = (h: number): number => EPOCH + h * HOUR;
export const iso = (t: number): string => new Date(t).toISOString();
export const dayIso = (d: number): string => iso(dayStart(d));
/** Day index of a calendar date (month 0-based). */
export const dayOfDate = (y: number, m: number, day: number): number => dayIndex(Date.UTC(y, m, day));

/** Start (epoch ms) of the period containing t. Weeks start on Monday. */
export function periodStart(t: number, p: Period): number {
  const date = new Date(t);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  switch (p) {
    case 'day':
      return Date.UTC(y, m, date.getUTCDate());
    case 'week': {
      const dow = (date.getUTCDay() + 6) % 7;
      return Date.UTC(y, m, date.getUTCDate() - dow);
    }
    case 'month':
      return Date.UTC(y, m, 1);
    case 'quarter':
      return Date.UTC(y, m - (m % 3), 1);
    case 'year':
      return Date.UTC(y, 0, 1);
  }
}

/** Start of the period after the one starting at `start`. */
export function nextPeriodStart(start: number, p: Period): number {
  const date = new Date(start);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  const d = date.getUTCDate();
  switch (p) {
    case 'day':
      return start + DAY;
    case 'week':
      return start + 7 * DAY;
    case 'month':
      return Date.UTC(y, m + 1, d);
    case 'quarter':
      return Date.UTC(y, m + 3, d);
    case 'year':
      return Date.UTC(y + 1, m, d);
  }
}

/** Start of the period before the one starting at `start`. */
export function prevPeriodStart(start: number, p: Period): number {
  return periodStart(start - 1, p);
}

/** Day index `months` calendar months after day `d` (day of month capped at 28). */
export function addMonths(d: number, months: number): number {
  const date = new Date(dayStart(d));
  return dayOfDate(date.getUTCFullYear(), date.getUTCMonth() + months, Math.min(28, date.getUTCDate()));
}
