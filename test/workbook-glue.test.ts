/**
 * The pane's Excel calls (src/office/workbook-cells.ts) and what it keeps in
 * the document (src/office/document.ts), in Node against office-addin-mock's
 * Excel object model: each property read must have been loaded and synced, as
 * in Office.js, and the writes land where they should.
 *
 *   node --import tsx --test test/workbook-glue.test.ts
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { OfficeMockObject } from 'office-addin-mock';
import { DOCUMENT_SETTINGS, readSetting, setLoadOnOpen, writeSettings } from '../src/office/document';
import { readRangesOnSheets } from '../src/office/sheet-ranges';
import { appendRows, cryptoCells, insertFormula, isCryptoFormula, readFirstCells, readFormulas, splitAddress, writeFormulas, writeSheet, writeValues } from '../src/office/workbook-cells';

const g = globalThis as Record<string, unknown>;
type Mock = Record<string, any>;

/** Every mock object of the current workbook: the context's sync() syncs them all, as Office.js syncs a batch. */
let mocks: Mock[] = [];

/** An office-addin-mock object: its scalar properties must be loaded and synced before they are read. */
function mock(data: Record<string, unknown>, isNull?: boolean): Mock {
  const m = new OfficeMockObject(data, 'excel' as never) as unknown as Mock;
  // A *OrNullObject result says whether it exists after a sync, loaded or not (as in Office.js).
  if (isNull !== undefined) m.isNullObject = isNull;
  mocks.push(m);
  return m;
}

/** A range of the mock, with the Range methods the glue calls. */
function range(address: string, props: Record<string, unknown> = {}, spill: Mock | null = null): Mock {
  const r = mock({ address, formulas: [['']], values: [['']], numberFormat: [['General']], ...props });
  const theSpill = spill ?? mock({ address: '', values: [['']], numberFormat: [['General']] }, true);
  r.getSpillingToRangeOrNullObject = () => theSpill;
  r.cleared = false;
  r.clear = () => (r.cleared = true);
  r.format = { autofitColumns: () => undefined };
  return r;
}

interface SheetSpec {
  used?: Record<string, unknown> | null;
  cells?: Record<string, Mock>;
}

/** Worksheet.id of the mock's sheets: the name it was made with, kept through a rename. */
const idOf = (name: string) => `{ID-${name}}`;

function sheet(name: string, spec: SheetSpec): Mock {
  const ws = mock({ name, id: idOf(name) });
  ws.idForLookup = idOf(name);
  ws.used = spec.used ? mock(spec.used, false) : mock({ formulas: [['']], values: [['']], rowIndex: 0, columnIndex: 0, rowCount: 0 }, true);
  ws.cells = spec.cells ?? {};
  ws.activated = false;
  ws.getUsedRangeOrNullObject = () => ws.used;
  ws.getRange = (a: string) => {
    if (!ws.cells[a]) throw new Error(`test: no mock range ${name}!${a}`);
    return ws.cells[a];
  };
  ws.activate = () => (ws.activated = true);
  return ws;
}

/** Excel with a workbook of sheets; Excel.run hands the batch a context whose sync() syncs every mock. */
function excel(sheets: Record<string, SheetSpec>, active = 'Sheet1') {
  const added: string[] = [];
  const byName: Record<string, Mock> = Object.fromEntries(Object.entries(sheets).map(([n, s]) => [n, sheet(n, s)]));
  const missing = mock({ name: '', id: '' }, true);
  const worksheets = {
    items: [] as Mock[],
    load: () => {
      worksheets.items = Object.values(byName);
      return worksheets;
    },
    getActiveWorksheet: () => byName[active],
    getItem: (n: string) => byName[n],
    // By name or id, as Office.js takes either (learn.microsoft.com/javascript/api/excel/excel.worksheetcollection).
    getItemOrNullObject: (n: string) => byName[n] ?? Object.values(byName).find((ws) => ws.idForLookup === n) ?? missing,
    add: (n: string) => {
      added.push(n);
      byName[n] = byName[`new:${n}`];
      return byName[n];
    },
  };
  const workbook = {
    worksheets,
    active: range('Sheet1!C3'),
    selection: range('Sheet1!B2:C4'),
    getActiveCell: () => workbook.active,
    getSelectedRange: () => workbook.selection,
  };
  const context = {
    workbook,
    sync: async () => {
      for (const m of mocks) await m.sync();
    },
  };
  g.Excel = { run: async (batch: (ctx: unknown) => Promise<unknown>) => batch(context) };
  return { workbook, added, byName };
}

