/**
 * "Append snapshot": the cells a user names ("Sheet1!B2, D9:D10") and the
 * dated row they become. Pure.
 */
import { parseCellAddress } from '../formulas/provenance';
import { a1, isCryptoFormula, type CellAt } from '../office/workbook-cells';
import type { Message } from './messages';

/** More is a paste gone wrong, not a log row. */
export const MAX_SNAPSHOT_CELLS = 50;

export const quoteSheet = (name: string) => (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);

/** The cells, one by one; a name without a sheet is on `activeSheet`. */
export function parseCellList(text: string, activeSheet: string): { cells: CellAt[] } | { error: string } {
  const parts = text.split(/[,;]/).map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) return { error: 'Name the cells to log, e.g. Sheet1!B2, or select them and press Use selection.' };
  const cells: CellAt[] = [];
  for (const p of parts) {
    const r = parseCellAddress(p.includes('!') ? p : `${quoteSheet(activeSheet)}!${p}`);
    if (!r) return { error: `"${p}" is not a cell or range, such as Sheet1!B2 or B2:B5.` };
    for (let row = r.top; row <= r.bottom; row++) for (let col = r.left; col <= r.right; col++) cells.push({ sheet: r.sheet, address: a1(row - 1, col - 1) });
    if (cells.length > MAX_SNAPSHOT_CELLS) return { error: `At most ${MAX_SNAPSHOT_CELLS} cells in a snapshot.` };
  }
  return { cells };
}

export const cellLabel = (c: CellAt) => `${quoteSheet(c.sheet)}!${c.address}`;

export const SNAPSHOT_SHEET = 'Snapshots';
export const SNAPSHOT_DATE = 'Date (UTC)';
export const SNAPSHOT_DATE_FORMAT = 'yyyy-mm-dd hh:mm';

/** The header and the row: the time as an Excel serial in the workbook's date system (`serial`), then the values. */
export function snapshotBlock(cells: readonly CellAt[], values: readonly unknown[], serial: number): { header: string[]; row: unknown[] } {
  return { header: [SNAPSHOT_DATE, ...cells.map(cellLabel)], row: [serial, ...values.map((v) => (v === null || v === undefined ? '' : v))] };
}

/**
 * The CRYPTO cells among those logged that show no answer fetched since the
 * add-in started: the value saved with the workbook, since Excel does not call
 * custom functions again when it opens one (open-refresh.ts). A snapshot of
 * them, dated now, would log an old value as today's (review-features #15).
 * `fetched(address)`: whether this session has an answer for the cell
 * (the host's provenance). A cell that only reads CRYPTO cells (=SUM(B2:B9))
 * cannot be told and is not named.
 */
export function savedOnly(cells: readonly CellAt[], formulas: readonly unknown[], fetched: (address: string) => boolean): CellAt[] {
  return cells.filter((c, i) => isCryptoFormula(formulas[i]) && !fetched(cellLabel(c)));
}

/** What the pane says once the row is appended; a warning naming the cells that showed saved values. */
export function snapshotDone(count: number, at: string, saved: readonly CellAt[]): Message {
  const text = `Appended a snapshot of ${count} ${count === 1 ? 'cell' : 'cells'} at ${at}.`;
  if (saved.length === 0) return { tone: 'success', text };
  const which = saved.map(cellLabel).join(', ');
  const verb = saved.length === 1 ? 'shows' : 'show';
  return {
    tone: 'warning',
    text: `${text} ${which} ${verb} the value saved with the workbook: nothing was fetched for ${saved.length === 1 ? 'it' : 'them'} since the workbook opened. Press Refresh all data first to log today's values.`,
  };
}
