/**
 * Formulas through fast-formula-parser (MIT): literals, references, ranges,
 * array constants and Excel's own functions (DATE, TODAY, SUM, AVERAGE,
 * INDEX...). The add-in's functions are registered under their Excel names
 * (CRYPTO.PRICE...) and answered by the scope: a result, or #BUSY! while pending.
 */
import FormulaParser, { type FunctionArg } from 'fast-formula-parser';

// A CommonJS package: its classes hang off the default export.
const { FormulaError } = FormulaParser;
import type { FunctionMetadata } from '../runtime/metadata';
import { isErrorValue, type ArgumentValue, type CellValue, type ResultGrid } from '../runtime/values';
import type { Position } from './address';

export const NAMESPACE = 'CRYPTO';

export interface EvaluationScope {
  cell(p: Position): CellValue;
  /** The range's values, rows then columns, clipped to the used part of the sheet. */
  range(from: Position, to: Position): CellValue[][];
  /** The n-th custom function call of the formula being evaluated; null while pending. */
  customFunction(id: string, args: ArgumentValue[]): ResultGrid | null;
}

export type Evaluated = CellValue | CellValue[][];

const toFormulaValue = (v: CellValue): unknown => (isErrorValue(v) ? new FormulaError(v.error, v.message) : v);

function fromFormulaValue(v: unknown): CellValue {
  if (v instanceof FormulaError) return v.message ? { error: v.error, message: v.message } : { error: v.error };
  if (typeof v === 'number') return Number.isFinite(v) ? v : { error: '#NUM!' };
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  return null;
}

function argumentOf(a: FunctionArg): ArgumentValue {
  if (a.omitted) return { omitted: true };
  if (Array.isArray(a.value)) return { value: (a.value as unknown[][]).map((row) => row.map(fromFormulaValue)) };
  return { value: fromFormulaValue(a.value) };
}

/** Deeper chains of formula cells than this are refused rather than overflowing the stack. */
const MAX_DEPTH = 64;

export class FormulaEngine {
  private scope: EvaluationScope | null = null;
  private depth = 0;
  /**
   * One parser per nesting level: evaluating a formula can need another cell's
   * formula first, and a fast-formula-parser instance is not re-entrant.
   */
  private readonly parsers: FormulaParser[] = [];
  private readonly config: ConstructorParameters<typeof FormulaParser>[0];

  constructor(functions: FunctionMetadata[]) {
    const custom: Record<string, (...args: FunctionArg[]) => unknown> = {};
    for (const f of functions) {
      custom[`${NAMESPACE}.${f.name}`.toUpperCase()] = (...args) => {
        const grid = this.scope!.customFunction(f.id, args.map(argumentOf));
        if (grid === null) return new FormulaError('#BUSY!', 'Waiting for the add-in');
        const cells = grid.map((row) => row.map(toFormulaValue));
        return cells.length === 1 && cells[0].length === 1 ? cells[0][0] : cells;
      };
    }
    this.config = {
      functions: custom,
      onCell: (ref) => toFormulaValue(this.scope!.cell(ref)),
      onRange: (ref) => this.scope!.range(ref.from, ref.to).map((row) => row.map(toFormulaValue)),
    };
  }

  /** A formula without its "=": one value, or an array that spills. */
  evaluate(formula: string, at: Position, scope: EvaluationScope): Evaluated {
    const depth = this.depth;
    if (depth >= MAX_DEPTH) return { error: '#REF!', message: `More than ${MAX_DEPTH} formulas depend on one another in a chain` };
    const parser = (this.parsers[depth] ??= new FormulaParser(this.config));
    const outer = this.scope;
    this.scope = scope;
    this.depth++;
    try {
      const out = parser.parse(formula, { sheet: 'Sheet1', row: at.row, col: at.col }, true);
      if (Array.isArray(out)) {
        const grid = (out as unknown[][]).map((row) => (Array.isArray(row) ? row : [row]).map(fromFormulaValue));
        return grid.length === 1 && grid[0].length === 1 ? grid[0][0] : grid;
      }
      return fromFormulaValue(out);
    } catch (e) {
      if (e instanceof FormulaError && e.error === '#ERROR!') {
        return { error: '#NAME?', message: "There's a problem with this formula." };
      }
      return fromFormulaValue(e instanceof FormulaError ? e : new FormulaError('#VALUE!'));
    } finally {
      this.scope = outer;
      this.depth--;
    }
  }
}
