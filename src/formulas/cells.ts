/**
 * What a formula hands back to a cell, independent of Office: numbers, text,
 * booleans, empty ("" — Excel turns a null inside a spilled array into 0,
 * office-js#1503, so a missing value must be an empty string), and errors.
 * The Office glue turns CellError into CustomFunctions.Error; the CLI prints it.
 */
import { hasCode } from '../client/api-error';
import type { ExcelErrorCode } from '../client/error-rules';

export type { ExcelErrorCode };

/** An error shown in one cell (inside a table) or as the whole result. */
export class CellError {
  constructor(
    readonly error: ExcelErrorCode,
    readonly message: string,
  ) {}
  toJSON(): { error: ExcelErrorCode; message: string } {
    return { error: this.error, message: this.message };
  }
}

/** Thrown by a formula: the whole result is this error. */
export class FormulaError extends Error {
  constructor(
    readonly code: ExcelErrorCode,
    message: string,
    /** Its code in the error vocabulary (client/error-rules.ts), for the task pane's error log. */
    readonly apiCode?: string,
    /** Whether a last good value may stand in for it (the rule's `lastGood`: rate limit, outage). */
    readonly lastGood = false,
  ) {
    super(message);
  }
  toCell(): CellError {
    return new CellError(this.code, this.message);
  }
}

export const invalidValue = (message: string) => new FormulaError('#VALUE!', message, 'INVALID_ARGUMENT');
export const notAvailable = (message: string, apiCode?: string, lastGood = false) =>
  new FormulaError('#N/A', message, apiCode, lastGood);

export type Scalar = number | string | boolean;
export type Cell = Scalar | CellError;
export type Grid = Cell[][];
export type FormulaResult = Cell | Grid;

export const EMPTY = '';

const MS_PER_DAY = 86_400_000;
/** Days from Excel's 1899-12-30 epoch to the Unix epoch. */
const EXCEL_EPOCH_OFFSET = 25_569;

/** Epoch ms → Excel serial date (UTC). Users format the cell as a date. */
export function toSerial(ms: number): number {
  return ms / MS_PER_DAY + EXCEL_EPOCH_OFFSET;
}
export function fromSerial(serial: number): number {
  return Math.round((serial - EXCEL_EPOCH_OFFSET) * MS_PER_DAY);
}

/** A decimal string from the API → number; null/undefined/unparseable → empty cell. */
export function decimalCell(value: string | null | undefined): number | '' {
  if (value === null || value === undefined || value === '') return EMPTY;
  const n = Number(value);
  return Number.isFinite(n) ? n : EMPTY;
}
export function numberCell(value: number | null | undefined): number | '' {
  return value === null || value === undefined || !Number.isFinite(value) ? EMPTY : value;
}
/** ISO text or epoch ms → Excel serial date; missing → empty cell. */
export function dateCell(value: string | number | null | undefined): number | '' {
  if (value === null || value === undefined || value === '') return EMPTY;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? toSerial(ms) : EMPTY;
}
export function textCell(value: string | null | undefined): string {
  return value ?? EMPTY;
}

/**
 * One column of a table: its header, and how to read a record into a cell.
 * Tables keep the same columns whatever the data, so a user's references to
 * column C stay right.
 */
export interface Column<T> {
  header: string;
  cell: (row: T) => Cell;
}

/** An item of the answer that could not be read, at its place among the rows (api/read-data.ts). */
export interface UnreadableRow {
  index: number;
  id: number | null;
  label: string | null;
  message: string;
  /** Where the answer came from (an endpoint path), for the error log. */
  source?: string;
}

/**
 * A table with an optional header row. An empty table is a header row alone, or
 * #N/A without headers. `unreadable` items of the answer (rows in answer order)
 * become a row of #N/A cells naming the missing field, at their place: one bad
 * item costs its own row, not the table.
 */
export function table<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  headers: boolean,
  emptyMessage = 'No data',
  unreadable?: readonly UnreadableRow[],
): Grid {
  const body: Grid = rows.map((r) => columns.map((c) => c.cell(r)));
  for (const u of [...(unreadable ?? [])].sort((a, b) => a.index - b.index)) {
    const which = u.label ?? (u.id !== null ? `id ${u.id}` : `item ${u.index + 1}`);
    const cell = new CellError('#N/A', `${u.message} (${which}${u.source ? `, ${u.source}` : ''})`);
    body.splice(Math.min(u.index, body.length), 0, columns.map(() => cell));
  }
  if (headers) return [columns.map((c) => c.header), ...body];
  if (body.length === 0) return [[new CellError('#N/A', emptyMessage)]];
  return body;
}

/**
 * A record's fields for a [field] argument: one field as a 1x1 grid, or every
 * field as a Field/Value table with a header row (PROFILE, TOKENOMICS, GLOBAL...).
 * A field the answer lacked throws MISSING_FIELD when read (client/missing-fields.ts):
 * asked alone, that is the formula's error; in the table, that value cell's #N/A.
 */
export function recordCells<T>(fields: Readonly<Record<string, (r: T) => Cell>>, record: T, field: string | null): Grid {
  if (field) return [[fields[field](record)]];
  return fieldTable(Object.keys(fields).map((k) => [k, missingAsCell(() => fields[k](record))]), true);
}

function missingAsCell(read: () => Cell): Cell {
  try {
    return read();
  } catch (e) {
    if (hasCode(e, 'MISSING_FIELD')) return new CellError('#N/A', e.message);
    throw e;
  }
}


/** A record as a two-column field/value table (for "all fields" forms like PROFILE(coin)). */
export function fieldTable(pairs: readonly [string, Cell][], headers: boolean): Grid {
  const body: Grid = pairs.map(([k, val]) => [k, val]);
  return headers ? [['Field', 'Value'], ...body] : body;
}
