/**
 * The Office edge of the custom functions (src/office/custom-functions.ts,
 * workbook-traits.ts) in Node, with Office.js's globals stood in for: what a
 * result becomes on a CustomFunctionsRuntime 1.4 client and on an older one,
 * and how the workbook's date system is read.
 *
 *   node --import tsx --test test/office-glue.test.ts
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { CellError, DateCell } from '../src/formulas/cells';
import { run, toExcel } from '../src/office/custom-functions';
import { ERROR_RULES } from '../src/client/error-rules';
import { DateSystemProbe, dateSystemOf, formattedNumbersSupported, workbookTraits } from '../src/office/workbook-traits';
import { customFunctionsStandIn, removeOfficeGlobals } from './support/office-globals';

const g = globalThis as Record<string, unknown>;

/** Office.js as a client advertising CustomFunctionsRuntime up to `version`, in a workbook on `dates`. */
function office(version: string, dates: '1900' | '1904', opts: { failDate?: boolean; slowMs?: number } = {}) {
  const calls: string[] = [];
  g.Office = { context: { requirements: { isSetSupported: (name: string, v: string) => name === 'CustomFunctionsRuntime' && Number(v) <= Number(version) } } };
  g.Excel = {
    run: async (batch: (ctx: unknown) => Promise<unknown>) => {
      const result = { value: undefined as number | undefined, load: () => calls.push('load') };
      return batch({
        workbook: { functions: { date: (y: number, m: number, d: number) => (calls.push(`DATE(${y},${m},${d})`), result) } },
        sync: async () => {
          if (opts.slowMs) await new Promise((r) => setTimeout(r, opts.slowMs));
          if (opts.failDate) throw new Error('InvalidOperation');
          result.value = dates === '1904' ? 0 : 1462;
        },
      });
    },
  };
  g.CustomFunctions = customFunctionsStandIn();
  return calls;
}

afterEach(removeOfficeGlobals);

const table = () => [['Date', 'Close'], [new DateCell(45292, 'yyyy-mm-dd'), 42000], [new DateCell(45293.5, 'yyyy-mm-dd hh:mm'), new CellError('#N/A', 'missing close')]];

test('on CustomFunctionsRuntime 1.4 dates go to Excel as formatted numbers; errors as CustomFunctions.Error', async () => {
  office('1.4', '1900');
  const traits = await workbookTraits(new DateSystemProbe());
  assert.deepEqual(traits, { formattedNumbers: true, dateSystem: '1900' });
  const out = toExcel(table(), traits) as unknown[][];
  assert.deepEqual(out[1], [{ type: 'FormattedNumber', basicValue: 45292, numberFormat: 'yyyy-mm-dd' }, 42000]);
  assert.deepEqual(out[2][0], { type: 'FormattedNumber', basicValue: 45293.5, numberFormat: 'yyyy-mm-dd hh:mm' });
  const err = out[2][1] as { code: string; message: string };
  assert.ok(err instanceof (g.CustomFunctions as { Error: new () => Error }).Error);
  assert.equal(err.code, '#N/A');
  assert.equal(err.message, 'missing close');
});

test('on 1.3 (perpetual Office) dates go as plain serials; a single error result is thrown', async () => {
  office('1.3', '1900');
  const traits = await workbookTraits(new DateSystemProbe());
  assert.equal(traits.formattedNumbers, false);
  assert.deepEqual((toExcel(table(), traits) as unknown[][])[1], [45292, 42000]);
  assert.equal(toExcel(new DateCell(45292, 'yyyy-mm-dd'), traits), 45292);
  assert.throws(() => toExcel(new CellError('#VALUE!', 'bad'), traits), (e: { code?: string }) => e.code === '#VALUE!');
});

