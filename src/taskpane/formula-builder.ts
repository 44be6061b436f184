/**
 * The formula builder's model: which fields a formula's arguments become
 * (from functions.json: types, optional, repeating, custom enums for choice
 * lists) and the formula text and the arguments Excel would hand the
 * function. The builder checks them with the formula's own code
 * (builder-dry-run.ts) and prices its requests (builder-cost.ts). Pure: no DOM.
 */
import type { CoinRef } from '../client';

export interface ParamMeta {
  name: string;
  description?: string;
  type?: string;
  dimensionality?: 'scalar' | 'matrix';
  optional?: boolean;
  repeating?: boolean;
  customEnumId?: string;
}
export interface FunctionMeta {
  id: string;
  name: string;
  description: string;
  parameters: ParamMeta[];
  result?: { dimensionality?: string };
  options?: { stream?: boolean };
}
export interface EnumMeta {
  id: string;
  values: { name: string; stringValue?: string; numberValue?: number; tooltip?: string }[];
}
export interface FunctionsJson {
  functions: FunctionMeta[];
  enums?: EnumMeta[];
}

export type FieldKind = 'coin' | 'coins' | 'choice' | 'multi' | 'date' | 'number' | 'flag' | 'headers' | 'list' | 'text';

export interface Choice {
  value: string;
  label: string;
}

export interface Field {
  name: string;
  kind: FieldKind;
  label: string;
  hint: string;
  required: boolean;
  /** What a required field is filled with in the examples and the generated test; the placeholder otherwise. */
  example: string;
  choices: Choice[];
}

/**
 * What a parameter holds where functions.json cannot say (it types them any,
 * string or number): one table, by parameter name.
 */
const BY_NAME: Record<string, { kind: FieldKind; example?: string }> = {
  coin: { kind: 'coin' },
  coins: { kind: 'coins' },
  benchmark: { kind: 'text', example: 'bitcoin' },
  start: { kind: 'date', example: '2024-01-01' },
  end: { kind: 'date', example: '2024-06-30' },
  date: { kind: 'date', example: '2024-01-01' },
  headers: { kind: 'headers' },
  excludeStablecoins: { kind: 'flag' },
  includeUntracked: { kind: 'flag' },
  count: { kind: 'number', example: '10' },
  riskFree: { kind: 'number', example: '0.04' },
  intervalSeconds: { kind: 'number', example: '60' },
  daysAhead: { kind: 'number', example: '30' },
  minUsdAmount: { kind: 'number', example: '1000000' },
  minPercentOfMcap: { kind: 'number', example: '1' },
  ecosystem: { kind: 'number', example: '1' },
  chain: { kind: 'text', example: 'ethereum' },
  query: { kind: 'text', example: 'bitcoin' },
  category: { kind: 'text', example: '' },
  tag: { kind: 'text', example: '' },
};

/** Formulas the builder does not offer: ASOF points at a cell, which a form field cannot be. */
const NOT_BUILT = new Set(['ASOF']);

export const builderFunctions = (meta: FunctionsJson): FunctionMeta[] => meta.functions.filter((f) => !NOT_BUILT.has(f.id));

export interface FormulaGroup {
  title: string;
  functions: FunctionMeta[];
}

/**
 * The formula list as a user scans it: by area, in the help index's groups and
 * order (src/help/areas.json: prices first, PRICE first of all, then history,
 * supply, market-wide, chains, account). functions.json's order is the
 * generator's (its source files alphabetically: account.ts first), not meant to
 * be read. A formula no area lists (none, test/help-pages.test.ts checks) comes
 * last under "Other" rather than missing; each formula is listed once.
 */
export function builderGroups(meta: FunctionsJson, areas: readonly { title: string; functions: readonly string[] }[]): FormulaGroup[] {
  const byId = new Map(builderFunctions(meta).map((f) => [f.id, f]));
  const groups: FormulaGroup[] = [];
  for (const a of areas) {
    const functions = a.functions.flatMap((id) => {
      const f = byId.get(id);
      byId.delete(id);
      return f ? [f] : [];
    });
    if (functions.length > 0) groups.push({ title: a.title, functions });
  }
  if (byId.size > 0) groups.push({ title: 'Other', functions: [...byId.values()] });
  return groups;
}

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());

export function fieldsOf(fn: FunctionMeta, meta: FunctionsJson): Field[] {
  return fn.parameters.map((p) => {
    const named = BY_NAME[p.name];
    const e = p.customEnumId ? meta.enums?.find((x) => x.id === p.customEnumId) : undefined;
    let kind: FieldKind = named?.kind ?? (p.type === 'number' ? 'number' : p.dimensionality === 'matrix' ? 'list' : 'text');
    if (e && !named) kind = p.repeating ? 'multi' : 'choice';
    const choices: Choice[] = e
      ? e.values.map((v) => ({ value: v.stringValue ?? String(v.numberValue ?? v.name), label: v.tooltip ? `${v.stringValue ?? v.name}: ${v.tooltip.replace(/^(Field|Value|Column): /, '')}` : (v.stringValue ?? v.name) }))
      : kind === 'headers'
        ? [{ value: '1', label: '1: show the header row' }, { value: '0', label: '0: no header row' }]
        : kind === 'flag'
          ? [{ value: 'TRUE', label: 'TRUE' }, { value: 'FALSE', label: 'FALSE' }]
          : [];
    const required = !p.optional && !p.repeating;
    const example = named?.example ?? (kind === 'choice' && required ? choices[0]?.value ?? '' : '');
    return { name: p.name, kind, label: words(p.name), hint: p.description ?? '', required, example, choices };
  });
}

