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
import { engineSheet } from './support/engine-sheet';
import { isoDate, type DateSystem } from '../src/engine/date-system';
import type { Value } from '../src/engine/values';

/** 2026-01-15 18:00 UTC: serial 46037.75 in the 1900 system. */
const CLOCK = Date.UTC(2026, 0, 15, 18);

function workbook(dateSystem: DateSystem | undefined, cells: Record<string, Value> = {}) {
  return engineSheet({ ...(dateSystem ? { dateSystem } : {}), now: CLOCK, cells });
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

/**
 * formulajs's functions that take dates, given the same days as DATE(...): in a
 * 1904 workbook they answer what they answer in a 1900 one (a count of days or a
 * rate does not depend on how the workbook numbers its days). formulajs reads
 * 1900-system serials, so each was handed days 4 years and 1 day early before
 * the table in formulajs-functions.ts named their date arguments: a 30/360 count
 * or a coupon period then spans other days. Each row's days are chosen so that
 * it does (COUPDAYS: 2011-01-15 is in the coupon period 2010-11-30 to
 * 2011-05-31, 182 days; read as 2007-01-14, 181). XNPV and XIRR read only
 * differences of days, so their rows mix a date and a date as text, which
 * formulajs read as its calendar day beside the number's 1900 serial.
 * (TBILLPRICE, TBILLEQ and TBILLYIELD are the engine's own now, with
 * Microsoft's results in both systems: test/treasury-bills.test.ts; so is
 * ACCRINT: test/accrint.test.ts. Its row stays: the same answer in both.)
 */
const SAME_IN_BOTH_SYSTEMS = [
  '=ACCRINT(DATE(2008,1,31),DATE(2008,7,31),DATE(2008,3,15),0.1,1000,2,0)',
  '=COUPDAYS(DATE(2011,1,15),DATE(2012,5,31),2,1)',
  '=DISC(DATE(2008,1,31),DATE(2008,3,15),97.975,100,0)',
  '=PRICEDISC(DATE(2008,2,16),DATE(2008,3,1),0.0525,100,0)',
  '=XNPV(0.09,{-10000,2750},IF({1,0},DATE(2008,1,1),"2008-03-01"))',
  '=XIRR({-10000,10100},IF({1,0},DATE(2008,1,1),"2008-03-01"))',
];

for (const formula of SAME_IN_BOTH_SYSTEMS) {
  test(`${formula} in a 1904 workbook is its answer in a 1900 one`, () => {
    const in1900 = workbook('1900')(formula);
    assert.ok(typeof in1900 === 'number' && in1900 !== 0, `${formula}: a count of days, a rate or a price, not ${JSON.stringify(in1900)}`);
    assert.equal(workbook('1904')(formula), in1900);
  });
}

test('PRICEDISC and DISC in a 1904 workbook count the days given, not those 4 years and 1 day earlier (99.77 and 0.1657 before)', () => {
  const in1904 = workbook('1904');
  // Basis 0 is US (NASD) 30/360 (PRICEDISC and DISC pages, support.microsoft.com/excel/functions/pricedisc-function):
  // 2008-02-16 to 2008-03-01 is 15 days (read as 2004-02-15 to 2004-02-29, 14); 2008-01-31 to 2008-03-15 is 45 (44).
  assert.equal(in1904('=PRICEDISC(DATE(2008,2,16),DATE(2008,3,1),0.0525,100,0)'), 100 - (0.0525 * 100 * 15) / 360);
  const disc = in1904('=DISC(DATE(2008,1,31),DATE(2008,3,15),97.975,100,0)');
  assert.ok(typeof disc === 'number' && Math.abs(disc - ((100 - 97.975) / 100) * (360 / 45)) < 1e-12, JSON.stringify(disc));
});

test('ACCRINT accrues interest on the days given, in either system (formulajs, which computed it before accrued-interest.ts, read a serial as milliseconds: 0)', () => {
  // par × rate/frequency × A/NL (ACCRINT page, support.microsoft.com/excel/functions/accrint-function):
  // 2008-03-01 to 2008-05-01 is 60 days of a 180-day semiannual period on the 30/360 basis: 1000 × 0.05 × 60/180.
  const formula = '=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0)';
  for (const system of ['1900', '1904'] as const) {
    const v = workbook(system)(formula);
    assert.ok(typeof v === 'number' && Math.abs(v - 50 / 3) < 1e-9, `${system}: ${JSON.stringify(v)}`);
  }
  assert.equal(errorOf(workbook('1904')('=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),-1,0.1,1000,2,0)')), '#NUM!', 'before the system\'s first day');
});

test('isoDate: a serial under a date format as ISO 8601 text in the workbook\'s system; null for a format without a day', () => {
  assert.equal(isoDate(45292, 'yyyy-mm-dd', '1900'), '2024-01-01');
  assert.equal(isoDate(43830, 'yyyy-mm-dd', '1904'), '2024-01-01');
  assert.equal(isoDate(45292.5, 'yyyy-mm-dd hh:mm', '1900'), '2024-01-01T12:00Z');
  assert.equal(isoDate(43830 + (12 * 3600 + 5) / 86_400, 'yyyy-mm-dd hh:mm:ss', '1904'), '2024-01-01T12:00:05Z');
  assert.equal(isoDate(45292 + (12 * 3600 + 29 * 60 + 59.7) / 86_400, 'yyyy-mm-dd hh:mm', '1900'), '2024-01-01T12:30Z', 'rounded to the second first');
  assert.equal(isoDate(45292.75, 'mmm d, yyyy', '1900'), '2024-01-01', 'a format without a time: the day');
  for (const code of ['0.00', 'General', 'hh:mm', '[h]:mm']) assert.equal(isoDate(45292.5, code, '1900'), null, code);
  assert.equal(isoDate(-1, 'yyyy-mm-dd', '1904'), null, 'before 1904-01-01');
  assert.equal(isoDate(3e6, 'yyyy-mm-dd', '1900'), null, 'after 9999-12-31');
});
