/**
 * ACCRINT, the engine's own (src/engine/accrued-interest.ts), with Microsoft's
 * published results in both date systems:
 * - the ACCRINT page (support.microsoft.com/excel/functions/accrint-function):
 *   data 2008-03-01 issue, 2008-08-31 first interest, 2008-05-01 settlement,
 *   0.1, 1000, semiannual, 30/360 → 16.666667; issue 2008-03-05 with FALSE →
 *   15.555556; issue 2008-04-05 with TRUE → 7.2222222;
 * - the DAX page (learn.microsoft.com/dax/accrint-function-dax): issue
 *   2007-03-01, same terms → 116.944444444444, and 66.9444444444445 with FALSE.
 * formulajs's ACCRINT ignored first_interest and calc_method (116.67 for both).
 *
 *   node --import tsx --test test/accrint.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineSheet } from './support/engine-sheet';
import type { DateSystem } from '../src/engine/date-system';

const CLOCK = Date.UTC(2026, 0, 15);
const OFFSET_1904 = 1462;

const errorOf = (v: unknown) => (v as { error?: string }).error;
const close = (actual: unknown, expected: number, what: string, tolerance = 1e-9) =>
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < tolerance, `${what}: ${JSON.stringify(actual)}, expected ${expected}`);

/** The page's data table in A2:A8, its dates as the workbook's serials (39508 is 2008-03-01 in 1900). */
function pageSheet(system: DateSystem) {
  const shift = system === '1904' ? OFFSET_1904 : 0;
  return engineSheet({
    dateSystem: system,
    now: CLOCK,
    cells: { A2: 39508 - shift, A3: 39691 - shift, A4: 39569 - shift, A5: 0.1, A6: 1000, A7: 2, A8: 0 },
  });
}

