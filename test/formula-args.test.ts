import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bindArguments } from '../src/cli/calculate';
import { FormulaSyntaxError, parseFormula } from '../src/cli/formula-parser';
import { loadFunctionMetadata } from '../src/cli/metadata';
import { CATALOG } from '../src/formulas/catalog';
import { boolArg, choiceArg, choicesOf, coinArg, headersArg, intArg } from '../src/formulas/args';
import { rangeArgs, readsAsDate, spanArg } from '../src/formulas/span-args';
import { formulaCall, misplacedHint, ordinal, readPlaced, takesChoice, takesHeaders, takesWhole } from '../src/formulas/misplaced-args';
import { DateCell, FormulaError, dateCell, decimalCell, fromSerial, table, toSerial } from '../src/formulas/cells';

const NOW = Date.UTC(2026, 10, 21, 15, 30); // 2026-11-21 15:30 UTC

describe('formula parser', () => {
  test('reads text, numbers, omitted arguments, booleans and the CRYPTO. prefix', () => {
    const f = parseFormula('=CRYPTO.OHLCV("solana","2024-01-01",,"daily",1)');
    assert.equal(f.name, 'OHLCV');
    assert.deepEqual(f.args, ['solana', '2024-01-01', null, 'daily', 1]);
    assert.deepEqual(parseFormula('crypto.price( "say ""hi""" , TRUE, -1.5e2 )').args, ['say "hi"', true, -150]);
    assert.deepEqual(parseFormula('PRICE()').args, []);
    assert.deepEqual(parseFormula('=CRYPTO.X(,)').args, [null, null]);
  });

  test('array constants are 2-D ranges and DATE() is an Excel serial date', () => {
    assert.deepEqual(parseFormula('=CRYPTO.QUOTE({"a","b";"c","d"})').args, [[['a', 'b'], ['c', 'd']]]);
    assert.deepEqual(parseFormula('=CRYPTO.QUOTE({"a";"b"})').args, [[['a'], ['b']]]);
    const [serial] = parseFormula('=CRYPTO.HISTORICAL(DATE(2024,1,1))').args as number[];
    assert.equal(serial, 45292); // Excel's serial for 2024-01-01
  });

  test('rejects what Excel would not accept', () => {
    for (const bad of ['=CRYPTO.PRICE("bitcoin"', '=CRYPTO.PRICE("bit)', '=1+2', '=CRYPTO.PRICE({1,2;3})', '=CRYPTO.PRICE(1) x', '']) {
      assert.throws(() => parseFormula(bad), FormulaSyntaxError, bad);
    }
  });
});

