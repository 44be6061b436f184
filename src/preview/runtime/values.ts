/**
 * What crosses between the workbook and the custom-functions runtime: plain
 * data only (the two live in different windows, as Excel and its JavaScript
 * runtime live in different processes), never objects of either side.
 */

/** An error value in a cell: the code Excel shows, and the message on hover where Excel shows one. */
export interface ErrorValue {
  error: string;
  message?: string;
}

export type Scalar = number | string | boolean | null;
/** What a cell holds; a formatted number or an entity only from a function on a runtime advertising CustomFunctionsRuntime 1.4. */
export type CellValue = Scalar | ErrorValue | FormattedNumberValue | EntityValue;
/** A function's result as cells: always 2-D (one value is [[v]]). */
export type ResultGrid = CellValue[][];

/** One argument as the workbook evaluated it: a value, a 2-D array (range or array constant), or omitted. */
export type ArgumentValue = { omitted: true } | { value: CellValue | CellValue[][]; address?: string };

export const isErrorValue = (v: unknown): v is ErrorValue =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as ErrorValue).error === 'string';

/**
 * A number with its number format, as a custom function may return it on
 * CustomFunctionsRuntime 1.4 (`Excel.FormattedNumberCellValue` in @types/office-js:
 * `{ type: "FormattedNumber", basicValue, numberFormat }`). The runtime hands it to
 * the workbook as it came (runtime.ts, toGrid); the grid shows `basicValue` in
 * `numberFormat` (an Excel format code such as "yyyy-mm-dd" or "#,##0.00"), and
 * formulas reading the cell see `basicValue`.
 */
export interface FormattedNumberValue {
  type: 'FormattedNumber';
  basicValue: number;
  numberFormat: string;
}

export const isFormattedNumber = (v: unknown): v is FormattedNumberValue =>
  typeof v === 'object' && v !== null && (v as FormattedNumberValue).type === 'FormattedNumber' &&
  typeof (v as FormattedNumberValue).basicValue === 'number' && typeof (v as FormattedNumberValue).numberFormat === 'string';

/**
 * An entity (Excel's data type), as a custom function may return it on
 * CustomFunctionsRuntime 1.4 (`Excel.EntityCellValue` in @types/office-js:
 * `{ type: "Entity", text, properties, layouts, provider }`). The grid shows its
 * `text` with an icon and opens its card on click; `=A1.Price` reads a property;
 * a function's `any` parameter receives it as this object; anything else reading
 * it gets #VALUE! (its basicValue, as Range.values gives it).
 */
export interface EntityValue {
  type: 'Entity';
  text: string;
  properties?: Record<string, unknown>;
  layouts?: unknown;
  provider?: unknown;
}

export const isEntityValue = (v: unknown): v is EntityValue =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (v as EntityValue).type === 'Entity' && typeof (v as EntityValue).text === 'string';
