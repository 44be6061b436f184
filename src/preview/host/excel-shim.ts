/**
 * The Excel global the add-in calls, answered by the preview instead of
 * Excel: Excel.run gives a request context whose objects queue their reads
 * (load) and writes and carry them out in order on sync(), as Office.js
 * batches them: the workbook and its worksheets, the selection and active
 * cell, ranges (formulas, values, valuesAsJson, numberFormat, spills,
 * resizing, clearing),
 * calculate(), and workbook.functions.date() (Excel's DATE, in the workbook's
 * date system). A property read before it was loaded and synced throws, as in
 * Office.js; an *OrNullObject result says whether it exists after a sync.
 */
import { serialIn, toSerial } from '../../formulas/cells';
import type { WorkbookDocument } from '../protocol';
import { parseRange, quoteSheet, rangeAddress } from '../workbook/address';
import { doc, open, type ShimWorkbook } from './office-shim';
import type { PreviewExcel } from './options';

type Op = (wb: ShimWorkbook | null) => Promise<void> | void;

/**
 * Range.valuesAsJson (ExcelApi 1.16), where the workbook answers it
 * (workbook.ts): read, each cell's value whole (an entity with its fields,
 * where Range.values gives its basicValue "#VALUE!"); written, an entity
 * becomes the cell's value, no formula. The preview advertises the ExcelApi
 * version office-shim.ts names; the add-in asks before it uses this.
 */
interface JsonCells {
  readJson(sheet: string, address: string): unknown[][];
  writeJson(sheet: string, address: string, data: unknown[][]): void;
}
function jsonCells(d: WorkbookDocument): JsonCells {
  const j = d as WorkbookDocument & Partial<JsonCells>;
  if (typeof j.readJson !== 'function' || typeof j.writeJson !== 'function') throw new Error('ApiNotFound: the workbook does not answer Range.valuesAsJson');
  return j as JsonCells;
}

/**
 * Worksheet.id (ExcelApi 1.1): "uniquely identifies the worksheet in a given
 * workbook ... remains the same even when the worksheet is renamed or moved"
 * (learn.microsoft.com/javascript/api/excel/excel.worksheet, id). Excel's are
 * GUIDs in braces; Excel on the web gives a new workbook's first sheet
 * {00000000-0001-0000-0000-000000000000} (office-js#552), the form used here,
 * numbered in the order the shim first sees each sheet. Kept per document by
 * the sheet's name: the preview cannot rename a sheet (neither WorkbookDocument
 * nor its grid offers it), so a sheet's name is what stays; a rename added
 * there must move the sheet's id to its new name. A reopened workbook is a new
 * document and numbers its sheets again, as ids may change between sessions
 * in Excel too (office-js-docs#297).
 */
class SheetIds {
  readonly #byName = new Map<string, string>();
  id(name: string): string {
    const key = name.toLowerCase();
    let id = this.#byName.get(key);
    if (!id) {
      id = `{00000000-0001-0000-${this.#byName.size.toString(16).toUpperCase().padStart(4, '0')}-000000000000}`;
      this.#byName.set(key, id);
    }
    return id;
  }
  /** The sheet named `key`, or whose id `key` is (Worksheets.getItem takes either). */
  find(d: WorkbookDocument, key: string): string | null {
    const k = key.toLowerCase();
    return d.sheetNames().find((n) => n.toLowerCase() === k || this.id(n).toLowerCase() === k) ?? null;
  }
}
const idsOf = new WeakMap<WorkbookDocument, SheetIds>();
function sheetIds(d: WorkbookDocument): SheetIds {
  let ids = idsOf.get(d);
  if (!ids) idsOf.set(d, (ids = new SheetIds()));
  return ids;
}

export const CalculationType = { recalculate: 'Recalculate', full: 'Full', fullRebuild: 'FullRebuild' } as const;

interface Loc {
  sheet: string;
  address: string;
}

class NotLoaded extends Error {
  constructor(what: string) {
    super(`PropertyNotLoaded: ${what} was not loaded; call load() and context.sync() first`);
    this.name = 'RichApi.Error';
  }
}

