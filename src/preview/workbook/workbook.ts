/**
 * The preview's workbook: its sheets (each a Sheet with its own call sites),
 * the active one, the document's settings (saved inside the workbook, as
 * Office.context.document.settings are) and the add-in's startup behaviour
 * for this document. It answers the Excel shim (protocol.ts, WorkbookDocument)
 * and saves itself for a "reopen": formulas, formats and each call's last
 * result, so a reopened workbook shows its cached values without calling a
 * custom function, as Excel shows a saved workbook (Excel-Custom-Functions#368).
 * No DOM: index.ts draws the sheets.
 */
import { isEntityValue, isErrorValue, isFormattedNumber, type Value } from '../../engine/values';
import type { FormulaCell, StartupBehavior, WorkbookCalculator, WorkbookDocument } from '../protocol';
import type { CellValue } from '../runtime/values';
import { parseRange, rangeAddress, toAddress, type Position, type Rect } from './address';
import { CallSites, type FunctionInvoker, type SavedSite } from './calls';
import type { FormulaEngine } from './engine';
import { automaticFormat, formatCode, type NumberFormat } from './format';
import type { Selection } from './selection';
import { Sheet, isFormula, literalValue } from './sheet';

export interface SheetEntry {
  name: string;
  sheet: Sheet;
  calls: CallSites;
  /** Formats set on cells: a name (format.ts) or an Excel format code. */
  formats: Record<string, NumberFormat | string>;
  /** The sheet's selection, once a view draws it. */
  selection?: Selection;
}

export interface SavedSheet {
  name: string;
  inputs: Record<string, string>;
  formats: Record<string, string>;
  sites: SavedSite[];
  /** Cells holding a data type as their value (an entity written through valuesAsJson), saved with the workbook as Excel saves them. */
  held?: Record<string, Value>;
}

/** A saved workbook: what a reopen shows before any calculation. */
export interface SavedWorkbook {
  sheets: SavedSheet[];
  active: number;
  settings: Record<string, unknown>;
  startup: StartupBehavior;
}

function cells(r: Rect): Position[][] {
  const out: Position[][] = [];
  for (let row = r.top; row <= r.bottom; row++) {
    const line: Position[] = [];
    for (let col = r.left; col <= r.right; col++) line.push({ row, col });
    out.push(line);
  }
  return out;
}

/** A cell's value as Range.values gives it: errors as their code, a formatted number as its number, empty as "". */
function excelValue(v: Value): CellValue {
  if (v === null || v === undefined) return '';
  if (isFormattedNumber(v)) return v.basicValue;
  if (isErrorValue(v)) return v.error;
  // An entity is its basicValue, "#VALUE!", as Range.values gives it (Excel.EntityCellValue.basicValue in @types/office-js).
  if (isEntityValue(v)) return '#VALUE!';
  if (typeof v === 'object') return '';
  return v;
}

/**
 * A cell's value as Range.valuesAsJson gives it (Excel.CellValue): a data type
 * whole, an entity with basicType "Error" and basicValue "#VALUE!" (what
 * Range.values gives for it: Excel.EntityCellValue.basicValue); the basic
 * types with their type.
 */
function jsonValue(v: Value): unknown {
  if (v === null || v === undefined) return { type: 'Empty', basicType: 'Empty', basicValue: '' };
  if (isEntityValue(v)) return { ...structuredClone(v), basicType: 'Error', basicValue: '#VALUE!' };
  if (isFormattedNumber(v)) return { type: 'FormattedNumber', basicType: 'Double', basicValue: v.basicValue, numberFormat: v.numberFormat };
  if (isErrorValue(v)) return { type: 'Error', basicType: 'Error', basicValue: v.error };
  if (typeof v === 'number') return { type: 'Double', basicType: 'Double', basicValue: v };
  if (typeof v === 'boolean') return { type: 'Boolean', basicType: 'Boolean', basicValue: v };
  if (typeof v === 'string') return { type: 'String', basicType: 'String', basicValue: v };
  return { type: 'Empty', basicType: 'Empty', basicValue: '' };
}

/** What a write puts in a cell as typed text: formulas as they are, numbers and TRUE/FALSE as Excel shows them. */
function typed(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  return String(v);
}

export class PreviewWorkbook extends EventTarget implements WorkbookCalculator, WorkbookDocument {
  readonly sheets: SheetEntry[] = [];
  #active = 0;
  #settings: Record<string, unknown> = {};
  #startup: StartupBehavior = 'None';

  constructor(
    private readonly engine: FormulaEngine,
    private readonly invoker: FunctionInvoker,
    /** The clock recalculations read NOW() and TODAY() from (epoch ms); tests pass their own. */
    private readonly clock: () => number = Date.now,
  ) {
    super();
  }

