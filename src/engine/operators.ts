/**
 * Excel's operators on two cell values, and unary minus and percent: numbers
 * by the engine's one text rule (values.ts toNumber: "1,000"*2, "2024-03-15"+1
 * as the workbook's serial), & on text, comparisons in Excel's order
 * (numbers < text < FALSE < TRUE). The evaluator applies them cell by cell.
 */
import { compareValues, finite, isErrorValue, plain, toNumber, toText, xlError, type ErrorValue, type Value } from './values';
import type { DateSystem } from './date-system';

export function negate(n: number | ErrorValue): Value {
  return typeof n === 'number' ? (n === 0 ? 0 : -n) : n;
}

export function divide(a: number | ErrorValue, b: number | ErrorValue): Value {
  if (typeof a !== 'number') return a;
  if (typeof b !== 'number') return b;
  return b === 0 ? xlError('#DIV/0!') : finite(a / b);
}

/** An operator on two cell values; text dates ("2024-03-15"+1) are read as the workbook's serials. */
export type BinaryOperator = (a: Value, b: Value, system: DateSystem) => Value;

function arithmetic(f: (a: number, b: number) => number): BinaryOperator {
  return (x, y, system) => {
    const a = toNumber(x, system);
    if (typeof a !== 'number') return a;
    const b = toNumber(y, system);
    if (typeof b !== 'number') return b;
    return finite(f(a, b));
  };
}

function comparison(test: (c: number) => boolean): BinaryOperator {
  return (x, y) => {
    const a = plain(x);
    const b = plain(y);
    if (isErrorValue(a)) return a;
    if (isErrorValue(b)) return b;
    return test(compareValues(a, b));
  };
}

/** Excel's binary operators, one row each. */
export const BINARY: Readonly<Record<string, BinaryOperator>> = {
  '+': arithmetic((a, b) => a + b),
  '-': arithmetic((a, b) => a - b),
  '*': arithmetic((a, b) => a * b),
  '/': (x, y, system) => divide(toNumber(x, system), toNumber(y, system)),
  '^': (x, y, system) => {
    const a = toNumber(x, system);
    const b = toNumber(y, system);
    if (typeof a !== 'number') return a;
    if (typeof b !== 'number') return b;
    if (a === 0 && b === 0) return xlError('#NUM!');
    if (a === 0 && b < 0) return xlError('#DIV/0!');
    return finite(a ** b);
  },
  '&': (x, y) => {
    const a = toText(x);
    if (typeof a !== 'string') return a;
    const b = toText(y);
    if (typeof b !== 'string') return b;
    return a + b;
  },
  '=': comparison((c) => c === 0),
  '<>': comparison((c) => c !== 0),
  '<': comparison((c) => c < 0),
  '>': comparison((c) => c > 0),
  '<=': comparison((c) => c <= 0),
  '>=': comparison((c) => c >= 0),
};
