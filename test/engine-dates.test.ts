/**
 * The engine's date functions in the workbook's date system: a workbook on
 * the 1904 system holds each day 1,462 days lower, and has no days before
 * 1904-01-01 ("Date systems in Excel",
 * support.microsoft.com/office/e7fe7167-48a9-4b96-bb53-5612a800b487). DATE,
 * TODAY, YEAR... read and return that workbook's serials, as Excel's do.
 *
 *   node --import tsx --test test/engine-dates.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type Scope } from '../src/engine/evaluator';
import type { DateSystem } from '../src/engine/date-system';
import type { Value } from '../src/engine/values';

/** 2026-01-15 18:00 UTC: serial 46037.75 in the 1900 system. */
const CLOCK = Date.UTC(2026, 0, 15, 18);

function workbook(dateSystem: DateSystem | undefined, cells: Record<string, Value> = {}) {
  const engine = new Engine([]);
  const at = (row: number, col: number): Value => cells[`${String.fromCharCode(64 + col)}${row}`] ?? null;
  const scope: Scope = {
    cell: (p) => at(p.row, p.col),
    range: (from, to) =>
      Array.from({ length: to.row - from.row + 1 }, (_, r) => Array.from({ length: to.col - from.col + 1 }, (_, c) => at(from.row + r, from.col + c))),
    customFunction: () => null,
    now: () => CLOCK,
    ...(dateSystem ? { dateSystem } : {}),
  };
  return (formula: string) => engine.evaluate(formula, { row: 10, col: 1 }, scope);
}

const errorOf = (v: unknown) => (v as { error?: string }).error;

test('DATE is the serial the workbook holds: 45292 for 2024-01-01 in 1900, 1,462 less in 1904; 1900 unless the scope says', () => {
  const in1900 = workbook('1900');
  const in1904 = workbook('1904');
  assert.equal(in1900('=DATE(2024,1,1)'), 45292);
  assert.equal(in1904('=DATE(2024,1,1)'), 43830);
  assert.equal(in1900('=DATE(2020,1,1)'), 43831);
  assert.equal(in1904('=DATE(2020,1,1)'), 42369);
  assert.equal(workbook(undefined)('=DATE(2024,1,1)'), 45292, 'the default is the 1900 system');
  assert.equal(in1904('=DATE(1904,1,1)'), 0, 'the 1904 system starts at 0 on 1904-01-01');
});

test('TODAY and NOW under a fixed clock, in either system', () => {
  assert.equal(workbook('1900')('=TODAY()'), 46037);
  assert.equal(workbook('1904')('=TODAY()'), 46037 - 1462);
  assert.equal(workbook('1900')('=NOW()'), 46037.75);
  assert.equal(workbook('1904')('=NOW()'), 46037.75 - 1462);
});

test('YEAR, MONTH, DAY, WEEKDAY, HOUR read a 1904 serial as the 1904 workbook\'s day', () => {
  const in1904 = workbook('1904', { A1: 43830.5 });
  assert.equal(in1904('=YEAR(A1)'), 2024);
  assert.equal(in1904('=MONTH(A1)'), 1);
  assert.equal(in1904('=DAY(A1)'), 1);
  assert.equal(in1904('=WEEKDAY(A1)'), 2, '2024-01-01 was a Monday');
  assert.equal(in1904('=HOUR(A1)'), 12);
  assert.equal(workbook('1900', { A1: 43830.5 })('=YEAR(A1)'), 2019, 'the same number in a 1900 workbook is 2019-12-31');
  assert.equal(in1904('=YEAR(0)'), 1904);
});

test('EDATE, EOMONTH, DATEVALUE, DAYS, text dates: the 1904 workbook\'s serials in and out', () => {
  const in1904 = workbook('1904');
  assert.equal(in1904('=EOMONTH(DATE(2024,1,15),1)'), 45351 - 1462);
  assert.equal(in1904('=EDATE(DATE(2024,1,31),1)'), 45351 - 1462);
  assert.equal(in1904('=DATEVALUE("2024-01-01")'), 43830);
  assert.equal(in1904('=YEAR("2024-01-01")'), 2024, 'text names the same day in either system');
  assert.equal(in1904('=DAYS(DATE(2024,3,1),DATE(2024,2,1))'), 29);
  assert.equal(in1904('=DAYS("2024-03-01",DATE(2024,2,1))'), 29);
});