beforeEach(() => {
  mocks = [];
});

afterEach(() => {
  delete g.Excel;
  delete g.Office;
});

test('CRYPTO formulas found across the workbook, each with its spill and values, after loading and syncing what it reads', async () => {
  const spill = mock({ address: 'Sheet1!B2:C3', values: [['Date', 'Close'], [45292, 42000]], numberFormat: [['General', 'General'], ['yyyy-mm-dd', 'General']] }, false);
  const cellsB2 = range('Sheet1!B2', {}, spill);
  const cellsC3 = range('Sheet1!C3', { values: [[7000]] });
  const { workbook } = excel({
    Sheet1: {
      used: { isNullObject: false, rowIndex: 0, columnIndex: 0, formulas: [['=SUM(1)', '', ''], ['', '=CRYPTO.OHLCV("bitcoin","7D",,,,"close")', ''], ['', 'x', '=crypto.price("eth")*2']] },
      cells: { B2: cellsB2, C3: cellsC3 },
    },
    'My sheet': { used: null },
  });
  const cells = await cryptoCells('workbook');
  assert.deepEqual(cells.map((c) => [c.sheet, c.address, c.formula, c.spill]), [
    ['Sheet1', 'B2', '=CRYPTO.OHLCV("bitcoin","7D",,,,"close")', 'B2:C3'],
    ['Sheet1', 'C3', '=crypto.price("eth")*2', null],
  ]);
  assert.deepEqual(cells[0].values, spill.values);
  assert.deepEqual(cells.map((c) => c.sheetId), [idOf('Sheet1'), idOf('Sheet1')], 'Worksheet.id, for Restore after a rename');
  assert.deepEqual(cells[1].values, [[7000]]);
  assert.equal(workbook.worksheets.items.length, 2);
});

test('the selection limits the cells; the active sheet is read alone', async () => {
  const cells = { B2: range('Sheet1!B2'), C2: range('Sheet1!C2'), D3: range('Sheet1!D3') };
  const { workbook } = excel({
    Sheet1: { used: { rowIndex: 1, columnIndex: 1, formulas: [['=CRYPTO.PRICE("a")', '=CRYPTO.PRICE("b")', ''], ['', '', '=CRYPTO.PRICE("c")']] }, cells },
    Other: { used: { rowIndex: 0, columnIndex: 0, formulas: [['=CRYPTO.PRICE("d")']] } },
  });
  workbook.selection = range('Sheet1!B2:C4');
  assert.deepEqual((await cryptoCells('selection')).map((c) => c.address), ['B2', 'C2'], 'D3 is outside B2:C4');
  assert.deepEqual((await cryptoCells('sheet')).map((c) => `${c.sheet}!${c.address}`), ['Sheet1!B2', 'Sheet1!C2', 'Sheet1!D3']);
});

test('insert into the active cell, values over a spill, formulas back after clearing the spill, formulas read', async () => {
  const b2 = range('Sheet1!B2', { formulas: [['=CRYPTO.PRICE("x")']] });
  const spill = range('Sheet1!D2:E3');
  const d2 = range('Sheet1!D2');
  const { workbook } = excel({ Sheet1: { cells: { B2: b2, 'D2:E3': spill, D2: d2 } } });
  assert.deepEqual(await insertFormula('=CRYPTO.PRICE("solana")'), { sheet: 'Sheet1', address: 'C3' });
  assert.deepEqual(workbook.active.formulas, [['=CRYPTO.PRICE("solana")']]);
  await writeValues([{ sheet: 'Sheet1', address: 'D2:E3', values: [['Date', '=not a formula'], [1, 2]], numberFormat: [['General', 'General'], ['yyyy-mm-dd', 'General']] }]);
  assert.deepEqual(spill.values, [['Date', "'=not a formula"], [1, 2]], 'text that starts with = stays text');
  assert.deepEqual(spill.numberFormat, [['General', 'General'], ['yyyy-mm-dd', 'General']]);
  await writeFormulas([{ sheet: 'Sheet1', address: 'D2', formula: '=CRYPTO.OHLCV("a","7D")', clear: 'D2:E3' }]);
  assert.equal(spill.cleared, true);
  assert.deepEqual(d2.formulas, [['=CRYPTO.OHLCV("a","7D")']]);
  assert.deepEqual(await readFormulas([{ sheet: 'Sheet1', address: 'B2' }]), ['=CRYPTO.PRICE("x")']);
});

