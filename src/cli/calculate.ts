/**
 * Evaluates formula text as Excel would: arguments bound to the parameters
 * declared in functions.json (omitted optional ones as null, ranges as 2-D
 * arrays, repeating parameters as an array), then the calculation host.
 * The result is always 2-D; a cell error is {"error", "message"}.
 */
import { CellError, FormulaError, type FormulaResult } from '../formulas/cells';
import type { CalculationHost, EvaluateOptions } from '../formulas/host';
import { LRUCache } from 'lru-cache';
import { parseFormula, type ParsedArg, type ParsedFormula } from './formula-parser';
import { loadFunctionMetadata, type FunctionMeta, type ParameterMeta } from './metadata';

export type JsonCell = number | string | boolean | { error: string; message: string };
export type Outcome = { value: JsonCell[][] } | { error: string; message: string };

const formulaError = (message: string): Outcome => ({ error: '#VALUE!', message });

/** Binds one argument to its parameter, coercing as Excel does; a string result is the reason it cannot. */
function bindOne(arg: ParsedArg, p: ParameterMeta): unknown {
  const matrix = p.dimensionality === 'matrix';
  if (Array.isArray(arg)) {
    if (!matrix) throw new FormulaError('#VALUE!', `${p.name} takes one value, not a range`);
    return arg;
  }
  if (arg === null) return matrix ? null : null;
  let v: unknown = arg;
  if (p.type === 'number' && typeof arg !== 'number') {
    const n = typeof arg === 'boolean' ? Number(arg) : Number(arg);
    if (typeof arg === 'string' && (arg.trim() === '' || !Number.isFinite(n))) {
      throw new FormulaError('#VALUE!', `${p.name} must be a number; got ${JSON.stringify(arg)}`);
    }
    v = n;
  } else if (p.type === 'string' && typeof arg !== 'string') {
    v = typeof arg === 'boolean' ? (arg ? 'TRUE' : 'FALSE') : String(arg);
  } else if (p.type === 'boolean' && typeof arg !== 'boolean') {
    if (typeof arg === 'number') v = arg !== 0;
    else if (/^(true|false)$/i.test(arg)) v = /^true$/i.test(arg);
    else throw new FormulaError('#VALUE!', `${p.name} must be TRUE or FALSE; got ${JSON.stringify(arg)}`);
  }
  return matrix ? [[v]] : v;
}

export function bindArguments(meta: FunctionMeta, args: ParsedArg[]): unknown[] {
  const params = meta.parameters;
  const repeating = params.length > 0 && params[params.length - 1].repeating ? params[params.length - 1] : null;
  if (!repeating && args.length > params.length) {
    throw new FormulaError('#VALUE!', `CRYPTO.${meta.name} takes at most ${params.length} arguments; got ${args.length}`);
  }
  const bound: unknown[] = [];
  const fixed = repeating ? params.length - 1 : params.length;
  for (let k = 0; k < fixed; k++) {
    const p = params[k];
    const a = k < args.length ? args[k] : null;
    if (a === null && !p.optional) throw new FormulaError('#VALUE!', `CRYPTO.${meta.name} needs ${p.name}`);
    bound.push(bindOne(a, p));
  }
  if (repeating) bound.push(args.slice(fixed).map((a) => bindOne(a, repeating)));
  return bound;
}

function toJson(result: FormulaResult): JsonCell[][] {
  const grid = Array.isArray(result) ? result : [[result]];
  return grid.map((row) => row.map((c) => (c instanceof CellError ? c.toJSON() : c)));
}

// Workbooks repeat formula text (a column of =CRYPTO.PRICE("BTC")); parsing it once is enough.
const parses = new LRUCache<string, ParsedFormula>({ max: 10_000 });

/** Throws FormulaSyntaxError when the text is not a formula; every other failure is an Outcome. */
export async function calculate(host: CalculationHost, text: string, opts: EvaluateOptions = {}): Promise<Outcome> {
  let parsed = parses.get(text);
  if (!parsed) parses.set(text, (parsed = parseFormula(text)));
  const meta = (await loadFunctionMetadata()).find((f) => f.id === parsed.name || f.name === parsed.name);
  if (!meta) return { error: '#NAME?', message: `Unknown function CRYPTO.${parsed.name}` };
  try {
    const args = bindArguments(meta, parsed.args);
    return { value: toJson(await host.evaluate(meta.id, args, opts)) };
  } catch (e) {
    if (e instanceof FormulaError) return { error: e.code, message: e.message };
    return formulaError(e instanceof Error ? e.message : String(e));
  }
}
