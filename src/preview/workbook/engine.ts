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
import { toAddress, type Position } from './address';

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

type Ref = { sheet?: string; row?: number; col?: number; from?: { row: number; col: number }; to?: { row: number; col: number } };

/** "Sheet1!B3" or "Sheet1!A1:B2", as Excel gives parameterAddresses; '' for a value that is not a reference. */
function addressOf(ref: Ref | undefined): string {
  if (!ref) return '';
  const sheet = ref.sheet ?? 'Sheet1';
  if (ref.row !== undefined && ref.col !== undefined) return `${sheet}!${toAddress({ row: ref.row, col: ref.col })}`;
  if (ref.from && ref.to) return `${sheet}!${toAddress(ref.from)}:${toAddress(ref.to)}`;
  return '';
}

/**
 * fast-formula-parser drops omitted arguments before the first given one
 * (`F(,,,"x")` arrives as `F("x")`), where Excel passes each of them as omitted.
 * Such a leading gap in a call of the add-in's functions is filled with a call
 * of OMITTED_FN, whose value the argument mapping reads as omitted again.
 */
const OMITTED_FN = 'PREVIEW.OMITTED';
const OMITTED = '\u0000omitted';

/** The add-in's function name just before a "(": CRYPTO.PRICE. */
const CUSTOM_NAME_BEFORE = new RegExp(`${NAMESPACE}\\.[A-Z0-9_.]+$`, 'i');

export function markLeadingOmitted(formula: string): string {
  if (!/\(\s*,/.test(formula)) return formula; // most formulas: no gap to fill
  let out = '';
  let inString = false;
  for (let i = 0; i < formula.length; i++) {
    const c = formula[i];
    out += c;
    if (c === '"') inString = !inString; // "" inside a string toggles twice: still inside
    else if (c === '(' && !inString && CUSTOM_NAME_BEFORE.test(out.slice(0, -1)) && /^\s*,/.test(formula.slice(i + 1))) {
      out += `${OMITTED_FN}()`;
    }
  }
  return out;
}

function argumentOf(a: FunctionArg & { ref?: Ref }): ArgumentValue {
  if (a.omitted || a.value === OMITTED) return { omitted: true };
  const address = addressOf(a.ref);
  const value = Array.isArray(a.value) ? (a.value as unknown[][]).map((row) => row.map(fromFormulaValue)) : fromFormulaValue(a.value);
  return address ? { value, address } : { value };
}

/** One instance: an Error captures a stack trace when made, and a pasted column makes thousands of these. */
const BUSY = new FormulaError('#BUSY!', 'Waiting for the add-in');

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
  private readonly customNames: string[];

  constructor(functions: FunctionMetadata[]) {
    const custom: Record<string, (...args: FunctionArg[]) => unknown> = {};
    for (const f of functions) {
      custom[`${NAMESPACE}.${f.name}`.toUpperCase()] = (...args) => {
        const grid = this.scope!.customFunction(f.id, args.map(argumentOf));
        if (grid === null) return BUSY;
        const cells = grid.map((row) => row.map(toFormulaValue));
        return cells.length === 1 && cells[0].length === 1 ? cells[0][0] : cells;
      };
    }
    this.customNames = Object.keys(custom);
    this.config = {
      functions: { ...custom, [OMITTED_FN]: () => OMITTED },
      onCell: (ref) => toFormulaValue(this.scope!.cell(ref)),
      onRange: (ref) => this.scope!.range(ref.from, ref.to).map((row) => row.map(toFormulaValue)),
    };
  }

  private parserAt(depth: number): FormulaParser {
    let p = this.parsers[depth];
    if (!p) {
      p = new FormulaParser(this.config);
      // fast-formula-parser hands a function its arguments' references only for the names in
      // this (undocumented, instance) list: the add-in's functions join it for parameterAddresses.
      const preserve = (p as unknown as { funsPreserveRef?: string[] }).funsPreserveRef;
      if (Array.isArray(preserve)) preserve.push(...this.customNames);
      this.parsers[depth] = p;
    }
    return p;
  }

  /** A formula without its "=": one value, or an array that spills. */
  evaluate(formula: string, at: Position, scope: EvaluationScope): Evaluated {
    const depth = this.depth;
    if (depth >= MAX_DEPTH) return { error: '#REF!', message: `More than ${MAX_DEPTH} formulas depend on one another in a chain` };
    const parser = this.parserAt(depth);
    const outer = this.scope;
    this.scope = scope;
    this.depth++;
    try {
      const out = parser.parse(markLeadingOmitted(formula), { sheet: 'Sheet1', row: at.row, col: at.col }, true);
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
