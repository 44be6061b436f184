/**
 * Date functions on Excel's serial numbers, in UTC (the add-in's dates are
 * UTC days). @formulajs/formulajs builds local-time Date objects, which shift
 * by the machine's time zone and daylight saving, so these few are written
 * here. TODAY() and NOW() read the scope's clock. They compute on 1900-system
 * serials and read and return the workbook's own, 1900 or 1904 (date-system.ts).
 */
import { def, lifted, numberArg, type Context, type FunctionTable } from './function-def';
import { DAY_MS } from '../api/utc-day';
import { firstYear, serial1900, workbookSerial, type DateSystem } from './date-system';
import { finite, msOf, serialOf, toNumber, xlError, type ErrorValue, type Result, type Value } from './values';

const dateOf = (serial: number) => new Date(msOf(serial));

const beforeFirstDay = (system: DateSystem): ErrorValue =>
  xlError('#NUM!', `A date before ${firstYear(system)} is not a date in Excel${system === '1904' ? "'s 1904 date system" : ''}`);

/** A day the function computed (a 1900-system serial) as the workbook's serial, or #NUM! before the system's first day. */
const dayOut = (serial: number, system: DateSystem): number | ErrorValue => workbookSerial(serial, system) ?? beforeFirstDay(system);

/** A date argument (a serial as the workbook holds it, or text such as "2024-03-15") as a 1900-system serial. */
export function serialArg(v: Value, system: DateSystem): number | ErrorValue {
  const n = toNumber(v, system);
  if (typeof n !== 'number') return typeof v === 'string' ? xlError('#VALUE!', `Not a date: ${JSON.stringify(v)}`) : n;
  return serial1900(n, system) ?? beforeFirstDay(system);
}

/**
 * A function of dates and numbers, lifted over arrays: its first `dateArgs`
 * arguments are dates, handed to f as 1900-system serials; f returns a date
 * through dayOut.
 */
export function dated(min: number, max: number, f: (xs: number[], system: DateSystem) => Value, dateArgs = 1): ReturnType<typeof def> {
  return def(min, max, (args: Result[], ctx: Context) =>
    lifted(
      args.map((a) => ctx.value(a)),
      (vs) => {
        const xs: number[] = [];
        for (let i = 0; i < vs.length; i++) {
          const n = i < dateArgs ? serialArg(vs[i], ctx.dateSystem) : toNumber(vs[i], ctx.dateSystem);
          if (typeof n !== 'number') return n;
          xs.push(n);
        }
        return f(xs, ctx.dateSystem);
      },
    ),
  );
}

/** Excel's DATE(year, month, day): the day's serial in the workbook's system, or #NUM!. The formula CLI's literal DATE is this one too. */
export function dateSerial(y: number, m: number, d: number, system: DateSystem): number | ErrorValue {
  let year = Math.trunc(y);
  if (year < 1900) year += 1900; // DATE(24,1,1) is 1924 in either system (DATE page)
  const s = year > 9999 ? null : workbookSerial(serialOf(Date.UTC(year, Math.trunc(m) - 1, Math.trunc(d))), system);
  return s ?? xlError('#NUM!', `DATE is outside ${firstYear(system)} to 9999`);
}

export function addMonths(serial: number, months: number, endOfMonth: boolean): number {
  const d = dateOf(Math.floor(serial));
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + Math.trunc(months), 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + Math.trunc(months) + 1, 0)).getUTCDate();
  const day = endOfMonth ? last : Math.min(d.getUTCDate(), last);
  return serialOf(first + (day - 1) * DAY_MS);
}

export const DATES: FunctionTable = {
  TODAY: def(0, 0, (_a, ctx) => dayOut(Math.floor(serialOf(ctx.now())), ctx.dateSystem)),
  NOW: def(0, 0, (_a, ctx) => dayOut(serialOf(ctx.now()), ctx.dateSystem)),
  DATE: dated(3, 3, ([y, m, d], system) => dateSerial(y, m, d, system), 0),
  TIME: dated(3, 3, ([h, m, s]) => finite((((h * 60 + m) * 60 + s) / 86_400) % 1), 0),
  YEAR: dated(1, 1, ([s]) => dateOf(Math.floor(s)).getUTCFullYear()),
  MONTH: dated(1, 1, ([s]) => dateOf(Math.floor(s)).getUTCMonth() + 1),
  DAY: dated(1, 1, ([s]) => dateOf(Math.floor(s)).getUTCDate()),
  HOUR: dated(1, 1, ([s]) => dateOf(s).getUTCHours()),
  MINUTE: dated(1, 1, ([s]) => dateOf(s).getUTCMinutes()),
  SECOND: dated(1, 1, ([s]) => dateOf(s).getUTCSeconds()),
  // WEEKDAY(serial, [type]): 1 = Sunday..7 (type 1), 1 = Monday..7 (type 2), 0 = Monday..6 (type 3).
  WEEKDAY: dated(1, 2, ([s, t = 1]) => {
    const dow = dateOf(Math.floor(s)).getUTCDay();
    if (t === 1) return dow + 1;
    if (t === 2) return ((dow + 6) % 7) + 1;
    if (t === 3) return (dow + 6) % 7;
    return xlError('#NUM!', 'WEEKDAY return_type is 1, 2 or 3 here');
  }),
  EDATE: dated(2, 2, ([s, m], system) => dayOut(addMonths(s, m, false), system)),
  EOMONTH: dated(2, 2, ([s, m], system) => dayOut(addMonths(s, m, true), system)),
  DAYS: dated(2, 2, ([end, start]) => Math.floor(end) - Math.floor(start), 2),
};

export { numberArg };