class RequestContext {
  queue: Op[] = [];
  readonly workbook: ReturnType<typeof workbookObject>;
  constructor(
    readonly wb: () => ShimWorkbook | null,
    readonly excel: PreviewExcel,
  ) {
    this.workbook = workbookObject(this);
  }
  async sync(): Promise<void> {
    const ops = this.queue;
    this.queue = [];
    const wb = this.wb();
    for (const op of ops) await op(wb);
  }
}

/** Something whose properties are read by load() and sync(). */
class Loadable {
  protected data: Record<string, unknown> | null = null;
  /** Known after a sync for the objects of *OrNullObject methods, loaded or not (as in Office.js). */
  protected isNull: boolean | null = null;
  protected prop<T>(name: string): T {
    if (this.isNull === true || this.data?.isNullObject === true) throw new Error(`InvalidObjectPath: the object is a null object (${name})`);
    if (!this.data) throw new NotLoaded(name);
    return this.data[name] as T;
  }
  get isNullObject(): boolean {
    if (this.data && typeof this.data.isNullObject === 'boolean') return this.data.isNullObject;
    if (this.isNull === null) throw new NotLoaded('isNullObject');
    return this.isNull;
  }
}

/** An *OrNullObject result: whether it exists is settled at the next sync. */
function nullable<T extends Loadable>(ctx: RequestContext, o: T, exists: (d: WorkbookDocument) => boolean): T {
  ctx.queue.push((wb) => {
    (o as unknown as { isNull: boolean }).isNull = !exists(doc(wb));
  });
  return o;
}

const broadcast = (v: unknown, rows: number, cols: number): unknown[][] =>
  Array.isArray(v) ? (v as unknown[][]) : Array.from({ length: rows }, () => Array.from({ length: cols }, () => v));

class Range extends Loadable {
  constructor(
    private readonly ctx: RequestContext,
    /** Where the range is, worked out when an operation on it runs (null: a null object). */
    private readonly locate: (d: WorkbookDocument) => Loc | null,
  ) {
    super();
  }