test('a snapshot\'s read: each range\'s first value and formula in one sync (one round trip to Excel, not one for values and another for formulas)', async () => {
  const b2 = range('Sheet1!B2:B3', { values: [[65000], [1]], formulas: [['=CRYPTO.PRICE("bitcoin")'], [1]] });
  const c4 = range('Sheet1!C4', { values: [[7]], formulas: [[7]] });
  excel({ Sheet1: { cells: { 'B2:B3': b2, C4: c4 } } });
  const run = (g.Excel as { run: (batch: (ctx: { sync(): Promise<void> }) => Promise<unknown>) => Promise<unknown> }).run;
  let syncs = 0;
  g.Excel = { run: (batch: (ctx: unknown) => Promise<unknown>) => run((ctx) => batch({ ...ctx, sync: async () => (syncs++, ctx.sync()) })) };
  const got = await readFirstCells([{ sheet: 'Sheet1', address: 'B2:B3' }, { sheet: 'Sheet1', address: 'C4' }]);
  assert.deepEqual(got, { values: [65000, 7], formulas: ['=CRYPTO.PRICE("bitcoin")', 7] });
  assert.equal(syncs, 1);
  assert.deepEqual(await readFirstCells([]), { values: [], formulas: [] });
});

test('Restore\'s reads: each range on the sheet of its recorded id (renamed since) and on the sheet of its recorded name where that is another; valuesAsJson where ExcelApi 1.16 is', async () => {
  const card = { type: 'Entity', text: 'Bitcoin', basicType: 'Error', basicValue: '#VALUE!' };
  const pricesB2 = range('Prices!B2', { values: [['#VALUE!']], formulas: [['#VALUE!']], valuesAsJson: [[card]] });
  const newB2 = range('Sheet1!B2', { values: [[1]], formulas: [[1]], valuesAsJson: [[{ type: 'Double', basicValue: 1 }]] });
  const { byName } = excel({ Sheet1: { cells: { B2: newB2 } }, Old: { cells: { B2: pricesB2 } } });
  // "Old" renamed "Prices" (its id stays), and a new sheet took no name of the record's.
  byName.Prices = byName.Old;
  byName.Prices.name = 'Prices';
  delete byName.Old;
  g.Office = { context: { requirements: { isSetSupported: (name: string, v: string) => name === 'ExcelApi' && Number(v) <= 1.16 } } };
  const got = await readRangesOnSheets([
    { sheet: 'Old', sheetId: idOf('Old'), address: 'B2' },
    { sheet: 'Sheet1', sheetId: idOf('Old'), address: 'B2' },
    { sheet: 'Sheet1', address: 'B2' },
    { sheet: 'Gone', address: 'B2' },
    { sheet: 'Sheet1', sheetId: idOf('Sheet1'), address: 'B2' },
  ]);
  assert.deepEqual(got.map((list) => list.map((r) => r.sheet)), [['Prices'], ['Prices', 'Sheet1'], ['Sheet1'], [], ['Sheet1']], 'the id first, then the name; one read where both are the same sheet');
  assert.deepEqual(got[0][0], { sheet: 'Prices', sheetId: idOf('Old'), formulas: [['#VALUE!']], values: [['#VALUE!']], json: [[card]] });
  // No ExcelApi 1.16: valuesAsJson is not asked for.
  (g.Office as Mock).context.requirements.isSetSupported = () => false;
  assert.equal((await readRangesOnSheets([{ sheet: 'Sheet1', address: 'B2' }]))[0][0].json, null);
});

