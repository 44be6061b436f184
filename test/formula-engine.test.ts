/**
 * The formula engine the preview and the formula CLI share (src/engine), in
 * Node: Excel's operators and functions against the results Microsoft's
 * function pages give (support.microsoft.com, cited per test), errors flowing
 * as Excel's do, formatted numbers, and the grid's number formats.
 *
 *   node --import tsx --test test/formula-engine.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type Scope } from '../src/engine/evaluator';
import type { Value } from '../src/engine/values';
import { displayText, automaticFormat } from '../src/preview/workbook/format';
import { movedInput, pasteInputs } from '../src/preview/workbook/clipboard';

const col = (p: { col: number }) => String.fromCharCode(64 + p.col);

function sheet(cells: Record<string, Value>, custom: Record<string, Value[][]> = {}) {
  const engine = new Engine(Object.keys(custom).map((id) => ({ id, name: id })));
  const scope: Scope = {
    cell: (p) => cells[`${col(p)}${p.row}`] ?? null,
    range: (f, t) => {
      const out: Value[][] = [];
      for (let r = f.row; r <= Math.min(t.row, 50); r++) {
        const row: Value[] = [];
        for (let c = f.col; c <= Math.min(t.col, 10); c++) row.push(cells[`${col({ col: c })}${r}`] ?? null);
        out.push(row);
      }
      return out;
    },
    // A formatted number comes back from the runtime on CustomFunctionsRuntime 1.4 (issue #27 adds it to CellValue).
    customFunction: (id) => (custom[id] ?? null) as ReturnType<Scope['customFunction']>,
    now: () => Date.UTC(2026, 0, 15, 18),
  };
  return (formula: string) => engine.evaluate(formula, { row: 60, col: 1 }, scope);
}

const NA_KEY: Value = { error: '#N/A', message: 'No API key: add one in the task pane' };

test('SUM, AVERAGE, MAX, STDEV.S over a range holding #N/A are #N/A with its message (NA page: a formula referring to #N/A returns #N/A); COUNT skips it (COUNT page)', () => {
  const f = sheet({ A1: NA_KEY, A2: 5, A3: 'text', A4: true });
  for (const fn of ['SUM', 'AVERAGE', 'MAX', 'MIN', 'MEDIAN', 'STDEV.S', 'PRODUCT']) assert.deepEqual(f(`=${fn}(A1:A4)`), NA_KEY, fn);
  assert.equal(f('=COUNT(A1:A4)'), 1);
  assert.equal(f('=COUNTA(A1:A4)'), 4);
  assert.equal(f('=SUM(A2:A4)'), 5, 'text and TRUE in a range are skipped');
  assert.equal(f('=SUM("3",TRUE,2)'), 6, 'typed directly, numeric text and TRUE count');
  assert.equal((f('=SUM("three")') as { error: string }).error, '#VALUE!');
  assert.deepEqual(f('=A1*2'), NA_KEY);
  assert.deepEqual(f('=SUMPRODUCT(A1:A2,A1:A2)'), NA_KEY);
});

test('INDEX passes an error through: =INDEX(NA(),1,2) is #N/A; INDEX of a CRYPTO error keeps its message', () => {
  const f = sheet({}, { QUOTE: [[NA_KEY]], TABLE: [['coin', 'change'], ['bitcoin', 2.5]] });
  assert.deepEqual(f('=INDEX(NA(),1,2)'), { error: '#N/A' });
  assert.deepEqual(f('=INDEX(CRYPTO.QUOTE(),1,2)'), NA_KEY);
  assert.equal(f('=INDEX(CRYPTO.TABLE(),2,2)'), 2.5);
  assert.equal((f('=INDEX({1,2;3,4},3,1)') as { error: string }).error, '#REF!');
  assert.deepEqual(f('=INDEX({1,2;3,4},0,2)'), [[2], [4]]);
});

test("STDEV.S: the n-1 method; Microsoft's example of ten strengths is 27.46391572; one number is #DIV/0!", () => {
  const strengths = [1345, 1301, 1368, 1322, 1310, 1370, 1318, 1350, 1303, 1299];
  const f = sheet(Object.fromEntries(strengths.map((n, i) => [`B${i + 1}`, n])));
  assert.equal((f('=STDEV.S(B1:B10)') as number).toFixed(8), '27.46391572');
  assert.equal((f('=STDEV(B1:B10)') as number).toFixed(8), '27.46391572');
  assert.equal((f('=STDEV.S(1)') as { error: string }).error, '#DIV/0!');
  assert.equal(f('=MAX(B1:B10)'), 1370);
  assert.equal(f('=MIN(B1:B10)'), 1299);
  assert.equal(f('=MEDIAN(B1:B10)'), 1320);
  assert.equal(f('=LARGE(B1:B10,2)'), 1368);
  assert.equal(f('=SMALL(B1:B10,2)'), 1301);
  assert.equal(f('=MAX(B20:B30)'), 0, 'MAX of no numbers is 0 (MAX page)');
  assert.equal((f('=AVERAGE(B20:B30)') as { error: string }).error, '#DIV/0!');
});

test('criteria (COUNTIF page): equality without regard to case, wildcards, operators; SUMIF(S), AVERAGEIF(S), COUNTIFS', () => {
  const f = sheet({ A1: 'bitcoin', A2: 'Bitcoin', A3: 'ethereum', A4: null, B1: 10, B2: 20, B3: 30, B4: 40, C1: 'x', C2: 'y', C3: 'x', C4: 'x' });
  assert.equal(f('=COUNTIF(A1:A4,"bitcoin")'), 2);
  assert.equal(f('=COUNTIF(A1:A4,"b*")'), 2);
  assert.equal(f('=COUNTIF(A1:A4,"?thereum")'), 1);
  assert.equal(f('=COUNTIF(A1:A4,"")'), 1);
  assert.equal(f('=COUNTIF(A1:A4,"<>")'), 3);
  assert.equal(f('=COUNTIF(B1:B4,">15")'), 3);
  assert.equal(f('=SUMIF(A1:A4,"bitcoin",B1:B4)'), 30);
  assert.equal(f('=SUMIFS(B1:B4,C1:C4,"x",B1:B4,">=30")'), 70);
  assert.equal(f('=AVERAGEIF(B1:B4,">15")'), 30);
  assert.equal(f('=AVERAGEIFS(B1:B4,C1:C4,"x")'), (10 + 30 + 40) / 3);
  assert.equal(f('=COUNTIFS(C1:C4,"x",B1:B4,"<35")'), 2);
  assert.equal(f('=MAXIFS(B1:B4,C1:C4,"x")'), 40);
});

test('dynamic arrays: XLOOKUP, FILTER, SORT, UNIQUE, SEQUENCE; IFERROR, ROUND, arithmetic over a spill', () => {
  const f = sheet({ A1: 'bitcoin', A2: 'ethereum', A3: 'solana', B1: 100, B2: 30, B3: 2 }, { CLOSES: [[3], [1], [2]] });
  assert.equal(f('=XLOOKUP("ETHEREUM",A1:A3,B1:B3)'), 30);
  assert.deepEqual(f('=XLOOKUP("dogecoin",A1:A3,B1:B3)'), { error: '#N/A', message: 'XLOOKUP found no match for "dogecoin"' });
  assert.equal(f('=XLOOKUP("dogecoin",A1:A3,B1:B3,"none")'), 'none');
  assert.equal(f('=XLOOKUP(50,B1:B3,A1:A3,,-1)'), 'ethereum', 'exact or next smaller');
  assert.deepEqual(f('=FILTER(A1:A3,B1:B3>10)'), [['bitcoin'], ['ethereum']]);
  assert.equal((f('=FILTER(A1:A3,B1:B3>1000)') as { error: string }).error, '#CALC!');
  assert.deepEqual(f('=SORT(CRYPTO.CLOSES())'), [[1], [2], [3]]);
  assert.deepEqual(f('=SORT(B1:B3,1,-1)'), [[100], [30], [2]]);
  assert.deepEqual(f('=SORT({10;9;"a";TRUE})'), [[9], [10], ['a'], [true]], 'numbers, then text, then logical values');
  assert.deepEqual(f('=UNIQUE({"a";"A";"b"})'), [['a'], ['b']]);
  assert.deepEqual(f('=SEQUENCE(2,2,0,5)'), [[0, 5], [10, 15]]);
  assert.equal(f('=IFERROR(1/0,"n/a")'), 'n/a');
  assert.equal(f('=ROUND(2.345,2)'), 2.35);
  assert.deepEqual(f('=ROUND(CRYPTO.CLOSES()/3,2)'), [[1], [0.33], [0.67]]);
  assert.equal(f('=MAX(CRYPTO.CLOSES())*2'), 6);
});

test('a function the engine does not know is #NAME? naming it; a pending CRYPTO call is #BUSY! through every function, even IFERROR', () => {
  const f = sheet({}, { PRICE: [[5]] });
  assert.deepEqual(f('=FOO(1)'), { error: '#NAME?', message: 'Unknown function FOO' });
  assert.deepEqual(f('=CRYPTO.NOPE(1)'), { error: '#NAME?', message: 'Unknown function CRYPTO.NOPE' });
  // formulajs's undotted spellings are no Excel functions (Excel: NETWORKDAYS.INTL, WORKDAY.INTL).
  assert.deepEqual(f('=NETWORKDAYSINTL(1,2)'), { error: '#NAME?', message: 'Unknown function NETWORKDAYSINTL' });
  assert.deepEqual(f('=WORKDAYINTL(1,2)'), { error: '#NAME?', message: 'Unknown function WORKDAYINTL' });
  assert.equal(typeof f('=NETWORKDAYS.INTL(45292,45322)'), 'number');
  assert.equal(f('=0.75*CRYPTO.PRICE("bitcoin")+10'), 13.75);
  const g = new Engine([{ id: 'SLOW', name: 'SLOW' }]);
  const scope: Scope = { cell: () => null, range: () => [[null]], customFunction: () => null };
  assert.equal((g.evaluate('=IFERROR(CRYPTO.SLOW(),0)', { row: 1, col: 1 }, scope) as { error: string }).error, '#BUSY!');
  assert.equal((g.evaluate('=SUM(CRYPTO.SLOW(),1)', { row: 1, col: 1 }, scope) as { error: string }).error, '#BUSY!');
});

test('an error argument is the CRYPTO call\'s result, as Excel does not call a custom function with one: #REF! and #NAME? too, which a function cannot return', () => {
  const REF_MSG: Value = { error: '#REF!', message: 'no such cell' };
  const f = sheet({ A1: REF_MSG, A2: { error: '#NAME?' }, A3: NA_KEY, A4: 'bitcoin' }, { PRICE: [[5]] });
  assert.deepEqual(f('=CRYPTO.PRICE(A1)'), REF_MSG);
  assert.deepEqual(f('=CRYPTO.PRICE(A4,A2)'), { error: '#NAME?' });
  assert.deepEqual(f('=CRYPTO.PRICE(A3)*2'), NA_KEY);
  assert.deepEqual(f('=CRYPTO.PRICE(1/0)'), { error: '#DIV/0!' });
  assert.equal(f('=CRYPTO.PRICE(A4)'), 5);
});

test('an undefined name is #NAME? saying to put text in double quotes; text in curly quotes, to use straight ones (both were "wrong type" in a CRYPTO call)', () => {
  const f = sheet({}, { PRICE: [[5]] });
  const unquoted = { error: '#NAME?', message: '"bitcoin" is not a defined name: put text in double quotes, e.g. "bitcoin"' };
  const curly = { error: '#NAME?', message: 'Use straight double quotes (") around text, not “ ”' };
  assert.deepEqual(f('=CRYPTO.PRICE(bitcoin)'), unquoted);
  assert.deepEqual(f('=bitcoin*2'), unquoted);
  assert.deepEqual(f('=CRYPTO.PRICE(“bitcoin”)'), curly);
  assert.deepEqual(f('=CRYPTO.PRICE(“bitcoin cash”)'), curly, 'two names around a space: the name is the error, not the intersection');
  assert.deepEqual(f('=CRYPTO.PRICE(‘bitcoin’)'), curly);
  assert.equal(f('=CRYPTO.PRICE("“bitcoin”")'), 5, 'curly quotes inside text are text');
  assert.equal(f('=LET(coin,"bitcoin",LEN(coin))'), 7, 'a LET name is defined');
});

test('dates in UTC: TODAY, DATE, EOMONTH, EDATE, YEAR; text dates in arithmetic', () => {
  const f = sheet({});
  assert.equal(f('=TODAY()'), 46037, '2026-01-15');
  assert.equal(f('=DATE(2024,1,1)'), 45292);
  assert.equal(f('=EOMONTH(DATE(2024,1,15),1)'), 45351);
  assert.equal(f('=EDATE(DATE(2024,1,31),1)'), 45351, 'the month\'s last day when it is shorter');
  assert.equal(f('=YEAR(45292)'), 2024);
  assert.equal(f('="2024-01-02"-DATE(2024,1,1)'), 1);
  assert.equal(f('=TEXT(DATE(2024,3,15),"yyyy-mm-dd")'), '2024-03-15');
});

test('formatted numbers (CustomFunctionsRuntime 1.4): formulas see basicValue; the grid shows numberFormat; General as Excel shows it', () => {
  const fn = { type: 'FormattedNumber', basicValue: 45292, numberFormat: 'yyyy-mm-dd' } as const;
  const f = sheet({ A1: fn }, { DATES: [[fn], [{ ...fn, basicValue: 45293 }]] });
  assert.equal(f('=A1+1'), 45293);
  assert.equal(f('=MAX(CRYPTO.DATES())'), 45293);
  assert.deepEqual(f('=INDEX(CRYPTO.DATES(),1,1)'), fn, 'a picked cell keeps its format');
  assert.equal(displayText(fn), '2024-01-01');
  assert.equal(displayText(fn, '#,##0'), '45,292', "a format set on the cell wins");
  assert.equal(displayText(2161700000000), '2.1617E+12');
  assert.equal(displayText(362676000000), '3.62676E+11');
  assert.equal(displayText(1 / 3), '0.333333333');
  assert.equal(displayText(0.1234, '0.00%'), '12.34%');
  assert.equal(displayText(1234.5, '#,##0.00'), '1,234.50');
  assert.equal(automaticFormat('=TODAY()-1'), 'yyyy-mm-dd');
  assert.equal(automaticFormat('=CRYPTO.OHLCV("bitcoin","2024")'), undefined, 'no format guessed for a custom function');
});

test('paste and fill: one value a cell; a filled formula moves its relative references', () => {
  assert.deepEqual(pasteInputs('bitcoin\r\nethereum\r\nsolana\r\n', { row: 4, col: 1 }), { A4: 'bitcoin', A5: 'ethereum', A6: 'solana' });
  assert.deepEqual(pasteInputs('a\tb\nc\td', { row: 1, col: 2 }), { B1: 'a', C1: 'b', B2: 'c', C2: 'd' });
  assert.equal(movedInput('=B4*C4', 'E4', 'E5'), '=B5*C5');
  assert.equal(movedInput('=CRYPTO.PRICE(A4)*$B$1', 'C4', 'C9'), '=CRYPTO.PRICE(A9)*$B$1');
  assert.equal(movedInput('bitcoin', 'A1', 'A2'), 'bitcoin');
});
