/**
 * Freeze to values and back: which cells to write, and the record of the
 * formulas they held, kept in the workbook (a document setting) so that
 * "Restore formulas" can bring each back, in this session or after the
 * workbook was saved, shared and reopened. Pure: cells in, writes and the new
 * record out. What a frozen range held: freeze-fingerprint.ts.
 */
import { parseCellAddress } from '../formulas/provenance';
import { a1 } from '../office/workbook-cells';
import { fingerprint, typedFingerprint, VALUE_ERROR } from './freeze-fingerprint';

/** A CRYPTO formula's cell as the workbook has it now. */
export interface FormulaCellNow {
  sheet: string;
  /** Worksheet.id of its sheet (ExcelApi 1.1), where read: Restore finds the sheet by it after a rename. */
  sheetId?: string;
  /** The formula's own cell, "B2". */
  address: string;
  formula: string;
  /** The range it spills into ("B2:G30"), or null for one cell. */
  spill: string | null;
  /** Its values (the spill's when it spills), as Range.values gives them. */
  values: unknown[][];
  numberFormat?: string[][];
  /**
   * The same cells as Range.valuesAsJson gives them (ExcelApi 1.16), or
   * null/absent where that API is not there. Range.values cannot carry a data
   * type: it gives an entity's basicValue, "#VALUE!" ("the value that would be
   * returned by Range.values for a cell with this value",
   * learn.microsoft.com/javascript/api/excel/excel.entitycellvalue).
   */
  json?: unknown[][] | null;
}

export interface FrozenCell {
  /** Its sheet's name when frozen. */
  sheet: string;
  /**
   * Its sheet's Worksheet.id (ExcelApi 1.1): "the value of the identifier
   * remains the same even when the worksheet is renamed or moved"
   * (learn.microsoft.com/javascript/api/excel/excel.worksheet, id),
   * so Restore finds a renamed sheet by it. Not trusted alone: the id may
   * change between sessions on some builds (office-js-docs#297, office-js#1390)
   * and Excel for Mac may give a deleted sheet's id to a new one
   * (learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-worksheets),
   * so the sheet of the recorded name is tried too, and the fingerprint must
   * agree (restorePlan). Absent in records written before it.
   */
  sheetId?: string;
  address: string;
  formula: string;
  /** The cells its values were written to, cleared again when the formula comes back. */
  spill: string | null;
  /** Epoch ms. */
  frozenAt: number;
  /**
   * What its range held once frozen, as read back from Excel (fingerprint()):
   * Restore clears the range only while it still holds exactly that. Absent in
   * records written before it (only the formula checks hold for those).
   */
  fingerprint?: string;
  /**
   * The same over the range's data types as Range.valuesAsJson gives them
   * (typedFingerprint), where it held one (a COIN card): Range.values reads
   * every card "#VALUE!", so only this tells a card from another. Absent
   * where the range held none (it would equal `fingerprint`).
   */
  typesFingerprint?: string;
}

export interface FrozenRecord {
  version: 1;
  cells: FrozenCell[];
}

export const EMPTY_RECORD: FrozenRecord = { version: 1, cells: [] };

const cellKey = (sheet: string, address: string) => `${sheet.toLowerCase()}!${address.replace(/\$/g, '').toUpperCase()}`;

/** A record read back from the document: anything unreadable is left out, never trusted. */
export function readRecord(raw: unknown): FrozenRecord {
  const cells = (raw as { cells?: unknown } | null)?.cells;
  if (!Array.isArray(cells)) return EMPTY_RECORD;
  const ok = cells.filter(
    (c): c is FrozenCell =>
      typeof c === 'object' && c !== null &&
      typeof (c as FrozenCell).sheet === 'string' && typeof (c as FrozenCell).address === 'string' &&
      typeof (c as FrozenCell).formula === 'string' && (c as FrozenCell).formula.startsWith('=') &&
      ((c as FrozenCell).spill === null || typeof (c as FrozenCell).spill === 'string'),
  );
  return {
    version: 1,
    cells: ok.map((c) => ({
      sheet: c.sheet,
      ...(typeof c.sheetId === 'string' && c.sheetId ? { sheetId: c.sheetId } : {}),
      address: c.address, formula: c.formula, spill: c.spill, frozenAt: Number(c.frozenAt) || 0,
      ...(typeof c.fingerprint === 'string' ? { fingerprint: c.fingerprint } : {}),
      ...(typeof c.typesFingerprint === 'string' ? { typesFingerprint: c.typesFingerprint } : {}),
    })),
  };
}