test('a table to a sheet of its own: added when missing, written from A1, shown; rows appended below with the header once', async () => {
  const target = range('CRYPTO log!A1:B3');
  const dates = range('CRYPTO log!A2:A3');
  const log = sheet('CRYPTO log', { cells: { 'A1:B3': target, 'A2:A3': dates } });
  const row = range('Snapshots!A3:B3');
  const rowDates = range('Snapshots!A3:A3');
  const snaps = sheet('Snapshots', { used: { values: [['Date (UTC)', 'Sheet1!B2'], [45292, 1]], rowIndex: 0, rowCount: 2 }, cells: { 'A3:B3': row, 'A3:A3': rowDates } });
  const { added, byName } = excel({ Sheet1: {}, Snapshots: {} });
  byName['new:CRYPTO log'] = log;
  byName.Snapshots = snaps;
  const address = await writeSheet('CRYPTO log', [['Time', 'Formula'], [1, '=CRYPTO.PRICE("a")'], [2, 'x']], ['yyyy-mm-dd', null]);
  assert.equal(address, 'A1:B3');
  assert.deepEqual(added, ['CRYPTO log']);
  assert.deepEqual(target.values, [['Time', 'Formula'], [1, "'=CRYPTO.PRICE(\"a\")"], [2, 'x']], 'formula text written as text');
  assert.deepEqual(dates.numberFormat, [['yyyy-mm-dd'], ['yyyy-mm-dd']]);
  assert.equal(log.activated, true);

  // Appending: below the used range; the header again only when it differs.
  const r = await appendRows('Snapshots', ['Date (UTC)', 'Sheet1!B2'], [[45293, 2]], ['yyyy-mm-dd hh:mm']);
  assert.deepEqual(r, { address: 'Snapshots!A3:B3', header: false });
  assert.deepEqual(row.values, [[45293, 2]]);
  assert.deepEqual(rowDates.numberFormat, [['yyyy-mm-dd hh:mm']]);
});

test('addresses: sheet names quoted or not; CRYPTO formulas told from others', () => {
  assert.deepEqual(splitAddress("'It''s mine'!$B$2:C3"), { sheet: "It's mine", address: 'B2:C3' });
  assert.deepEqual(splitAddress('Sheet1!A1'), { sheet: 'Sheet1', address: 'A1' });
  assert.ok(isCryptoFormula('=1+CRYPTO.PRICE("x")'));
  assert.ok(!isCryptoFormula('=MYCRYPTO.PRICE("x")'));
  assert.ok(!isCryptoFormula('CRYPTO.PRICE("x")'), 'text, not a formula');
  assert.ok(!isCryptoFormula(42));
});

test('the document keeps only the add-in\'s few settings (never the key), saved with saveAsync; the startup behaviour through Office.addin', async () => {
  const store: Record<string, unknown> = {};
  const calls: string[] = [];
  g.Office = {
    context: {
      document: {
        settings: {
          get: (k: string) => store[k],
          set: (k: string, v: unknown) => ((store[k] = v), calls.push(`set ${k}`)),
          remove: (k: string) => (delete store[k], calls.push(`remove ${k}`)),
          saveAsync: (cb: (r: { status: string }) => void) => (calls.push('saveAsync'), cb({ status: 'succeeded' })),
        },
      },
      requirements: { isSetSupported: (name: string, v: string) => name === 'SharedRuntime' && v === '1.1' },
    },
    addin: { setStartupBehavior: async (b: string) => void calls.push(`startup ${b}`) },
    StartupBehavior: { load: 'Load', none: 'None' },
  };
  await setLoadOnOpen(true);
  await writeSettings({ [DOCUMENT_SETTINGS.refreshOnOpen]: true, [DOCUMENT_SETTINGS.frozen]: null });
  assert.deepEqual(calls, ['startup Load', `set ${DOCUMENT_SETTINGS.refreshOnOpen}`, `remove ${DOCUMENT_SETTINGS.frozen}`, 'saveAsync']);
  assert.equal(readSetting(DOCUMENT_SETTINGS.refreshOnOpen), true);
  await setLoadOnOpen(false);
  assert.equal(calls.at(-1), 'startup None');
  for (const name of Object.values(DOCUMENT_SETTINGS)) assert.doesNotMatch(name, /key|token|secret/i, name);
  // Without SharedRuntime 1.1 the option is refused, not silently ignored.
  (g.Office as Mock).context.requirements.isSetSupported = () => false;
  await assert.rejects(setLoadOnOpen(true), /SharedRuntime 1\.1/);
});
