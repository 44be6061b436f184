/**
 * Evaluates formula text as the preview workbook does, through the same
 * formula engine (src/engine) and the same argument rules (the preview
 * runtime's marshalling: omitted optional arguments as null, ranges as 2-D
 * arrays, repeating parameters as an array, types coerced as Excel coerces
 * them), with the calculation host answering the add-in's functions. So
 * `=0.75*CRYPTO.PRICE("bitcoin")+10*CRYPTO.PRICE("ethereum")`, `=MAX(1,2)` or
 * `=CRYPTO.FEARGREED(TODAY()-90,TODAY())` answer here as in the preview, with
 * the same messages. The CLI has no cells: a reference is #REF!.
 *
 * A formula that is one CRYPTO call with literal arguments (a workbook's
 * usual cell, and every cell of the benchmark's sheets) takes a fast path:
 * parsed and bound once per text, then handed to the host.
 * The result is always 2-D; a cell error is {"error", "message"}.
 */
import { CellError, DateCell, FormattedCell, FormulaError, type Cell, type DateSystem, type FormattedNumber, type FormulaResult } from '../formulas/cells';
import { EntityCell } from '../formulas/entity-cell';
import type { CalculationHost, EvaluateOptions } from '../formulas/host';
import type { Arg } from '../formulas/args';
import { Engine, FormulaSyntaxError as EngineSyntaxError, type Evaluated } from '../engine/evaluator';
import { errorMessage, isErrorValue, isFormattedNumber, xlError, type Value } from '../engine/values';
import { CustomFunctionsError, errorValueOf } from '../preview/runtime/errors';
import { marshalArguments } from '../preview/runtime/marshal';
import type { ArgumentValue, CellValue, EntityValue, ResultGrid } from '../preview/runtime/values';
import { FormulaSyntaxError, parseFormula, type ParsedArg } from './formula-parser';
import { loadFunctionMetadata, type FunctionMeta } from './metadata';

export type JsonCell = number | string | boolean | { error: string; message: string } | FormattedNumber | EntityValue;
export type Outcome = { value: JsonCell[][] } | { error: string; message: string };

export interface CalculateOptions extends EvaluateOptions {
  /** The clock TODAY() and NOW() read (epoch ms); default the system clock. */
  now?: () => number;
}

/** A literal argument as the workbook would hand it over: omitted, one value, or an array constant. */
function argumentValue(a: ParsedArg): ArgumentValue {
  if (a === null) return { omitted: true };
  return { value: Array.isArray(a) ? (a as CellValue[][]) : a };
}

/**
 * Binds arguments to the parameters declared in functions.json by the preview
 * runtime's rules (the same messages as the preview); throws FormulaError.
 */
export function bindArguments(meta: FunctionMeta, args: ParsedArg[]): unknown[] {
  try {
    return marshalArguments(meta, args.map(argumentValue));
  } catch (e) {
    if (e instanceof CustomFunctionsError) throw new FormulaError(e.code === '#N/A' ? '#N/A' : '#VALUE!', errorMessage(errorValueOf(e)));
    throw e;
  }
}

// A date cell that reaches here unconverted (a session passes plain serials unless asked for formats) prints as Excel's formatted number.
const jsonCell = (c: Cell): JsonCell => (c instanceof CellError || c instanceof DateCell || c instanceof FormattedCell || c instanceof EntityCell ? c.toJSON() : c);

function toJson(result: FormulaResult): JsonCell[][] {
  return Array.isArray(result) ? result.map((row) => row.map(jsonCell)) : [[jsonCell(result)]];
}

/** What a formula text binds to: one CRYPTO call and its arguments, an outcome known already, or the engine. */
type Bound = { meta: FunctionMeta; args: readonly unknown[] } | { outcome: Outcome } | { engine: true };

// Workbooks repeat formula text (a column of =CRYPTO.PRICE("BTC")): parsing and
// binding it once is enough. Bound arguments are shared: formulas only read them.
// A plain Map, emptied when full: it is looked up once per cell, and an LRU's
// bookkeeping on every hit costs more than re-parsing after a rare reset.
const bindings = new Map<string, Bound>();
const MAX_BINDINGS = 20_000;
const CRYPTO_CALL = /^\s*=?\s*CRYPTO\./i;