/** The range a frozen cell's values were written to (and Restore clears). */
export const frozenRange = (c: Pick<FrozenCell, 'address' | 'spill'>) => c.spill ?? c.address;

/** A range's values as Range.values gives them, and as Range.valuesAsJson does where ExcelApi 1.16 is there (else null or absent). */
export interface HeldValues {
  values: readonly (readonly unknown[])[];
  json?: readonly (readonly unknown[])[] | null;
}

/**
 * Each written range as Excel holds it after the write, by the key of the
 * cell it belongs to (a bare grid: its Range.values): the record's
 * fingerprints, the typed one too where the range holds a data type.
 */
export function withFingerprints(record: FrozenRecord, readBack: ReadonlyMap<string, HeldValues | readonly (readonly unknown[])[]>): FrozenRecord {
  return {
    version: 1,
    cells: record.cells.map((c) => {
      const back = readBack.get(cellKey(c.sheet, c.address));
      if (!back) return c;
      const held: HeldValues = Array.isArray(back) ? { values: back } : (back as HeldValues);
      const plain = fingerprint(held.values);
      const typed = held.json ? typedFingerprint(held.values, held.json) : plain;
      return { ...c, fingerprint: plain, ...(typed !== plain ? { typesFingerprint: typed } : {}) };
    }),
  };
}

export interface ValueWrite {
  sheet: string;
  /** The range written: the formula's cell, or its whole spill. */
  address: string;
  values: unknown[][];
  numberFormat?: string[][];
  /**
   * Cells of that range (addresses within the sheet) that hold a data type,
   * each written back whole through Range.valuesAsJson after the values:
   * valuesAsJson is how the Excel API reads and writes data types, and an
   * entity written so is a value of the cell, card and fields included
   * (learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-concepts).
   */
  entities?: { address: string; value: unknown }[];
}

/** Why a CRYPTO cell was left a formula by Convert to values. */
export type KeepReason = 'no-data-types' | 'data-type' | 'busy';

/**
 * What Range.values reads in a cell whose custom function has not answered yet. Written as the value it would
 * show #BUSY! for good, under "Converted", its value before the refresh gone (review 2026-11-27, office #3):
 * such a cell stays a formula, to convert once it has its answer.
 */
const BUSY_ERROR = '#BUSY!';
const isBusyJson = (v: unknown) => typeof v === 'object' && v !== null && (v as { type?: unknown; errorType?: unknown }).type === 'Error' && (v as { errorType?: unknown }).errorType === 'Busy';

/** A data type's JSON whose fields are in the value itself (Excel.EntityCellValue, type "Entity"). */
export const isEntityJson = (v: unknown): boolean => typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'Entity';

/** "B2" and an offset → the cell that many rows and columns from it. */
function offsetCell(address: string, row: number, col: number): string {
  const at = parseCellAddress(`x!${address}`)!;
  return a1(at.top - 1 + row, at.left - 1 + col);
}

/**
 * The data types among a cell's values to write back through valuesAsJson,
 * or why the cell must stay a formula. A "#VALUE!" read through Range.values
 * may be a card (review-features #11): written back as values it would put the
 * error over the card and break every `=A1.Price` reading it. Without
 * valuesAsJson (no ExcelApi 1.16) a card cannot be told from the error, so
 * such a cell stays a formula; with it, an entity is written back whole, and
 * any other data type that reads "#VALUE!" (a linked entity needs its
 * provider; a web image) stays a formula too.
 */
