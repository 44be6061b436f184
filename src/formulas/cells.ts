/**
 * What a formula hands back to a cell, independent of Office: numbers, text,
 * booleans, empty ("" — Excel turns a null inside a spilled array into 0,
 * office-js#1503, so a missing value must be an empty string), dates (a number
 * with its format), and errors. The Office glue turns CellError into
 * CustomFunctions.Error and a date into what the workbook can hold
 * (forWorkbook below); the CLI prints them.
 */
import { DAY_MS } from '../api/utc-day';
import { ApiError, hasCode, itemName } from '../client/api-error';
import type { EndpointName } from '../api/endpoints';
import { ERROR_RULES, type ErrorCode, type ExcelErrorCode } from '../client/error-rules';
import { EntityCell, type EntityValue, type FormattedNumber } from './entity-cell';

export type { ExcelErrorCode, FormattedNumber };

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

/** Thrown by a formula: the whole result is this error. Built by formulaError (or toFormulaError in failure.ts). */
export class FormulaError extends Error {
  constructor(
    readonly code: ExcelErrorCode,
    message: string,
    /** Its code in the error vocabulary (client/error-rules.ts): its rule, and the task pane's error log. */
    readonly apiCode?: ErrorCode,
    /** Whether a last good value may stand in for it: its rule's `lastGood`. */
    readonly lastGood = apiCode !== undefined && ERROR_RULES[apiCode].lastGood,
  ) {
    super(message);
  }
  toCell(): CellError {
    return new CellError(this.code, this.message);
  }
}

/** An error a formula raises itself: its row of ERROR_RULES decides the Excel error and whether a last good value stands in. */
export function formulaError(code: ErrorCode, message: string): FormulaError {
  return new FormulaError(ERROR_RULES[code].cell, message, code); // lastGood: the row's, as the constructor reads it
}

/** An argument the formula cannot take: #VALUE! naming it. */
export const invalidValue = (message: string) => formulaError('INVALID_ARGUMENT', message);

export type Scalar = number | string | boolean;

/**
 * A number whose format is essential: a date or date-time, as the 1900-system
 * serial Excel keeps. Custom-function results carry no number format in Excel,
 * so a plain serial shows as 45292: where CustomFunctionsRuntime 1.4 is
 * supported the Office glue hands Excel a formatted number instead (see
 * forWorkbook). Prices stay plain numbers: General shows them well, and a
 * money format would hide the digits of a coin worth 0.00001.
 */
export class DateCell {
  constructor(
    /** The 1900-system serial (UTC). */
    readonly serial: number,
    /** An Excel format code in the en-US locale, as FormattedNumberCellValue takes it. */
    readonly numberFormat: string,
  ) {}
  /** The CLI's JSON with --formats: the formatted number Excel gets on 1.4. */
  toJSON(): FormattedNumber {
    return { type: 'FormattedNumber', basicValue: this.serial, numberFormat: this.numberFormat };
  }
}

/**
 * A number shown in a format of its own that is not a date: a value served
 * from the last good answer after a failure shows "(stale)" after it
 * (provenance.ts). Formatted on CustomFunctionsRuntime 1.4, the plain number elsewhere.
 */
export class FormattedCell {
  constructor(
    readonly value: number,
    readonly numberFormat: string,
  ) {}
  toJSON(): FormattedNumber {
    return { type: 'FormattedNumber', basicValue: this.value, numberFormat: this.numberFormat };
  }
}

export type Cell = Scalar | CellError | DateCell | FormattedCell | EntityCell;
export type Grid = Cell[][];
export type FormulaResult = Cell | Grid;

export const EMPTY = '';

/** Days from Excel's 1899-12-30 epoch to the Unix epoch. */
const EXCEL_EPOCH_OFFSET = 25_569;

/** Epoch ms → Excel serial date in the 1900 system (UTC). */
export function toSerial(ms: number): number {
  return ms / DAY_MS + EXCEL_EPOCH_OFFSET;
}
export function fromSerial(serial: number): number {
  return Math.round((serial - EXCEL_EPOCH_OFFSET) * DAY_MS);
}

/**
 * A workbook's date system. Workbooks from Mac are often on the 1904 system,
 * whose serials are 1,462 days less for the same day ("Date systems in Excel",
 * support.microsoft.com/office/e7fe7167-48a9-4b96-bb53-5612a800b487).
 */
