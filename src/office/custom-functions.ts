/**
 * The thin edge between Excel's custom-functions runtime and the calculation
 * host: cancellation, value preview, and turning cell errors into
 * CustomFunctions.Error. Every call settles: no cell stays #BUSY!.
 */
import { CellError, FormulaError, type FormulaResult } from '../formulas/cells';
import { getRuntime } from './runtime';

export function excelError(e: { code: string; message: string }): CustomFunctions.Error {
  // Outside Excel (a browser demo) Office.js defines no CustomFunctions.Error: keep the message.
  if (typeof CustomFunctions === 'undefined' || typeof CustomFunctions.Error !== 'function') {
    return Object.assign(new Error(e.message), { code: e.code }) as unknown as CustomFunctions.Error;
  }
  const code = e.code === '#VALUE!' ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable;
  return new CustomFunctions.Error(code, e.message);
}

/** Grids may hold per-cell errors; Excel wants CustomFunctions.Error objects there. */
function toExcel(result: FormulaResult): unknown {
  if (result instanceof CellError) throw excelError({ code: result.error, message: result.message });
  if (!Array.isArray(result)) return result;
  return result.map((row) => row.map((cell) => (cell instanceof CellError ? excelError({ code: cell.error, message: cell.message }) : cell)));
}

export const inPreview = (invocation?: CustomFunctions.Invocation) =>
  String((invocation as { isInValuePreview?: unknown } | undefined)?.isInValuePreview) === 'true';

export async function run(id: string, invocation: CustomFunctions.Invocation | undefined, args: unknown[]): Promise<any> {
  const cancelable = invocation as CustomFunctions.CancelableInvocation | undefined;
  // Canceled before the runtime is ready: do not start at all.
  let canceledEarly = false;
  if (cancelable) cancelable.onCanceled = () => (canceledEarly = true);
  try {
    const { host } = await getRuntime();
    if (canceledEarly) throw new FormulaError('#N/A', 'Canceled');
    const call = host.call(id, args, { preview: inPreview(invocation), cancelable: cancelable !== undefined });
    if (cancelable) cancelable.onCanceled = call.cancel;
    return toExcel(await call.result);
  } catch (e) {
    if (e instanceof CustomFunctions.Error) throw e;
    const err = e instanceof FormulaError ? e : new FormulaError('#N/A', e instanceof Error ? e.message : 'Unexpected error');
    throw excelError({ code: err.code, message: err.message });
  }
}
