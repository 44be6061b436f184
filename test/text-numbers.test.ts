/**
 * Text read as a number by the engine's one rule (src/engine/text-numbers.ts),
 * the same in VALUE, DATEVALUE, TIMEVALUE, operators, number arguments and
 * COUNT, in either date system. Expected values from Microsoft's pages (VALUE:
 * "$1,000" is 1000, "16:48:00"-"12:00:00" is 0.2; DATEVALUE: "8/22/2011" is
 * 40777, "22-MAY-2011" 40685, "2011/02/23" 40597) and from the serials of the
 * days themselves (2024-01-01 is 45292 in 1900, 1,462 less in 1904). en-US.
 *
 *   node --import tsx --test test/text-numbers.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineSheet } from './support/engine-sheet';
import type { DateSystem } from '../src/engine/date-system';
import type { Value } from '../src/engine/values';

/** 2026-01-15 18:00 UTC: a date written without its year is in 2026. */
const CLOCK = Date.UTC(2026, 0, 15, 18);
const OFFSET_1904 = 1462;

const sheet = (dateSystem: DateSystem, cells: Record<string, Value> = {}) => engineSheet({ dateSystem, now: CLOCK, cells });
const errorOf = (v: unknown) => (v as { error?: string }).error;
const close = (actual: unknown, expected: number, what: string) =>
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-9, `${what}: ${JSON.stringify(actual)}, expected ${expected}`);

/** Text → its number, the same in both systems (no day in it). */
const NUMBERS: readonly [string, number][] = [
  ['12', 12],
  [' 1.5 ', 1.5],
  ['-1.5', -1.5],
  ['+7', 7],
  ['.5', 0.5],
  ['5.', 5],
  ['1e3', 1000],
  ['1.5E-2', 0.015],
  ['1,000', 1000],
  ['1,234,567.5', 1234567.5],
  ['$1,000', 1000],
  ['-$5', -5],
  ['(1,000)', -1000],
  ['($2.50)', -2.5],
  ['50%', 0.5],
  ['-12.5%', -0.125],
  ['1 1/2', 1.5],
  ['-0 3/4', -0.75],
  ['12:30', 0.5 + 1 / 48],
  ['16:48:00', 0.7],
  ['12:30:45', (12 * 3600 + 30 * 60 + 45) / 86_400],
  ['12:30 PM', 0.5 + 1 / 48],
  ['12:30 AM', 1 / 48],
  ['4 PM', 16 / 24],
  ['25:00', 25 / 24],
];

/** Text → a day, as its 1900-system serial (1904: 1,462 less). */
const DAYS: readonly [string, number][] = [
  ['2024-01-01', 45292],
  ['2024/1/1', 45292],
  ['1/1/2024', 45292],
  ['1/1/24', 45292],
  ['1-1-2024', 45292],
  ['1-Jan-2024', 45292],
  ['1 jan 2024', 45292],
  ['Jan 1, 2024', 45292],
  ['January 1 2024', 45292],
  ['Jan-2024', 45292],
  ['1/1/30', 10959], // 1930-01-01: two-digit years from 30 are 19xx
  ['2/29/2024', 45351],
  ['8/22/2011', 40777], // DATEVALUE page
  ['22-MAY-2011', 40685], // DATEVALUE page
  ['2011/02/23', 40597], // DATEVALUE page
  ['5-JUL', 46208], // DATEVALUE page's form, in the clock's year (2026-07-05)
  ['1/15', 46037], // this year's January 15
];

/** Text that is no number in Excel (en-US). */
const REJECTED = ['abc', '1 1/0', '1.2.3', '2024-13-45', '2/30/2024', '2023-02-29', '1,00', '0x1F', 'Infinity', '12:60', '13:00 PM', '--5', '$-$5', '(-5)', 'TRUE', '2024-01-01T12:30', '31/12/2024', ''];

