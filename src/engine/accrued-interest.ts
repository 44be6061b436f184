/**
 * ACCRINT(issue, first_interest, settlement, rate, par, frequency, [basis], [calc_method]):
 * the interest a security paying periodic coupons has accrued, by Microsoft's
 * page (support.microsoft.com/excel/functions/accrint-function) and its DAX
 * twin (learn.microsoft.com/dax/accrint-function-dax). @formulajs/formulajs's
 * ACCRINT ignored first_interest and calc_method (a plain year fraction from
 * issue), which the page's examples disprove.
 *
 *   ACCRINT = par × rate / frequency × Σ(i = 1..NC) Aᵢ / NLᵢ
 *
 * over the quasi-coupon periods from issue to settlement, on the schedule of
 * coupon dates that first_interest anchors (every 12 / frequency months, on the
 * month's last day when first_interest is one): Aᵢ the accrued days in period
 * i, NLᵢ its normal length in days.
 *
 * calc_method, "a logical value that specifies the way to calculate the total
 * accrued interest when the date of settlement is later than the date of
 * first_interest": TRUE (the default) from issue to settlement, FALSE from
 * first_interest to settlement. Settlement on or before first_interest, the
 * DAX page's example 2 (issue 2007-03-01, first 2008-08-31, settlement
 * 2008-05-01, 10%, 1000, semiannual, 30/360: 116.944444 with TRUE, 66.944444
 * with FALSE) shows FALSE counting the period the issue falls in and the one
 * settlement falls in, but no whole period between them: as
 * ExcelFinancialFunctions does (github.com/fsprojects/ExcelFinancialFunctions,
 * src/ExcelFinancialFunctions/bonds.fs accrInt: a whole quasi-coupon period
 * after issue counts 1 for TRUE, 0 for FALSE), which gives all five of
 * Microsoft's published results, and Excel's reported in issue threads
 * (fsprojects/ExcelFinancialFunctions#22: settlement on first_interest, 1.0625;
 * formula/formula#4: two years past it, TRUE, 183.888889). Settlement after first_interest with FALSE
 * counts from first_interest, as the page says; that library refuses the
 * case (settlement must be before first_interest), so this much is the page's
 * words, untested against Excel: a guess.
 *
 * Day counts (basis), as that library counts coupon days (daycountbasis.fs):
 *   0  US (NASD) 30/360: Aᵢ by 30/360 with the month-end rules below, NLᵢ = 360 / frequency
 *   1  actual/actual:    Aᵢ actual days, NLᵢ the period's actual days
 *   2  actual/360:       Aᵢ actual days, NLᵢ = 360 / frequency
 *   3  actual/365:       Aᵢ actual days, NLᵢ = 365 / frequency
 *   4  European 30/360:  Aᵢ by 30/360 (31st → 30th), NLᵢ = 360 / frequency
 * Coupon dates are each first_interest ± a whole number of periods (no drift
 * from stepping one date to the next): a guess where the page is silent.
 *
 * Arguments (page's remarks): dates, frequency and basis are truncated to
 * integers; a date that is not one is #VALUE!; rate ≤ 0, par ≤ 0, frequency
 * not 1, 2 or 4, basis outside 0–4, or issue ≥ settlement is #NUM!. "If you
 * omit par, ACCRINT uses $1,000"; calc_method omitted is TRUE. Dates are read
 * in the workbook's date system (dates.ts serialArg); the result is a sum of
 * money, the same in either system.
 */
import { serialArg } from './dates';
import { def, lifted, type FunctionTable } from './function-def';
import { finite, isOmitted, msOf, serialOf, toBoolean, toNumber, xlError, type ErrorValue, type Value } from './values';
import type { DateSystem } from './date-system';

interface Day {
  y: number;
  m: number; // 1–12
  d: number;
}

const dayOf = (serial: number): Day => {
  const t = new Date(msOf(serial));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
};
const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const isLastOfFebruary = (t: Day) => t.m === 2 && t.d === daysInMonth(t.y, 2);

/** The coupon schedule first_interest anchors: its k-th date (k < 0 before it), as a 1900 serial. */
function couponSchedule(firstInterest: number, months: number): (k: number) => number {
  const f = dayOf(firstInterest);
  const endOfMonth = f.d === daysInMonth(f.y, f.m);
  return (k) => {
    const index = f.y * 12 + (f.m - 1) + k * months;
    const y = Math.floor(index / 12);
    const m = (index % 12) + 1;
    const last = daysInMonth(y, m);
    return serialOf(Date.UTC(y, m - 1, endOfMonth ? last : Math.min(f.d, last)));
  };
}

/** US (NASD) 30/360 days from start to end, as coupon days count them (ExcelFinancialFunctions dateDiff360Us, start-date method). */
function days360Us(start: number, end: number): number {
  const s = dayOf(start);
  const e = dayOf(end);
  let sd = s.d;
  let ed = e.d;
  if (isLastOfFebruary(e) && isLastOfFebruary(s)) ed = 30;
  if (ed === 31 && sd >= 30) ed = 30;
  if (sd === 31) sd = 30;
  if (isLastOfFebruary(s)) sd = 30;
  return (e.y - s.y) * 360 + (e.m - s.m) * 30 + (ed - sd);
}

