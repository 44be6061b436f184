/**
 * The preview Excel shim's ranges and worksheets (excel-shim.ts): where each
 * is, worked out when an operation on it runs, their properties as load()
 * and sync() read them, and their writes queued for sync(): ranges'
 * formulas, values, valuesAsJson, numberFormat, spills, resizing and
 * clearing; worksheets' name, id and position, ranges, used range,
 * activation and calculation.
 */
import type { WorkbookDocument } from '../protocol';
import { parseRange, quoteSheet, rangeAddress } from '../workbook/address';
import { Loadable, nullable, type RequestContext } from './excel-batch';
import { sheetIds } from './excel-sheet-ids';
import { doc, open } from './office-shim';

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

interface Loc {
  sheet: string;
  address: string;
}

const broadcast = (v: unknown, rows: number, cols: number): unknown[][] =>
  Array.isArray(v) ? (v as unknown[][]) : Array.from({ length: rows }, () => Array.from({ length: cols }, () => v));

export class Range extends Loadable {
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
export const sheetData = (d: WorkbookDocument, name: string) => ({ isNullObject: false, name, id: sheetIds(d).id(name), position: d.sheetNames().indexOf(name) });

export class Worksheet extends Loadable {
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