for (const system of ['1900', '1904'] as const) {
  const shift = system === '1904' ? OFFSET_1904 : 0;

  test(`${system}: VALUE and arithmetic read number and time text alike`, () => {
    const run = sheet(system);
    for (const [text, n] of NUMBERS) {
      close(run(`=VALUE("${text}")`), n, `VALUE("${text}")`);
      close(run(`="${text}"+0`), n, `"${text}"+0`);
      close(run(`=--"${text}"`), n, `--"${text}"`);
    }
    close(run('="1,000"*2'), 2000, '"1,000"*2');
    close(run('="50%"*2'), 1, '"50%"*2');
    close(run('=VALUE("16:48:00")-VALUE("12:00:00")'), 0.2, 'VALUE page example');
  });

  test(`${system}: date text is the ${system} workbook's serial in VALUE, DATEVALUE and operators`, () => {
    const run = sheet(system);
    for (const [text, serial] of DAYS) {
      assert.equal(run(`=VALUE("${text}")`), serial - shift, `VALUE("${text}")`);
      assert.equal(run(`=DATEVALUE("${text}")`), serial - shift, `DATEVALUE("${text}")`);
      assert.equal(run(`="${text}"+1`), serial - shift + 1, `"${text}"+1`);
    }
    close(run('=VALUE("2024-01-01 12:30")'), 45292 - shift + 0.5 + 1 / 48, 'a day and a time');
    close(run('=VALUE("1/1/2024 4:48 PM")'), 45292 - shift + 0.7, 'a day and a time, 12-hour');
    assert.equal(run('=DATEVALUE("2024-01-01 12:30")'), 45292 - shift, 'DATEVALUE ignores the time');
    assert.equal(run('="2024-03-01"-"2024-02-01"'), 29);
  });

  test(`${system}: text that is no number is #VALUE! wherever a number was needed`, () => {
    const run = sheet(system);
    for (const text of REJECTED) {
      assert.equal(errorOf(run(`=VALUE("${text}")`)), '#VALUE!', `VALUE("${text}")`);
      assert.equal(errorOf(run(`="${text}"+1`)), '#VALUE!', `"${text}"+1`);
      assert.equal(errorOf(run(`=SQRT("${text}")`)), '#VALUE!', `SQRT("${text}")`);
    }
    assert.equal(errorOf(run('=VALUE(TRUE)')), '#VALUE!', 'VALUE takes text, not a logical value');
    assert.equal(errorOf(run('=DATEVALUE("12:30")')), '#VALUE!', 'no day in it');
    assert.equal(errorOf(run('=DATEVALUE("45292")')), '#VALUE!', 'a number is no date text');
    assert.equal(errorOf(run('=DATEVALUE(45292)')), '#VALUE!', 'DATEVALUE reads text');
    assert.match((run('=VALUE("abc")') as { message: string }).message, /"abc" is not a number, date or time/);
  });

  test(`${system}: TIMEVALUE is the time of day in the text`, () => {
    const run = sheet(system);
    close(run('=TIMEVALUE("16:48")'), 0.7, '16:48');
    close(run('=TIMEVALUE("2024-01-01 4:48 PM")'), 0.7, 'the date is ignored');
    close(run('=TIMEVALUE("25:00")'), 1 / 24, 'past a day: its time of day');
    assert.equal(errorOf(run('=TIMEVALUE("0.5")')), '#VALUE!', 'a number is no time text');
  });

  test(`${system}: number arguments and COUNT read text by the same rule`, () => {
    const run = sheet(system, { A1: '1,000', A2: '$2.50', A3: 'abc', A4: '2024-01-01' });
    close(run('=SQRT("1,000")'), Math.sqrt(1000), 'SQRT of typed text');
    close(run('=ROUND(A2,0)'), 3, 'ROUND of a cell holding "$2.50"');
    close(run('=ABS("-50%")'), 0.5, 'ABS("-50%")');
    close(run('=INT(A4)'), 45292 - shift, 'INT of a text date is its serial');
    assert.equal(errorOf(run('=SQRT(A3)')), '#VALUE!');
    assert.equal(run('=COUNT("1,000","$5","2024-01-01","abc",1)'), 4, 'typed text that reads as a number counts (COUNT page)');
    assert.equal(run('=COUNT(A1:A4)'), 0, 'text in a range never counts');
    assert.equal(run('=YEAR("Jan 31, 2024")'), 2024);
    assert.equal(run('=SUM("1,000",1)'), 1001);
  });
}

test('a day before the 1904 system\'s first is no number there, and is in 1900', () => {
  assert.equal(errorOf(sheet('1904')('=VALUE("1903-06-01")')), '#VALUE!');
  assert.equal(errorOf(sheet('1904')('="6/1/1903"+0')), '#VALUE!');
  assert.equal(sheet('1900')('=VALUE("6/1/1903")'), 1248);
  assert.equal(sheet('1900')('=VALUE("6/1/1903")'), sheet('1900')('=DATE(1903,6,1)'), 'the day DATE gives');
  assert.equal(errorOf(sheet('1900')('=VALUE("12/31/1899")')), '#VALUE!', 'before 1900: no day in either system');
});
