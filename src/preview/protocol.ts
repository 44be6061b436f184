/**
 * The two halves of the preview and what they call on each other: the pane's
 * window (the add-in's shared runtime, with the custom-functions runtime the
 * preview host installs there) and the workbook's window around it.
 */
import type { FunctionMetadata } from './runtime/metadata';
import type { Call, CallRequest, ResultListener } from './runtime/runtime';
import type { CellValue } from './runtime/values';

/** What the workbook does when the add-in asks Excel to recalculate (Excel.run ... calculate). */
export interface WorkbookCalculator {
  /** Application.calculate(type): every formula of the workbook. */
  calculate(type: 'Recalculate' | 'Full' | 'FullRebuild'): Promise<void>;
  /** Worksheet.calculate(markAllDirty): the active sheet. */
  calculateActiveSheet(markAllDirty: boolean): Promise<void>;
}

/** What a cell holds as Range.formulas gives it: formula text ("=..."), a typed value, or "" when empty. */
export type FormulaCell = string | number | boolean;

/** Office.StartupBehavior: whether the add-in's runtime loads when the document opens. */
export type StartupBehavior = 'Load' | 'None';

/**
 * The workbook as the Excel JavaScript API reads and writes it (the preview's
 * Excel shim, office-shim.ts): sheets, the selection, cells' formulas and
 * values, spills, number formats, the document's settings (saved inside the
 * workbook, as Office.context.document.settings are) and the add-in's startup
 * behaviour for this document. Addresses are A1 ranges within a sheet ("B2",
 * "B2:D4"); values cross as plain data.
 */
export interface WorkbookDocument {
  sheetNames(): string[];
  activeSheet(): string;
  activateSheet(name: string): void;
  addSheet(name: string): void;
  /** The selected range on the active sheet and its active cell. */
  selection(): { sheet: string; address: string; active: string };
  /** Top-left to the last row and column anything is typed or spilled in; null when the sheet is empty. */
  usedRange(sheet: string): string | null;
  read(sheet: string, address: string): { formulas: FormulaCell[][]; values: CellValue[][]; numberFormat: string[][] };
  /** The range an anchor spills into (its own cell first), or null when it does not spill. */
  spill(sheet: string, address: string): string | null;
  /** The anchor of the spill covering this cell, or null. */
  spillParent(sheet: string, address: string): string | null;
  /** Formulas or values into the range (one entry a cell; "" clears); then one recalculation. */
  write(sheet: string, address: string, kind: 'formulas' | 'values', data: unknown[][]): void;
  setNumberFormat(sheet: string, address: string, formats: string[][]): void;
  clear(sheet: string, address: string): void;
  settings(): Record<string, unknown>;
  saveSettings(settings: Record<string, unknown>): void;
  startupBehavior(): StartupBehavior;
  setStartupBehavior(b: StartupBehavior): void;
}

/** Found on the pane window as `__customFunctionsHost` once preview-host.js has run. */
export interface CustomFunctionsHost {
  /** Resolves when functions.json is read (functions.js registers itself as it loads). */
  ready: Promise<void>;
  functions(): FunctionMetadata[];
  call(req: CallRequest, onResult: ResultListener): Call;
  connectWorkbook(workbook: WorkbookCalculator & Partial<WorkbookDocument>): void;
}

export const HOST_GLOBAL = '__customFunctionsHost';
