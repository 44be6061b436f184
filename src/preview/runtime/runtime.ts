/**
 * A custom-functions runtime as Excel runs one: CustomFunctions.associate
 * keeps the functions functions.js registers; call() invokes one for one cell
 * with an invocation object (address, parameterAddresses, isInValuePreview,
 * onCanceled, setResult) and reports its results as plain cells. No DOM and no
 * Office globals: the page installs `namespace` as window.CustomFunctions.
 */
import { CustomFunctionsError, ErrorCode, errorValueOf, failureValue } from './errors';
import { idKey, indexMetadata, type FunctionMetadata, type FunctionsJson } from './metadata';
import { marshalArguments, parameterAddresses, type MarshalOptions } from './marshal';
import { isEntityValue, isErrorValue, isFormattedNumber, type ArgumentValue, type CellValue, type EntityValue, type ResultGrid } from './values';

export interface CallRequest {
  id: string;
  args: ArgumentValue[];
  /** The calling cell, e.g. "Sheet1!B3". */
  address: string;
  /** Formula value preview: Excel evaluates part of a formula while it is edited. */
  preview?: boolean;
}

/** A call in flight. onResult fires once for a function, any number of times for a streaming one. */
export interface Call {
  readonly id: string;
  readonly settled: boolean;
  /** Excel cancels when the cell's formula changes, the cell is deleted or the workbook recalculates. */
  cancel(): void;
}

export type ResultListener = (grid: ResultGrid) => void;

/** The requirement-set versions of CustomFunctionsRuntime a runtime can advertise. */
export type RuntimeVersion = '1.3' | '1.4';

export interface RuntimeOptions extends MarshalOptions {
  /** 1.4 (Microsoft 365) takes formatted numbers and entities from a function; 1.3 (perpetual Office) shows #VALUE! for one. */
  version: RuntimeVersion;
}

export const DEFAULT_RUNTIME: RuntimeOptions = { blanks: 'null', version: '1.4' };

/** A cell holds at most 32,767 characters (Excel specifications and limits); Excel's own REPT gives #VALUE! past it. */
export const MAX_CELL_TEXT = 32_767;

/**
 * The cells a value becomes: one value is [[v]]; errors anywhere become error
 * values; a formatted number stays one where the runtime takes it (1.4). A
 * function declared scalar (functions.json's default) that answers an array is
 * #VALUE!, as Excel has it (office-js#2486: a 2-D answer from a function whose
 * result is not declared a matrix). What Excel does with a scalar from a
 * matrix function is not documented: here it is the one cell.
 */
export function toGrid(value: unknown, version: RuntimeVersion = '1.4', dimensionality: 'scalar' | 'matrix' = 'matrix'): ResultGrid {
  const cell = (v: unknown): CellValue => {
    if (v instanceof CustomFunctionsError) return errorValueOf(v);
    // Excel shows a null in a returned array as 0 (office-js#1503); the add-in returns "" for "no value".
    if (v === undefined || v === null) return 0;
    if (typeof v === 'number') return Number.isFinite(v) ? v : { error: ErrorCode.invalidNumber };
    if (typeof v === 'string') return v.length <= MAX_CELL_TEXT ? v : { error: ErrorCode.invalidValue };
    if (typeof v === 'boolean') return v;
    if (isErrorValue(v)) return { error: v.error, ...(v.message ? { message: v.message } : {}) };
    // A formatted number (CustomFunctionsRuntime 1.4) reaches the workbook as it came, copied.
    if (isFormattedNumber(v) && version === '1.4') {
      return Number.isFinite(v.basicValue) ? { type: 'FormattedNumber', basicValue: v.basicValue, numberFormat: v.numberFormat } : { error: ErrorCode.invalidNumber };
    }
    // So does an entity (Excel.EntityCellValue), copied as plain data; on 1.3 it is #VALUE! as any object is.
    if (isEntityValue(v) && version === '1.4') return JSON.parse(JSON.stringify(v)) as EntityValue;
    return { error: ErrorCode.invalidValue };
  };
  if (!Array.isArray(value)) return [[cell(value)]];
  if (dimensionality === 'scalar') return [[{ error: ErrorCode.invalidValue }]];
  if (value.length === 0 || !Array.isArray(value[0]) || value[0].length === 0) return [[{ error: ErrorCode.invalidValue }]];
  const width = Math.max(...value.map((r) => (Array.isArray(r) ? r.length : 1)));
  // Excel pads a ragged result with #N/A, as it does for arrays of unequal rows.
  return value.map((r) => {
    const row = Array.isArray(r) ? r.map(cell) : [cell(r)];
    while (row.length < width) row.push({ error: ErrorCode.notAvailable });
    return row;
  });
}

