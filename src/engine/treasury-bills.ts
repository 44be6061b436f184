/**
 * TBILLPRICE, TBILLYIELD and TBILLEQ, by Microsoft's pages for them
 * (support.microsoft.com/excel/functions/tbillprice-function, tbillyield-function,
 * tbilleq-function). DSM, "the number of days from settlement to maturity",
 * is the actual count of days: maturity − settlement. @formulajs/formulajs
 * counts it 30/360 (DAYS360), so its TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),0.09)
 * was 98.475 where the page's example is 98.45 (62 days, not 61).
 *
 *   TBILLPRICE = 100 × (1 − discount × DSM / 360)
 *   TBILLYIELD = (100 − pr) / pr × 360 / DSM
 *   TBILLEQ    = 365 × discount / (360 − discount × DSM)         DSM ≤ 182
 *
 * TBILLEQ's page says its DSM is "computed according to the 360 days per
 * year basis", but its own example (2008-03-31 to 2008-06-01 at 0.0914 is
 * 0.094151) takes 62 actual days (30/360 counts 61: 0.094127).
 * It gives only the formula for a bill of half a year or less.
 * Past 182 days Excel gives a semiannually compounded bond-equivalent yield:
 * with P = 1 − discount × DSM / 360 (the price per 1 of face value) and
 * t = DSM / 365 (366 when DSM is 366),
 *
 *   TBILLEQ    = 2 × (√(t² − (2t − 1)(1 − 1/P)) − t) / (2t − 1)  DSM > 182
 *
 * as in ExcelFinancialFunctions (github.com/fsprojects/ExcelFinancialFunctions,
 * src/ExcelFinancialFunctions/tbill.fs), whose tests hold Excel 2010's results
 * (tests/ExcelFinancialFunctions.Tests/testdata/tbilleq.test:
 * 1980-02-15 to 1980-08-23, 190 days, at 0.25 is 0.2903362798279, where the
 * short formula gives 0.292).
 *
 * Errors, as the pages list them: settlement and maturity are truncated to
 * whole days; a date that is not one is #VALUE!; discount ≤ 0 or pr ≤ 0 is
 * #NUM!; settlement ≥ maturity, or maturity more than one (calendar) year after
 * settlement, is #NUM! (TBILLPRICE's and TBILLEQ's pages say "settlement >
 * maturity", TBILLYIELD's "settlement ≥ maturity"; Office returns #NUM! for
 * settlement = maturity too: [MS-OI29500] 2.1.1049 TBILLPRICE and 2.1.1051
 * TBILLYIELD, msdn.microsoft.com/library/ff530346 and ff533723, and the DAX
 * TBILLEQ page, learn.microsoft.com/dax/tbilleq-function-dax, "settlement ≥ maturity").
 * A discount so high that the bill's price is 0 or less is #NUM! as well
 * (ExcelFinancialFunctions: "a result less than zero triggers an exception").
 * Dates are read in the workbook's date system (dates.ts `dated`).
 */
import { addMonths, dated } from './dates';
import type { FunctionTable } from './function-def';
import { finite, xlError, type ErrorValue } from './values';

/** The actual days from settlement to maturity (both truncated), or #NUM! when they are no T-bill's. */
function daysToMaturity(name: string, settlement: number, maturity: number): number | ErrorValue {
  const s = Math.floor(settlement);
  const m = Math.floor(maturity);
  if (s >= m) return xlError('#NUM!', `${name}: the settlement date must be before the maturity date`);
  if (m > addMonths(s, 12, false)) return xlError('#NUM!', `${name}: the maturity date is more than one year after the settlement date`);
  return m - s;
}

/** The bill's price per 1 of face value at this discount, or #NUM! when the discount leaves it nothing. */
function priceFraction(name: string, discount: number, dsm: number): number | ErrorValue {
  if (!(discount > 0)) return xlError('#NUM!', `${name}: the discount must be more than 0`);
  const p = 1 - (discount * dsm) / 360;
  return p > 0 ? p : xlError('#NUM!', `${name}: at this discount the bill's price is 0 or less`);
}

export const TREASURY_BILLS: FunctionTable = {
  TBILLPRICE: dated(3, 3, ([settlement, maturity, discount]) => {
    const dsm = daysToMaturity('TBILLPRICE', settlement, maturity);
    if (typeof dsm !== 'number') return dsm;
    const p = priceFraction('TBILLPRICE', discount, dsm);
    return typeof p === 'number' ? finite(100 * p) : p;
  }, 2),
  TBILLYIELD: dated(3, 3, ([settlement, maturity, pr]) => {
    const dsm = daysToMaturity('TBILLYIELD', settlement, maturity);
    if (typeof dsm !== 'number') return dsm;
    if (!(pr > 0)) return xlError('#NUM!', 'TBILLYIELD: the price must be more than 0');
    return finite(((100 - pr) / pr) * (360 / dsm));
  }, 2),
  TBILLEQ: dated(3, 3, ([settlement, maturity, discount]) => {
    const dsm = daysToMaturity('TBILLEQ', settlement, maturity);
    if (typeof dsm !== 'number') return dsm;
    const p = priceFraction('TBILLEQ', discount, dsm);
    if (typeof p !== 'number') return p;
    if (dsm <= 182) return finite((365 * discount) / (360 - discount * dsm));
    const t = dsm / (dsm === 366 ? 366 : 365);
    return finite((2 * (Math.sqrt(t * t - (2 * t - 1) * (1 - 1 / p)) - t)) / (2 * t - 1));
  }, 2),
};
