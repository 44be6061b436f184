/**
 * Evaluates a formula's syntax tree against a scope (the sheet's cells, the
 * add-in's functions, the clock). Operators work cell by cell over arrays as
 * Excel's do; errors flow through operators and functions as values; a
 * function the engine does not know is #NAME? naming it.
 */
import { parseA1Ref } from '@borgar/fx';
import { functionNamed, type Context, type FunctionDef } from './functions';
import { FormulaSyntaxError, syntaxTree, type Node } from './syntax';
import { BINARY, divide, negate } from './operators';
import { entityField, fieldAccess } from './entity-fields';
import {
  OMITTED,
  finite,
  isEntityValue,
  isErrorValue,
  isGrid,
  isOmitted,
  isRef,
  mapGrid,
  plain,
  toNumber,
  xlError,
  zip2,
  type ErrorValue,
  type Grid,
  type Ref,
  type Result,
  type Value,
} from './values';
import type { ArgumentValue, CellValue, ResultGrid } from '../preview/runtime/values';
import type { DateSystem } from './date-system';

export interface Position {
  row: number;
  col: number;
}

/** What a formula can see: cells, spills, the add-in's functions, the clock and the date system. */
export interface Scope {
  cell(p: Position): Value;
  /** The range's values, rows then columns; may stop at the used part of the sheet. */
  range(from: Position, to: Position): Value[][];
  /** Rows and columns of the array spilled from this cell (for `A1#`), or null when it spills nothing. */
  spillExtent?(p: Position): { rows: number; cols: number } | null;
  /** The add-in's function `id` with these arguments; null while its call is pending. */
  customFunction(id: string, args: ArgumentValue[]): ResultGrid | null;
  /** Epoch ms, for TODAY() and NOW(). */
  now?(): number;
  /** The workbook's date system, as Excel's own date functions follow it; default 1900. */
  dateSystem?: DateSystem;
}

/** An add-in function as the engine knows it: its id and its name in formulas (PRICE for CRYPTO.PRICE). */
export interface CustomFunctionName {
  id: string;
  name: string;
}

export type Evaluated = Value | Grid;

/** One instance: a pasted column makes thousands of pending cells. */
export const BUSY: ErrorValue = Object.freeze({ error: '#BUSY!', message: 'Waiting for the add-in' });

/** Larger ranges than this are not filled out with blanks past the used part of the sheet. */
const MAX_PADDED_CELLS = 100_000;

type Env = Map<string, Result> | null;

export class Engine {
  private readonly custom = new Map<string, string>();

  constructor(
    functions: readonly CustomFunctionName[],
    readonly namespace = 'CRYPTO',
  ) {
    for (const f of functions) this.custom.set(`${namespace}.${f.name}`.toUpperCase(), f.id);
  }

  /** The formula's value: one value, or an array that spills. Throws FormulaSyntaxError when it does not parse. */
  evaluate(formula: string, at: Position, scope: Scope): Evaluated {
    const tree = syntaxTree(formula);
    const run = new Run(this, scope, at);
    return settle(run.value(run.eval(tree, null)));
  }

  customId(name: string): string | undefined {
    return this.custom.get(name);
  }
}

/** A formula's final value: a blank shows as 0, a one-cell array as its value, an empty array as #CALC!. */
function settle(v: Value | Grid): Evaluated {
  if (!isGrid(v)) return cellResult(v);
  if (v.length === 0 || v[0].length === 0) return xlError('#CALC!', 'The result is an empty array');
  if (v.length === 1 && v[0].length === 1) return cellResult(v[0][0]);
  return v.map((r) => r.map(cellResult));
}

function cellResult(v: Value): Value {
  if (v === null) return 0;
  if (typeof v === 'number') return finite(v);
  return v;
}

export { FormulaSyntaxError };

/** One evaluation of one formula. */
class Run implements Context {
  constructor(
    private readonly engine: Engine,
    private readonly scope: Scope,
    readonly at: Position,
  ) {}

  now(): number {
    return this.scope.now?.() ?? Date.now();
  }

  get dateSystem(): DateSystem {
    return this.scope.dateSystem ?? '1900';
  }