function dataTypes(c: FormulaCellNow): { entities: { address: string; value: unknown }[] } | { keep: KeepReason } {
  if (c.values.some((row, i) => row.some((v, j) => v === BUSY_ERROR || isBusyJson(c.json?.[i]?.[j])))) return { keep: 'busy' };
  const entities: { address: string; value: unknown }[] = [];
  for (let i = 0; i < c.values.length; i++) {
    for (let j = 0; j < c.values[i].length; j++) {
      if (c.values[i][j] !== VALUE_ERROR) continue;
      if (!c.json) return { keep: 'no-data-types' };
      const v = c.json[i]?.[j];
      if (isEntityJson(v)) entities.push({ address: offsetCell(c.spill ?? c.address, i, j), value: v });
      else if (!(typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'Error')) return { keep: 'data-type' };
    }
  }
  return { entities };
}

/**
 * Convert to values: each CRYPTO cell (and its spill) becomes what it shows,
 * entities included (written through valuesAsJson); its formula joins the
 * record. A cell whose card cannot be kept, or that has no answer yet
 * (#BUSY!), is left a formula (`kept`), out of the record.
 */
export function freezePlan(
  cells: readonly FormulaCellNow[],
  record: FrozenRecord,
  now: number,
): { writes: ValueWrite[]; record: FrozenRecord; kept: { cell: FormulaCellNow; reason: KeepReason }[] } {
  const byKey = new Map(record.cells.map((c) => [cellKey(c.sheet, c.address), c]));
  const writes: ValueWrite[] = [];
  const kept: { cell: FormulaCellNow; reason: KeepReason }[] = [];
  for (const c of cells) {
    const types = dataTypes(c);
    if ('keep' in types) {
      kept.push({ cell: c, reason: types.keep });
      continue;
    }
    writes.push({
      sheet: c.sheet,
      address: c.spill ?? c.address,
      values: c.values,
      ...(c.numberFormat ? { numberFormat: c.numberFormat } : {}),
      ...(types.entities.length ? { entities: types.entities } : {}),
    });
    byKey.set(cellKey(c.sheet, c.address), {
      sheet: c.sheet,
      ...(c.sheetId ? { sheetId: c.sheetId } : {}),
      address: c.address, formula: c.formula, spill: c.spill, frozenAt: now,
    });
  }
  return { writes, record: { version: 1, cells: [...byKey.values()] }, kept };
}

export interface RestoreWrite {
  /** The sheet's name now (renamed since the freeze where `renamedFrom` is given). */
  sheet: string;
  address: string;
  formula: string;
  /** Cleared first, so the formula can spill there again. */
  clear: string | null;
  /** The sheet's name in the record, where the sheet (found by its id) is named otherwise now. */
  renamedFrom?: string;
}

export interface Scope {
  kind: 'selection' | 'sheet' | 'workbook';
  sheet: string;
  /** The selection, for kind "selection". */
  range?: string;
}

/** Whether a cell on the sheet named `sheet` (now) is in scope. */
function inScope(sheet: string, address: string, scope: Scope): boolean {
  if (scope.kind === 'workbook') return true;
  if (sheet.toLowerCase() !== scope.sheet.toLowerCase()) return false;
  if (scope.kind === 'sheet' || !scope.range) return true;
  const sel = parseCellAddress(`x!${scope.range}`);
  const at = parseCellAddress(`x!${address}`);
  return Boolean(sel && at && at.top >= sel.top && at.top <= sel.bottom && at.left >= sel.left && at.left <= sel.right);
}

/**
 * A frozen cell's range as the workbook has it now: its formulas, values and
 * (ExcelApi 1.16) valuesAsJson, and the name of the sheet it was read on
 * (absent: the record's). null when its sheet is gone (deleted, or renamed
 * with no id in the record).
 */
export type RangeNow = {
  formulas: readonly (readonly unknown[])[];
  values: readonly (readonly unknown[])[];
  json?: readonly (readonly unknown[])[] | null;
  sheet?: string;
} | null;

