/**
 * The thin edge between Excel's custom-functions runtime and the calculation
 * host: cancellation, value preview, turning cell errors into
 * CustomFunctions.Error and dates into what the workbook takes (formatted
 * numbers on CustomFunctionsRuntime 1.4, serials elsewhere, in the workbook's
 * date system, which the runtime asks once: workbook-traits.ts). Every call
 * settles: no cell stays #BUSY!.
 */
import { CellError, forWorkbook, type FormattedNumber, type FormulaResult, type WorkbookTraits } from '../formulas/cells';
import type { EntityValue } from '../formulas/entity-cell';
import { toFormulaError } from '../formulas/failure';
import { abortedError } from '../client/api-error';
import { getRuntime } from './runtime';
import { workbookTraits } from './workbook-traits';

export function excelError(e: { code: string; message: string }): CustomFunctions.Error {
  // Outside Excel (a browser demo) Office.js defines no CustomFunctions.Error: keep the message.
  if (typeof CustomFunctions === 'undefined' || typeof CustomFunctions.Error !== 'function') {
    return Object.assign(new Error(e.message), { code: e.code }) as unknown as CustomFunctions.Error;
  }
  const code = e.code === '#VALUE!' ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable;
  return new CustomFunctions.Error(code, e.message);
}

/**
 * The plain data the formulas make is Excel's own type: checked at build time (tsc) against
 * @types/office-js. A coin (CRYPTO.COIN) is an Excel.EntityCellValue, its properties
 * Excel.EntityPropertyType, its card Excel.EntityCardLayout.
 */
const asFormattedNumber = (v: FormattedNumber): Excel.FormattedNumberCellValue => v;
const asEntity = (v: EntityValue): Excel.EntityCellValue => v;
const asExcelValue = (v: FormattedNumber | EntityValue): Excel.FormattedNumberCellValue | Excel.EntityCellValue =>
  v.type === 'Entity' ? asEntity(v) : asFormattedNumber(v);

/** Grids may hold per-cell errors; Excel wants CustomFunctions.Error objects there. */
export function toExcel(result: FormulaResult, traits: WorkbookTraits): unknown {
  const value = forWorkbook(result, traits);
  const cell = (c: typeof value) => {
    if (c instanceof CellError) return excelError({ code: c.error, message: c.message });
    return typeof c === 'object' && c !== null && !Array.isArray(c) ? asExcelValue(c) : c;
  };
  if (value instanceof CellError) throw cell(value);
  if (!Array.isArray(value)) return cell(value);
  return value.map((row) => row.map(cell));
}

export const inPreview = (invocation?: CustomFunctions.Invocation) =>
  String((invocation as { isInValuePreview?: unknown } | undefined)?.isInValuePreview) === 'true';

export async function run(id: string, invocation: CustomFunctions.Invocation | undefined, args: unknown[]): Promise<any> {
  const cancelable = invocation as CustomFunctions.CancelableInvocation | undefined;
  // Canceled before the runtime is ready: do not start at all.
  let canceledEarly = false;
  if (cancelable) cancelable.onCanceled = () => (canceledEarly = true);
  try {
    const { host, dateSystem } = await getRuntime();
    const traits = await workbookTraits(dateSystem);
    if (canceledEarly) throw toFormulaError(abortedError(), id.toUpperCase());
    // Date arguments are serials in the workbook's date system (formulas/args.ts); a change starts afresh (host.ts).
    host.useDateSystem(traits.dateSystem);
    // The calling cell (@requiresAddress): where the answer's provenance is kept (CRYPTO.ASOF, the pane's log).
    const call = host.call(id, args, { preview: inPreview(invocation), cancelable: cancelable !== undefined, address: invocation?.address });
    if (cancelable) cancelable.onCanceled = call.cancel;
    return toExcel(await call.result, traits);
  } catch (e) {
    if (e instanceof CustomFunctions.Error) throw e;
    const err = toFormulaError(e, id.toUpperCase()); // the table's words, as every other cell error
    throw excelError({ code: err.code, message: err.message });
  }
}
