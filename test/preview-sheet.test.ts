/**
 * The preview workbook's sheet (src/preview/workbook), in Node: formulas
 * through the formula engine, spills, #SPILL!, #BUSY! while a custom function
 * is pending, cancellation when arguments change or a formula is re-entered.
 * The custom functions here are small fakes through the real preview runtime.
 *
 *   node --import tsx --test test/preview-sheet.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CustomFunctionsRuntime } from '../src/preview/runtime/runtime';
import { CallSites } from '../src/preview/workbook/calls';
import { FormulaEngine } from '../src/preview/workbook/engine';
import { Sheet } from '../src/preview/workbook/sheet';
import { PreviewWorkbook } from '../src/preview/workbook/workbook';

function workbook(clock?: () => number) {
  const rt = new CustomFunctionsRuntime();
  rt.load({
    functions: [
      { id: 'TABLE', name: 'TABLE', parameters: [{ name: 'n', type: 'number' }], result: { dimensionality: 'matrix' }, options: { cancelable: true } },
      { id: 'SLOW', name: 'SLOW', parameters: [{ name: 'x', type: 'any' }], options: { cancelable: true } },
      { id: 'LATER', name: 'LATER', parameters: [{ name: 'n', type: 'number' }], result: { dimensionality: 'matrix' }, options: { cancelable: true } },
      { id: 'SPAN', name: 'SPAN', parameters: [{ name: 'from', type: 'number' }, { name: 'to', type: 'number' }], options: { cancelable: true } },
      {
        id: 'WHERE',
        name: 'WHERE',
        parameters: [{ name: 'a', type: 'any' }, { name: 'b', type: 'any', dimensionality: 'matrix' }, { name: 'c', type: 'any', optional: true }],
        options: { requiresAddress: true, requiresParameterAddresses: true },
      },
    ],
  });
  const canceled: unknown[] = [];
  const gates: (() => void)[] = [];
  rt.namespace.associate('TABLE', (n: number) => Array.from({ length: n }, (_, i) => [i + 1, (i + 1) * 10]));
  rt.namespace.associate('SLOW', (x: unknown, inv: { onCanceled?: () => void }) => {
    inv.onCanceled = () => canceled.push(x);
    return new Promise((resolve) => gates.push(() => resolve(`got ${x}`)));
  });
  rt.namespace.associate('LATER', (n: number) => new Promise((resolve) => gates.push(() => resolve(Array.from({ length: n }, (_, i) => [i + 1, (i + 1) * 10])))));
  rt.namespace.associate('WHERE', (a: unknown, b: unknown, c: unknown, inv: { address: string; parameterAddresses: string[] }) =>
    `${inv.address} <- ${inv.parameterAddresses.join(' ')} | ${JSON.stringify([a, b, c])}`,
  );
  // A CRYPTO call whose answer takes a few ms, as a real request's does: the days between its dates.
  const spans: [number, number][] = [];
  rt.namespace.associate('SPAN', (from: number, to: number) => {
    spans.push([from, to]);
    return new Promise((resolve) => setTimeout(() => resolve(Math.round(to - from)), 3));
  });
  let sheet!: Sheet;
  const calls = new CallSites(rt, (cell) => sheet.scheduleRecalculation(cell));
  sheet = new Sheet(new FormulaEngine(rt.registered()), calls, clock);
  return { sheet, canceled, gates, spans, rt };
}

/** A clock that moves on by a second at every read, as the real one does between a call and its answer. */
function tickingClock(): () => number {
  let t = Date.UTC(2026, 10, 27, 8, 0, 0);
  return () => (t += 1000);
}

