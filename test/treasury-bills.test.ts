/**
 * TBILLPRICE, TBILLYIELD and TBILLEQ (src/engine/treasury-bills.ts) give
 * Microsoft's documented results, count the actual days from settlement to
 * maturity (formulajs counted 30/360: 98.475 for the TBILLPRICE example), read
 * dates in the workbook's date system, and refuse what the pages say they refuse.
 *
 *   node --import tsx --test test/treasury-bills.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineSheet } from './support/engine-sheet';
import type { DateSystem } from '../src/engine/date-system';
import type { Value } from '../src/engine/values';

const SYSTEMS: DateSystem[] = ['1900', '1904'];

/** 2008-03-31 and 2008-06-01 as each system's serials: the examples' A2 and A3. */
const EXAMPLE_DAYS: Record<DateSystem, { A2: number; A3: number }> = {
  '1900': { A2: 39538, A3: 39600 },
  '1904': { A2: 39538 - 1462, A3: 39600 - 1462 },
};

function workbook(dateSystem: DateSystem, cells: Record<string, Value> = {}) {
  return engineSheet({ ...(dateSystem ? { dateSystem } : {}), now: Date.UTC(2026, 0, 15), cells });
}

const errorOf = (v: unknown) => (v as { error?: string }).error;

function near(actual: unknown, expected: number, decimals: number, what: string) {
  assert.equal(typeof actual, 'number', `${what}: ${JSON.stringify(actual)}`);
  assert.equal(Number((actual as number).toFixed(decimals)), expected, `${what}: ${actual as number} is not ${expected} to ${decimals} decimals`);
}

/**
 * The worked examples on Microsoft's pages (settlement 3/31/2008 in A2, maturity
 * 6/1/2008 in A3, 62 days), with the results the pages give: TBILLPRICE 98.45
 * (support.microsoft.com/excel/tbillprice-function); TBILLEQ "0.094151 or 9.42%"
 * (tbilleq-function); TBILLYIELD "0.0914 or 9.14%" (tbillyield-function; Excel 97's
 * page gave 9.1417 %). The DAX pages' examples run the same arguments to more digits
 * (learn.microsoft.com/dax/tbillprice-function-dax: 98.45; tbilleq-function-dax:
 * 0.094151493565943; tbillyield-function-dax: 0.0914169629253426).
 */
const EXAMPLES = [
  { f: 'TBILLPRICE', third: 0.09, page: 98.45, decimals: 2, dax: 98.45 },
  { f: 'TBILLEQ', third: 0.0914, page: 0.094151, decimals: 6, dax: 0.094151493565943 },
  { f: 'TBILLYIELD', third: 98.45, page: 0.0914, decimals: 4, dax: 0.0914169629253426 },
];

for (const system of SYSTEMS) {
  for (const { f, third, page, decimals, dax } of EXAMPLES) {
    test(`${f}: Microsoft's example gives ${page} in a ${system} workbook, from cells and from DATE`, () => {
      const sheet = workbook(system, { ...EXAMPLE_DAYS[system], A4: third });
      const fromCells = sheet(`=${f}(A2,A3,A4)`);
      near(fromCells, page, decimals, `${f}(A2,A3,A4)`);
      assert.ok(Math.abs((fromCells as number) - dax) < 1e-12, `${f}: ${fromCells as number}, DAX's page ${dax}`);
      assert.equal(sheet(`=${f}(DATE(2008,3,31),DATE(2008,6,1),${third})`), fromCells);
    });
  }
}

/**
 * Past 182 days TBILLEQ is a semiannually compounded yield. The cases and results
 * are Excel 2010's, from ExcelFinancialFunctions' test data
 * (github.com/fsprojects/ExcelFinancialFunctions, tests/ExcelFinancialFunctions.Tests/testdata/tbilleq.test,
 * tbillprice.test, tbillyield.test: "the unit tests matching Excel 2010", its README), 13 significant digits.
 */
const EXCEL_2010 = [
  ['=TBILLEQ(DATE(1980,2,15),DATE(1980,3,15),0.01)', 0.01014706291179], // 29 days: the short formula
  ['=TBILLEQ(DATE(1980,2,15),DATE(1980,8,23),0.25)', 0.2903362798279], // 190 days (the short formula: 0.292)
  ['=TBILLEQ(DATE(1980,2,15),DATE(1980,9,21),0.75)', 1.265095264028],
  ['=TBILLEQ(DATE(1993,2,28),DATE(1994,2,14),0.75)', 1.932789175562], // 351 days
  ['=TBILLEQ(DATE(2008,2,13),DATE(2009,1,11),0.25)', 0.3082483889053],
  ['=TBILLPRICE(DATE(1993,2,28),DATE(1994,2,14),0.75)', 26.875],
  ['=TBILLPRICE(DATE(2008,2,29),DATE(2009,2,27),0.25)', 74.72222222222],
  ['=TBILLYIELD(DATE(1980,2,15),DATE(1980,8,23),130)', -0.4372469635628],
  ['=TBILLYIELD(DATE(2008,2,28),DATE(2009,2,27),0.25)', 393.5342465753],
] as const;

