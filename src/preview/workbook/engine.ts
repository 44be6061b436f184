/**
 * The preview's formulas through the project's formula engine (src/engine,
 * the same one the formula CLI uses): Excel's operators and functions, and
 * the add-in's functions (CRYPTO.PRICE...) answered by the scope: a result,
 * or #BUSY! while pending. Its date functions (DATE, TODAY, YEAR, TEXT...)
 * follow the workbook's date system (?dates=1904), as the add-in's do.
 */
import type { DateSystem } from '../../engine/date-system';
import { Engine, FormulaSyntaxError, type Evaluated, type Scope } from '../../engine/evaluator';
import type { FunctionMetadata } from '../runtime/metadata';
import type { Position } from './address';

export const NAMESPACE = 'CRYPTO';

export type EvaluationScope = Scope;
export type { Evaluated };

/** Deeper chains of formula cells than this are refused rather than overflowing the stack. */
const MAX_DEPTH = 64;

export class FormulaEngine {
  private readonly engine: Engine;
  private depth = 0;

  /** `dateSystem`: the workbook's (the preview's ?dates=), which every formula's date functions read and return. */
  constructor(
    functions: readonly Pick<FunctionMetadata, 'id' | 'name'>[],
    readonly dateSystem: DateSystem = '1900',
  ) {
    this.engine = new Engine(functions, NAMESPACE);
  }

  /** A formula without its "=": one value, or an array that spills. */
  evaluate(formula: string, at: Position, scope: EvaluationScope): Evaluated {
    if (this.depth >= MAX_DEPTH) return { error: '#REF!', message: `More than ${MAX_DEPTH} formulas depend on one another in a chain` };
    this.depth++;
    try {
      return this.engine.evaluate(formula, at, { ...scope, dateSystem: this.dateSystem });
    } catch (e) {
      // Excel refuses such a formula at entry; the preview keeps it and says so in the cell.
      if (e instanceof FormulaSyntaxError) return { error: '#NAME?', message: "There's a problem with this formula." };
      throw e;
    } finally {
      this.depth--;
    }
  }
}
