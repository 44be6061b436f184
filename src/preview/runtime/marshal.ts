/**
 * Arguments as Excel hands them to a custom function, per the parameter's
 * metadata: omitted optional arguments are null, matrix parameters get 2-D
 * arrays, a repeating parameter gets one array of all the remaining arguments,
 * dates are the serial numbers the cells hold. A blank cell is null, or 0 as
 * older desktop builds pass it (`blanks: "zero"`, also inside ranges and
 * repeating arguments: office-js#4702, #5262, #1951). Values are copied into
 * this window's own arrays and objects (the workbook lives in another one).
 */
import { DAY_MS } from '../../api/utc-day';
import { CustomFunctionsError, ErrorCode } from './errors';
import type { FunctionMetadata, ParameterMetadata } from './metadata';
import { isEntityValue, isErrorValue, isFormattedNumber, type ArgumentValue, type CellValue, type EntityValue, type FormattedNumberValue, type Scalar } from './values';

/** How blank cells reach a function: null (Excel on the web, newer desktop builds) or 0 (older desktop builds). */
export type BlankCells = 'null' | 'zero';
export interface MarshalOptions {
  blanks: BlankCells;
}
const WEB: MarshalOptions = { blanks: 'null' };

/** Excel's day 0 is 1899-12-30 (its 1900 leap-year bug folded in for dates after February 1900). */
const EPOCH_MS = Date.UTC(1899, 11, 30);
export const serialFromDate = (d: Date) => (d.getTime() - EPOCH_MS) / DAY_MS;

export class ArgumentError extends CustomFunctionsError {
  constructor(message: string) {
    super(ErrorCode.invalidValue, message);
  }
}

type Marshalled = Scalar | FormattedNumberValue | EntityValue;

function scalarIn(v: CellValue | Date, p: ParameterMetadata, opts: MarshalOptions): Marshalled {
  if (v instanceof Date) return serialFromDate(v);
  // An error in an argument is the cell's result: Excel does not call the function.
  if (isErrorValue(v)) throw new CustomFunctionsError(v.error, v.message);
  if (v === null || v === undefined) {
    if (opts.blanks === 'null') return null;
    v = 0;
  }
  if (isFormattedNumber(v)) {
    // A data type reaches an `any` parameter as its object (allowCustomDataForDataTypeAny); a typed one its basic value.
    if (p.type === undefined || p.type === 'any') return { type: 'FormattedNumber', basicValue: v.basicValue, numberFormat: v.numberFormat };
    v = v.basicValue;
  }
  if (isEntityValue(v)) {
    // An entity reaches an `any` parameter as its object (allowCustomDataForDataTypeAny), copied into this window.
    // guess: a typed parameter cannot take one; its basic value is #VALUE! (Excel.EntityCellValue.basicValue).
    if (p.type === undefined || p.type === 'any') return JSON.parse(JSON.stringify(v)) as EntityValue;
    throw new ArgumentError(`${p.name} must be a ${p.type}, not a data type`);
  }
  switch (p.type) {
    case 'number':
      if (typeof v === 'number') return v;
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
      throw new ArgumentError(`${p.name} must be a number`);
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : String(v);
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v !== 0;
      if (/^(true|false)$/i.test(v)) return /^true$/i.test(v);
      throw new ArgumentError(`${p.name} must be TRUE or FALSE`);
    default:
      return v;
  }
}

function isGrid(v: unknown): v is CellValue[][] {
  return Array.isArray(v);
}

/** One argument for one parameter. */
export function marshalOne(arg: ArgumentValue, p: ParameterMetadata, opts: MarshalOptions = WEB): unknown {
  if ('omitted' in arg) return null;
  const v = arg.value;
  if (p.dimensionality === 'matrix') {
    if (!isGrid(v)) return [[scalarIn(v, p, opts)]];
    return Array.from(v, (row) => Array.from(row, (c) => scalarIn(c, p, opts)));
  }
  if (!isGrid(v)) return scalarIn(v, p, opts);
  // A one-cell range is its value; a larger one is not lifted cell by cell here (see docs/preview-runtime.md).
  if (v.length === 1 && v[0].length === 1) return scalarIn(v[0][0], p, opts);
  throw new ArgumentError(`${p.name} takes one value, not a range`);
}

/** Every argument of one call, in the order the function's parameters declare. */
export function marshalArguments(meta: FunctionMetadata, args: ArgumentValue[], opts: MarshalOptions = WEB): unknown[] {
  const params = meta.parameters;
  const last = params[params.length - 1];
  const repeating = last?.repeating ? last : null;
  const fixed = repeating ? params.length - 1 : params.length;
  if (!repeating && args.length > params.length) {
    throw new ArgumentError(`${meta.name} takes at most ${params.length} arguments`);
  }
  const out: unknown[] = [];
  for (let k = 0; k < fixed; k++) out.push(marshalOne(args[k] ?? { omitted: true }, params[k], opts));
  if (repeating) {
    const rest = args.slice(fixed);
    out.push(Array.from(rest, (a) => marshalOne(a, repeating, opts)));
  }
  return out;
}

/** The cells each argument came from, for requiresParameterAddresses. */
export function parameterAddresses(args: ArgumentValue[]): string[] {
  return args.map((a) => ('omitted' in a ? '' : (a.address ?? '')));
}