/** What the form holds: a field's text (or several, for a repeating choice); the coin comes from the search. */
export type FormValues = Record<string, string | string[]>;

export interface BuiltCall {
  /** "=CRYPTO.OHLCV(\"solana\",\"2024-01-01\")" */
  text: string;
  /** The arguments as Excel hands them to the function (omitted: null; matrix: 2-D; repeating: a list). */
  args: unknown[];
  /** Fields whose text is not of their kind (before the formula is asked). */
  errors: Record<string, string>;
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
/** A number with a percent sign, as typed in a cell: "5%" is 0.05 in a field that is a fraction (riskFree: "0.05 (or 5%)"). */
const PERCENT = /^([+-]?(\d+\.?\d*|\.\d+))\s*%$/;
/**
 * An Excel date serial typed into a date field: five digits (45292 is 2024-01-01; every day from 1927 to 2173).
 * Four digits stay text, a year ("2024" is the period), as a cell holding the text "2024" would be.
 */
const SERIAL = /^\d{5}(\.\d+)?$/;

interface Arg {
  text: string;
  value: unknown;
}

/** One field's text as a formula argument, or null when left empty. */
function argOf(f: Field, p: ParamMeta, raw: string): Arg | string | null {
  const t = raw.trim();
  if (t === '') return null;
  switch (f.kind) {
    case 'number':
    case 'headers': {
      const pct = f.kind === 'number' ? PERCENT.exec(t) : null;
      // Only where the field is a fraction (riskFree): "1%" in a field of percent points (UNLOCKS'
      // minPercentOfMcap, "0 to 100") as 0.01 was a filter 100 times looser, silently (review-r2 #4).
      if (pct && /fraction/i.test(f.hint)) return { text: `${Number(pct[1])}%`, value: Number(pct[1]) / 100 };
      if (pct && f.hint.includes('%')) return `${f.name} is in percent: type ${Number(pct[1])} for ${Number(pct[1])} %; got "${t}"`;
      if (!NUMBER.test(t)) return `${f.name} must be a number; got "${t}"`;
      const n = Number(t);
      return { text: String(n), value: n };
    }
    case 'date':
      // A serial goes in as the number a cell would hold: quoted, it was text the formula refused (review-features #10).
      if (SERIAL.test(t)) return { text: String(Number(t)), value: Number(t) };
      return { text: quote(t), value: t };
    case 'flag':
      return /^true$/i.test(t) ? { text: 'TRUE', value: true } : { text: 'FALSE', value: false };
    case 'text':
      // An id where an id or a name is taken (a category, a chain): a number, as typed in a cell.
      if (p.type !== 'string' && NUMBER.test(t)) return { text: String(Number(t)), value: Number(t) };
      return { text: quote(t), value: t };
    default:
      return { text: quote(t), value: t };
  }
}

/** The formula for these fields and coin: its text and the arguments the function would get. */
export function buildCall(fn: FunctionMeta, fields: readonly Field[], values: FormValues, coin: CoinRef | null): BuiltCall {
  const texts: string[] = [];
  const args: unknown[] = [];
  const errors: Record<string, string> = {};
  fn.parameters.forEach((p, i) => {
    const f = fields[i];
    const matrix = p.dimensionality === 'matrix';
    if (f.kind === 'coin' || f.kind === 'coins') {
      const others = f.kind === 'coins' ? String(values[f.name] ?? '').split(',').map((s) => s.trim()).filter(Boolean) : [];
      const list = [...(coin ? [coin.slug] : []), ...others];
      if (list.length === 0) {
        texts.push('');
        args.push(null);
      } else if (list.length === 1) {
        texts.push(quote(list[0]));
        args.push(matrix ? [[list[0]]] : list[0]);
      } else {
        texts.push(`{${list.map(quote).join(';')}}`); // a column, as a range of coins is
        args.push(list.map((c) => [c]));
      }
      return;
    }
    if (p.repeating) {
      const chosen = ([] as string[]).concat(values[f.name] ?? []).map((s) => s.trim()).filter(Boolean);
      texts.push(...chosen.map(quote));
      args.push(chosen);
      return;
    }
    const a = argOf(f, p, String(values[f.name] ?? ''));
    if (typeof a === 'string') {
      errors[f.name] = a;
      texts.push('');
      args.push(null);
      return;
    }
    texts.push(a ? a.text : '');
    args.push(a === null ? null : matrix ? [[a.value]] : a.value);
  });
  while (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
  return { text: `=CRYPTO.${fn.name}(${texts.join(',')})`, args, errors };
}