test('the 1904 date system is read through Excel\'s DATE(1904,1,1) (0 there, 1462 in the 1900 system), once; dates are written 1,462 days less', async () => {
  const calls = office('1.4', '1904');
  const dates = new DateSystemProbe();
  assert.equal(await dates.read(), '1904');
  assert.equal(await dates.read(), '1904');
  assert.deepEqual(calls, ['DATE(1904,1,1)', 'load'], 'asked once');
  const out = toExcel(table(), await workbookTraits(dates)) as unknown[][];
  assert.deepEqual(out[1][0], { type: 'FormattedNumber', basicValue: 43830, numberFormat: 'yyyy-mm-dd' });
});

test('a call that cannot wait for a slow answer counts the workbook as 1900; the calls after it get the answer', async () => {
  const calls = office('1.4', '1904', { slowMs: 80 });
  const dates = new DateSystemProbe();
  assert.equal(await dates.read(10), '1900', 'this call');
  await new Promise((r) => setTimeout(r, 120));
  assert.equal(await dates.read(10), '1904', 'the next ones');
  assert.deepEqual(calls, ['DATE(1904,1,1)', 'load'], 'still asked once');
});

test('a 1904 answer that comes after a call went on as 1900 asks for the workbook again, once; a 1900 one or a timely one does not', async () => {
  // The calls that counted the workbook 1900 answered for days 4 years and 1 day off, with no error: the runtime recalculates.
  const late: string[] = [];
  office('1.4', '1904', { slowMs: 60 });
  const dates = new DateSystemProbe({ onLateAnswer: (d) => late.push(d) });
  assert.equal(await dates.read(5), '1900', 'this call could not wait');
  assert.equal(await dates.read(5), '1900', 'nor this one');
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(late, ['1904'], 'asked again once');
  assert.equal(await dates.read(5), '1904');
  assert.deepEqual(late, ['1904']);

  const none: string[] = [];
  office('1.4', '1900', { slowMs: 60 });
  const slow1900 = new DateSystemProbe({ onLateAnswer: (d) => none.push(d) });
  assert.equal(await slow1900.read(5), '1900');
  office('1.4', '1904', { slowMs: 10 });
  const timely = new DateSystemProbe({ onLateAnswer: (d) => none.push(d) });
  assert.equal(await timely.read(200), '1904', 'waited for');
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(none, [], 'a 1900 answer was right all along; a timely one was used');
});

test('ask() puts the question as the runtime starts; a read after it waits on that answer, not a second one', async () => {
  const calls = office('1.4', '1904', { slowMs: 30 });
  const dates = new DateSystemProbe();
  const asked = dates.ask();
  assert.deepEqual(calls, ['DATE(1904,1,1)', 'load'], 'asked at once, before anyone reads');
  assert.equal(await dates.read(), '1904');
  assert.equal(await asked, '1904');
  assert.equal(calls.length, 2, 'asked once');
});

test('a call canceled before the runtime is ready settles at once: #N/A in the words of the table\'s ABORTED row', async () => {
  office('1.4', '1900');
  const inv = { address: 'Sheet1!A1' } as { address: string; onCanceled?: () => void };
  const pending = run('PRICE', inv as unknown as CustomFunctions.CancelableInvocation, ['bitcoin', null]);
  inv.onCanceled!();
  const said = ERROR_RULES.ABORTED.say({ code: 'ABORTED', message: '' }, 'PRICE');
  await assert.rejects(pending, (e: { code?: string; message?: string }) => e.code === '#N/A' && e.message === said);
});

test('when Excel cannot say (no Office, or the call fails) the workbook counts as the 1900 system and 1.3', async () => {
  assert.equal(formattedNumbersSupported(), false);
  assert.equal(await new DateSystemProbe().read(), '1900');
  office('1.4', '1904', { failDate: true });
  assert.equal(await new DateSystemProbe().read(), '1900');
  assert.equal(dateSystemOf(1462), '1900');
  assert.equal(dateSystemOf(0), '1904');
  assert.equal(dateSystemOf(undefined), '1900');
});