/** Idle, or false after `ms` (a cell that never settles must fail the test, not hang it). */
function settles(idle: Promise<void>, ms = 1500): Promise<boolean> {
  return Promise.race([idle.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

test('literals, references, ranges, array constants and Excel functions', async () => {
  const { sheet } = workbook();
  sheet.load({ A1: '2', A2: '3', A3: '=SUM(A1:A2)', B1: '=AVERAGE(A1:A2)', B2: '=DATE(2024,1,1)', B3: '=INDEX({10,20;30,40},2,1)', C1: 'text', C2: "'42" });
  await sheet.whenIdle();
  assert.equal(sheet.value('A3'), 5);
  assert.equal(sheet.value('B1'), 2.5);
  assert.equal(sheet.value('B2'), 45292);
  assert.equal(sheet.value('B3'), 30);
  assert.equal(sheet.value('C1'), 'text');
  assert.equal(sheet.value('C2'), '42');
});

test('an array result spills; a formula reading the spilled cells sees them; INDEX picks from it', async () => {
  const { sheet } = workbook();
  sheet.load({ A1: '=CRYPTO.TABLE(3)', D1: '=SUM(B1:B3)', D2: '=INDEX(CRYPTO.TABLE(2),2,2)' });
  await sheet.whenIdle();
  assert.deepEqual(['A1', 'B1', 'A3', 'B3'].map((a) => sheet.value(a)), [1, 10, 3, 30]);
  assert.equal(sheet.spilledFrom('B3'), 'A1');
  assert.equal(sheet.value('D1'), 60);
  assert.equal(sheet.value('D2'), 20);
});

test('a formula above its spill source reads the spill once the source is placed', async () => {
  const { sheet } = workbook();
  sheet.load({ A1: '=C3*2', C2: '=CRYPTO.TABLE(2)' });
  await sheet.whenIdle();
  assert.equal(sheet.value('C3'), 2);
  assert.equal(sheet.value('A1'), 4);
});

test('a spill onto a typed cell is #SPILL! with a message, and spills once the cell is cleared', async () => {
  const { sheet } = workbook();
  sheet.load({ A1: '=CRYPTO.TABLE(3)', B2: 'in the way' });
  await sheet.whenIdle();
  assert.deepEqual(sheet.value('A1'), { error: '#SPILL!', message: "Spill range isn't blank: clear the cells in the way." });
  assert.equal(sheet.value('A2'), null);
  sheet.setInput('B2', '');
  await sheet.whenIdle();
  assert.equal(sheet.value('B2'), 20);
});

test('#BUSY! while pending; a changed argument cancels the old call and shows the new result', async () => {
  const { sheet, canceled, gates } = workbook();
  sheet.load({ A1: 'one', B1: '=CRYPTO.SLOW(A1)' });
  assert.equal((sheet.value('B1') as { error: string }).error, '#BUSY!');
  sheet.setInput('A1', 'two');
  assert.deepEqual(canceled, ['one']);
  assert.equal(sheet.calls.stats().canceled, 1);
  gates[1]();
  await sheet.whenIdle();
  assert.equal(sheet.value('B1'), 'got two');
  gates[0](); // the canceled call's late answer is dropped
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(sheet.value('B1'), 'got two');
});

test('re-entering a formula cancels its pending call and calls again; a full recalculation calls everything again', async () => {
  const { sheet, canceled, gates } = workbook();
  sheet.load({ B1: '=CRYPTO.SLOW("x")' });
  sheet.setInput('B1', '=CRYPTO.SLOW("x")');
  assert.deepEqual(canceled, ['x']);
  gates[1]();
  await sheet.whenIdle();
  const started = sheet.calls.stats().started;
  sheet.recalculate({ full: true });
  assert.equal(sheet.calls.stats().started, started + 1);
  assert.equal((sheet.value('B1') as { error: string }).error, '#BUSY!');
  gates[2]();
  await sheet.whenIdle();
  assert.equal(sheet.value('B1'), 'got x');
});

test('an unknown function is #NAME?; a formula that does not parse says so', async () => {
  const { sheet } = workbook();
  sheet.load({ A1: '=CRYPTO.NOPE(1)', A2: '=SUM(' });
  await sheet.whenIdle();
  assert.equal((sheet.value('A1') as { error: string }).error, '#NAME?');
  assert.deepEqual(sheet.value('A2'), { error: '#NAME?', message: "There's a problem with this formula." });
});

test("requiresAddress and requiresParameterAddresses: the calling cell and each argument's cells", async () => {
  const { sheet } = workbook();
  sheet.load({ A1: '5', B1: '1', B2: '2', D4: '=CRYPTO.WHERE(A1,B1:B2,"x")' });
  await sheet.whenIdle();
  assert.equal(sheet.value('D4'), 'Sheet1!D4 <- Sheet1!A1 Sheet1!B1:B2  | [5,[[1],[2]],"x"]');
});

test('a result recalculates its cell and the formulas that read it, without calling anything again', async () => {
  const { sheet, gates } = workbook();
  sheet.load({ A1: '=CRYPTO.SLOW("a")', B1: '=A1&"!"', B2: '=LEN(B1)', C1: '7' });
  assert.equal((sheet.value('B2') as { error: string }).error, '#BUSY!');
  const started = sheet.calls.stats().started;
  gates[0]();
  await sheet.whenIdle();
  assert.deepEqual([sheet.value('A1'), sheet.value('B1'), sheet.value('B2'), sheet.value('C1')], ['got a', 'got a!', 6, 7]);
  assert.equal(sheet.calls.stats().started, started);
});

test('a result that spills where #BUSY! stood moves the cells that read the spill', async () => {
  const { sheet, gates } = workbook();
  sheet.load({ A1: '=CRYPTO.LATER(3)', D1: '=SUM(B1:B3)', D2: '=A3' });
  assert.equal(sheet.value('D1'), 0);
  gates[0]();
  await sheet.whenIdle();
  assert.equal(sheet.value('B3'), 30);
  assert.equal(sheet.value('D1'), 60);
  assert.equal(sheet.value('D2'), 3);
});

test('omitted arguments before the first given one reach the function as omitted (null), as in Excel', async () => {
  const { sheet } = workbook();
  // The engine itself drops a leading gap: `F(,x)` would arrive as `F(x)`.
  sheet.load({ A1: '=CRYPTO.WHERE(,{1},"c")', A2: '=CRYPTO.WHERE(,,"(,")', A3: '=CRYPTO.WHERE("a",{1},)' });
  await sheet.whenIdle();
  assert.match(String(sheet.value('A1')), /\| \[null,\[\[1\]\],"c"\]$/);
  assert.match(String(sheet.value('A2')), /\| \[null,null,"\(,"\]$/);
  assert.match(String(sheet.value('A3')), /\| \["a",\[\[1\]\],null\]$/);
});

test('NOW() is one instant per recalculation: a CRYPTO call on it settles with one call; an edit reads a new NOW()', async () => {
  const { sheet, spans } = workbook(tickingClock());
  try {
    // =CRYPTO.FEARGREED(NOW()-30,NOW()) as a user typed it: each answer re-evaluated the cell at a new NOW(),
    // so its arguments changed, its call was canceled and another started, forever (#BUSY!).
    sheet.load({ A1: '=CRYPTO.SPAN(NOW()-30,NOW())', A2: '=NOW()', A3: '=NOW()' });
    assert.ok(await settles(sheet.whenIdle()), `never settled: ${spans.length} calls, A1 ${JSON.stringify(sheet.value('A1'))}`);
    assert.equal(sheet.value('A1'), 30);
    assert.equal(spans.length, 1, 'one call');
    assert.equal(sheet.calls.stats().canceled, 0);
    assert.equal(sheet.value('A2'), sheet.value('A3'), "every formula's NOW() is the recalculation's one instant");
    assert.equal(sheet.value('A2'), spans[0][1]);
    // An edit is a new recalculation: NOW() is read again, so the call on it runs again, once.
    const before = sheet.value('A2') as number;
    sheet.setInput('B1', '5');
    assert.ok(await settles(sheet.whenIdle()), `never settled after the edit: ${spans.length} calls`);
    assert.ok((sheet.value('A2') as number) > before, `NOW() moved on: ${before} then ${sheet.value('A2')}`);
    assert.equal(sheet.value('A2'), sheet.value('A3'));
    assert.equal(spans.length, 2, 'one more call for the new instant');
    assert.equal(spans[1][1], sheet.value('A2'));
    assert.equal(sheet.value('A1'), 30);
  } finally {
    sheet.load({}); // stops a loop that never settled
  }
});

test("the workbook's Refresh all recalculates every sheet at one NOW(); a number format keeps it", async () => {
  const { rt, spans } = workbook();
  const book = new PreviewWorkbook(new FormulaEngine(rt.registered()), rt, tickingClock());
  const one = book.add('Sheet1');
  const two = book.add('Sheet2');
  try {
    one.sheet.load({ A1: '=NOW()', B1: '=CRYPTO.SPAN(NOW()-7,NOW())' });
    two.sheet.load({ A1: '=NOW()' });
    assert.ok(await settles(book.whenIdle()), `never settled: ${spans.length} calls`);
    assert.equal(spans.length, 1);
    await book.calculate('Full');
    assert.ok(await settles(book.whenIdle()), `never settled after Refresh all: ${spans.length} calls`);
    assert.equal(one.sheet.value('A1'), two.sheet.value('A1'), 'one instant for the whole workbook');
    assert.equal(spans.length, 2, 'Refresh all called it again, once');
    const at = one.sheet.value('A1');
    book.setNumberFormat('Sheet1', 'A1', [['yyyy-mm-dd hh:mm']]);
    assert.ok(await settles(book.whenIdle()));
    assert.equal(one.sheet.value('A1'), at, 'a format is not a recalculation');
    assert.equal(spans.length, 2);
    assert.equal(one.sheet.value('B1'), 7);
  } finally {
    one.sheet.load({});
    two.sheet.load({});
  }
});
