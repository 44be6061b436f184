/**
 * The preview's custom-functions runtime (src/preview/runtime), in Node: the
 * rules of docs/preview-runtime.md, with small functions registered through
 * CustomFunctions.associate as functions.js registers them.
 *
 *   node --import tsx --test test/preview-runtime.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CustomFunctionsRuntime, toGrid, type CallRequest } from '../src/preview/runtime/runtime';
import { serialFromDate } from '../src/preview/runtime/marshal';
import type { FunctionMetadata } from '../src/preview/runtime/metadata';
import type { ResultGrid } from '../src/preview/runtime/values';

const META: FunctionMetadata[] = [
  {
    id: 'ECHO',
    name: 'ECHO',
    parameters: [
      { name: 'a', type: 'any' },
      { name: 'b', type: 'number', optional: true },
      { name: 'm', type: 'any', dimensionality: 'matrix', optional: true },
    ],
    result: { dimensionality: 'matrix' },
    options: { cancelable: true, requiresAddress: true, requiresParameterAddresses: true },
  },
  { id: 'SHAPES', name: 'SHAPES', parameters: [{ name: 'grid', type: 'boolean' }] },
  { id: 'REST', name: 'REST', parameters: [{ name: 'x', type: 'string' }, { name: 'more', type: 'any', repeating: true, optional: true }] },
  { id: 'TICK', name: 'TICK', parameters: [{ name: 'start', type: 'number' }], options: { stream: true } },
  { id: 'PLAIN', name: 'PLAIN', parameters: [], result: { dimensionality: 'matrix' } },
];

function setup() {
  const rt = new CustomFunctionsRuntime();
  rt.load({ functions: META });
  const seen: { args: unknown[]; invocation: any }[] = [];
  const CF = rt.namespace;
  CF.associate('ECHO', (...all: unknown[]) => {
    const invocation = all.pop();
    seen.push({ args: all, invocation });
    return new Promise((resolve) => setTimeout(() => resolve([[all.length]]), 5));
  });
  CF.associate({ REST: (...all: unknown[]) => JSON.stringify(all.slice(0, -1)) });
  CF.associate('tick', (start: number, inv: any) => {
    let n = start;
    inv.setResult(n);
    const t = setInterval(() => inv.setResult(++n), 5);
    inv.onCanceled = () => {
      clearInterval(t);
      seen.push({ args: ['canceled'], invocation: inv });
    };
  });
  CF.associate('SHAPES', (grid: boolean) => (grid ? [[1, 2]] : 3));
  CF.associate('PLAIN', () => {
    throw new CF.Error(CF.ErrorCode.divisionByZero, 'ignored message');
  });
  return { rt, seen };
}

function once(rt: CustomFunctionsRuntime, req: CallRequest): Promise<ResultGrid> {
  return new Promise((resolve) => rt.call(req, resolve));
}

test('associate registers by id, either one function or a map of them, case-insensitively', () => {
  const { rt } = setup();
  assert.deepEqual(rt.registered().map((m) => m.id).sort(), ['ECHO', 'PLAIN', 'REST', 'SHAPES', 'TICK']);
  assert.throws(() => rt.namespace.associate('X', 42 as never), /not a function/);
});

test('omitted optional arguments arrive as null, a matrix parameter as a 2-D array, the invocation last', async () => {
  const { rt, seen } = setup();
  const grid = await once(rt, { id: 'ECHO', args: [{ value: 'btc', address: 'Sheet1!A1' }], address: 'Sheet1!C3' });
  assert.deepEqual(grid, [[3]]);
  assert.deepEqual(seen[0].args, ['btc', null, null]);
  assert.equal(seen[0].invocation.address, 'Sheet1!C3');
  assert.deepEqual(seen[0].invocation.parameterAddresses, ['Sheet1!A1']);
  assert.equal(seen[0].invocation.isInValuePreview, false);
  await once(rt, { id: 'ECHO', args: [{ value: 1 }, { omitted: true }, { value: 7 }], address: 'Sheet1!C4' });
  assert.deepEqual(seen[1].args, [1, null, [[7]]]);
  await once(rt, { id: 'ECHO', args: [{ value: 1 }, { value: '2.5' }, { value: [[1, 'a'], [null, true]] }], address: 'Sheet1!C5', preview: true });
  assert.deepEqual(seen[2].args, [1, 2.5, [[1, 'a'], [null, true]]]);
  assert.equal(seen[2].invocation.isInValuePreview, true);
});

test('a number parameter refuses text that is not a number: #VALUE! naming the parameter', async () => {
  const { rt, seen } = setup();
  const grid = await once(rt, { id: 'ECHO', args: [{ value: 1 }, { value: 'ten' }], address: 'A1' });
  assert.deepEqual(grid, [[{ error: '#VALUE!', message: 'b must be a number' }]]);
  assert.equal(seen.length, 0, 'the function is not called');
});

test('an error value in an argument is the result, without calling the function', async () => {
  const { rt, seen } = setup();
  const grid = await once(rt, { id: 'ECHO', args: [{ value: { error: '#N/A', message: 'Unknown coin' } }], address: 'A1' });
  assert.deepEqual(grid, [[{ error: '#N/A', message: 'Unknown coin' }]]);
  assert.equal(seen.length, 0);
});

test('a repeating parameter gets one array of the remaining arguments; a scalar parameter refuses a range', async () => {
  const { rt } = setup();
  assert.deepEqual(await once(rt, { id: 'REST', args: [{ value: 5 }, { value: 'a' }, { value: [[2]] }], address: 'A1' }), [['["5",["a",2]]']]);
  assert.deepEqual(await once(rt, { id: 'REST', args: [{ value: 'x' }], address: 'A1' }), [['["x",[]]']]);
  assert.deepEqual(await once(rt, { id: 'REST', args: [{ value: [[1, 2]] }], address: 'A1' }), [[{ error: '#VALUE!', message: 'x takes one value, not a range' }]]);
});

test('too many arguments for a function without a repeating parameter is #VALUE!', async () => {
  const { rt } = setup();
  const grid = await once(rt, { id: 'PLAIN', args: [{ value: 1 }], address: 'A1' });
  assert.equal((grid[0][0] as { error: string }).error, '#VALUE!');
});

test('messages are kept only on #VALUE! and #N/A; a thrown plain Error is #VALUE! without its text', async () => {
  const { rt } = setup();
  assert.deepEqual(await once(rt, { id: 'PLAIN', args: [], address: 'A1' }), [[{ error: '#DIV/0!' }]]);
  const CF = rt.namespace;
  assert.deepEqual(toGrid(new CF.Error(CF.ErrorCode.notAvailable, 'No key')), [[{ error: '#N/A', message: 'No key' }]]);
  assert.deepEqual(toGrid([[1, new CF.Error(CF.ErrorCode.invalidValue, 'bad')], [2]]), [[1, { error: '#VALUE!', message: 'bad' }], [2, { error: '#N/A' }]]);
  assert.deepEqual(toGrid(new CF.Error(CF.ErrorCode.invalidName)), [[{ error: '#VALUE!' }]], '#NAME? is an input error only');
  CF.associate('PLAIN', () => Promise.reject(new Error('secret detail')));
  assert.deepEqual(await once(rt, { id: 'PLAIN', args: [], address: 'A1' }), [[{ error: '#VALUE!' }]]);
});

test('an unknown function id is #NAME?', async () => {
  const { rt } = setup();
  assert.deepEqual(await once(rt, { id: 'NOPE', args: [], address: 'A1' }), [[{ error: '#NAME?' }]]);
});

test('cancel() calls onCanceled of a cancelable function and drops its late result', async () => {
  const { rt, seen } = setup();
  const results: ResultGrid[] = [];
  let canceledCalled = false;
  rt.namespace.associate('ECHO', (_a: unknown, _b: unknown, _m: unknown, inv: any) => {
    inv.onCanceled = () => (canceledCalled = true);
    return new Promise((r) => setTimeout(() => r(1), 10));
  });
  const call = rt.call({ id: 'ECHO', args: [{ value: 1 }], address: 'A1' }, (g) => results.push(g));
  call.cancel();
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(canceledCalled, true);
  assert.deepEqual(results, []);
  assert.equal(seen.length, 0);
});

test('a streaming function delivers every setResult until canceled, then onCanceled runs', async () => {
  const { rt, seen } = setup();
  const results: ResultGrid[] = [];
  const call = rt.call({ id: 'TICK', args: [{ value: 10 }], address: 'A1' }, (g) => results.push(g));
  await new Promise((r) => setTimeout(r, 40));
  call.cancel();
  const count = results.length;
  assert.ok(count >= 3, `several updates, got ${count}`);
  assert.deepEqual(results.slice(0, 3), [[[10]], [[11]], [[12]]]);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(results.length, count, 'nothing after cancel');
  assert.deepEqual(seen.at(-1)?.args, ['canceled']);
});

test('dates are Excel serial numbers (1900 system, UTC)', () => {
  assert.equal(serialFromDate(new Date(Date.UTC(2024, 0, 1))), 45292);
  assert.equal(serialFromDate(new Date(Date.UTC(1900, 2, 1))), 61);
});

test('the preview is in the development build only: production has no preview entry or page', async () => {
  // A URL, not a literal path: the config is plain JavaScript without types.
  const config = (await import(new URL('../webpack.config.js', import.meta.url).href)).default as (env: unknown, o: { mode: string }) => Promise<{ entry: Record<string, unknown>; plugins: object[] }>;
  const pages = (c: { plugins: object[] }) =>
    c.plugins.map((p) => (p as { userOptions?: { filename?: string } }).userOptions?.filename).filter((f): f is string => typeof f === 'string');
  const prod = await config({}, { mode: 'production' });
  assert.deepEqual(Object.keys(prod.entry).sort(), ['functions', 'taskpane']);
  assert.deepEqual(pages(prod), ['taskpane.html']);
  const dev = await config({}, { mode: 'development' });
  assert.deepEqual(Object.keys(dev.entry).sort(), ['functions', 'preview', 'preview-host', 'taskpane']);
  assert.deepEqual(pages(dev).sort(), ['index.html', 'preview-pane.html', 'taskpane.html']);
});

// ---------------------------------------------------------------- the Excel being played (issue #27)

function setupWith(options: ConstructorParameters<typeof CustomFunctionsRuntime>[0]) {
  const rt = new CustomFunctionsRuntime(options);
  rt.load({ functions: META });
  const seen: unknown[][] = [];
  rt.namespace.associate('ECHO', (...all: unknown[]) => {
    all.pop();
    seen.push(all);
    return [[1]];
  });
  rt.namespace.associate('REST', (...all: unknown[]) => {
    all.pop();
    seen.push(all);
    return 'ok';
  });
  rt.namespace.associate('PLAIN', () => [['Date'], [{ type: 'FormattedNumber', basicValue: 45292, numberFormat: 'yyyy-mm-dd' }]]);
  return { rt, seen };
}

test('blanks as older desktop builds pass them: a blank cell is 0 alone, inside a range and in a repeating argument; an omitted argument stays null', async () => {
  const { rt, seen } = setupWith({ blanks: 'zero', version: '1.4' });
  await once(rt, { id: 'ECHO', args: [{ value: null, address: 'Sheet1!A1' }, { omitted: true }, { value: [['a', null], [null, 2]] }], address: 'Sheet1!C1' });
  assert.deepEqual(seen[0], [0, null, [['a', 0], [0, 2]]]);
  await once(rt, { id: 'REST', args: [{ value: null }, { value: null }, { value: [[null]] }, { value: 'x' }], address: 'Sheet1!C2' });
  assert.deepEqual(seen[1], ['0', [0, 0, 'x']], 'a string parameter gets the 0 as text; the repeating ones as 0');
  const web = setupWith({ blanks: 'null', version: '1.4' });
  await once(web.rt, { id: 'ECHO', args: [{ value: null }, { omitted: true }, { value: [['a', null]] }], address: 'Sheet1!C1' });
  assert.deepEqual(web.seen[0], [null, null, [['a', null]]]);
});

test('a formatted number returned reaches the workbook on 1.4 and is #VALUE! on 1.3; one passed in is the object for `any`, the number for `number`', async () => {
  const at14 = setupWith({ blanks: 'null', version: '1.4' });
  assert.deepEqual(await once(at14.rt, { id: 'PLAIN', args: [], address: 'Sheet1!A1' }), [['Date'], [{ type: 'FormattedNumber', basicValue: 45292, numberFormat: 'yyyy-mm-dd' }]]);
  const at13 = setupWith({ blanks: 'null', version: '1.3' });
  assert.deepEqual(await once(at13.rt, { id: 'PLAIN', args: [], address: 'Sheet1!A1' }), [['Date'], [{ error: '#VALUE!' }]]);
  const fn = { type: 'FormattedNumber', basicValue: 45292, numberFormat: 'yyyy-mm-dd' } as const;
  await once(at14.rt, { id: 'ECHO', args: [{ value: fn }, { value: fn }], address: 'Sheet1!B1' });
  assert.deepEqual(at14.seen[0], [fn, 45292, null]);
  assert.notEqual(at14.seen[0][0], fn, 'copied into the runtime\'s window');
});

test('text longer than a cell holds (32,767 characters) is #VALUE!, as Excel\'s REPT gives past it', () => {
  assert.deepEqual(toGrid('a'.repeat(32_767)), [['a'.repeat(32_767)]]);
  assert.deepEqual(toGrid([['ok', 'a'.repeat(32_768)]]), [['ok', { error: '#VALUE!' }]]);
});

test('a function declared scalar that answers an array is #VALUE!, as Excel has it (office-js#2486); its scalar is the cell', async () => {
  const { rt } = setup();
  assert.deepEqual(await once(rt, { id: 'SHAPES', args: [{ value: true }], address: 'Sheet1!A1' }), [[{ error: '#VALUE!' }]]);
  assert.deepEqual(await once(rt, { id: 'SHAPES', args: [{ value: false }], address: 'Sheet1!A2' }), [[3]]);
  assert.deepEqual(toGrid([[1, 2]], '1.4', 'scalar'), [[{ error: '#VALUE!' }]]);
  assert.deepEqual(toGrid([[1, 2]], '1.4', 'matrix'), [[1, 2]]);
});