  #where(d: WorkbookDocument): Loc {
    const loc = this.locate(d);
    if (!loc) throw new Error('InvalidObjectPath: the range is a null object');
    return loc;
  }

  load(_props?: unknown): this {
    this.ctx.queue.push((wb) => {
      const d = doc(wb);
      const loc = this.locate(d);
      if (!loc) {
        this.data = { isNullObject: true };
        return;
      }
      const r = parseRange(loc.address)!;
      const read = d.read(loc.sheet, loc.address);
      this.data = {
        isNullObject: false,
        address: `${quoteSheet(loc.sheet)}!${rangeAddress(r)}`,
        formulas: read.formulas,
        values: read.values,
        ...(typeof (d as Partial<JsonCells>).readJson === 'function' ? { valuesAsJson: jsonCells(d).readJson(loc.sheet, loc.address) } : {}),
        numberFormat: read.numberFormat,
        rowIndex: r.top - 1,
        columnIndex: r.left - 1,
        rowCount: r.bottom - r.top + 1,
        columnCount: r.right - r.left + 1,
      };
    });
    return this;
  }

  get address(): string {
    return this.prop('address');
  }
  get formulas(): unknown[][] {
    return this.prop('formulas');
  }
  set formulas(v: unknown[][]) {
    this.#write('formulas', v);
  }
  get values(): unknown[][] {
    return this.prop('values');
  }
  set values(v: unknown[][]) {
    this.#write('values', v);
  }
  get valuesAsJson(): unknown[][] {
    return this.prop('valuesAsJson');
  }
  set valuesAsJson(v: unknown[][]) {
    this.#writeGrid(v, (d, sheet, address, grid) => jsonCells(d).writeJson(sheet, address, grid));
  }
  get numberFormat(): string[][] {
    return this.prop('numberFormat');
  }
  set numberFormat(v: string[][]) {
    this.#writeGrid(v, (d, sheet, address, grid) => d.setNumberFormat(sheet, address, grid as string[][]));
  }
  get rowIndex(): number {
    return this.prop('rowIndex');
  }
  get columnIndex(): number {
    return this.prop('columnIndex');
  }
  get rowCount(): number {
    return this.prop('rowCount');
  }
  get columnCount(): number {
    return this.prop('columnCount');
  }

  #write(kind: 'formulas' | 'values', v: unknown): void {
    this.#writeGrid(v, (d, sheet, address, grid) => d.write(sheet, address, kind, grid));
  }

  /** A write queued for sync(): `v` spread over this range's shape as Office.js does (broadcast), then put where the range is. */
  #writeGrid(v: unknown, put: (d: WorkbookDocument, sheet: string, address: string, grid: unknown[][]) => void): void {
    this.ctx.queue.push((wb) => {
      const d = doc(wb);
      const loc = this.#where(d);
      const r = parseRange(loc.address)!;
      put(d, loc.sheet, loc.address, broadcast(v, r.bottom - r.top + 1, r.right - r.left + 1));
    });
  }

  /** A range from this one's top-left corner, moved and sized. */
  #derived(f: (r: { top: number; left: number; bottom: number; right: number }) => { top: number; left: number; bottom: number; right: number }): Range {
    return new Range(this.ctx, (d) => {
      const loc = this.locate(d);
      if (!loc) return null;
      const n = f(parseRange(loc.address)!);
      if (n.top < 1 || n.left < 1 || n.bottom < n.top || n.right < n.left) throw new Error('InvalidArgument: the range would be outside the sheet');
      return { sheet: loc.sheet, address: rangeAddress(n) };
    });
  }

  getCell(row: number, column: number): Range {
    return this.#derived((r) => ({ top: r.top + row, left: r.left + column, bottom: r.top + row, right: r.left + column }));
  }
  getResizedRange(deltaRows: number, deltaColumns: number): Range {
    return this.#derived((r) => ({ ...r, bottom: r.bottom + deltaRows, right: r.right + deltaColumns }));
  }
  getOffsetRange(rows: number, columns: number): Range {
    return this.#derived((r) => ({ top: r.top + rows, left: r.left + columns, bottom: r.bottom + rows, right: r.right + columns }));
  }
  getRow(row: number): Range {
    return this.#derived((r) => ({ top: r.top + row, left: r.left, bottom: r.top + row, right: r.right }));
  }
  /** ExcelApi 1.12: the range this anchor's array spills into, or a null object. */
  getSpillingToRangeOrNullObject(): Range {
    const locate = (d: WorkbookDocument): Loc | null => {
      const loc = this.locate(d);
      const to = loc && d.spill(loc.sheet, loc.address);
      return loc && to ? { sheet: loc.sheet, address: to } : null;
    };
    return nullable(this.ctx, new Range(this.ctx, locate), (d) => locate(d) !== null);
  }
  /** ExcelApi 1.12: the anchor of the spill covering this cell, or a null object. */
  getSpillParentOrNullObject(): Range {
    const locate = (d: WorkbookDocument): Loc | null => {
      const loc = this.locate(d);
      const at = loc && d.spillParent(loc.sheet, loc.address);
      return loc && at ? { sheet: loc.sheet, address: at } : null;
    };
    return nullable(this.ctx, new Range(this.ctx, locate), (d) => locate(d) !== null);
  }
  clear(_applyTo?: string): void {
    this.ctx.queue.push((wb) => {
      const d = doc(wb);
      const loc = this.#where(d);
      d.clear(loc.sheet, loc.address);
    });
  }
  select(): void {
    // The preview keeps its selection where the user put it.
  }
  get worksheet(): Worksheet {
    return new Worksheet(this.ctx, (d) => this.locate(d)?.sheet ?? null);
  }
  get format() {
    return { autofitColumns: () => undefined, autofitRows: () => undefined };
  }
}

/** A worksheet's loaded properties. */
const sheetData = (d: WorkbookDocument, name: string) => ({ isNullObject: false, name, id: sheetIds(d).id(name), position: d.sheetNames().indexOf(name) });

