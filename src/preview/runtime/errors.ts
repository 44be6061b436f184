/**
 * CustomFunctions.Error and ErrorCode as Office defines them, and how a
 * function's failure becomes a cell error (rules and sources: docs/preview-runtime.md).
 */
import type { ErrorValue } from './values';

/** Values as in @types/custom-functions-runtime (CustomFunctionsRuntime 1.3). */
export const ErrorCode = {
  invalidValue: '#VALUE!',
  notAvailable: '#N/A',
  divisionByZero: '#DIV/0!',
  invalidNumber: '#NUM!',
  nullReference: '#NULL!',
  invalidName: '#NAME?',
  invalidReference: '#REF!',
} as const;

const CODES = new Set<string>(Object.values(ErrorCode));
/** Only these codes carry a custom message; Excel drops it on the others. */
const WITH_MESSAGE = new Set<string>([ErrorCode.invalidValue, ErrorCode.notAvailable]);
/** Supported as inputs to a custom function but not as its output. */
const INPUT_ONLY = new Set<string>([ErrorCode.invalidName, ErrorCode.invalidReference]);

export class CustomFunctionsError extends Error {
  readonly code: string;
  constructor(code: string, message?: string) {
    super(message ?? '');
    this.name = 'CustomFunctions.Error';
    this.code = code;
    // Excel shows no message where none was given: keep it undefined, not ''.
    if (message === undefined) (this as { message?: string }).message = undefined;
  }
}

/** The cell error a CustomFunctions.Error stands for. */
export function errorValueOf(e: CustomFunctionsError): ErrorValue {
  if (!CODES.has(e.code) || INPUT_ONLY.has(e.code)) return { error: ErrorCode.invalidValue };
  if (WITH_MESSAGE.has(e.code) && typeof e.message === 'string' && e.message !== '') return { error: e.code, message: e.message };
  return { error: e.code };
}

/** Anything else a function throws or rejects with: #VALUE!, and its text is not shown. */
export function failureValue(e: unknown): ErrorValue {
  return e instanceof CustomFunctionsError ? errorValueOf(e) : { error: ErrorCode.invalidValue };
}