  /** A reference's values (one cell: its value; a range: its grid, blank-padded to its size). */
  value(r: Result): Value | Grid {
    if (isOmitted(r)) return null;
    if (!isRef(r)) return r;
    if (r.top === r.bottom && r.left === r.right) return this.scope.cell({ row: r.top, col: r.left });
    const g = this.scope.range({ row: r.top, col: r.left }, { row: r.bottom, col: r.right });
    const h = r.bottom - r.top + 1;
    const w = r.right - r.left + 1;
    if (h * w > MAX_PADDED_CELLS) return g.length ? g : [[null]];
    const out: Grid = [];
    for (let i = 0; i < h; i++) {
      const row = g[i] ?? [];
      out.push(row.length === w ? row : Array.from({ length: w }, (_, j) => (j < row.length ? row[j] : null)));
    }
    return out;
  }

  eval(node: Node | null, env: Env): Result {
    if (node === null) return OMITTED;
    switch (node.type) {
      case 'Literal':
        return node.value;
      case 'ErrorLiteral':
        return xlError(node.value.toUpperCase());
      case 'ReferenceIdentifier':
        return this.reference(node.value, node.kind, env);
      case 'UnaryExpression':
        return this.unary(node.operator, node.arguments[0], env);
      case 'BinaryExpression':
        return this.binary(node.operator, node.arguments[0], node.arguments[1], env);
      case 'CallExpression':
        return this.call(node.callee.name, node.arguments, env);
      case 'ArrayExpression':
        return node.elements.map((row) => row.map((el) => this.scalar(this.value(this.eval(el, env)))));
      case 'LetExpression': {
        const scope = new Map(env ?? []);
        for (const d of node.declarations) scope.set(d.id.name.toUpperCase(), this.eval(d.init, scope));
        return this.eval(node.body, scope);
      }
      default:
        return xlError('#CALC!', 'LAMBDA is not supported here');
    }
  }

  /** One value from a result that may be an array (an array constant holds single values). */
  private scalar(v: Value | Grid): Value {
    return isGrid(v) ? (v[0]?.[0] ?? null) : v;
  }

  private reference(text: string, kind: string, env: Env): Result {
    if (kind === 'name' || kind === 'table') {
      const bound = kind === 'name' ? env?.get(text.toUpperCase()) : undefined;
      if (bound !== undefined) return bound;
      const access = fieldAccess(text);
      if (access) return this.field(this.reference(access.ref, 'range', env), access.field);
    }
    if (kind === 'name') {
      if (/^(TRUE|FALSE)$/i.test(text)) return /^TRUE$/i.test(text);
      return unknownName(text);
    }
    if (kind === 'table') return xlError('#REF!', 'Tables are not supported here');
    const parsed = parseA1Ref(text);
    if (!parsed || !('range' in parsed) || !parsed.range) return xlError('#REF!', `Not a reference: ${text}`);
    const sheet = parsed.context?.[0];
    if (sheet && sheet.toUpperCase() !== 'SHEET1') return xlError('#REF!', `There is no sheet named ${sheet}`);
    const r = parsed.range;
    // A whole column (A:A) or row (3:3): bounded here by Excel's sheet size.
    return {
      kind: 'ref',
      top: (r.top ?? 0) + 1,
      left: (r.left ?? 0) + 1,
      bottom: r.bottom === null || r.bottom === undefined ? 1_048_576 : r.bottom + 1,
      right: r.right === null || r.right === undefined ? 16_384 : r.right + 1,
    };
  }

  /** `A1.Price`: the field in each cell of the reference (entity-fields.ts). */
  private field(r: Result, name: string): Result {
    return mapGrid(this.value(r), (v) => entityField(v, name));
  }

  private unary(op: string, arg: Node, env: Env): Result {
    const r = this.eval(arg, env);
    switch (op) {
      case '-':
        return mapGrid(this.value(r), (x) => negate(toNumber(x, this.dateSystem)));
      case '+':
        return r;
      case '%':
        return mapGrid(this.value(r), (x) => divide(toNumber(x, this.dateSystem), 100));
      case '#': {
        if (!isRef(r) || r.top !== r.bottom || r.left !== r.right) return xlError('#REF!', 'A spill reference (A1#) names one cell');
        const extent = this.scope.spillExtent?.({ row: r.top, col: r.left });
        if (!extent) return xlError('#REF!', 'That cell does not spill an array');
        return { kind: 'ref', top: r.top, left: r.left, bottom: r.top + extent.rows - 1, right: r.left + extent.cols - 1 };
      }
      case '@': {
        // Implicit intersection: the cell of a range in the formula's row or column, else its first value.
        const v = this.value(r);
        if (!isGrid(v)) return v;
        if (isRef(r) && r.left === r.right && this.at.row >= r.top && this.at.row <= r.bottom) return v[this.at.row - r.top][0];
        if (isRef(r) && r.top === r.bottom && this.at.col >= r.left && this.at.col <= r.right) return v[0][this.at.col - r.left];
        return v[0]?.[0] ?? null;
      }
      default:
        return xlError('#VALUE!', `Unknown operator ${op}`);
    }
  }