describe('date and period arguments', () => {
  test('Excel serial dates and ISO text are that UTC day', () => {
    assert.deepEqual(spanArg(45292, 'start', NOW, '1900'), { start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 0, 2) });
    assert.deepEqual(spanArg('2024-03-15', 'start', NOW, '1900'), { start: Date.UTC(2024, 2, 15), end: Date.UTC(2024, 2, 16) });
    assert.equal(toSerial(Date.UTC(2024, 0, 1)), 45292);
    assert.equal(fromSerial(45292.5), Date.UTC(2024, 0, 1, 12));
  });

  test('periods: year, quarter, month and look-backs', () => {
    assert.deepEqual(spanArg('2024', 's', NOW, '1900'), { start: Date.UTC(2024, 0, 1), end: Date.UTC(2025, 0, 1) });
    assert.deepEqual(spanArg('2024Q2', 's', NOW, '1900'), { start: Date.UTC(2024, 3, 1), end: Date.UTC(2024, 6, 1) });
    assert.deepEqual(spanArg('2024-q4', 's', NOW, '1900'), { start: Date.UTC(2024, 9, 1), end: Date.UTC(2025, 0, 1) });
    assert.deepEqual(spanArg('2024-03', 's', NOW, '1900'), { start: Date.UTC(2024, 2, 1), end: Date.UTC(2024, 3, 1) });
    assert.deepEqual(spanArg('30D', 's', NOW, '1900'), { start: Date.UTC(2026, 9, 22), end: NOW });
    assert.deepEqual(spanArg('1y', 's', NOW, '1900'), { start: Date.UTC(2025, 10, 21), end: NOW });
    assert.deepEqual(spanArg('6M', 's', NOW, '1900'), { start: Date.UTC(2026, 4, 21), end: NOW });
  });

  test('a period given as start alone means that period; an omitted end means now', () => {
    assert.deepEqual(rangeArgs('2024', null, NOW, '1900'), { start: Date.UTC(2024, 0, 1), end: Date.UTC(2025, 0, 1) });
    assert.deepEqual(rangeArgs('2024-01-01', null, NOW, '1900'), { start: Date.UTC(2024, 0, 1), end: NOW });
    assert.deepEqual(rangeArgs('2024-01-01', '2024-01-31', NOW, '1900'), { start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 1, 1) });
    assert.throws(() => rangeArgs('2024-02-01', '2024-01-01', NOW, '1900'), /end must be after start; got start 2024-02-01, end 2024-01-01/);
  });

  test('a date the month lacks is #VALUE!, not rolled over into the next month', () => {
    for (const bad of ['2024-02-30', '2023-02-29', '2024-04-31', '2024-00-10', '2024-13-01', '2024-01-00', '2024-02-30T12:00:00Z']) {
      assert.throws(() => spanArg(bad, 'start', NOW, '1900'), (e: unknown) =>
        e instanceof FormulaError && e.code === '#VALUE!' && e.message === `start is not a date that exists; got ${JSON.stringify(bad)}`, bad);
    }
    assert.deepEqual(spanArg('2024-02-29', 'start', NOW, '1900'), { start: Date.UTC(2024, 1, 29), end: Date.UTC(2024, 2, 1) });
    assert.deepEqual(spanArg('2024-12-31', 'start', NOW, '1900'), { start: Date.UTC(2024, 11, 31), end: Date.UTC(2025, 0, 1) });
  });

  test('a start in the future says so (not that end must be after start)', () => {
    assert.throws(() => rangeArgs('2031-01-01', null, NOW, '1900'), (e: unknown) => e instanceof FormulaError && e.code === '#VALUE!' && e.message === 'start must not be in the future; got 2031-01-01');
    assert.throws(() => rangeArgs('2031-01-01', '2032-01-01', NOW, '1900'), /start must not be in the future/);
    // today is not the future: the range runs to now
    assert.deepEqual(rangeArgs('2026-11-21', null, NOW, '1900'), { start: Date.UTC(2026, 10, 21), end: NOW });
  });

  test('bad dates are #VALUE! naming the accepted forms', () => {
    for (const bad of ['yesterday', '2024-13', '2024Q5', -3]) {
      assert.throws(() => spanArg(bad, 'start', NOW, '1900'), (e: unknown) => e instanceof FormulaError && e.code === '#VALUE!' && /"2024Q1"/.test(e.message));
    }
  });
});

