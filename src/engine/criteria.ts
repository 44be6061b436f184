/**
 * Excel's criteria, as COUNTIF, SUMIF(S), AVERAGEIF(S), MAXIFS and MINIFS read
 * them (COUNTIF page, support.microsoft.com): a value means "equal to it"; text
 * may start with =, <>, <, >, <= or >=; "*" and "?" are wildcards ("~" escapes
 * one); text matches without regard to case; "" matches blank cells and "<>"
 * non-blank ones. An error in the range never matches.
 */
import { compareValues, isErrorValue, numberFromText, plain, type Scalar, type Value } from './values';
import type { DateSystem } from './date-system';

export type Criterion = (cell: Value) => boolean;

const OPERATOR = /^(<=|>=|<>|=|<|>)?([\s\S]*)$/;

function wildcard(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '~' && i + 1 < pattern.length) re += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '*') re += '[\\s\\S]*';
    else if (c === '?') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}

/** A criterion's test; text dates ("<2024-03-15") are read as the workbook's serials. */
export function criterion(spec: Scalar, system: DateSystem): Criterion {
  if (spec === null) return (v) => plain(v) === null || plain(v) === 0; // an empty criteria cell means 0
  if (typeof spec === 'number' || typeof spec === 'boolean') {
    return (v) => {
      const x = plain(v);
      if (typeof x === 'string' && typeof spec === 'number') return numberFromText(x, system) === spec;
      return x === spec;
    };
  }
  const [, op = '', operand] = OPERATOR.exec(spec)!;
  const n = numberFromText(operand, system);
  const bool = /^(true|false)$/i.test(operand) ? /^true$/i.test(operand) : null;
  if (operand === '' && (op === '' || op === '=')) return (v) => plain(v) === null || plain(v) === '';
  if (operand === '' && op === '<>') return (v) => plain(v) !== null && plain(v) !== '';
  const test = (c: number) =>
    op === '<' ? c < 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : op === '>=' ? c >= 0 : op === '<>' ? c !== 0 : c === 0;
  if (n !== null) {
    return (v) => {
      const x = plain(v);
      if (isErrorValue(x)) return false;
      const num = typeof x === 'number' ? x : typeof x === 'string' && (op === '' || op === '=' || op === '<>') ? numberFromText(x, system) : null;
      if (num === null) return op === '<>';
      return test(num < n ? -1 : num > n ? 1 : 0);
    };
  }
  if (bool !== null) {
    return (v) => {
      const x = plain(v);
      if (typeof x !== 'boolean') return op === '<>';
      return test(compareValues(x, bool));
    };
  }
  if (op === '' || op === '=' || op === '<>') {
    const re = /[*?~]/.test(operand) ? wildcard(operand) : null;
    const lower = operand.toLowerCase();
    const eq = (x: Scalar | { error: string }) => typeof x === 'string' && (re ? re.test(x) : x.toLowerCase() === lower);
    return op === '<>' ? (v) => !isErrorValue(plain(v)) && !eq(plain(v)) : (v) => eq(plain(v));
  }
  return (v) => {
    const x = plain(v);
    return typeof x === 'string' && test(compareValues(x, operand));
  };
}