  private binary(op: string, left: Node, right: Node, env: Env): Result {
    const a = this.eval(left, env);
    const b = this.eval(right, env);
    if (op === ':') {
      if (!isRef(a) || !isRef(b)) return xlError('#VALUE!', 'A range (:) joins two references');
      return { kind: 'ref', top: Math.min(a.top, b.top), left: Math.min(a.left, b.left), bottom: Math.max(a.bottom, b.bottom), right: Math.max(a.right, b.right) };
    }
    if (op === ' ' || op === ',') {
      // An operand's error first: “bitcoin cash” is two names around a space, and its #NAME? says what is wrong.
      if (isErrorValue(a)) return a;
      if (isErrorValue(b)) return b;
      return xlError('#NULL!', 'Range intersections and unions are not supported here');
    }
    const f = BINARY[op];
    if (!f) return xlError('#VALUE!', `Unknown operator ${op}`);
    return zip2(this.value(a), this.value(b), (x, y) => f(x, y, this.dateSystem));
  }

  private call(rawName: string, args: (Node | null)[], env: Env): Result {
    const name = rawName.toUpperCase().replace(/^_XLFN\.(_XLWS\.)?/, '');
    const id = this.engine.customId(name);
    if (id !== undefined) return this.customCall(id, args, env);
    const def: FunctionDef | undefined = functionNamed(name);
    if (!def) return xlError('#NAME?', `Unknown function ${name}`);
    if (def.min !== undefined && args.length < def.min) return xlError('#N/A', `${name} needs at least ${def.min} argument${def.min === 1 ? '' : 's'}`);
    if (def.max !== undefined && args.length > def.max) return xlError('#N/A', `${name} takes at most ${def.max} argument${def.max === 1 ? '' : 's'}`);
    if (def.lazy) return def.lazy(args.map((a) => () => this.eval(a, env)), this);
    return def.fn(args.map((a) => this.eval(a, env)), this);
  }

  /** The add-in's function: arguments as Excel hands them over (values, their cells' addresses, omitted ones). */
  private customCall(id: string, args: (Node | null)[], env: Env): Result {
    const values: ArgumentValue[] = args.map((a) => {
      const r = this.eval(a, env);
      if (isOmitted(r)) return { omitted: true };
      const v = this.value(r);
      const value = isGrid(v) ? v.map((row) => row.map(argumentCell)) : argumentCell(v);
      return isRef(r) ? { value, address: addressOf(r) } : { value };
    });
    const grid = this.scope.customFunction(id, values);
    // Excel does not call a custom function with an error argument: the error is the cell's, #NAME? and #REF! too (which
    // a function cannot return). The call above still reaches its site, since the preview numbers sites in formula order.
    const failed = values.map(argumentError).find((e) => e !== undefined);
    if (failed) return failed;
    if (grid === null) return BUSY;
    return grid.length === 1 && grid[0].length === 1 ? (grid[0][0] as Value) : (grid as Grid);
  }
}

/** The argument's error when it is one error value (an error inside a range is the function's to marshal). */
const argumentError = (a: ArgumentValue): ErrorValue | undefined => ('value' in a && isErrorValue(a.value) ? a.value : undefined);

/**
 * A cell value as a custom function's argument: a formatted number is its number (the runtime
 * sees plain cells); an entity stays itself (the runtime hands it to an `any` parameter).
 */
const argumentCell = (v: Value): CellValue => (isEntityValue(v) ? v : plain(v));

/** Quotes a word processor or chat puts around text: Excel reads only straight ones, so the text became a name. */
const CURLY_QUOTES = /[“”„‟‘’‚‛«»＂″]/;

/** #NAME? for a name nothing defines: most often text typed without its double quotes, or in curly ones. */
function unknownName(text: string): ErrorValue {
  if (CURLY_QUOTES.test(text)) return xlError('#NAME?', 'Use straight double quotes (") around text, not “ ”');
  return xlError('#NAME?', `"${text}" is not a defined name: put text in double quotes, e.g. "${text}"`);
}

function column(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

function addressOf(r: Ref): string {
  const a = `${column(r.left)}${r.top}`;
  return r.top === r.bottom && r.left === r.right ? `Sheet1!${a}` : `Sheet1!${a}:${column(r.right)}${r.bottom}`;
}

