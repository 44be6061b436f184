/**
 * Date functions on Excel's serial numbers in the 1900 system, in UTC (the
 * add-in's dates are UTC days). @formulajs/formulajs builds local-time Date
 * objects, which shift by the machine's time zone and daylight saving, so
 * these few are written here. TODAY() and NOW() read the scope's clock.
 */
import { def, lifted, numberArg, type Context, type FunctionTable } from './function-def';
import { DAY_MS } from '../api/utc-day';
import { finite, msOf, numberFromText, serialOf, toNumber, xlError, type Result, type Value } from './values';

const dateOf = (serial: number) => new Date(msOf(serial));

/** A date argument: a serial, or text Excel reads as a date ("2024-03-15"). */
function serialArg(v: Value): number | { error: string; message?: string } {
  if (typeof v === 'string') {
    const n = numberFromText(v);
    return n === null ? xlError('#VALUE!', `Not a date: ${JSON.stringify(v)}`) : n;
  }
  const n = toNumber(v);
  if (typeof n !== 'number') return n;
  return n < 0 ? xlError('#NUM!', 'A date before 1900 is not a date in Excel') : n;
}

/** A function of dates and numbers, lifted over arrays. */
function dated(min: number, max: number, f: (xs: number[]) => Value, dateArgs = 1): ReturnType<typeof def> {
  return def(min, max, (args: Result[], ctx: Context) =>
    lifted(
      args.map((a) => ctx.value(a)),
      (vs) => {
        const xs: number[] = [];
        for (let i = 0; i < vs.length; i++) {
          const n = i < dateArgs ? serialArg(vs[i]) : toNumber(vs[i]);
          if (typeof n !== 'number') return n;
          xs.push(n);
        }
        return f(xs);
      },
    ),
  );
}

function date(y: number, m: number, d: number): Value {
  let year = Math.trunc(y);
  if (year < 1900) year += 1900; // DATE(24,1,1) is 1924 (DATE page)
  const ms = Date.UTC(year, Math.trunc(m) - 1, Math.trunc(d));
  const s = serialOf(ms);
  return s < 0 || year > 9999 ? xlError('#NUM!', 'DATE is outside 1900 to 9999') : s;
}

function addMonths(serial: number, months: number, endOfMonth: boolean): Value {
  const d = dateOf(Math.floor(serial));
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + Math.trunc(months), 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + Math.trunc(months) + 1, 0)).getUTCDate();
  const day = endOfMonth ? last : Math.min(d.getUTCDate(), last);
  return serialOf(first + (day - 1) * DAY_MS);
}

export const DATES: FunctionTable = {
  TODAY: def(0, 0, (_a, ctx) => Math.floor(serialOf(ctx.now()))),
  NOW: def(0, 0, (_a, ctx) => serialOf(ctx.now())),
  DATE: dated(3, 3, ([y, m, d]) => date(y, m, d), 0),
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
  EDATE: dated(2, 2, ([s, m]) => addMonths(s, m, false)),
  EOMONTH: dated(2, 2, ([s, m]) => addMonths(s, m, true)),
  DAYS: dated(2, 2, ([end, start]) => Math.floor(end) - Math.floor(start), 2),
  DATEVALUE: def(1, 1, (args, ctx) =>
    lifted([ctx.value(args[0])], ([v]) => {
      const n = typeof v === 'string' ? numberFromText(v) : null;
      return n === null ? xlError('#VALUE!', `DATEVALUE reads text such as "2024-03-15"; got ${JSON.stringify(v)}`) : Math.floor(n);
    }),
  ),
};

export { numberArg };