export class CustomFunctionsRuntime {
  private readonly functions = new Map<string, (...args: any[]) => unknown>();
  private metadata = new Map<string, FunctionMetadata>();

  /** `blanks: "zero"` passes blank cells as older desktop builds do (marshal.ts); `version` is what it advertises. */
  constructor(readonly options: RuntimeOptions = DEFAULT_RUNTIME) {}

  /** What functions.js sees as the global CustomFunctions. */
  readonly namespace = {
    associate: (idOrMappings: string | Record<string, (...args: any[]) => unknown>, fn?: (...args: any[]) => unknown) => {
      if (typeof idOrMappings === 'string') {
        if (typeof fn !== 'function') throw new TypeError(`CustomFunctions.associate("${idOrMappings}"): not a function`);
        this.functions.set(idKey(idOrMappings), fn);
      } else {
        for (const [id, f] of Object.entries(idOrMappings)) this.namespace.associate(id, f);
      }
    },
    Error: CustomFunctionsError,
    ErrorCode,
  };

  /** functions.json, as Excel reads it from the manifest. */
  load(json: FunctionsJson): void {
    this.metadata = indexMetadata(json);
  }

  /** Functions both declared in functions.json and associated by functions.js. */
  registered(): FunctionMetadata[] {
    return [...this.metadata.values()].filter((m) => this.functions.has(idKey(m.id)));
  }

  metadataOf(id: string): FunctionMetadata | undefined {
    return this.metadata.get(idKey(id));
  }

  call(req: CallRequest, onResult: ResultListener): Call {
    const meta = this.metadata.get(idKey(req.id));
    const fn = this.functions.get(idKey(req.id));
    let settled = false;
    let canceled = false;
    const deliver = (grid: ResultGrid, final: boolean) => {
      if (canceled || (settled && !streaming)) return;
      if (final) settled = true;
      onResult(grid);
    };
    const streaming = Boolean(meta?.options?.stream);
    const invocation: Record<string, unknown> = {
      functionName: meta?.name ?? req.id,
      isInValuePreview: Boolean(req.preview),
    };
    const handle: Call = {
      id: req.id,
      get settled() {
        return settled;
      },
      cancel: () => {
        if (canceled) return;
        canceled = true;
        // Only cancelable and streaming functions hear about it; the others just have their result ignored.
        const onCanceled = invocation.onCanceled;
        if ((streaming || meta?.options?.cancelable) && typeof onCanceled === 'function') onCanceled();
      },
    };
    if (!meta || !fn) {
      // Excel would not have accepted the formula: the name is unknown.
      queueMicrotask(() => deliver([[{ error: ErrorCode.invalidName }]], true));
      return handle;
    }
    if (meta.options?.requiresAddress) invocation.address = req.address;
    if (meta.options?.requiresParameterAddresses) invocation.parameterAddresses = parameterAddresses(req.args);
    let args: unknown[];
    try {
      args = marshalArguments(meta, req.args, this.options);
    } catch (e) {
      queueMicrotask(() => deliver(toGrid(e instanceof CustomFunctionsError ? e : failureValue(e), this.options.version), true));
      return handle;
    }
    const shape = meta.result?.dimensionality ?? 'scalar';
    if (streaming) invocation.setResult = (value: unknown) => deliver(toGrid(value, this.options.version, shape), false);
    try {
      // The invocation is always the last argument, after every declared parameter.
      const out = fn(...args, invocation);
      if (streaming) return handle;
      Promise.resolve(out).then(
        (v) => deliver(toGrid(v, this.options.version, shape), true),
        (e) => deliver([[failureValue(e)]], true),
      );
    } catch (e) {
      queueMicrotask(() => deliver([[failureValue(e)]], true));
    }
    return handle;
  }
}