for (const system of SYSTEMS) {
  test(`TBILLEQ past 182 days, TBILLPRICE and TBILLYIELD give Excel 2010's results in a ${system} workbook`, () => {
    const sheet = workbook(system);
    for (const [formula, excel] of EXCEL_2010) {
      const got = sheet(formula);
      assert.equal(typeof got, 'number', `${formula}: ${JSON.stringify(got)}`);
      assert.equal(Number((got as number).toPrecision(13)), Number(excel.toPrecision(13)), `${formula}: ${got as number}, Excel ${excel}`);
    }
  });
}

test('settlement on or after maturity is #NUM! ([MS-OI29500] 2.1.1049 and 2.1.1051: Office refuses settlement = maturity too)', () => {
  for (const system of SYSTEMS) {
    const sheet = workbook(system);
    for (const f of ['TBILLPRICE(DATE(2008,6,1),DATE(2008,6,1),0.09)', 'TBILLEQ(DATE(2008,6,1),DATE(2008,6,1),0.09)', 'TBILLYIELD(DATE(2008,6,1),DATE(2008,6,1),98)']) {
      assert.equal(errorOf(sheet(`=${f}`)), '#NUM!', `${f} in ${system}`);
      assert.equal(errorOf(sheet(`=${f.replace('DATE(2008,6,1),', 'DATE(2008,6,2),')}`)), '#NUM!', `${f} after maturity, in ${system}`);
    }
  }
});

test('maturity more than one calendar year after settlement is #NUM!; exactly one year (366 days across a 29 February) is a bill', () => {
  for (const system of SYSTEMS) {
    const sheet = workbook(system);
    for (const f of ['TBILLPRICE', 'TBILLEQ']) {
      assert.equal(errorOf(sheet(`=${f}(DATE(2008,3,31),DATE(2009,4,1),0.05)`)), '#NUM!', `${f} a year and a day, ${system}`);
      assert.equal(errorOf(sheet(`=${f}(DATE(2008,2,29),DATE(2009,3,1),0.05)`)), '#NUM!', `${f} from 29 February to 1 March, ${system}`);
      assert.equal(typeof sheet(`=${f}(DATE(2008,2,29),DATE(2009,2,28),0.05)`), 'number', `${f} from 29 February to 28 February, ${system}`);
    }
    assert.equal(errorOf(sheet('=TBILLYIELD(DATE(2008,3,31),DATE(2009,4,1),98)')), '#NUM!');
    // 2007-03-01 to 2008-03-01 is 366 days and one calendar year.
    assert.equal(sheet('=TBILLPRICE(DATE(2007,3,1),DATE(2008,3,1),0.05)'), 100 * (1 - (0.05 * 366) / 360));
  }
});

test('a discount or a price of 0 or less is #NUM!, and so is a discount that leaves the bill no price', () => {
  for (const system of SYSTEMS) {
    const sheet = workbook(system);
    for (const d of ['0', '-0.09']) {
      assert.equal(errorOf(sheet(`=TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),${d})`)), '#NUM!');
      assert.equal(errorOf(sheet(`=TBILLEQ(DATE(2008,3,31),DATE(2008,6,1),${d})`)), '#NUM!');
    }
    for (const pr of ['0', '-98.45']) assert.equal(errorOf(sheet(`=TBILLYIELD(DATE(2008,3,31),DATE(2008,6,1),${pr})`)), '#NUM!');
    // 62 days at 600 % is a price of 100 × (1 − 6 × 62/360) < 0.
    assert.equal(errorOf(sheet('=TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),6)')), '#NUM!');
    assert.equal(errorOf(sheet('=TBILLEQ(DATE(2008,3,31),DATE(2008,6,1),6)')), '#NUM!');
  }
});

test('a settlement or maturity that is no date is #VALUE!; times of day are truncated', () => {
  for (const system of SYSTEMS) {
    const sheet = workbook(system, { ...EXAMPLE_DAYS[system], B2: EXAMPLE_DAYS[system].A2 + 0.9, B3: EXAMPLE_DAYS[system].A3 + 0.25 });
    for (const f of ['TBILLPRICE', 'TBILLEQ', 'TBILLYIELD']) {
      const third = f === 'TBILLYIELD' ? 98.45 : 0.09;
      assert.equal(errorOf(sheet(`=${f}("soon",A3,${third})`)), '#VALUE!', `${f} settlement text, ${system}`);
      assert.equal(errorOf(sheet(`=${f}(A2,"later",${third})`)), '#VALUE!', `${f} maturity text, ${system}`);
      assert.equal(sheet(`=${f}(B2,B3,${third})`), sheet(`=${f}(A2,A3,${third})`), `${f} with times of day, ${system}`);
    }
  }
});

test('the functions are lifted over arrays, as the engine does for one-value arguments', () => {
  const sheet = workbook('1904');
  assert.deepEqual(sheet('=TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),{0.09,0})'), [[98.45, { error: '#NUM!', message: 'TBILLPRICE: the discount must be more than 0' }]]);
});
