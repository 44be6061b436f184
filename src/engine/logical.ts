/**
 * Logical and information functions. IF, IFS, IFERROR, IFNA, CHOOSE and
 * SWITCH evaluate only the branch they need, as Excel does. A #BUSY! value
 * (the add-in still calculating) is not an error to IFERROR or ISERROR: the
 * cell waits for the answer instead of showing the fallback for a moment.
 */
import { BUSY_CODE } from './busy';
import { asGrid, cells, def, lazyDef, lifted, numberArg, type Context, type FunctionTable, type Thunk } from './function-def';
import {
  NA,
  VALUE,
  isErrorValue,
  isFormattedNumber,
  isGrid,
  isOmitted,
  isRef,
  plain,
  toBoolean,
  xlError,
  type Grid,
  type Result,
  type Value,
} from './values';

const isError = (v: Value) => isErrorValue(v) && v.error !== BUSY_CODE;

/** A branch's value: an omitted branch is 0 (`=IF(TRUE,)`). */
const branch = (t: Thunk | undefined, ctx: Context, missing: Value): Value | Grid => {
  if (t === undefined) return missing;
  const r = t();
  return isOmitted(r) ? 0 : ctx.value(r);
};

function ifFn(args: Thunk[], ctx: Context): Result {
  const c = ctx.value(args[0]());
  if (isGrid(c)) {
    return lifted([c, branch(args[1], ctx, true), branch(args[2], ctx, false)], ([x, y, n]) => {
      const b = toBoolean(plain(x));
      return typeof b !== 'boolean' ? b : b ? y : n;
    });
  }
  const b = toBoolean(plain(c));
  if (typeof b !== 'boolean') return b;
  return b ? branch(args[1], ctx, true) : branch(args[2], ctx, false);
}

/** IFERROR / IFNA: the value, or the fallback where it is an error (cell by cell over an array). */
function onError(which: (v: Value) => boolean) {
  return (args: Thunk[], ctx: Context): Result => {
    const v = ctx.value(args[0]());
    let fallback: Value | Grid | undefined;
    const alt = () => (fallback ??= branch(args[1], ctx, ''));
    if (!isGrid(v)) return which(v) ? alt() : v;
    return v.map((row) =>
      row.map((x) => {
        if (!which(x)) return x;
        const f = alt();
        return isGrid(f) ? f[0][0] : f;
      }),
    );
  };
}

function ifs(args: Thunk[], ctx: Context): Result {
  for (let i = 0; i + 1 < args.length; i += 2) {
    const b = toBoolean(plain(asGrid(ctx.value(args[i]()))[0][0]));
    if (typeof b !== 'boolean') return b;
    if (b) return branch(args[i + 1], ctx, 0);
  }
  return xlError('#N/A', 'IFS: no condition was TRUE');
}

function switchFn(args: Thunk[], ctx: Context): Result {
  const v = plain(asGrid(ctx.value(args[0]()))[0][0]);
  if (isErrorValue(v)) return v;
  let i = 1;
  for (; i + 1 < args.length; i += 2) {
    const c = plain(asGrid(ctx.value(args[i]()))[0][0]);
    if (isErrorValue(c)) return c;
    if (typeof c === typeof v && (typeof c === 'string' ? c.toLowerCase() === (v as string).toLowerCase() : c === v)) return branch(args[i + 1], ctx, 0);
  }
  return i < args.length ? branch(args[i], ctx, 0) : xlError('#N/A', 'SWITCH: no value matched');
}

function choose(args: Thunk[], ctx: Context): Result {
  const n = numberArg(args[0](), ctx);
  if (typeof n !== 'number') return n;
  const k = Math.trunc(n);
  if (k < 1 || k >= args.length) return xlError('#VALUE!', `CHOOSE: index ${k} is outside 1 to ${args.length - 1}`);
  return args[k]();
}

/** AND, OR, XOR: logical values and numbers count; text in ranges is skipped; no logical value at all is #VALUE!. */
function logical(reduce: (bs: boolean[]) => boolean) {
  return (args: Result[], ctx: Context): Result => {
    const bs: boolean[] = [];
    for (const a of args) {
      const v = ctx.value(a);
      for (const c of cells(asGrid(v))) {
        const x = plain(c);
        if (isErrorValue(x)) return x;
        if (typeof x === 'boolean' || typeof x === 'number') bs.push(Boolean(x));
        else if (typeof x === 'string' && !isRef(a) && !isGrid(v)) {
          const b = toBoolean(x);
          if (typeof b !== 'boolean') return b;
          bs.push(b);
        }
      }
    }
    return bs.length ? reduce(bs) : VALUE;
  };
}

/** IS… functions: lifted over arrays; never an error themselves. */
function is(test: (v: Value) => boolean) {
  return def(1, 1, (args, ctx) => lifted([ctx.value(args[0])], ([v]) => test(v)));
}

const ERROR_TYPES: Record<string, number> = { '#NULL!': 1, '#DIV/0!': 2, '#VALUE!': 3, '#REF!': 4, '#NAME?': 5, '#NUM!': 6, '#N/A': 7, '#GETTING_DATA': 8, '#SPILL!': 9, '#CALC!': 14 };

export const LOGICAL: FunctionTable = {
  IF: lazyDef(1, 3, ifFn),
  IFERROR: lazyDef(2, 2, onError(isError)),
  IFNA: lazyDef(2, 2, onError((v) => isErrorValue(v) && v.error === '#N/A')),
  IFS: lazyDef(2, 254, ifs),
  SWITCH: lazyDef(3, 254, switchFn),
  CHOOSE: lazyDef(2, 255, choose),
  AND: def(1, 255, logical((bs) => bs.every(Boolean))),
  OR: def(1, 255, logical((bs) => bs.some(Boolean))),
  XOR: def(1, 255, logical((bs) => bs.filter(Boolean).length % 2 === 1)),
  NOT: def(1, 1, (args, ctx) => lifted([ctx.value(args[0])], ([v]) => { const b = toBoolean(plain(v)); return typeof b === 'boolean' ? !b : b; })),
  TRUE: def(0, 0, () => true),
  FALSE: def(0, 0, () => false),
  NA: def(0, 0, () => NA),
  ISERROR: is(isError),
  ISERR: is((v) => isError(v) && (v as { error: string }).error !== '#N/A'),
  ISNA: is((v) => isErrorValue(v) && v.error === '#N/A'),
  ISBLANK: is((v) => v === null),
  ISNUMBER: is((v) => typeof v === 'number' || isFormattedNumber(v)),
  ISTEXT: is((v) => typeof v === 'string'),
  ISNONTEXT: is((v) => typeof v !== 'string'),
  ISLOGICAL: is((v) => typeof v === 'boolean'),
  ISREF: def(1, 1, (args) => isRef(args[0])),
  'ERROR.TYPE': def(1, 1, (args, ctx) => lifted([ctx.value(args[0])], ([v]) => (isErrorValue(v) && ERROR_TYPES[v.error] ? ERROR_TYPES[v.error] : NA))),
  N: def(1, 1, (args, ctx) => lifted([ctx.value(args[0])], ([v]) => { const x = plain(v); return typeof x === 'number' ? x : typeof x === 'boolean' ? Number(x) : isErrorValue(x) ? x : 0; })),
  T: def(1, 1, (args, ctx) => lifted([ctx.value(args[0])], ([v]) => (typeof v === 'string' || isErrorValue(v) ? v : ''))),
};

export type { Grid };