export type DateSystem = '1900' | '1904';
export const DAYS_1900_TO_1904 = 1462;
/** A serial as the workbook holds it → the 1900-system serial the add-in computes with. */
export const serialFrom = (serial: number, system: DateSystem) => (system === '1904' ? serial + DAYS_1900_TO_1904 : serial);
/** A 1900-system serial → the serial the workbook holds. */
export const serialIn = (serial1900: number, system: DateSystem) => (system === '1904' ? serial1900 - DAYS_1900_TO_1904 : serial1900);

/** Excel format codes (en-US) for the dates the add-in returns. */
export const DATE_FORMATS = { date: 'yyyy-mm-dd', dateTime: 'yyyy-mm-dd hh:mm' } as const;

/** A decimal string from the API → number; null/undefined/unparseable → empty cell. */
export function decimalCell(value: string | null | undefined): number | '' {
  if (value === null || value === undefined || value === '') return EMPTY;
  const n = Number(value);
  return Number.isFinite(n) ? n : EMPTY;
}
export function numberCell(value: number | null | undefined): number | '' {
  return value === null || value === undefined || !Number.isFinite(value) ? EMPTY : value;
}
/**
 * ISO text or epoch ms → a date cell (the day's format at UTC midnight, the
 * date-time format otherwise); missing → empty cell.
 */
export function dateCell(value: string | number | null | undefined): DateCell | '' {
  if (value === null || value === undefined || value === '') return EMPTY;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return EMPTY;
  return new DateCell(toSerial(ms), ms % DAY_MS === 0 ? DATE_FORMATS.date : DATE_FORMATS.dateTime);
}
export function textCell(value: string | null | undefined): string {
  return value ?? EMPTY;
}

/** What a cell says of a field the answer lacked (the words client/missing-fields.ts uses). */
export const answeredWithout = (field: string, source: string) => `The API answered without ${field} (${source})`;

/**
 * A field one documented shape of the answer lacks (optional in api/records.ts),
 * read for a record's field: its value, or MISSING_FIELD naming it, as a missing
 * required field throws (recordCells makes that the field's #N/A).
 */
export function reported<T>(value: T | undefined, field: string, endpoint: EndpointName, source: string): T {
  if (value === undefined) throw new ApiError({ code: 'MISSING_FIELD', message: answeredWithout(field, source), endpoint });
  return value;
}

