/**
 * Bad input, generated from each formula's metadata (functions.json as the
 * build makes it): wrong types, blanks, huge and negative numbers, unicode,
 * 10,000-character text, impossible and future dates, reversed ranges, ranges
 * holding blanks and Excel errors. The property tests (test/bad-input.test.ts)
 * and `npm run chaos` judge each outcome with `judge`.
 */
import fc from 'fast-check';
import type { FunctionMeta, ParameterMeta } from '../src/cli/metadata';
import { CellError, FormulaError, type FormulaResult } from '../src/formulas/cells';
import { EntityCell } from '../src/formulas/entity-cell';

/** How an error value in a range might reach a function: an object, or its text. */
const excelError = fc.oneof(
  fc.constantFrom('#N/A', '#VALUE!', '#REF!', '#DIV/0!').map((code) => ({ type: 'Error', errorCode: code })),
  fc.constantFrom('#N/A', '#VALUE!', '#REF!'),
);

/** Plausible values, so generated calls also get past the first check. */
const plausible = fc.constantFrom<unknown>(
  'bitcoin', 'BTC', 'ethereum', 'Solana', 1, 2, 'symbol:PEPE', 'ethereum', 'solana', 'arbitrum',
  '2024-01-01', '2024-02-30', '2023-02-29', '2031-01-01', '2024', '2024Q1', '2024-03', '30D', '12W', '6M', '1Y', 45292,
  'daily', 'weekly', 'hourly', 'monthly', 'yearly', 'quarterly', 'price', 'marketCap', 'close', 'volume', 'id',
  'USD', 'eur', 'GBP', 'asc', 'desc', 'rank', 'volume24h', 'top', 'summary', 'totalMarketCap', 0, 1, 2, 10, 100, true, false,
);

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: plausible },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, '', ' ', 0, -0) },
  { weight: 2, arbitrary: fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }) },
  { weight: 1, arbitrary: fc.double({ min: -1e308, max: 1e308, noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(10_000), 'ü'.repeat(10_000), `${'bitcoin,'.repeat(1_250)}`) },
  { weight: 1, arbitrary: excelError },
);

/** A rectangular range of 1-3 rows and 1-3 columns. */
const range: fc.Arbitrary<unknown[][]> = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }))
  .chain(([rows, cols]) => fc.array(fc.array(scalar, { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows }));

function valueFor(p: ParameterMeta): fc.Arbitrary<unknown> {
  // Mostly what Excel would pass for the declared type; sometimes anything at all.
  const typed =
    p.type === 'number'
      ? fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double({ min: -1e308, max: 1e308, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, 1, 10, 250, 5000))
      : p.type === 'string'
        ? fc.oneof(plausible.map(String), fc.string({ unit: 'grapheme', maxLength: 20 }))
        : p.type === 'boolean'
          ? fc.boolean()
          : scalar;
  const one = fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: scalar });
  const v = p.dimensionality === 'matrix' ? fc.oneof(range, one.map((x) => [[x]])) : fc.oneof({ weight: 5, arbitrary: one }, { weight: 1, arbitrary: range });
  return p.optional ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: v }) : v;
}

/** Arguments for one call, one per declared parameter (a repeating one as an array of 0-3 values). */
export function argumentsFor(meta: FunctionMeta): fc.Arbitrary<unknown[]> {
  return fc.tuple(...meta.parameters.map((p) => (p.repeating ? fc.array(valueFor(p), { maxLength: 3 }) : valueFor(p))));
}

export type Verdict = { kind: 'value' | '#VALUE!' | '#N/A' } | { kind: 'wrong'; why: string };

const STACK = /\n\s+at |\bat .+:\d+:\d+|TypeError|ReferenceError|RangeError|\[object Object\]|\bundefined\b|\bNaN\b/;

function cellOk(c: unknown): string | null {
  if (c instanceof CellError) return c.message && !STACK.test(c.message) ? null : `cell error message ${JSON.stringify(c.message)}`;
  if (typeof c === 'number') return Number.isFinite(c) ? null : `number cell ${c}`;
  if (typeof c === 'string' || typeof c === 'boolean') return null;
  // A data type (CRYPTO.COIN): named, and every number in it finite.
  if (c instanceof EntityCell) {
    const numbers = Object.values(c.value.properties).map((p) => ('basicValue' in p ? p.basicValue : null)).filter((x) => typeof x === 'number');
    return c.text && !STACK.test(c.text) && numbers.every(Number.isFinite) ? null : `entity ${JSON.stringify(c.text)} with a bad field`;
  }
  return `cell of type ${c === null ? 'null' : typeof c}`;
}

/** A value Excel can show, or #VALUE!/#N/A whose message is plain and (for #VALUE!) names an argument. */
export function judge(meta: FunctionMeta, outcome: { ok: FormulaResult } | { err: unknown }): Verdict {
  if ('ok' in outcome) {
    const v = outcome.ok;
    if (Array.isArray(v)) {
      if (v.length === 0 || v.some((row) => !Array.isArray(row) || row.length !== v[0].length)) return { kind: 'wrong', why: 'not a rectangular grid' };
      for (const row of v) for (const c of row) {
        const bad = cellOk(c);
        if (bad) return { kind: 'wrong', why: bad };
      }
      return { kind: 'value' };
    }
    const bad = cellOk(v);
    return bad ? { kind: 'wrong', why: bad } : { kind: 'value' };
  }
  const e = outcome.err;
  if (!(e instanceof FormulaError)) return { kind: 'wrong', why: `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}` };
  if (e.apiCode === 'UNEXPECTED') return { kind: 'wrong', why: `unexpected error: ${e.message}` };
  if (!e.message || STACK.test(e.message) || e.message.length > 1_000) return { kind: 'wrong', why: `message ${JSON.stringify(e.message.slice(0, 200))}` };
  if (e.code === '#VALUE!') {
    const names = meta.parameters.map((p) => p.name);
    const named = new RegExp(`\\b(${names.join('|')})\\b`, 'i').test(e.message);
    if (!named) return { kind: 'wrong', why: `#VALUE! naming no argument of ${names.join(', ')}: ${e.message}` };
  }
  return { kind: e.code };
}