function bind(functions: readonly FunctionMeta[], text: string, dates: DateSystem): Bound {
  // DATE(y,m,d) binds to the system's serial: a 1904 workbook's text has a key of its own (no formula holds \u0000).
  const key = dates === '1900' ? text : `${dates}\u0000${text}`;
  let b = bindings.get(key);
  if (b) return b;
  if (bindings.size >= MAX_BINDINGS) bindings.clear();
  b = bindOnce(functions, text, dates);
  bindings.set(key, b);
  return b;
}

function bindOnce(functions: readonly FunctionMeta[], text: string, dates: DateSystem): Bound {
  if (!CRYPTO_CALL.test(text)) return { engine: true };
  let parsed;
  try {
    parsed = parseFormula(text, dates);
  } catch (e) {
    if (e instanceof FormulaSyntaxError) return { engine: true }; // not one call with literal arguments
    throw e;
  }
  const meta = functions.find((f) => f.id === parsed.name || f.name === parsed.name);
  if (!meta) return { outcome: { error: '#NAME?', message: `Unknown function CRYPTO.${parsed.name}` } };
  try {
    // Frozen: handed to the host for every cell of this text, which remembers their key (host.ts keyOf).
    return { meta, args: Object.freeze(bindArguments(meta, parsed.args)) };
  } catch (e) {
    if (!(e instanceof FormulaError)) throw e;
    return { outcome: { error: e.code, message: e.message } };
  }
}

let functions: readonly FunctionMeta[] | null = null;
let engine: Engine | null = null;

const valueOutcome = (result: FormulaResult): Outcome => ({ value: toJson(result) });
const errorOutcome = (e: unknown): Outcome =>
  e instanceof FormulaError ? { error: e.code, message: e.message } : { error: '#VALUE!', message: e instanceof Error ? e.message : String(e) };

/**
 * Rejects with FormulaSyntaxError when the text is not a formula; every other
 * failure is an Outcome. Not an async function: a recalculation has thousands
 * of these pending at once, and each suspended frame is memory.
 */
export function calculate(host: CalculationHost, text: string, opts: CalculateOptions = {}): Promise<Outcome> {
  return calculateAs(host, text, opts, false) as Promise<Outcome>;
}

/** What a text that is not a formula gives in a recalculation. */
export type ParseOutcome = { error: '#PARSE!'; message: string };

/**
 * As calculate(), but a text that is not a formula is its #PARSE! outcome:
 * one promise per formula, for the thousands of a recalculation.
 */
export function calculateCell(host: CalculationHost, text: string, opts: CalculateOptions = {}): Promise<Outcome | ParseOutcome> {
  return calculateAs(host, text, opts, true);
}

function calculateAs(host: CalculationHost, text: string, opts: CalculateOptions, parseOutcome: boolean): Promise<Outcome | ParseOutcome> {
  if (!functions) return loadFunctionMetadata().then((f) => ((functions = f), calculateAs(host, text, opts, parseOutcome)));
  let b: Bound;
  try {
    b = bind(functions, text, host.settings.dateSystem);
  } catch (e) {
    return Promise.reject(e);
  }
  if ('outcome' in b) return Promise.resolve(b.outcome);
  // Only the engine tells a text that is not a formula: the one-call path never rejects.
  if ('engine' in b) {
    const p = evaluateFormula(host, functions, text, opts);
    return parseOutcome ? p.catch(parseFailure) : p;
  }
  return host.evaluate(b.meta.id, b.args as Arg[], opts).then(valueOutcome, errorOutcome);
}

/** A formula that is not a formula: its #PARSE! outcome (anything else is a bug, and rejects). */
function parseFailure(e: unknown): ParseOutcome {
  if (e instanceof FormulaSyntaxError) return { error: '#PARSE!', message: e.message };
  throw e;
}

/** A host answer as the cells the workbook would get (the preview runtime's shape). */
function resultGrid(result: FormulaResult): ResultGrid {
  const cell = (c: Cell): CellValue => (c instanceof CellError ? { error: c.error, message: c.message } : c instanceof DateCell || c instanceof FormattedCell || c instanceof EntityCell ? c.toJSON() : typeof c === 'number' && !Number.isFinite(c) ? { error: '#NUM!' } : c);
  return Array.isArray(result) ? result.map((row) => row.map(cell)) : [[cell(result)]];
}

