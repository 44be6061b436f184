/**
 * The pane's Excel calls on cells, thin: find the CRYPTO formulas (in the
 * selection, the active sheet or the workbook) with their spills and values,
 * write a formula into the active cell, write values or formulas back,
 * re-enter formulas (Excel then calls their custom functions again, which a
 * plain recalculation does not: office-js#1567), read cells, and write a
 * table to a sheet of its own. What to write is decided elsewhere (taskpane/freeze.ts...).
 *
 * ExcelApi 1.12 for spills (Range.getSpillingToRangeOrNullObject); 1.4 for
 * null objects; 1.16 for data types (Range.valuesAsJson), used only where the
 * host says it has it; 1.1 for the rest.
 */

export type Scope = 'selection' | 'sheet' | 'workbook';

export interface CellAt {
  sheet: string;
  /** Within the sheet: "B2" or "B2:D4". */
  address: string;
}

export interface CryptoCell extends CellAt {
  /** Worksheet.id of its sheet (ExcelApi 1.1), which stays through a rename. */
  sheetId: string;
  formula: string;
  spill: string | null;
  values: unknown[][];
  numberFormat: string[][];
  /** The same cells as Range.valuesAsJson gives them (data types whole); null where ExcelApi 1.16 is not there. */
  json: unknown[][] | null;
}

/**
 * ExcelApi 1.16, the data types: Range.valuesAsJson reads a cell's value
 * whole, an entity with its fields, where Range.values gives its basicValue,
 * "#VALUE!" (learn.microsoft.com/javascript/api/excel/excel.entitycellvalue;
 * the set: learn.microsoft.com/javascript/api/requirement-sets/excel/excel-api-1-16-requirement-set).
 */
export function dataTypesSupported(): boolean {
  try {
    return typeof Office !== 'undefined' && Office.context?.requirements?.isSetSupported('ExcelApi', '1.16') === true;
  } catch {
    return false;
  }
}

/**
 * A value as Range.values must be given it to stay a value: text that starts
 * with "=" would be taken as a formula, so it gets Excel's text prefix (')
 * which the cell does not show.
 */
const asValue = (v: unknown): unknown => (typeof v === 'string' && v.startsWith('=') ? `'${v}` : v);
const valuesOf = (grid: readonly (readonly unknown[])[]) => grid.map((r) => r.map(asValue)) as Excel.Range['values'];

/** A formula that calls one of the add-in's functions (as Range.formulas shows it: "=CRYPTO.PRICE(...)"). */
export const isCryptoFormula = (f: unknown): f is string => typeof f === 'string' && f.startsWith('=') && /(^|[^A-Za-z0-9_.])CRYPTO\.[A-Za-z]/i.test(f);

function column(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}
/** 0-based row and column indexes → "B2". */
export const a1 = (row: number, col: number) => `${column(col + 1)}${row + 1}`;

/** "Sheet1!B2:C4" or "'My sheet'!B2" → sheet and the address within it. */
export function splitAddress(full: string): CellAt {
  const i = full.lastIndexOf('!');
  if (i < 0) return { sheet: '', address: full };
  const raw = full.slice(0, i);
  const sheet = raw.startsWith("'") && raw.endsWith("'") ? raw.slice(1, -1).replace(/''/g, "'") : raw;
  return { sheet, address: full.slice(i + 1).replace(/\$/g, '') };
}