/** European 30/360: the 31st is the 30th, at either end. */
function days360Eu(start: number, end: number): number {
  const s = dayOf(start);
  const e = dayOf(end);
  return (e.y - s.y) * 360 + (e.m - s.m) * 30 + (Math.min(e.d, 30) - Math.min(s.d, 30));
}

/** Accrued days from start to end under the basis (Aᵢ). */
function accruedDays(start: number, end: number, basis: number): number {
  if (basis === 0) return days360Us(start, end);
  if (basis === 4) return days360Eu(start, end);
  return end - start;
}

/** A quasi-coupon period's normal length in days under the basis (NLᵢ). */
function periodLength(start: number, end: number, basis: number, frequency: number): number {
  if (basis === 1) return end - start;
  return (basis === 3 ? 365 : 360) / frequency;
}

interface Terms {
  issue: number;
  firstInterest: number;
  settlement: number;
  frequency: number;
  basis: number;
  fromIssue: boolean; // calc_method
}

/** Σ Aᵢ / NLᵢ: the periods' share of one coupon the holder has accrued by settlement. */
export function accruedCoupons(t: Terms): number {
  const months = 12 / t.frequency;
  const date = couponSchedule(t.firstInterest, months);
  // The quasi-coupon period settlement falls in: date(k) ≤ settlement < date(k + 1).
  const f = dayOf(t.firstInterest);
  const s = dayOf(t.settlement);
  let k = Math.floor(((s.y - f.y) * 12 + (s.m - f.m)) / months);
  while (date(k) > t.settlement) k--;
  while (date(k + 1) <= t.settlement) k++;
  const afterFirst = t.settlement > t.firstInterest;
  // From first_interest when settlement is past it and calc_method is FALSE; from issue otherwise.
  const from = afterFirst && !t.fromIssue ? Math.max(t.issue, t.firstInterest) : t.issue;
  // A whole period counts 1, but 0 before first_interest for FALSE (the DAX page's example 2).
  const whole = afterFirst || t.fromIssue ? 1 : 0;
  const share = (j: number, until: number) => {
    const start = date(j);
    const end = date(j + 1);
    return accruedDays(Math.max(from, start), until, t.basis) / periodLength(start, end, t.basis, t.frequency);
  };
  let sum = share(k, t.settlement);
  for (let j = k - 1; date(j + 1) > from; j--) sum += date(j) >= from ? whole : share(j, date(j + 1));
  return sum;
}

const num = (name: string, what: string, allowed: string): ErrorValue => xlError('#NUM!', `ACCRINT: ${name} must be ${allowed}; ${what}`);

function accrint(vs: Value[], omitted: boolean[], system: DateSystem): Value {
  const dates: number[] = [];
  for (let i = 0; i < 3; i++) {
    const n = serialArg(vs[i], system);
    if (typeof n !== 'number') return n;
    dates.push(Math.floor(n));
  }
  const [issue, firstInterest, settlement] = dates;
  const rate = toNumber(vs[3], system);
  if (typeof rate !== 'number') return rate;
  const par = omitted[4] ? 1000 : toNumber(vs[4], system);
  if (typeof par !== 'number') return par;
  const frequency = toNumber(vs[5], system);
  if (typeof frequency !== 'number') return frequency;
  const basis = omitted[6] ? 0 : toNumber(vs[6], system);
  if (typeof basis !== 'number') return basis;
  const fromIssue = omitted[7] ? true : toBoolean(vs[7]);
  if (typeof fromIssue !== 'boolean') return fromIssue;
  if (!(rate > 0)) return num('rate', `got ${rate}`, 'more than 0');
  if (!(par > 0)) return num('par', `got ${par}`, 'more than 0');
  const freq = Math.trunc(frequency);
  if (freq !== 1 && freq !== 2 && freq !== 4) return num('frequency', `got ${frequency}`, '1 (annual), 2 (semiannual) or 4 (quarterly)');
  const b = Math.trunc(basis);
  if (b < 0 || b > 4) return num('basis', `got ${basis}`, '0 (US 30/360), 1 (actual/actual), 2 (actual/360), 3 (actual/365) or 4 (European 30/360)');
  if (issue >= settlement) return xlError('#NUM!', 'ACCRINT: the issue date must be before the settlement date');
  return finite(((par * rate) / freq) * accruedCoupons({ issue, firstInterest, settlement, frequency: freq, basis: b, fromIssue }));
}

export const ACCRUED_INTEREST: FunctionTable = {
  ACCRINT: def(6, 8, (args, ctx) => {
    const omitted = Array.from({ length: 8 }, (_, i) => i >= args.length || isOmitted(args[i]));
    return lifted(
      Array.from({ length: 8 }, (_, i) => (omitted[i] ? null : ctx.value(args[i]))),
      (vs) => accrint(vs, omitted, ctx.dateSystem),
    );
  }),
};
