/**
 * The two halves of the preview and what they call on each other: the pane's
 * window (the add-in's shared runtime, with the custom-functions runtime the
 * preview host installs there) and the workbook's window around it.
 */
import type { FunctionMetadata } from './runtime/metadata';
import type { Call, CallRequest, ResultListener } from './runtime/runtime';

/** What the workbook does when the add-in asks Excel to recalculate (Excel.run ... calculate). */
export interface WorkbookCalculator {
  /** Application.calculate(type): every formula of the workbook. */
  calculate(type: 'Recalculate' | 'Full' | 'FullRebuild'): Promise<void>;
  /** Worksheet.calculate(markAllDirty): the active sheet. */
  calculateActiveSheet(markAllDirty: boolean): Promise<void>;
}

/** Found on the pane window as `__customFunctionsHost` once preview-host.js has run. */
export interface CustomFunctionsHost {
  /** Resolves when functions.json is read (functions.js registers itself as it loads). */
  ready: Promise<void>;
  functions(): FunctionMetadata[];
  call(req: CallRequest, onResult: ResultListener): Call;
  connectWorkbook(workbook: WorkbookCalculator): void;
}

export const HOST_GLOBAL = '__customFunctionsHost';
