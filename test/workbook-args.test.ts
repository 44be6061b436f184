/**
 * What a workbook hands the formulas and what they hand back, in Node: blank
 * cells as null or as 0 (older desktop builds, office-js#4702, #5262, #1951),
 * data types passed as coins (allowCustomDataForDataTypeAny), dates as
 * formatted numbers on CustomFunctionsRuntime 1.4 and plain serials elsewhere,
 * and the 1904 date system.
 *
 *   node --import tsx --test test/workbook-args.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  choiceArg, choicesOf, coinArg, currencyArg, fieldArg, flatCells, flatValues, headersArg, intArg, scalar, textArg,
} from '../src/formulas/args';
import { rangeArgs, spanArg } from '../src/formulas/span-args';
import { COIN_ENTITY } from '../src/formulas/data-type-arg';
import { CellError, DAYS_1900_TO_1904, DateCell, FormulaError, dateCell, forWorkbook, table, workbookCell } from '../src/formulas/cells';
import type { Arg } from '../src/formulas/args';
import { loadFunctionMetadata } from '../src/cli/metadata';
import type { Session } from '../src/cli/session';
import { testSession } from './support/frozen-session';

const NOW = Date.UTC(2026, 10, 21, 15, 30);
const valueError = (re: RegExp) => (e: unknown) => e instanceof FormulaError && e.code === '#VALUE!' && re.test(e.message);

describe('a blank cell as 0 (older desktop builds) means not given where 0 is no value', () => {
  test('coins: a 0 is no coin (required alone; a blank row in a range)', () => {
    assert.throws(() => coinArg(0), valueError(/^coin is required/));
    assert.throws(() => coinArg(null), valueError(/^coin is required/));
    assert.deepEqual(flatCells([['bitcoin'], [0], [''], [null], ['ethereum']]), ['bitcoin', null, null, null, 'ethereum']);
    assert.equal(coinArg(1), 1);
  });

  test('dates: a 0 is an omitted date, so an end of 0 runs to now and a start alone is its period', () => {
    assert.equal(spanArg(0, 'end', NOW, '1900'), null);
    assert.deepEqual(rangeArgs('2024-01-01', 0, NOW, '1900'), rangeArgs('2024-01-01', null, NOW, '1900'));
    assert.deepEqual(rangeArgs('2024', 0, NOW, '1900'), { start: Date.UTC(2024, 0, 1), end: Date.UTC(2025, 0, 1) });
    assert.throws(() => spanArg(-1, 'start', NOW, '1900'), valueError(/^start must be a date/));
  });

  test('text choices: 0 (or "0", how a string-typed enum parameter may receive it) is the default, unless 0 is a choice', () => {
    const order = choicesOf(['asc', 'desc']);
    assert.equal(choiceArg(0, 'sortOrder', order, 'desc'), 'desc');
    assert.equal(choiceArg('0', 'sortOrder', order, 'desc'), 'desc');
    assert.throws(() => choiceArg(0, 'period', order, undefined), valueError(/^period is required/));
    // STOCKHISTORY's interval 0 is daily: a choice, so it keeps its meaning.
    const interval = { daily: 'day', weekly: 'week', '0': 'day', '1': 'week' };
    assert.equal(choiceArg(1, 'interval', interval, 'day'), 'week');
    assert.equal(choiceArg(0, 'interval', interval, 'week'), 'day');
  });

  test('texts and field names: a 0 is not given; numbers keep their 0; headers keep STOCKHISTORY\'s 0 (no header row)', () => {
    assert.equal(textArg(0, 'query'), null);
    assert.equal(fieldArg(0, ['price', 'marketCap']), null);
    assert.throws(() => intArg(0, 'count', 1, 100, 10), valueError(/^count must be a whole number from 1 to 100; got 0$/));
    assert.equal(intArg(0, 'minUsdAmount', 0, 100, undefined), 0);
    assert.equal(headersArg(0), false);
    assert.equal(headersArg(null), true);
  });

  test('a parameter typed string may get the blank as "0": texts, field names and currencies read it as not given', () => {
    assert.equal(textArg('0', 'query'), null);
    assert.equal(fieldArg('0', ['price', 'marketCap']), null);
    assert.equal(currencyArg('0', 'USD'), 'USD');
    assert.equal(currencyArg(0, 'EUR'), 'EUR');
    // Only the blank: other text is still checked.
    assert.throws(() => currencyArg('00', 'USD'), valueError(/^currency must be a three-letter currency code/));
    assert.throws(() => fieldArg('1', ['price']), valueError(/^field must be one of: price; got "1"$/));
  });

  test('lists of names drop the 0s only where no name is 0 (QUOTE fields); OHLCV keeps STOCKHISTORY\'s 0 Date', () => {
    assert.deepEqual(flatValues([['price'], [0], [null]], { zeroIsBlank: true }), ['price']);
    assert.deepEqual(flatValues([[0], [1], [null]]), [0, 1]);
  });
});

describe('data types as arguments (CustomFunctionsRuntime 1.4)', () => {
  const str = (basicValue: string) => ({ type: 'String', basicValue });
  test('the add-in\'s own coin entity is its id; another entity is read by slug, name or text', () => {
    const ours = { type: 'Entity', text: 'Bitcoin', provider: { description: COIN_ENTITY.provider }, properties: { [COIN_ENTITY.id]: { type: 'Double', basicValue: 1 }, Name: str('Bitcoin') } };
    assert.equal(coinArg(ours), 1);
    assert.equal(coinArg([[ours]]), 1);
    const foreignWithId = { type: 'Entity', text: 'Solana', properties: { id: { type: 'Double', basicValue: 7 }, name: str('Solana') } };
    assert.equal(coinArg(foreignWithId), 'Solana', 'an id is ours only when the provider is');
    assert.equal(coinArg({ type: 'LinkedEntity', text: 'Ether (ETH)', id: { serviceId: 1 }, properties: { Slug: 'ethereum' } }), 'ethereum');
    assert.equal(coinArg({ type: 'Entity', text: 'Cardano' }), 'Cardano');
  });

  test('basic values that arrive as objects are their basicValue; anything else is #VALUE! naming what it got', () => {
    assert.equal(scalar({ type: 'FormattedNumber', basicValue: 45292, numberFormat: 'yyyy-mm-dd' }), 45292);
    assert.equal(coinArg({ type: 'String', basicValue: 'solana' }), 'solana');
    assert.deepEqual(spanArg({ type: 'Double', basicValue: 45292 }, 'start', NOW, '1900'), { start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 0, 2) });
    assert.throws(() => coinArg({ type: 'Entity', properties: {} }), valueError(/^coin must be .*a coin data type; got a data type \(Entity\)$/));
    assert.throws(() => coinArg({ type: 'WebImage', address: 'https://x' }), valueError(/got a WebImage value$/));
    assert.throws(() => textArg({ type: 'Entity', text: 'Microsoft Corp' }, 'query'), valueError(/^query must be text; got a data type "Microsoft Corp" \(Entity\)$/));
    assert.throws(() => choiceArg({ type: 'Entity', text: 'x' }, 'period', choicesOf(['monthly']), undefined), valueError(/got a data type "x"/));
  });

  test('lookups are prototype-safe: "constructor" is not a choice', () => {
    assert.throws(() => choiceArg('constructor', 'period', choicesOf(['monthly']), undefined), valueError(/got "constructor"/));
  });
});

describe('dates for the workbook: formatted numbers on 1.4, plain serials elsewhere, in the workbook\'s date system', () => {
  const at1900 = { formattedNumbers: false, dateSystem: '1900' } as const;
  test('a day is its date format, a time the date-time format; a table column with times shows every row with its time', () => {
    assert.deepEqual(dateCell(Date.UTC(2024, 0, 1)), new DateCell(45292, 'yyyy-mm-dd'));
    assert.deepEqual(dateCell(Date.UTC(2024, 0, 1, 6)), new DateCell(45292.25, 'yyyy-mm-dd hh:mm'));
    const g = table([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 1, 1)], [{ header: 'Time', cell: (ms: number) => dateCell(ms) }], false);
    assert.deepEqual(g.map((r) => (r[0] as DateCell).numberFormat), ['yyyy-mm-dd hh:mm', 'yyyy-mm-dd hh:mm']);
  });

  test('an empty table is #N/A with its message, headers or not: a header row alone would read as an answer', () => {
    const cols = [{ header: 'Date', cell: (ms: number) => dateCell(ms) }];
    for (const headers of [true, false]) {
      const g = table([], cols, headers, 'No readings in this range');
      assert.equal(g.length, 1);
      assert.ok(g[0][0] instanceof CellError && g[0][0].error === '#N/A' && g[0][0].message === 'No readings in this range', String(headers));
    }
    assert.deepEqual(table([Date.UTC(2024, 0, 1)], cols, true)[0], ['Date'], 'a table with rows keeps its header');
  });

  test('1.4: Excel.FormattedNumberCellValue; 1.3: the serial; errors and other cells unchanged', () => {
    const d = new DateCell(45292, 'yyyy-mm-dd');
    const fn: Excel.FormattedNumberCellValue = workbookCell(d, { formattedNumbers: true, dateSystem: '1900' }) as Excel.FormattedNumberCellValue;
    assert.deepEqual(fn, { type: 'FormattedNumber', basicValue: 45292, numberFormat: 'yyyy-mm-dd' });
    assert.equal(workbookCell(d, at1900), 45292);
    const err = new CellError('#N/A', 'x');
    assert.deepEqual(forWorkbook([[d, 1, 'a', err]], at1900), [[45292, 1, 'a', err]]);
    assert.equal(forWorkbook(d, at1900), 45292);
  });

  test('the 1904 system: dates read and written 1,462 days apart, the same day either way', () => {
    const d = new DateCell(45292, 'yyyy-mm-dd');
    assert.equal(workbookCell(d, { formattedNumbers: false, dateSystem: '1904' }), 43830);
    assert.deepEqual(workbookCell(d, { formattedNumbers: true, dateSystem: '1904' }), { type: 'FormattedNumber', basicValue: 43830, numberFormat: 'yyyy-mm-dd' });
    assert.deepEqual(spanArg(43830, 'start', NOW, '1904'), spanArg(45292, 'start', NOW, '1900'));
    assert.deepEqual(rangeArgs(43830, 43860, NOW, '1904'), rangeArgs(45292, 45322, NOW, '1900'));
    // Text dates do not depend on the system.
    assert.deepEqual(spanArg('2024-01-01', 'start', NOW, '1904'), spanArg('2024-01-01', 'start', NOW, '1900'));
  });
});

describe('every formula with a date argument reads it in the workbook\'s date system', () => {
  // 2024-01-01 .. 2024-03-31 as each system's serials; headers off, so every cell is data.
  const DATED: Record<string, (start: number, end: number) => Arg[]> = {
    OHLCV: (a, b) => ['bitcoin', a, b, 'daily', 0, null],
    SPARKLINE: (a, b) => ['bitcoin', 0, a, b, '1d'],
    HISTORICAL: (a) => ['bitcoin', a, null, null],
    RETURNS: (a, b) => ['bitcoin', 'monthly', 0, a, b, null],
    STATS: (a, b) => [[['bitcoin']], a, b, null, [['return']], null, 0, null],
    CORREL: (a, b) => [[['bitcoin', 'ethereum']], a, b, 0],
    TVL: (a, b) => ['ethereum', a, b, 0],
    FEARGREED: (a, b) => [a, b, 0, null],
    ALTSEASON: (a, b) => [a, b, 0, null],
    DOMINANCE: (a, b) => ['btc', a, b, 0],
  };
  /** A 1904 workbook's answer as the 1900 one would read: its date cells 1,462 days on. */
  const as1900 = (r: unknown): unknown =>
    Array.isArray(r) ? r.map(as1900)
      : r && typeof r === 'object' && (r as { type?: string }).type === 'FormattedNumber' && /y/.test((r as { numberFormat: string }).numberFormat)
        ? { ...r, basicValue: (r as { basicValue: number }).basicValue + DAYS_1900_TO_1904 }
        : r;
  let s1900: Session;
  let s1904: Session;

  test('the list covers every formula with a start, end or date parameter', async () => {
    const dated = (await loadFunctionMetadata()).filter((f) => f.parameters.some((p) => /^(start|end|date)$/.test(p.name))).map((f) => f.id);
    assert.deepEqual([...dated].sort(), Object.keys(DATED).sort());
  });

  for (const [id, args] of Object.entries(DATED)) {
    test(`${id}: the same days, and the same answer, in a 1904 workbook as in a 1900 one`, async () => {
      s1900 ??= await testSession({ workbook: { dateSystem: '1900', formattedNumbers: true } });
      s1904 ??= await testSession({ workbook: { dateSystem: '1904', formattedNumbers: true } });
      const a = await s1900.host.evaluate(id, args(45292, 45382));
      const b = await s1904.host.evaluate(id, args(45292 - DAYS_1900_TO_1904, 45382 - DAYS_1900_TO_1904));
      const json = (r: unknown) => JSON.parse(JSON.stringify(r)) as unknown; // date cells as Excel's FormattedNumber
      assert.deepEqual(as1900(json(b)), json(a));
    });
  }

  test('closes its sessions', async () => {
    await s1900?.close();
    await s1904?.close();
  });
});
