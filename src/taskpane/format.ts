/**
 * Pure formatting for the task pane: no DOM, no Office. Numbers and dates are
 * formatted with Intl (the pane's language unless a locale is given).
 */
import { DAY_MS, startOfUtcDay } from '../api/utc-day';

/** How a saved key is shown: never enough of it to use, never its length. */
export function maskKey(key: string | null | undefined): string {
  const k = (key ?? '').trim();
  if (!k) return '';
  // Show at most 4 trailing characters, and at most a quarter of the key.
  const tail = Math.min(4, Math.floor(k.length / 4));
  return '••••••••' + (tail > 0 ? k.slice(-tail) : '');
}

export function formatInt(n: number, locale?: string): string {
  if (!Number.isFinite(n)) return '–';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.round(n));
}

/** "14:03:07" (local time). */
export function formatTime(ms: number, locale?: string): string {
  return new Date(ms).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** "1 Aug 2025, 00:00" (local time). */
export function formatDateTime(ms: number, locale?: string): string {
  return new Date(ms).toLocaleString(locale, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** "in 5 h", "in 3 days", "in 12 min", "now". */
export function formatRelative(targetMs: number, nowMs: number): string {
  const d = targetMs - nowMs;
  if (!Number.isFinite(d)) return '';
  const abs = Math.abs(d);
  const min = 60_000;
  const hour = 60 * min;
  const day = 24 * hour;
  let text: string;
  if (abs < min) return 'now';
  if (abs < hour) text = `${Math.round(abs / min)} min`;
  else if (abs < 2 * day) text = `${Math.round(abs / hour)} h`;
  else text = `${Math.round(abs / day)} days`;
  return d > 0 ? `in ${text}` : `${text} ago`;
}

/** Start of the next UTC day: when daily credits reset. */
export function nextUtcMidnight(nowMs: number): number {
  return startOfUtcDay(nowMs) + DAY_MS;
}

/** "api.cryptorank.io" from a base URL, for messages. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
