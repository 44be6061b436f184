/**
 * VALUE, DATEVALUE and TIMEVALUE: text to a number by the engine's one rule
 * (text-numbers.ts), in the workbook's date system, with the year of the
 * scope's clock for a date written without one.
 *
 * - VALUE: any number, date or time text (VALUE page, support.microsoft.com/excel/value-function);
 *   a number is itself, a blank cell 0; TRUE/FALSE are #VALUE!, as in Excel.
 * - DATEVALUE: text naming a day, its serial; "time information in date_text
 *   is ignored" (DATEVALUE page, support.microsoft.com/excel/functions/datevalue-function);
 *   a day outside the workbook's system is #VALUE! (same page). A number, or
 *   text that names no day ("12:30", "5"), is #VALUE!: the page takes only
 *   "text that represents a date" (for "12:30" a guess: Excel may answer 0).
 * - TIMEVALUE: text holding a time, its fraction of a day from 0 up to 1;
 *   "date information in time_text is ignored" (TIMEVALUE page,
 *   support.microsoft.com/excel/timevalue-function). Text naming only a day
 *   is 0 (midnight): a guess, the page does not say.
 */
import { def, lifted, type FunctionTable } from './function-def';
import { readText, type TextNumber } from './text-numbers';
import { isEntityValue, isErrorValue, isFormattedNumber, xlError, type ErrorValue, type Value } from './values';
import type { DateSystem } from './date-system';

/** What text reads as, or #VALUE! naming the function and the text. */
function read(name: string, v: Value, system: DateSystem, now: number, wants: string): TextNumber | ErrorValue {
  if (isErrorValue(v)) return v;
  if (typeof v !== 'string') return xlError('#VALUE!', `${name} reads text: ${wants}`);
  return readText(v, system, now) ?? xlError('#VALUE!', `${name}: ${JSON.stringify(v)} is not ${wants} Excel reads (en-US)`);
}

export const TEXT_CONVERSIONS: FunctionTable = {
  VALUE: def(1, 1, (args, ctx) =>
    lifted([ctx.value(args[0])], ([v]) => {
      if (v === null) return 0;
      if (typeof v === 'number') return v;
      if (isFormattedNumber(v)) return v.basicValue;
      if (isEntityValue(v)) return xlError('#VALUE!', 'VALUE reads text, not a data type');
      const r = read('VALUE', v, ctx.dateSystem, ctx.now(), 'a number, date or time');
      return isErrorValue(r) ? r : r.value;
    }),
  ),
  DATEVALUE: def(1, 1, (args, ctx) =>
    lifted([ctx.value(args[0])], ([v]) => {
      const r = read('DATEVALUE', v, ctx.dateSystem, ctx.now(), 'a date such as "2024-03-15" or "3/15/2024"');
      if (isErrorValue(r)) return r;
      if (r.kind !== 'date' && r.kind !== 'date-time') return xlError('#VALUE!', `DATEVALUE: ${JSON.stringify(v)} names no day`);
      return Math.floor(r.value);
    }),
  ),
  TIMEVALUE: def(1, 1, (args, ctx) =>
    lifted([ctx.value(args[0])], ([v]) => {
      const r = read('TIMEVALUE', v, ctx.dateSystem, ctx.now(), 'a time such as "16:48" or "4:48 PM"');
      if (isErrorValue(r)) return r;
      if (r.kind === 'number') return xlError('#VALUE!', `TIMEVALUE: ${JSON.stringify(v)} is a number, not a time`);
      const time = r.time ?? 0; // a day alone: midnight
      return time - Math.floor(time);
    }),
  ),
};