for (const system of ['1900', '1904'] as const) {
  test(`${system}: the ACCRINT page's three examples, from its data table and from DATE`, () => {
    const run = pageSheet(system);
    close(run('=ACCRINT(A2,A3,A4,A5,A6,A7,A8)'), 16.666667, 'the page\'s first example', 1e-6);
    close(run('=ACCRINT(DATE(2008,3,5),A3,A4,A5,A6,A7,A8,FALSE)'), 15.555556, 'issue 2008-03-05, FALSE', 1e-6);
    close(run('=ACCRINT(DATE(2008,4,5),A3,A4,A5,A6,A7,A8,TRUE)'), 7.2222222, 'issue 2008-04-05, TRUE', 1e-6);
    close(run('=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0)'), 1000 * 0.05 * (60 / 180), 'the same by DATE');
  });

  test(`${system}: calc_method: the DAX page's examples (settlement before first_interest, a year and more after issue)`, () => {
    const run = pageSheet(system);
    // Periods 2007-02-28..08-31 (issue 03-01: 180 of 180 days), 08-31..2008-02-29 (whole), 02-29..05-01 (61 of 180).
    close(run('=ACCRINT(DATE(2007,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0)'), 116.944444444444, 'TRUE (omitted): from issue', 1e-9);
    close(run('=ACCRINT(DATE(2007,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0,TRUE)'), 116.944444444444, 'TRUE', 1e-9);
    close(run('=ACCRINT(DATE(2007,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0,FALSE)'), 66.9444444444445, 'FALSE: the whole period between is not counted', 1e-9);
  });

  test(`${system}: settlement after first_interest: TRUE from issue, FALSE from first_interest (the page's words)`, () => {
    const run = pageSheet(system);
    // First interest 2007-08-31: 2007-03-01..08-31 is one period (180/180), 08-31..2008-02-29 another, then 61/180.
    close(run('=ACCRINT(DATE(2007,3,1),DATE(2007,8,31),DATE(2008,5,1),0.1,1000,2,0,TRUE)'), 50 * (2 + 61 / 180), 'TRUE');
    close(run('=ACCRINT(DATE(2007,3,1),DATE(2007,8,31),DATE(2008,5,1),0.1,1000,2,0,FALSE)'), 50 * (1 + 61 / 180), 'FALSE');
    // Two years of semiannual coupons at 50% from 2003-01-07 plus 6 days of 30/360 before it: 1008.33.
    close(run('=ACCRINT(DATE(2003,1,1),DATE(2003,1,7),DATE(2005,1,7),0.5,1000,2)'), 250 * (4 + 6 / 180), 'two years on');
  });

  test(`${system}: Excel's results reported in issue threads: settlement on first_interest, and two years past it`, () => {
    const run = pageSheet(system);
    // github.com/fsprojects/ExcelFinancialFunctions/issues/22: Excel 2007 and 2013 give 1.0625 (one whole coupon).
    close(run('=ACCRINT(DATE(2018,8,15),DATE(2019,2,15),DATE(2019,2,15),0.02125,100,2,1)'), 1.0625, 'settlement = first_interest, actual/actual');
    // github.com/formula/formula/issues/4 (its Excel example, dates as en-US text): 183.88888888888889.
    close(run('=ACCRINT("2/2/2012","3/30/2012","12/4/2013",0.1,1000,1,0,1)'), 183.88888888888889, 'annual, TRUE, text dates');
  });

  test(`${system}: the day-count bases on one period (2008-02-29 to 2008-08-31, 184 actual days)`, () => {
    const run = pageSheet(system);
    const at = (basis: number) => run(`=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,${basis})`);
    close(at(0), 50 * (60 / 180), 'US 30/360');
    close(at(1), 50 * (61 / 184), 'actual/actual: 61 actual days of 184');
    close(at(2), 50 * (61 / 180), 'actual/360');
    close(at(3), 50 * (61 / 182.5), 'actual/365');
    close(at(4), 50 * (60 / 180), 'European 30/360');
    close(run('=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,,2)'), 50 * (60 / 180), 'par omitted: 1000');
    close(run('=ACCRINT(DATE(2008,3,1)+0.7,DATE(2008,8,31),DATE(2008,5,1)+0.2,0.1,1000,2.9,0.5)'), 50 * (60 / 180), 'dates, frequency and basis truncated');
  });

  test(`${system}: the page's errors, each naming what was wrong`, () => {
    const run = pageSheet(system);
    const terms = (issue: string, settlement: string, rest: string) => run(`=ACCRINT(${issue},DATE(2008,8,31),${settlement},${rest})`);
    assert.equal(errorOf(terms('"not a date"', 'DATE(2008,5,1)', '0.1,1000,2')), '#VALUE!');
    assert.equal(errorOf(terms('DATE(2008,3,1)', 'DATE(2008,5,1)', '0,1000,2')), '#NUM!', 'rate ≤ 0');
    assert.equal(errorOf(terms('DATE(2008,3,1)', 'DATE(2008,5,1)', '0.1,0,2')), '#NUM!', 'par ≤ 0');
    const frequency = terms('DATE(2008,3,1)', 'DATE(2008,5,1)', '0.1,1000,3');
    assert.equal(errorOf(frequency), '#NUM!', 'frequency 3');
    assert.match((frequency as { message: string }).message, /1 \(annual\), 2 \(semiannual\) or 4 \(quarterly\)/);
    assert.equal(errorOf(terms('DATE(2008,3,1)', 'DATE(2008,5,1)', '0.1,1000,2,5')), '#NUM!', 'basis 5');
    assert.equal(errorOf(terms('DATE(2008,5,1)', 'DATE(2008,5,1)', '0.1,1000,2')), '#NUM!', 'issue = settlement');
    assert.equal(errorOf(terms('DATE(2008,3,1)', 'DATE(2008,5,1)', '0.1,1000,2,0,"maybe"')), '#VALUE!', 'calc_method not a logical value');
  });
}

test('ACCRINT over an array of settlement dates spills one interest per date', () => {
  const v = pageSheet('1900')('=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,{4,5},1),0.1,1000,2,0)');
  assert.ok(Array.isArray(v), JSON.stringify(v));
  close(v[0][0], 50 * (30 / 180), 'to 2008-04-01');
  close(v[0][1], 50 * (60 / 180), 'to 2008-05-01');
});
