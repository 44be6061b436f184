/**
 * How a value shows in a cell: Excel's General format for numbers, a date
 * format for serial dates, error codes as they are. Number formats live in
 * one table.
 */
import { isErrorValue, isFormattedNumber, type CellValue } from '../runtime/values';

export type NumberFormat = 'general' | 'date' | 'datetime' | 'money' | 'percent' | 'percentPoints' | 'integer';

const EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

function dateText(serial: number, withTime: boolean): string {
  const iso = new Date(EPOCH_MS + Math.round(serial * DAY_MS)).toISOString();
  return withTime ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

/** General: integers as they are, others to about 10 significant digits, very large or small ones in E notation. */
function general(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e11) return String(n);
  const abs = Math.abs(n);
  if (abs !== 0 && (abs >= 1e11 || abs < 1e-9)) return n.toExponential(5).replace(/\.?0+e/, 'E').replace('E+', 'E+');
  return String(Number(n.toPrecision(10)));
}

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

const FORMATS: Record<NumberFormat, (n: number) => string> = {
  general,
  date: (n) => dateText(n, false),
  datetime: (n) => dateText(n, true),
  money: (n) => (Math.abs(n) < 0.01 && n !== 0 ? general(n) : money.format(n)),
  percent: (n) => `${(n * 100).toFixed(2)}%`,
  /** Values already in percent (the API's percentChange fields). */
  percentPoints: (n) => `${n.toFixed(2)}%`,
  integer: (n) => integer.format(n),
};

export function displayText(v: CellValue, format: NumberFormat = 'general'): string {
  if (v === null) return '';
  if (isFormattedNumber(v)) return FORMATS[format](v.basicValue); // (its numberFormat is shown by the grid work of the preview issue)
  if (isErrorValue(v)) return v.error;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return FORMATS[format](v);
  return v;
}

/** Column headings that name dates: a spilled table's cells under them are shown as dates. */
const DATE_HEADING = /(^|\b)(date|time|day|unlock|listed|listing|ath date|atl date)(\b|$)|At$/i;
export const looksLikeDateHeading = (heading: CellValue) => typeof heading === 'string' && DATE_HEADING.test(heading.trim());

/** A formula whose outermost call is DATE or TODAY shows a date, as Excel formats it. */
export const returnsDate = (input: string) => /^=\s*(DATE|TODAY|EDATE|EOMONTH)\s*\(/i.test(input);