class Worksheet extends Loadable {
  constructor(
    private readonly ctx: RequestContext,
    private readonly locate: (d: WorkbookDocument) => string | null,
  ) {
    super();
  }
  #name(d: WorkbookDocument): string {
    const n = this.locate(d);
    if (n === null) throw new Error('ItemNotFound: the worksheet does not exist');
    return n;
  }
  load(_props?: unknown): this {
    this.ctx.queue.push((wb) => {
      const d = doc(wb);
      const n = this.locate(d);
      this.data = n === null ? { isNullObject: true } : sheetData(d, n);
    });
    return this;
  }
  get name(): string {
    return this.prop('name');
  }
  get id(): string {
    return this.prop('id');
  }
  get position(): number {
    return this.prop('position');
  }
  getRange(address = 'A1'): Range {
    return new Range(this.ctx, (d) => ({ sheet: this.#name(d), address: address.replace(/^.*!/, '') }));
  }
  getRangeByIndexes(row: number, column: number, rows: number, columns: number): Range {
    return new Range(this.ctx, (d) => ({ sheet: this.#name(d), address: rangeAddress({ top: row + 1, left: column + 1, bottom: row + rows, right: column + columns }) }));
  }
  getCell(row: number, column: number): Range {
    return this.getRangeByIndexes(row, column, 1, 1);
  }
  getUsedRangeOrNullObject(_valuesOnly?: boolean): Range {
    const locate = (d: WorkbookDocument): Loc | null => {
      const n = this.#name(d);
      const used = d.usedRange(n);
      return used ? { sheet: n, address: used } : null;
    };
    return nullable(this.ctx, new Range(this.ctx, locate), (d) => locate(d) !== null);
  }
  /** An empty sheet's used range is A1 in Excel. */
  getUsedRange(_valuesOnly?: boolean): Range {
    return new Range(this.ctx, (d) => ({ sheet: this.#name(d), address: d.usedRange(this.#name(d)) ?? 'A1' }));
  }
  activate(): void {
    this.ctx.queue.push((wb) => {
      const d = doc(wb);
      d.activateSheet(this.#name(d));
    });
  }
  calculate(markAllDirty: boolean): void {
    this.ctx.queue.push((wb) => open(wb).calculateActiveSheet(Boolean(markAllDirty)));
  }
}

function workbookObject(ctx: RequestContext) {
  let items: Worksheet[] | null = null;
  const worksheets = {
    getActiveWorksheet: () => new Worksheet(ctx, (d) => (typeof d.activeSheet === 'function' ? d.activeSheet() : 'Sheet1')),
    /** By name or id, as Office.js takes either (learn.microsoft.com/javascript/api/excel/excel.worksheetcollection, getItem). */
    getItem: (key: string) =>
      new Worksheet(ctx, (d) => {
        const n = sheetIds(d).find(d, key);
        if (n === null) throw new Error(`ItemNotFound: no worksheet named ${key}`);
        return n;
      }),
    getItemOrNullObject: (key: string) => {
      const locate = (d: WorkbookDocument) => sheetIds(d).find(d, key);
      return nullable(ctx, new Worksheet(ctx, locate), (d) => locate(d) !== null);
    },
    add: (name: string) => {
      ctx.queue.push((wb) => doc(wb).addSheet(name));
      return worksheets.getItem(name);
    },
    load(_props?: unknown) {
      ctx.queue.push((wb) => {
        const d = doc(wb);
        items = d.sheetNames().map((n) => {
          const ws = new Worksheet(ctx, () => n);
          (ws as unknown as { data: Record<string, unknown> }).data = sheetData(d, n);
          return ws;
        });
      });
      return worksheets;
    },
    get items(): Worksheet[] {
      if (!items) throw new NotLoaded('items');
      return items;
    },
  };
  /** Excel's DATE as Workbook.functions evaluates it: a FunctionResult whose value is there after sync(). */
  const date = (y: number, m: number, d: number) => {
    const result = { value: undefined as number | undefined, error: undefined as string | undefined, load: () => result };
    ctx.queue.push(async () => {
      result.value = serialIn(toSerial(Date.UTC(y, m - 1, d)), ctx.excel.dates);
    });
    return result;
  };
  return {
    application: { calculate: (type: 'Recalculate' | 'Full' | 'FullRebuild') => void ctx.queue.push((wb) => open(wb).calculate(type)) },
    worksheets,
    functions: { date },
    getSelectedRange: () =>
      new Range(ctx, (d) => {
        const s = d.selection();
        return { sheet: s.sheet, address: s.address };
      }),
    getActiveCell: () =>
      new Range(ctx, (d) => {
        const s = d.selection();
        return { sheet: s.sheet, address: s.active };
      }),
  };
}

export function excelShim(workbook: () => ShimWorkbook | null, excel: PreviewExcel) {
  return {
    CalculationType,
    ClearApplyTo: { all: 'All', formats: 'Formats', contents: 'Contents' },
    async run<T>(batch: (ctx: unknown) => Promise<T>): Promise<T> {
      return batch(new RequestContext(workbook, excel));
    },
  };
}