test('before 1904-01-01 is #NUM! in the 1904 system; the 1900 system keeps its own limit', () => {
  const in1904 = workbook('1904');
  assert.equal(errorOf(in1904('=DATE(1903,12,31)')), '#NUM!');
  assert.equal(errorOf(in1904('=DATE(3,1,1)')), '#NUM!', 'year 3 is 1903 (DATE page)');
  assert.equal(errorOf(in1904('=YEAR(-1)')), '#NUM!');
  assert.equal(errorOf(in1904('=EDATE(DATE(1904,1,15),-1)')), '#NUM!');
  assert.equal(errorOf(in1904('=YEAR("1903-06-01")')), '#VALUE!', 'text naming a day the workbook has not is not a date there');
  assert.equal(errorOf(in1904('=DATEVALUE("1903-06-01")')), '#VALUE!', 'outside the range: #VALUE! (DATEVALUE page)');
  const in1900 = workbook('1900');
  assert.equal(in1900('=DATE(1903,12,31)'), 1461);
  assert.equal(errorOf(in1900('=DATE(1900,1,-2)')), '#NUM!');
  assert.equal(errorOf(in1900('=YEAR(-1)')), '#NUM!');
});

test('text dates in operators and criteria are the 1904 workbook\'s serials too, so they mix with DATE and with its cells', () => {
  const in1904 = workbook('1904', { A1: 43830, A2: 43831, A3: 43832 });
  assert.equal(in1904('="2024-01-02"-DATE(2024,1,1)'), 1);
  assert.equal(in1904('="2024-01-01"+0'), 43830);
  assert.equal(in1904('=DATE(2024,1,1)="2024-01-01"+0'), true);
  assert.equal(errorOf(in1904('="1903-06-01"+0')), '#VALUE!');
  assert.equal(in1904('=COUNTIF(A1:A3,">=2024-01-02")'), 2);
  assert.equal(in1904('=COUNTIF(A1:A3,"2024-01-01")'), 1);
  assert.equal(workbook('1900')('="2024-01-01"+0'), 45292);
});

test('TEXT under a date format shows the 1904 workbook\'s day; under a number format, the number', () => {
  const in1904 = workbook('1904');
  assert.equal(in1904('=TEXT(DATE(2024,3,15),"yyyy-mm-dd")'), '2024-03-15');
  assert.equal(in1904('=TEXT(TODAY(),"yyyy-mm-dd")'), '2026-01-15');
  assert.equal(in1904('=TEXT(43830,"0")'), '43830');
  assert.equal(workbook('1900')('=TEXT(43830,"yyyy-mm-dd")'), '2019-12-31');
  // An elapsed time reads no day: 1.5 is 36 hours in either system (it was 35124:00 in 1904).
  assert.equal(in1904('=TEXT(1.5,"[h]:mm")'), '36:00');
  assert.equal(in1904('=TEXT(0.75,"[mm]:ss")'), '1080:00');
  assert.equal(in1904('=TEXT(1.5,"hh:mm")'), '12:00');
});

test('formulajs\'s date functions (WEEKNUM, WORKDAY, NETWORKDAYS, DATEDIF) read and return the 1904 workbook\'s serials', () => {
  const in1904 = workbook('1904', { A1: 43831 }); // 2024-01-02 in the 1904 system
  assert.equal(in1904('=WEEKNUM(43830)'), 1, '2024-01-01');
  assert.equal(workbook('1900')('=WEEKNUM(43830)'), 53, '2019-12-31');
  assert.equal(in1904('=WORKDAY(DATE(2024,1,5),1)'), 43830 + 7, 'Friday 2024-01-05 → Monday 2024-01-08');
  assert.equal(in1904('=NETWORKDAYS(DATE(2024,1,1),DATE(2024,1,31),A1)'), 22, 'January 2024 has 23 workdays, less the holiday');
  assert.equal(in1904('=DATEDIF(DATE(2024,1,31),DATE(2024,3,1),"m")'), 1);
  assert.equal(errorOf(in1904('=WEEKNUM(-1)')), '#NUM!');
});