/** The same for a table's cell: its cell, or #N/A naming the field. */
export function reportedCell<T>(value: T | undefined, field: string, source: string, cell: (x: T) => Cell): Cell {
  return value === undefined ? new CellError('#N/A', answeredWithout(field, source)) : cell(value);
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
 * A table with an optional header row. An empty table is #N/A with `emptyMessage`,
 * headers or not: a header row alone reads as an answer, where the user should
 * hear why there is none (review of 2026-11-26; OHLCV's rule too, history.ts).
 * `unreadable` items of the answer (rows in answer order)
 * become a row of #N/A cells naming the missing field, at their place: one bad
 * item costs its own row, not the table. A field the answer left out of an item
 * it kept (client/missing-fields.ts) costs only its cell: #N/A naming it.
 */
export function table<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  headers: boolean,
  emptyMessage = 'No data',
  unreadable?: readonly UnreadableRow[],
): Grid {
  const body: Grid = rows.map((r) =>
    columns.map((c) => {
      try {
        return c.cell(r);
      } catch (e) {
        return missingCell(e);
      }
    }),
  );
  for (const u of [...(unreadable ?? [])].sort((a, b) => a.index - b.index)) {
    const cell = new CellError('#N/A', `${u.message} (${itemName(u)}${u.source ? `, ${u.source}` : ''})`);
    body.splice(Math.min(u.index, body.length), 0, columns.map(() => cell));
  }
  oneDateFormatPerColumn(body);
  if (body.length === 0) return [[new CellError('#N/A', emptyMessage)]];
  return headers ? [columns.map((c) => c.header), ...body] : body;
}

/** A column of hourly candles shows every row with its time, midnight's too. */
function oneDateFormatPerColumn(body: Grid): void {
  const width = body[0]?.length ?? 0;
  for (let c = 0; c < width; c++) {
    if (!body.some((row) => { const cell = row[c]; return cell instanceof DateCell && cell.numberFormat === DATE_FORMATS.dateTime; })) continue;
    for (const row of body) {
      const cell = row[c];
      if (cell instanceof DateCell && cell.numberFormat !== DATE_FORMATS.dateTime) row[c] = new DateCell(cell.serial, DATE_FORMATS.dateTime);
    }
  }
}

/**
 * A record's fields for a [field] argument: one field as a 1x1 grid, or every
 * field as a Field/Value table with a header row (PROFILE, TOKENOMICS, GLOBAL...).
 * A field the answer lacked throws MISSING_FIELD when read (client/missing-fields.ts):
 * asked alone, that is the formula's error; in the table, that value cell's #N/A.
 * `label` names a field's row in the table (GLOBAL's "totalMarketCap (USD)", usd-money.ts);
 * the one-field form takes the plain name.
 */
export function recordCells<T>(
  fields: Readonly<Record<string, (r: T) => Cell>>, record: T, field: string | null,
  opts: { subject?: string; label?: (field: string) => string } = {},
): Grid {
  if (field) return [[oneField(fields[field](record), field, opts.subject ?? subjectOf(record))]];
  const label = opts.label ?? ((k: string) => k);
  return fieldTable(Object.keys(fields).map((k) => [label(k), missingAsCell(() => fields[k](record))]), true);
}

/**
 * One field asked alone: its value, or, where the record has none (an empty cell), #N/A naming
 * the subject and the field, as DATA words it (market.ts: "Tether has no maxSupply"). An empty
 * text would compare above every number (=PROFILE("tether","maxSupply")<1000 is FALSE) and turn
 * arithmetic into a #VALUE! with no reason (review-r3 #17, #11). In the Field/Value table a
 * blank is kept: the row's label says what is missing.
 */
export function oneField(cell: Cell, field: string, subject: string | null): Cell {
  if (cell !== EMPTY) return cell;
  throw formulaError('NOT_FOUND', subject ? `${subject} has no ${field}` : `The service reported no ${field}`);
}

/** What a record is of, for oneField's words: its name, else its slug; null when it has neither (the caller may say). */
function subjectOf(record: unknown): string | null {
  if (typeof record !== 'object' || record === null) return null;
  const r = record as { name?: unknown; slug?: unknown };
  if (typeof r.name === 'string' && r.name !== '') return r.name;
  return typeof r.slug === 'string' && r.slug !== '' ? r.slug : null;
}

function missingAsCell(read: () => Cell): Cell {
  try {
    return read();
  } catch (e) {
    return missingCell(e);
  }
}

/** A field the answer lacked (MISSING_FIELD) as its cell: #N/A with the message. Any other error goes on. */
function missingCell(e: unknown): CellError {
  if (hasCode(e, 'MISSING_FIELD')) return new CellError('#N/A', e.message);
  throw e;
}


/** A record as a two-column field/value table (for "all fields" forms like PROFILE(coin)). */
export function fieldTable(pairs: readonly [string, Cell][], headers: boolean): Grid {
  const body: Grid = pairs.map(([k, val]) => [k, val]);
  return headers ? [['Field', 'Value'], ...body] : body;
}

// ---------------------------------------------------------------- into a workbook

/** What the workbook a result goes into can take. */
export interface WorkbookTraits {
  /** CustomFunctionsRuntime 1.4: a function may return formatted numbers and entities. */
  formattedNumbers: boolean;
  dateSystem: DateSystem;
}

export type WorkbookCell = Scalar | CellError | FormattedNumber | EntityValue;

/**
 * A date cell as the workbook holds it: a formatted number where the runtime
 * takes one, else the plain serial (which the user formats); in the workbook's
 * date system. Other cells are unchanged.
 */
export function workbookCell(cell: Cell, traits: WorkbookTraits): WorkbookCell {
  // An entity needs the same runtime as a formatted number (1.4); elsewhere its text, never an error.
  if (cell instanceof EntityCell) return traits.formattedNumbers ? cell.inWorkbook((s) => serialIn(s, traits.dateSystem)) : cell.text;
  if (cell instanceof FormattedCell) return traits.formattedNumbers ? cell.toJSON() : cell.value;
  if (!(cell instanceof DateCell)) return cell;
  const serial = serialIn(cell.serial, traits.dateSystem);
  return traits.formattedNumbers ? { type: 'FormattedNumber', basicValue: serial, numberFormat: cell.numberFormat } : serial;
}

/** A whole result for the workbook (workbookCell on every cell). */
export function forWorkbook(result: FormulaResult, traits: WorkbookTraits): WorkbookCell | WorkbookCell[][] {
  return Array.isArray(result) ? result.map((row) => row.map((c) => workbookCell(c, traits))) : workbookCell(result, traits);
}