function rectOf(address: string): { top: number; left: number; bottom: number; right: number } | null {
  const m = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/i.exec(address.replace(/\$/g, ''));
  if (!m) return null;
  const col = (s: string) => [...s.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  const top = Number(m[2]);
  const left = col(m[1]);
  return { top, left, bottom: m[4] ? Number(m[4]) : top, right: m[3] ? col(m[3]) : left };
}

/** Every formula in every open workbook, dirty or not: re-runs the CRYPTO functions (F9 would not). */
export async function recalculateWorkbook(): Promise<void> {
  await Excel.run(async (ctx) => {
    ctx.workbook.application.calculate(Excel.CalculationType.full);
    await ctx.sync();
  });
}

/** The CRYPTO formula cells in scope, each with its spill, values and number formats. */
export async function cryptoCells(scope: Scope): Promise<CryptoCell[]> {
  return Excel.run(async (ctx) => {
    const wb = ctx.workbook;
    let sheets: Excel.Worksheet[];
    let selection: Excel.Range | null = null;
    if (scope === 'workbook') {
      wb.worksheets.load('items/name,items/id');
      await ctx.sync();
      sheets = wb.worksheets.items;
    } else {
      sheets = [wb.worksheets.getActiveWorksheet()];
      if (scope === 'selection') {
        selection = wb.getSelectedRange();
        selection.load('address');
      }
    }
    const used = sheets.map((ws) => {
      ws.load('name,id');
      const u = ws.getUsedRangeOrNullObject();
      u.load('formulas,rowIndex,columnIndex');
      return u;
    });
    await ctx.sync();
    const within = selection ? rectOf(splitAddress(selection.address).address) : null;
    const found: { ws: Excel.Worksheet; sheet: string; sheetId: string; address: string; formula: string }[] = [];
    sheets.forEach((ws, i) => {
      const u = used[i];
      if (u.isNullObject) return;
      u.formulas.forEach((row, r) =>
        row.forEach((f, c) => {
          if (!isCryptoFormula(f)) return;
          const row1 = u.rowIndex + r + 1;
          const col1 = u.columnIndex + c + 1;
          if (within && (row1 < within.top || row1 > within.bottom || col1 < within.left || col1 > within.right)) return;
          found.push({ ws, sheet: ws.name, sheetId: ws.id, address: a1(row1 - 1, col1 - 1), formula: f });
        }),
      );
    });
    const json = dataTypesSupported();
    const what = json ? 'values,numberFormat,valuesAsJson' : 'values,numberFormat';
    const probes = found.map((f) => {
      const cell = f.ws.getRange(f.address);
      cell.load(what);
      const spill = cell.getSpillingToRangeOrNullObject();
      spill.load(`address,${what}`);
      return { cell, spill };
    });
    await ctx.sync();
    return found.map((f, i) => {
      const { cell, spill } = probes[i];
      const spills = !spill.isNullObject;
      return {
        sheet: f.sheet,
        sheetId: f.sheetId,
        address: f.address,
        formula: f.formula,
        spill: spills ? splitAddress(spill.address).address : null,
        values: spills ? spill.values : cell.values,
        numberFormat: spills ? spill.numberFormat : cell.numberFormat,
        json: json ? ((spills ? spill.valuesAsJson : cell.valuesAsJson) as unknown[][]) : null,
      };
    });
  });
}

/** The formula into the active cell (Range.formulas); where it went. */
export async function insertFormula(formula: string): Promise<CellAt> {
  return Excel.run(async (ctx) => {
    const cell = ctx.workbook.getActiveCell();
    cell.formulas = [[formula]];
    cell.load('address');
    await ctx.sync();
    return splitAddress(cell.address);
  });
}

/** The selected range, as the pane names it. */
export async function selectedRange(): Promise<CellAt> {
  return Excel.run(async (ctx) => {
    const r = ctx.workbook.getSelectedRange();
    r.load('address');
    await ctx.sync();
    return splitAddress(r.address);
  });
}

/**
 * Values (and their formats) over ranges: a formula there is replaced by what
 * it showed. `entities` (cells of the range holding a data type) are then
 * written whole through Range.valuesAsJson (ExcelApi 1.16), "the main API for
 * reading and writing Excel data types"
 * (learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-concepts):
 * the cell then holds the entity as its value, card and fields, no formula.
 */
export async function writeValues(
  writes: readonly { sheet: string; address: string; values: unknown[][]; numberFormat?: string[][]; entities?: readonly { address: string; value: unknown }[] }[],
): Promise<void> {
  if (writes.length === 0) return;
  await Excel.run(async (ctx) => {
    for (const w of writes) {
      const ws = ctx.workbook.worksheets.getItem(w.sheet);
      const r = ws.getRange(w.address);
      r.values = valuesOf(w.values);
      if (w.numberFormat) r.numberFormat = w.numberFormat;
      for (const e of w.entities ?? []) ws.getRange(e.address).valuesAsJson = [[e.value as Excel.CellValue]];
    }
    await ctx.sync();
  });
}

/** Formulas back into their cells, each after clearing where it spills. */
export async function writeFormulas(writes: readonly { sheet: string; address: string; formula: string; clear?: string | null }[]): Promise<void> {
  if (writes.length === 0) return;
  await Excel.run(async (ctx) => {
    for (const w of writes) {
      const ws = ctx.workbook.worksheets.getItem(w.sheet);
      if (w.clear) ws.getRange(w.clear).clear('Contents' as Excel.ClearApplyTo);
      ws.getRange(w.address).formulas = [[w.formula]];
    }
    await ctx.sync();
  });
}

/**
 * Formulas entered again (Excel then calls their custom functions again),
 * each only where its cell still holds that very formula: checked and written
 * in one Excel.run. The pane found the cells a while before (a question
 * waiting for a yes, a status read): a value typed over one since, or a row
 * inserted or deleted that moved them, would otherwise lose the user's work
 * to an API write Excel cannot undo (review 2026-11-27, office #1). Its sheet
 * is found by Worksheet.id where known (the same through a rename), else by
 * name; `changed` are the cells left alone, the sheet gone included.
 */
export async function reenterUnchanged<C extends CellAt & { sheetId?: string; formula: string }>(cells: readonly C[]): Promise<{ entered: C[]; changed: C[] }> {
  if (cells.length === 0) return { entered: [], changed: [] };
  return Excel.run(async (ctx) => {
    const sheets = new Map<string, Excel.Worksheet>();
    const sheetOf = (c: C) => {
      const key = c.sheetId || c.sheet;
      let ws = sheets.get(key);
      if (!ws) sheets.set(key, (ws = ctx.workbook.worksheets.getItemOrNullObject(key)));
      return ws;
    };
    const held = cells.map(sheetOf);
    await ctx.sync();
    const ranges = cells.map((c, i) => {
      if (held[i].isNullObject) return null;
      const r = held[i].getRange(c.address);
      r.load('formulas');
      return r;
    });
    await ctx.sync();
    const entered: C[] = [];
    const changed: C[] = [];
    cells.forEach((c, i) => {
      const r = ranges[i];
      if (r && r.formulas[0]?.[0] === c.formula) {
        r.formulas = [[c.formula]];
        entered.push(c);
      } else changed.push(c);
    });
    if (entered.length > 0) await ctx.sync();
    return { entered, changed };
  });
}

/**
 * The first cell of each range, in one Excel.run and one sync: its value and
 * its formula text (the value where it holds no formula, as Range.formulas
 * gives it).
 */
export async function readFirstCells(cells: readonly CellAt[]): Promise<{ values: unknown[]; formulas: unknown[] }> {
  if (cells.length === 0) return { values: [], formulas: [] };
  return Excel.run(async (ctx) => {
    const ranges = cells.map((c) => {
      const r = ctx.workbook.worksheets.getItem(c.sheet).getRange(c.address);
      r.load('values,formulas');
      return r;
    });
    await ctx.sync();
    return { values: ranges.map((r) => r.values[0]?.[0] ?? ''), formulas: ranges.map((r) => r.formulas[0]?.[0] ?? '') };
  });
}

export const readFormulas = async (cells: readonly CellAt[]) => (await readFirstCells(cells)).formulas;

/** A sheet by name, added when missing. */
async function sheetNamed(ctx: Excel.RequestContext, name: string): Promise<Excel.Worksheet> {
  const ws = ctx.workbook.worksheets.getItemOrNullObject(name);
  await ctx.sync();
  return ws.isNullObject ? ctx.workbook.worksheets.add(name) : ws;
}

/** A table (a header row and rows) replacing whatever a sheet of this name held; the sheet is shown. Returns its range. */
export async function writeSheet(name: string, rows: readonly unknown[][], columnFormats: readonly (string | null)[] = []): Promise<string> {
  return Excel.run(async (ctx) => {
    const ws = await sheetNamed(ctx, name);
    const old = ws.getUsedRangeOrNullObject();
    await ctx.sync();
    if (!old.isNullObject) old.clear();
    const cols = Math.max(1, ...rows.map((r) => r.length));
    const grid = rows.map((r) => Array.from({ length: cols }, (_, i) => r[i] ?? ''));
    const address = `A1:${a1(grid.length - 1, cols - 1)}`;
    const target = ws.getRange(address);
    target.values = valuesOf(grid);
    columnFormats.forEach((f, c) => {
      if (f && grid.length > 1) ws.getRange(`${a1(1, c)}:${a1(grid.length - 1, c)}`).numberFormat = grid.slice(1).map(() => [f]);
    });
    target.format.autofitColumns();
    ws.activate();
    await ctx.sync();
    return address;
  });
}

/**
 * Rows appended below what a sheet holds (the sheet added with the header
 * when missing; the header written again when it differs from the last one, so
 * each block says what its columns are). Returns where the rows went.
 */
export async function appendRows(name: string, header: readonly string[], rows: readonly unknown[][], columnFormats: readonly (string | null)[] = []): Promise<{ address: string; header: boolean }> {
  return Excel.run(async (ctx) => {
    const ws = await sheetNamed(ctx, name);
    const used = ws.getUsedRangeOrNullObject();
    used.load('values,rowIndex,rowCount');
    await ctx.sync();
    let next = 0;
    let needHeader = true;
    if (!used.isNullObject) {
      next = used.rowIndex + used.rowCount;
      const lastHeader = [...used.values].reverse().find((r) => r[0] === header[0]);
      needHeader = !lastHeader || header.some((h, i) => String(lastHeader[i] ?? '') !== h);
    }
    const block = [...(needHeader ? [header as unknown[]] : []), ...rows];
    const cols = header.length;
    const address = `${a1(next, 0)}:${a1(next + block.length - 1, cols - 1)}`;
    ws.getRange(address).values = valuesOf(block.map((r) => Array.from({ length: cols }, (_, i) => r[i] ?? '')));
    const first = next + (needHeader ? 1 : 0);
    columnFormats.forEach((f, c) => {
      if (f) ws.getRange(`${a1(first, c)}:${a1(next + block.length - 1, c)}`).numberFormat = rows.map(() => [f]);
    });
    await ctx.sync();
    return { address: `${name}!${address}`, header: needHeader };
  });
}
