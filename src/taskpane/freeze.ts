/**
 * Freeze to values and back: which cells to write, and the record of the
 * formulas they held, kept in the workbook (a document setting) so that
 * "Restore formulas" can bring each back, in this session or after the
 * workbook was saved, shared and reopened. Pure: cells in, writes and the new
 * record out.
 */
import { parseCellAddress } from '../formulas/provenance';

/** A CRYPTO formula's cell as the workbook has it now. */
export interface FormulaCellNow {
  sheet: string;
  /** The formula's own cell, "B2". */
  address: string;
  formula: string;
  /** The range it spills into ("B2:G30"), or null for one cell. */
  spill: string | null;
  /** Its values (the spill's when it spills), as Range.values gives them. */
  values: unknown[][];
  numberFormat?: string[][];
}

export interface FrozenCell {
  sheet: string;
  address: string;
  formula: string;
  /** The cells its values were written to, cleared again when the formula comes back. */
  spill: string | null;
  /** Epoch ms. */
  frozenAt: number;
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
  if (!Array.isArray(cells)) return { version: 1, cells: [] };
  const ok = cells.filter(
    (c): c is FrozenCell =>
      typeof c === 'object' && c !== null &&
      typeof (c as FrozenCell).sheet === 'string' && typeof (c as FrozenCell).address === 'string' &&
      typeof (c as FrozenCell).formula === 'string' && (c as FrozenCell).formula.startsWith('=') &&
      ((c as FrozenCell).spill === null || typeof (c as FrozenCell).spill === 'string'),
  );
  return { version: 1, cells: ok.map((c) => ({ sheet: c.sheet, address: c.address, formula: c.formula, spill: c.spill, frozenAt: Number(c.frozenAt) || 0 })) };
}

export interface ValueWrite {
  sheet: string;
  /** The range written: the formula's cell, or its whole spill. */
  address: string;
  values: unknown[][];
  numberFormat?: string[][];
}

/** Convert to values: each CRYPTO cell (and its spill) becomes what it shows; its formula joins the record. */
export function freezePlan(cells: readonly FormulaCellNow[], record: FrozenRecord, now: number): { writes: ValueWrite[]; record: FrozenRecord } {
  const kept = new Map(record.cells.map((c) => [cellKey(c.sheet, c.address), c]));
  const writes: ValueWrite[] = [];
  for (const c of cells) {
    writes.push({ sheet: c.sheet, address: c.spill ?? c.address, values: c.values, ...(c.numberFormat ? { numberFormat: c.numberFormat } : {}) });
    kept.set(cellKey(c.sheet, c.address), { sheet: c.sheet, address: c.address, formula: c.formula, spill: c.spill, frozenAt: now });
  }
  return { writes, record: { version: 1, cells: [...kept.values()] } };
}

export interface RestoreWrite {
  sheet: string;
  address: string;
  formula: string;
  /** Cleared first, so the formula can spill there again. */
  clear: string | null;
}

export interface Scope {
  kind: 'selection' | 'sheet' | 'workbook';
  sheet: string;
  /** The selection, for kind "selection". */
  range?: string;
}

function inScope(c: FrozenCell, scope: Scope): boolean {
  if (scope.kind === 'workbook') return true;
  if (c.sheet.toLowerCase() !== scope.sheet.toLowerCase()) return false;
  if (scope.kind === 'sheet' || !scope.range) return true;
  const sel = parseCellAddress(`x!${scope.range}`);
  const at = parseCellAddress(`x!${c.address}`);
  return Boolean(sel && at && at.top >= sel.top && at.top <= sel.bottom && at.left >= sel.left && at.left <= sel.right);
}

/**
 * Restore formulas: the frozen cells in scope get their formulas back, except
 * where a formula has been typed since (the user's newer work is kept); those
 * stay in the record. `now` gives each cell's current formula text or value.
 */
export function restorePlan(
  record: FrozenRecord,
  scope: Scope,
  now: ReadonlyMap<string, unknown>,
): { restores: RestoreWrite[]; skipped: FrozenCell[]; record: FrozenRecord } {
  const restores: RestoreWrite[] = [];
  const skipped: FrozenCell[] = [];
  const left: FrozenCell[] = [];
  for (const c of record.cells) {
    if (!inScope(c, scope)) {
      left.push(c);
      continue;
    }
    const current = now.get(cellKey(c.sheet, c.address));
    if (typeof current === 'string' && current.startsWith('=')) {
      skipped.push(c);
      left.push(c);
      continue;
    }
    restores.push({ sheet: c.sheet, address: c.address, formula: c.formula, clear: c.spill });
  }
  return { restores, skipped, record: { version: 1, cells: left } };
}

/** The key restorePlan looks cells up by. */
export const frozenKey = cellKey;