/** Why a frozen cell was left as it is. */
export type SkipReason = 'formula' | 'changed' | 'sheet';

/**
 * Restore formulas: the frozen cells in scope get their formulas back, unless
 * the user's newer work is in the way: a formula typed in the cell or
 * anywhere in the range it is cleared from, other values there (edited, or
 * moved by an inserted row: the fingerprint), or its sheet gone. Excel itself
 * never deletes what blocks a spill (#SPILL!), so neither does this
 * (review-features #1). Those stay in the record.
 *
 * `now` gives each cell's range as it is, by frozenKey: one, or the ranges
 * on each sheet it may be on, the sheet of its recorded id first, then the
 * sheet of its recorded name (FrozenCell.sheetId says why both). The first
 * that nothing blocks is restored; a sheet of another name (a rename) only
 * where the fingerprint confirms it is the range that was frozen.
 */
export function restorePlan(
  record: FrozenRecord,
  scope: Scope,
  now: ReadonlyMap<string, RangeNow | readonly RangeNow[]>,
): { restores: RestoreWrite[]; skipped: { cell: FrozenCell; reason: SkipReason }[]; record: FrozenRecord } {
  const restores: RestoreWrite[] = [];
  const skipped: { cell: FrozenCell; reason: SkipReason }[] = [];
  const left: FrozenCell[] = [];
  for (const c of record.cells) {
    const found = now.get(cellKey(c.sheet, c.address));
    const ranges = (Array.isArray(found) ? found : [found]).filter((r): r is NonNullable<RangeNow> => Boolean(r));
    const named = (r: NonNullable<RangeNow>) => r.sheet ?? c.sheet;
    const here = ranges.filter((r) => inScope(named(r), c.address, scope));
    if (ranges.length === 0 ? !inScope(c.sheet, c.address, scope) : here.length === 0) {
      left.push(c);
      continue;
    }
    const why = here.map((r) => blocked(c, r));
    const at = why.indexOf(null);
    if (at < 0) {
      skipped.push({ cell: c, reason: why[0] ?? 'sheet' });
      left.push(c);
      continue;
    }
    const sheet = named(here[at]);
    restores.push({
      sheet, address: c.address, formula: c.formula, clear: c.spill,
      ...(sheet.toLowerCase() !== c.sheet.toLowerCase() ? { renamedFrom: c.sheet } : {}),
    });
  }
  return { restores, skipped, record: { version: 1, cells: left } };
}

/**
 * A formula in the cell: its formula text differs from its value. Text that merely begins with "="
 * (frozen with Excel's ' prefix) reads back from Range.formulas without the prefix (office-js#6687),
 * the same as its value; counted as a formula, such a cell could never be restored (review-r2 #6).
 */
const isFormula = (f: unknown, value: unknown) => typeof f === 'string' && f.startsWith('=') && f !== value;

function blocked(c: FrozenCell, range: NonNullable<RangeNow>): SkipReason | null {
  if (range.formulas.some((row, i) => row.some((f, j) => isFormula(f, range.values[i]?.[j])))) return 'formula';
  // A sheet of another name than the record's is the renamed sheet only on its id's word, which may be wrong
  // (FrozenCell.sheetId): without a fingerprint to confirm it, it is not the cell's sheet.
  const renamed = range.sheet !== undefined && range.sheet.toLowerCase() !== c.sheet.toLowerCase();
  if (c.fingerprint === undefined) return renamed ? 'sheet' : null;
  // Like with like: the typed fingerprint where this Excel reads valuesAsJson, else the plain one (a workbook
  // frozen where ExcelApi 1.16 is, restored where it is not).
  const same = range.json ? typedFingerprint(range.values, range.json) === (c.typesFingerprint ?? c.fingerprint) : fingerprint(range.values) === c.fingerprint;
  return same ? null : 'changed';
}

/** The key restorePlan looks cells up by. */
export const frozenKey = cellKey;