  /** A new sheet at the end (Worksheets.add). */
  add(name: string, saved?: SavedSheet): SheetEntry {
    if (this.entry(name)) throw new Error(`A sheet named ${name} exists already`);
    let sheet!: Sheet;
    const calls = new CallSites(this.invoker, (cell) => sheet.scheduleRecalculation(cell), name);
    sheet = new Sheet(this.engine, calls, this.clock);
    const e: SheetEntry = { name, sheet, calls, formats: { ...saved?.formats } };
    this.sheets.push(e);
    if (saved) {
      calls.restore(saved.sites);
      sheet.load(saved.inputs, structuredClone(saved.held ?? {}));
    }
    this.dispatchEvent(new CustomEvent('sheet-added', { detail: e }));
    return e;
  }

  entry(name: string): SheetEntry | undefined {
    return this.sheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
  }

  #get(name: string): SheetEntry {
    const e = this.entry(name);
    if (!e) throw new Error(`ItemNotFound: no sheet named ${name}`);
    return e;
  }

  get active(): SheetEntry {
    return this.sheets[this.#active];
  }

  // ---------------------------------------------------------------- WorkbookCalculator

  async calculate(type: 'Recalculate' | 'Full' | 'FullRebuild'): Promise<void> {
    // Excel's Recalculate leaves custom functions whose inputs did not change; Full calls them all again.
    // One recalculation of the workbook: every sheet's NOW() is the same instant (sheet.ts, `instant`).
    const at = this.clock();
    for (const e of this.sheets) e.sheet.recalculate({ full: type !== 'Recalculate', at });
  }

  async calculateActiveSheet(markAllDirty: boolean): Promise<void> {
    this.active.sheet.recalculate({ full: markAllDirty });
  }

  whenIdle(): Promise<void> {
    return Promise.all(this.sheets.map((e) => e.sheet.whenIdle())).then(() => undefined);
  }

  // ---------------------------------------------------------------- WorkbookDocument

  sheetNames(): string[] {
    return this.sheets.map((s) => s.name);
  }

  activeSheet(): string {
    return this.active.name;
  }

  activateSheet(name: string): void {
    const i = this.sheets.indexOf(this.#get(name));
    if (i === this.#active) return;
    this.#active = i;
    this.dispatchEvent(new CustomEvent('activated', { detail: this.active }));
  }

  addSheet(name: string): void {
    this.add(name);
  }

  selection(): { sheet: string; address: string; active: string } {
    const e = this.active;
    const sel = e.selection;
    return { sheet: e.name, address: sel ? sel.label() : 'A1', active: sel ? toAddress(sel.active) : 'A1' };
  }

  usedRange(name: string): string | null {
    const { sheet } = this.#get(name);
    if (sheet.addresses().length === 0) return null;
    const b = sheet.bounds();
    return rangeAddress({ top: 1, left: 1, bottom: b.row, right: b.col });
  }

  read(name: string, address: string): { formulas: FormulaCell[][]; values: CellValue[][]; numberFormat: string[][] } {
    const e = this.#get(name);
    const r = this.#rect(address);
    const grid = cells(r);
    const input = (p: Position) => e.sheet.input(toAddress(p));
    return {
      formulas: grid.map((row) =>
        row.map((p) => {
          const text = input(p);
          // A cell holding a data type has no formula: Range.formulas gives its value, as Range.values does.
          const held = e.sheet.heldValue(toAddress(p));
          if (held !== undefined) return excelValue(held) as FormulaCell;
          if (text === '') return '';
          if (isFormula(text)) return text;
          const v = literalValue(text);
          return v === null ? '' : (v as FormulaCell);
        }),
      ),
      values: grid.map((row) => row.map((p) => excelValue(e.sheet.value(toAddress(p))))),
      numberFormat: grid.map((row) => row.map((p) => this.#formatOf(e, toAddress(p)))),
    };
  }

  #formatOf(e: SheetEntry, a: string): string {
    const own = e.formats[a];
    if (own) return formatCode(own);
    const v = e.sheet.value(a);
    if (isFormattedNumber(v)) return v.numberFormat;
    return automaticFormat(e.sheet.input(a)) ?? 'General';
  }

  spill(name: string, address: string): string | null {
    const e = this.#get(name);
    const p = this.#rect(address);
    const a = toAddress({ row: p.top, col: p.left });
    const size = e.sheet.spillExtent(a);
    if (!size || (size.rows === 1 && size.cols === 1)) return null;
    return rangeAddress({ top: p.top, left: p.left, bottom: p.top + size.rows - 1, right: p.left + size.cols - 1 });
  }

  spillParent(name: string, address: string): string | null {
    const e = this.#get(name);
    const p = this.#rect(address);
    const a = toAddress({ row: p.top, col: p.left });
    return e.sheet.spilledFrom(a) ?? (this.spill(name, a) ? a : null);
  }

  write(name: string, address: string, _kind: 'formulas' | 'values', data: unknown[][]): void {
    const e = this.#get(name);
    const r = this.#rect(address);
    const rows = r.bottom - r.top + 1;
    const cols = r.right - r.left + 1;
    if (data.length !== rows || data.some((row) => row.length !== cols)) {
      throw new Error(`InvalidArgument: ${rows}x${cols} cells at ${address}, given ${data.length}x${data[0]?.length ?? 0}`);
    }
    const inputs: Record<string, string> = {};
    cells(r).forEach((row, i) => row.forEach((p, j) => (inputs[toAddress(p)] = typed(data[i][j]))));
    e.sheet.setInputs(inputs);
  }

  /** Range.valuesAsJson: each cell's value whole (jsonValue). */
  readJson(name: string, address: string): unknown[][] {
    const e = this.#get(name);
    return cells(this.#rect(address)).map((row) => row.map((p) => jsonValue(e.sheet.value(toAddress(p)))));
  }

  /**
   * Range.valuesAsJson written: an entity becomes the cell's value (no formula;
   * its card and fields stay, `=A1.Price` reads them); a basic type is written
   * as its basicValue, as Range.values would write it.
   */
  writeJson(name: string, address: string, data: unknown[][]): void {
    const e = this.#get(name);
    const r = this.#rect(address);
    if (data.length !== r.bottom - r.top + 1 || data.some((row) => row.length !== r.right - r.left + 1)) throw new Error(`InvalidArgument: the values do not fit ${address}`);
    const held: Record<string, Value> = {};
    const inputs: Record<string, string> = {};
    cells(r).forEach((row, i) =>
      row.forEach((p, j) => {
        const v = data[i][j] as { type?: unknown; basicValue?: unknown } | null;
        if (isEntityValue(v)) {
          const { basicType: _t, basicValue: _v, ...entity } = structuredClone(v) as unknown as Record<string, unknown>;
          held[toAddress(p)] = entity as unknown as Value;
        } else inputs[toAddress(p)] = typed(typeof v === 'object' && v !== null ? v.basicValue : v);
      }),
    );
    if (Object.keys(inputs).length) e.sheet.setInputs(inputs);
    if (Object.keys(held).length) e.sheet.setHeld(held);
  }

  setNumberFormat(name: string, address: string, formats: string[][]): void {
    const e = this.#get(name);
    cells(this.#rect(address)).forEach((row, i) =>
      row.forEach((p, j) => {
        const f = formats[i]?.[j] ?? formats[0]?.[0];
        if (!f || f === 'General') delete e.formats[toAddress(p)];
        else e.formats[toAddress(p)] = f;
      }),
    );
    // A format is shown, not calculated: Excel does not recalculate for it, so NOW() stays (a guess: no Microsoft page says so outright).
    e.sheet.redraw();
  }

  clear(name: string, address: string): void {
    const e = this.#get(name);
    const inputs: Record<string, string> = {};
    for (const row of cells(this.#rect(address))) for (const p of row) inputs[toAddress(p)] = '';
    e.sheet.setInputs(inputs);
  }

  settings(): Record<string, unknown> {
    return structuredClone(this.#settings);
  }

  saveSettings(settings: Record<string, unknown>): void {
    this.#settings = structuredClone(settings);
  }

  startupBehavior(): StartupBehavior {
    return this.#startup;
  }

  setStartupBehavior(b: StartupBehavior): void {
    this.#startup = b === 'Load' ? 'Load' : 'None';
  }

  #rect(address: string): Rect {
    const r = parseRange(address);
    if (!r) throw new Error(`InvalidArgument: not a range address: ${address}`);
    return r;
  }

  // ---------------------------------------------------------------- saving and reopening

  save(): SavedWorkbook {
    return {
      sheets: this.sheets.map((e) => {
        const inputs: Record<string, string> = {};
        for (const a of e.sheet.addresses()) {
          const t = e.sheet.input(a);
          if (t !== '') inputs[a] = t;
        }
        const held = e.sheet.heldValues();
        return { name: e.name, inputs, formats: { ...(e.formats as Record<string, string>) }, sites: e.calls.saved(), ...(Object.keys(held).length ? { held: structuredClone(held) } : {}) };
      }),
      active: this.#active,
      settings: this.settings(),
      startup: this.#startup,
    };
  }

  /** A saved workbook into this (empty) one: cached values shown, no custom function called. */
  restore(saved: SavedWorkbook): void {
    for (const s of saved.sheets) this.add(s.name, s);
    this.#settings = structuredClone(saved.settings ?? {});
    this.#startup = saved.startup === 'Load' ? 'Load' : 'None';
    this.#active = Math.min(Math.max(0, saved.active | 0), this.sheets.length - 1);
  }
}
