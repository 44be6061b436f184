/**
 * Parses one CRYPTO.* formula as typed in a cell: `=CRYPTO.OHLCV("solana","2024-01-01",,"daily",1)`.
 * Arguments may be text ("" escapes a quote), numbers, TRUE/FALSE, omitted
 * (,,), array constants ({1,2;3,4}: a range, as a 2-D array) and DATE(y,m,d),
 * the serial the workbook holds in its date system (1900 unless given).
 */
import { dateSerial } from '../engine/dates';
import type { DateSystem } from '../engine/date-system';

export type ParsedArg = string | number | boolean | null | ParsedArg[][];

export interface ParsedFormula {
  /** Function name without the CRYPTO. prefix, upper case. */
  name: string;
  args: ParsedArg[];
}

export class FormulaSyntaxError extends Error {}

export function parseFormula(text: string, dates: DateSystem = '1900'): ParsedFormula {
  let i = 0;
  const s = text.trim();
  const fail = (what: string): never => {
    throw new FormulaSyntaxError(`${what} at position ${i + 1} of ${JSON.stringify(s)}`);
  };
  const ws = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  const ident = (): string => {
    const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(s.slice(i));
    if (!m) fail('expected a function name');
    i += m![0].length;
    return m![0];
  };

  const value = (): ParsedArg => {
    ws();
    const c = s[i];
    if (c === '"') {
      let out = '';
      i++;
      for (;;) {
        if (i >= s.length) fail('unterminated text');
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            out += '"';
            i += 2;
            continue;
          }
          i++;
          return out;
        }
        out += s[i++];
      }
    }
    if (c === '{') {
      i++;
      const rows: ParsedArg[][] = [[]];
      for (;;) {
        const v = value();
        rows[rows.length - 1].push(v);
        ws();
        if (s[i] === ',') i++;
        else if (s[i] === ';') {
          i++;
          rows.push([]);
        } else if (s[i] === '}') {
          i++;
          break;
        } else fail('expected , ; or } in an array constant');
      }
      if (rows.some((r) => r.length !== rows[0].length)) fail('array constant rows differ in length');
      return rows;
    }
    const num = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?/.exec(s.slice(i));
    if (num) {
      i += num[0].length;
      return Number(num[0]);
    }
    const word = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(s.slice(i));
    if (word) {
      const w = word[0].toUpperCase();
      if (w === 'TRUE' || w === 'FALSE') {
        i += w.length;
        return w === 'TRUE';
      }
      if (w === 'DATE') {
        i += w.length;
        const args = argList();
        if (args.length !== 3 || !args.every((a) => typeof a === 'number')) fail('DATE needs (year, month, day)');
        const [y, m, d] = args as number[];
        const serial = dateSerial(y, m, d, dates); // the engine's DATE, so both paths agree
        return typeof serial === 'number' ? serial : fail(`DATE(${y},${m},${d}) is no date in the ${dates} date system`);
      }
    }
    return fail('expected a value');
  };

  const argList = (): ParsedArg[] => {
    ws();
    if (s[i] !== '(') fail('expected (');
    i++;
    const args: ParsedArg[] = [];
    ws();
    if (s[i] === ')') {
      i++;
      return args;
    }
    for (;;) {
      ws();
      if (s[i] === ',' || s[i] === ')') args.push(null); // omitted argument
      else args.push(value());
      ws();
      if (s[i] === ',') {
        i++;
        continue;
      }
      if (s[i] === ')') {
        i++;
        return args;
      }
      fail('expected , or )');
    }
  };

  if (s[i] === '=') i++;
  ws();
  let name = ident().toUpperCase();
  if (name.startsWith('CRYPTO.')) name = name.slice('CRYPTO.'.length);
  if (!name || name.includes('.')) fail('expected CRYPTO.<NAME>');
  const args = argList();
  ws();
  if (i < s.length) fail('unexpected text after the formula');
  return { name, args };
}
