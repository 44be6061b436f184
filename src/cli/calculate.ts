/**
 * Evaluates formula text as Excel would: arguments bound to the parameters
 * declared in functions.json (omitted optional ones as null, ranges as 2-D
 * arrays, repeating parameters as an array), then the calculation host.
 * The result is always 2-D; a cell error is {"error", "message"}.
 */
import { CellError, DateCell, FormulaError, type Cell, type FormattedNumber, type FormulaResult } from '../formulas/cells';
import type { CalculationHost, EvaluateOptions } from '../formulas/host';
import type { Arg } from '../formulas/args';
import { parseFormula, type ParsedArg } from './formula-parser';
import { loadFunctionMetadata, type FunctionMeta, type ParameterMeta } from './metadata';

export type JsonCell = number | string | boolean | { error: string; message: string } | FormattedNumber;
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

// A date cell that reaches here unconverted (a session passes plain serials unless asked for formats) prints as Excel's formatted number.
const jsonCell = (c: Cell): JsonCell => (c instanceof CellError || c instanceof DateCell ? c.toJSON() : c);

function toJson(result: FormulaResult): JsonCell[][] {
  return Array.isArray(result) ? result.map((row) => row.map(jsonCell)) : [[jsonCell(result)]];
}

/** What a formula text binds to: the function and its arguments, or why it cannot. */
type Bound = { meta: FunctionMeta; args: unknown[] } | { outcome: Outcome };

// Workbooks repeat formula text (a column of =CRYPTO.PRICE("BTC")): parsing and
// binding it once is enough. Bound arguments are shared: formulas only read them.
// A plain Map, emptied when full: it is looked up once per cell, and an LRU's
// bookkeeping on every hit costs more than re-parsing after a rare reset.
const bindings = new Map<string, Bound>();
const MAX_BINDINGS = 20_000;

function bind(functions: readonly FunctionMeta[], text: string): Bound {
  let b = bindings.get(text);
  if (b) return b;
  if (bindings.size >= MAX_BINDINGS) bindings.clear();
  const parsed = parseFormula(text);
  const meta = functions.find((f) => f.id === parsed.name || f.name === parsed.name);
  if (!meta) b = { outcome: { error: '#NAME?', message: `Unknown function CRYPTO.${parsed.name}` } };
  else {
    try {
      b = { meta, args: bindArguments(meta, parsed.args) };
    } catch (e) {
      if (!(e instanceof FormulaError)) throw e;
      b = { outcome: { error: e.code, message: e.message } };
    }
  }
  bindings.set(text, b);
  return b;
}

let functions: readonly FunctionMeta[] | null = null;

const valueOutcome = (result: FormulaResult): Outcome => ({ value: toJson(result) });
const errorOutcome = (e: unknown): Outcome =>
  e instanceof FormulaError ? { error: e.code, message: e.message } : formulaError(e instanceof Error ? e.message : String(e));

/**
 * Rejects with FormulaSyntaxError when the text is not a formula; every other
 * failure is an Outcome. Not an async function: a recalculation has thousands
 * of these pending at once, and each suspended frame is memory.
 */
export function calculate(host: CalculationHost, text: string, opts: EvaluateOptions = {}): Promise<Outcome> {
  if (!functions) return loadFunctionMetadata().then((f) => ((functions = f), calculate(host, text, opts)));
  let b: Bound;
  try {
    b = bind(functions, text);
  } catch (e) {
    return Promise.reject(e);
  }
  if ('outcome' in b) return Promise.resolve(b.outcome);
  return host.evaluate(b.meta.id, b.args as Arg[], opts).then(valueOutcome, errorOutcome);
}