/** Rounds of evaluation: each starts the calls the last one found pending (a call whose argument is another call's answer waits a round). */
const MAX_ROUNDS = 16;
const NO_CELLS = xlError('#REF!', 'The formula CLI has no cells: give values, not references');

/** An argument read from cells: the engine names their address. */
const isReference = (a: ArgumentValue): boolean => 'address' in a && a.address !== undefined;

async function evaluateFormula(host: CalculationHost, metas: readonly FunctionMeta[], text: string, opts: CalculateOptions): Promise<Outcome> {
  engine ??= new Engine(metas);
  const byId = new Map(metas.map((m) => [m.id.toUpperCase(), m]));
  const answers = new Map<string, ResultGrid>();
  // A workbook host that gives dates as formatted numbers (--formats) keeps them around a call too, as a bare call's.
  const formatted = (host as { behaviour?: { formattedNumbers?: boolean } }).behaviour?.formattedNumbers === true;
  // One instant for every round: Excel evaluates NOW() and TODAY() once per recalculation ("The NOW
  // function changes only when the sheet is calculated ... It is not updated continuously", Microsoft's
  // NOW function help, mac2.microsoft.com/help/office/14/en-us/word/item/f472b08a-ed24-4c08-9bad-137b5c9bbc02).
  // Read afresh each round, NOW()-7 was a new argument, so a new call, every round,
  // and any CRYPTO call on it whose answer took a millisecond never settled (review-r3 #10).
  const at = (opts.now ?? Date.now)();
  const scope = {
    cell: (): Value => NO_CELLS,
    range: (): Value[][] => [[NO_CELLS]],
    now: () => at,
    // The host's date system (--date-system), for DATE, TODAY, YEAR... as for the CRYPTO functions: in Excel both follow the workbook's.
    dateSystem: host.settings.dateSystem,
    started: [] as Promise<void>[],
    customFunction(id: string, args: ArgumentValue[]): ResultGrid | null {
      // The CLI has no cells: a reference is the #REF! of =A1, a range too (marshalled, it was "one value, not a range" or a bare #VALUE!).
      if (args.some(isReference)) return [[NO_CELLS]];
      const key = `${id}\u0000${JSON.stringify(args)}`;
      const known = answers.get(key);
      if (known) return known;
      const meta = byId.get(id.toUpperCase())!;
      let bound: unknown[];
      try {
        bound = marshalArguments(meta, args);
      } catch (e) {
        if (!(e instanceof CustomFunctionsError)) throw e;
        const grid = [[errorValueOf(e)]];
        answers.set(key, grid);
        return grid;
      }
      this.started.push(
        host.evaluate(meta.id, bound as Arg[], opts).then(
          (r) => void answers.set(key, resultGrid(r)),
          (e: unknown) => void answers.set(key, [[e instanceof FormulaError ? { error: e.code, message: e.message } : { error: '#VALUE!' }]]),
        ),
      );
      return null;
    },
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    scope.started = [];
    let value: Evaluated;
    try {
      value = engine.evaluate(text, { row: 1, col: 1 }, scope);
    } catch (e) {
      if (e instanceof EngineSyntaxError) throw new FormulaSyntaxError(e.message);
      throw e;
    }
    if (scope.started.length === 0) return outcomeOf(value, formatted);
    await Promise.all(scope.started);
  }
  return { error: '#VALUE!', message: `More than ${MAX_ROUNDS} CRYPTO calls wait on one another` };
}

/** The engine's value in the CLI's JSON: errors always with a message, formatted numbers as their numbers unless `formatted`. */
function outcomeOf(v: Evaluated, formatted: boolean): Outcome {
  const cell = (c: Value): JsonCell => {
    if (c === null) return 0;
    if (isErrorValue(c)) return { error: c.error, message: errorMessage(c) };
    if (isFormattedNumber(c)) return formatted ? (c as JsonCell) : c.basicValue;
    return c;
  };
  if (Array.isArray(v)) return { value: v.map((row) => row.map(cell)) };
  if (isErrorValue(v)) return { error: v.error, message: errorMessage(v) };
  return { value: [[cell(v)]] };
}
