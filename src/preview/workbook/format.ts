/**
 * How a value shows in a cell: an Excel number format code applied by numfmt
 * (MIT, "full Excel style number formatting"), General by default, error codes
 * as they are. A cell's format comes from, in order: a format set on the cell
 * (a template, or the format buttons), the value itself (a formatted number's
 * numberFormat, as a custom function returns it on CustomFunctionsRuntime
 * 1.4), Excel's automatic date format for a formula that is a DATE, TODAY or
 * NOW call, and otherwise General. Excel does not guess formats from column
 * headings, and neither does this.
 *
 * A date format shows the day the serial is in the workbook's date system:
 * numfmt reads serials in the 1900 system only ("it does not support the 1904
 * date system", its README), so a 1904 workbook's serial is first read as its
 * 1900 one (serialToFormat, src/engine/date-system.ts; an elapsed time such as [h]:mm is left as it is), as the engine's TEXT does.
 */
import { format as formatNumber } from 'numfmt';
import { serialToFormat, type DateSystem } from '../../engine/date-system';
import { isEntityValue, isErrorValue, isFormattedNumber, type Value } from '../../engine/values';

/** Named formats the templates and the format buttons use. */
export type NumberFormat = 'general' | 'date' | 'datetime' | 'money' | 'percent' | 'percentPoints' | 'integer';

/** Each named format's Excel format code (the same codes scripts/samples.ts writes into the .xlsx samples). */
export const FORMAT_CODES: Readonly<Record<NumberFormat, string>> = {
  general: 'General',
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm',
  money: '#,##0.00',
  percent: '0.00%',
  /** Values already in percent (the API's percentChange fields). */
  percentPoints: '0.00"%"',
  integer: '#,##0',
};

export const GENERAL = 'General';

/** A format name or an Excel format code, as a code. */
export const formatCode = (f: NumberFormat | string): string => (Object.hasOwn(FORMAT_CODES, f) ? FORMAT_CODES[f as NumberFormat] : f);

function applyCode(code: string, n: number, dates: DateSystem): string {
  try {
    return formatNumber(code, serialToFormat(code, n, dates));
  } catch {
    return formatNumber(GENERAL, n); // a format code numfmt cannot read shows the number in General
  }
}

/** The text a cell shows: `code` is the cell's own format, if it has one; `dates` the workbook's date system. */
export function displayText(v: Value, code?: string, dates: DateSystem = '1900'): string {
  if (v === null) return '';
  if (isErrorValue(v)) return v.error;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return applyCode(code ?? GENERAL, v, dates);
  if (isFormattedNumber(v)) return applyCode(code ?? v.numberFormat, v.basicValue, dates);
  if (isEntityValue(v)) return v.text; // an entity shows its text (the grid adds its icon)
  return v;
}

/** Excel formats a formula whose outermost call is DATE, TODAY, EDATE or EOMONTH as a date, and NOW with the time. */
export function automaticFormat(input: string): string | undefined {
  if (/^=\s*NOW\s*\(/i.test(input)) return FORMAT_CODES.datetime;
  if (/^=\s*(DATE|TODAY|EDATE|EOMONTH)\s*\(/i.test(input)) return FORMAT_CODES.date;
  return undefined;
}