describe('argument readers', () => {
  test('choices match case-insensitively and errors list the allowed values', () => {
    const c = choicesOf(['monthly', 'quarterly', 'yearly']);
    assert.equal(choiceArg('Yearly', 'period', c, undefined), 'yearly');
    assert.throws(() => choiceArg('weekly', 'period', c, undefined), (e: unknown) =>
      e instanceof FormulaError && e.code === '#VALUE!' && /"monthly", "quarterly", "yearly"/.test(e.message) && /weekly/.test(e.message));
    assert.equal(choiceArg(null, 'period', c, 'yearly'), 'yearly');
  });

  test('coins, headers, integers and booleans', () => {
    assert.equal(coinArg(' bitcoin '), 'bitcoin');
    assert.equal(coinArg([[1]]), 1);
    assert.throws(() => coinArg(''), /coin is required/);
    assert.throws(() => coinArg(1.5), /coin as a number is a coin id, a positive whole number; got 1\.5/);
    assert.throws(() => coinArg(-1), /positive whole number; got -1$/);
    assert.throws(() => coinArg(true), /coin must be a coin id, slug, symbol or name.*; got TRUE/);
    assert.throws(() => coinArg('x'.repeat(10_000)), /at most 100 characters; got 10000$/);
    assert.equal(headersArg(null), true);
    assert.equal(headersArg(0), false);
    assert.equal(headersArg(2), true);
    assert.equal(boolArg('FALSE', 'x', true), false);
    assert.throws(() => boolArg('maybe', 'x', true), /TRUE\/FALSE/);
    assert.equal(intArg(null, 'count', 1, 10, 5), 5);
    assert.throws(() => intArg(11, 'count', 1, 10, 5), /from 1 to 10/);
  });

  test('headers: a value that is no headers value but reads as another argument says so; others keep the TRUE/FALSE message', () => {
    const misplaced = (v: unknown) => (readsAsDate(v, NOW, '1900') ? `start goes after headers; got ${String(v)}` : null);
    assert.throws(() => headersArg('2024-01-01', true, misplaced), (e: unknown) =>
      e instanceof FormulaError && e.code === '#VALUE!' && e.message === 'start goes after headers; got 2024-01-01');
    assert.throws(() => headersArg([['30D']], true, misplaced), /start goes after headers; got 30D/);
    assert.throws(() => headersArg('abc', true, misplaced), /headers must be TRUE\/FALSE or 1\/0; got "abc"$/);
    // Headers values stay headers values: never read as a date.
    for (const [v, want] of [[0, false], [1, true], [2, true], ['2', true], [null, true], [true, true]] as const) assert.equal(headersArg(v, true, misplaced), want);
    // Dates, periods and look-backs as spanArg reads them; not text, not serials before 1970.
    for (const v of ['2024-01-01', '2024', '2024Q1', '2024-03', '30D', '6M', 45292]) assert.equal(readsAsDate(v, NOW, '1900'), true, String(v));
    for (const v of ['abc', 2024, 0, null, '', '2024-02-30']) assert.equal(readsAsDate(v, NOW, '1900'), false, String(v));
  });

  test('a value another parameter takes: where it goes, with the formula written that way (misplaced-args.ts, review-r3 #8)', () => {
    const params = [
      { name: 'period', takes: takesChoice({ '24h': 1, '7d': 1 }) },
      { name: 'count', takes: takesWhole(1, 100) },
      { name: 'headers', takes: takesHeaders },
    ];
    const hint = (...args: unknown[]) => misplacedHint({ fn: 'GAINERS', params, args: [...args, null, null, null].slice(0, 3) }, 0);
    assert.equal(hint(10), 'count is the 2nd argument: =CRYPTO.GAINERS(,10)');
    assert.equal(hint('10', null, 0), 'count is the 2nd argument: =CRYPTO.GAINERS(,10,0)', 'numeric text moves as the number; a headers 0 stays');
    assert.equal(hint(10, '7d'), 'count is the 2nd argument: =CRYPTO.GAINERS("7d",10)', 'what was there moves back when it fits: a swap');
    assert.equal(hint(10, 5), 'count is the 2nd argument', 'no formula that drops the 5');
    assert.equal(hint('TRUE'), 'headers is the 3rd argument: =CRYPTO.GAINERS(,,TRUE)');
    assert.equal(hint('1h'), null, 'no other parameter takes it');
    assert.equal(hint('7d'), null, 'its own parameter takes it');
    assert.equal(misplacedHint({ fn: 'GAINERS', params, args: [0, 10, null] }, 1), null, 'a 0 is a blank, where nothing is misplaced');
    assert.equal(misplacedHint({ fn: 'GAINERS', params, args: [0, '7d', null] }, 1), 'period is the 1st argument: =CRYPTO.GAINERS("7d")', 'a 0 where period goes is a blank cell');
    assert.equal(misplacedHint({ fn: 'GAINERS', params, args: ['0', 0, '7d'] }, 2), 'period is the 1st argument: =CRYPTO.GAINERS("7d")', 'nor is a "0" (typed string) where period goes');
    assert.equal(misplacedHint({ fn: 'GAINERS', params, args: [[[1, 2]], '24h', null] }, 1), 'period is the 1st argument', 'a range cannot be written');
    assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23].map(ordinal), ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd']);
    assert.equal(formulaCall('X', ['a"b', 1.5, false, null, '']), '=CRYPTO.X("a""b",1.5,FALSE)');
    assert.equal(formulaCall('X', ['ü'.repeat(200)]), null, 'a paste is not repeated in a message');
    assert.equal(misplacedHint({ fn: 'GAINERS', params, args: [null, '7d', 'x'.repeat(300)] }, 1), 'period is the 1st argument', 'nor the formula holding it');
    // The hint follows the reader's own message; a reader that takes the value is left alone.
    const read = (v: unknown) => readPlaced({ fn: 'GAINERS', params, args: [v, null, null] }, 0, () => choiceArg(v, 'period', { '24h': '24h', '7d': '7d' }, '24h'));
    assert.throws(() => read(10), (e: unknown) => e instanceof FormulaError && e.code === '#VALUE!' &&
      e.message === 'period must be "24h", "7d"; got 10; count is the 2nd argument: =CRYPTO.GAINERS(,10)');
    assert.throws(() => read('1h'), (e: unknown) => e instanceof FormulaError && e.message === 'period must be "24h", "7d"; got "1h"');
    assert.equal(read('7D'), '7d');
  });

  test('a year typed as a number in a date argument: #VALUE! suggesting it as text', () => {
    assert.throws(() => spanArg(2025, 'start', NOW, '1900'), (e: unknown) => e instanceof FormulaError &&
      e.message === 'start must be a date from 1970 on; got 1905-07-17; for the year 2025, give it as text: "2025"');
    assert.throws(() => spanArg(100, 'start', NOW, '1900'), (e: unknown) => e instanceof FormulaError && e.message === 'start must be a date from 1970 on; got 1900-04-09');
  });

  test('cells: decimals become numbers, missing values stay empty, tables keep their columns', () => {
    assert.equal(decimalCell('0.000012345'), 0.000012345);
    assert.equal(decimalCell(null), '');
    assert.deepEqual(dateCell('2024-01-01T00:00:00.000Z'), new DateCell(45292, 'yyyy-mm-dd'));
    assert.equal(dateCell(null), '');
    const cols = [{ header: 'A', cell: (r: number) => r }, { header: 'B', cell: (r: number) => r * 2 }];
    assert.deepEqual(table([1, 2], cols, true), [['A', 'B'], [1, 2], [2, 4]]);
    // Empty: #N/A, headers or not (a header row alone would read as an answer).
    for (const headers of [true, false]) {
      const empty = table([], cols, headers);
      assert.equal(empty.length, 1);
      assert.equal((empty[0][0] as { error: string }).error, '#N/A');
    }
  });
});

