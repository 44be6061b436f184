/** The parts of fast-formula-parser 1.0.19 (no bundled types) that the preview workbook uses. */
declare module 'fast-formula-parser' {
  export interface CellRef {
    sheet?: string;
    row: number;
    col: number;
  }
  export interface RangeRef {
    sheet?: string;
    from: { row: number; col: number };
    to: { row: number; col: number };
  }
  /** How a custom function receives each argument. */
  export interface FunctionArg {
    value: unknown;
    isArray?: boolean;
    isRangeRef?: boolean;
    isCellRef?: boolean;
    omitted?: boolean;
  }
  export class FormulaError extends Error {
    constructor(error: string, msg?: string, details?: unknown);
    readonly error: string;
  }
  export interface ParserConfig {
    functions?: Record<string, (...args: FunctionArg[]) => unknown>;
    onCell?: (ref: CellRef) => unknown;
    onRange?: (ref: RangeRef) => unknown[][];
  }
  export default class FormulaParser {
    constructor(config?: ParserConfig);
    parse(formula: string, position: CellRef, allowReturnArray?: boolean): unknown;
    static FormulaError: typeof FormulaError;
    static MAX_ROW: number;
    static MAX_COLUMN: number;
  }
}