describe('generated functions.json', () => {
  test('every catalog formula has metadata with a description, help URL and parameter help, and vice versa', async () => {
    const meta = await loadFunctionMetadata();
    const ids = meta.map((f) => f.id).sort();
    assert.deepEqual(ids, Object.keys(CATALOG).sort());
    for (const f of meta) {
      assert.ok(f.description.length > 10, `${f.id} description`);
      assert.equal(f.helpUrl, `https://localhost:3000/help/${f.id.toLowerCase()}.html`, `${f.id} helpUrl`);
      for (const p of f.parameters) assert.ok(p.description && p.description.length > 3, `${f.id}.${p.name} help`);
    }
  });

  test('binding: omitted optionals are null, ranges are 2-D, scalars in matrix params are wrapped, too many arguments fail', async () => {
    const meta = await loadFunctionMetadata();
    const quote = meta.find((f) => f.id === 'QUOTE')!;
    assert.deepEqual(bindArguments(quote, ['BTC']), [[['BTC']], null, null, null]);
    assert.deepEqual(bindArguments(quote, [[['a'], ['b']], 'price']), [[['a'], ['b']], [['price']], null, null]);
    const price = meta.find((f) => f.id === 'PRICE')!;
    assert.throws(() => bindArguments(price, ['a', 'USD', 3]), /at most 2 arguments/);
    // A missing required argument reaches the function (as in the preview), which names it.
    assert.deepEqual(bindArguments(price, []), [null, null]);
    assert.throws(() => bindArguments(price, [[['a', 'b']]]), /takes one value, not a range/);
    const markets = meta.find((f) => f.id === 'MARKETS')!;
    assert.throws(() => bindArguments(markets, ['ten']), /count must be a number/);
    assert.deepEqual(bindArguments(markets, ['10']).slice(0, 2), [10, null]);
  });
});
