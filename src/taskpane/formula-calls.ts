/**
 * The CRYPTO calls in a formula's text, with their arguments as typed
 * (top-level commas split them; quotes, parentheses and array braces are
 * respected), and which cells follow the default currency. Pure.
 */
import { parseCellAddress } from '../formulas/provenance';

export interface CryptoCall {
  /** "PRICE" */
  name: string;
  /** Each argument's text, trimmed; "" for an omitted one. */
  args: string[];
}

const CALL = /(^|[^A-Za-z0-9_.])CRYPTO\.([A-Za-z][A-Za-z0-9_.]*)\s*\(/gi;

/** Arguments from the "(" at `open`: their texts and where the call ends. */
function argsFrom(text: string, open: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length; i++) if (text[i] === '"' && text[i + 1] !== '"') break; else if (text[i] === '"') i++;
      continue;
    }
    if (ch === '(' || ch === '{') depth++;
    else if ((ch === ')' || ch === '}') && depth > 0) depth--;
    else if (ch === ')' && depth === 0) {
      args.push(text.slice(start, i).trim());
      return { args: args.length === 1 && args[0] === '' ? [] : args, end: i };
    } else if (ch === ',' && depth === 0) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return { args: [...args, text.slice(start).trim()], end: text.length };
}

/** Every CRYPTO call in the formula, nested ones too, outside string literals. */
export function cryptoCalls(formula: string): CryptoCall[] {
  // Blank out string literals so a "CRYPTO.X(" inside one is not a call.
  const masked = formula.replace(/"(?:[^"]|"")*"/g, (s) => '"' + ' '.repeat(s.length - 2) + '"');
  const out: CryptoCall[] = [];
  for (const m of masked.matchAll(CALL)) {
    const open = m.index! + m[0].length - 1;
    const { args } = argsFrom(formula, open);
    out.push({ name: m[2].toUpperCase(), args });
  }
  return out;
}

/**
 * Formulas whose omitted currency is the default currency setting (in
 * src/formulas: currencyArg(currency, ctx.settings.defaultCurrency)); the
 * others answer in USD unless told. test/formula-builder.test.ts holds this
 * list to the formulas whose requests change with the setting.
 */
export const FOLLOWS_DEFAULT_CURRENCY = new Set(['PRICE', 'DATA', 'QUOTE', 'MARKETS', 'PROFILE', 'HISTORICAL', 'LIVEPRICE', 'COIN']);

/** Whether a formula has a call that takes the default currency (its currency argument omitted). */
export function usesDefaultCurrency(formula: string, currencyIndex: (name: string) => number): boolean {
  return cryptoCalls(formula).some((c) => {
    if (!FOLLOWS_DEFAULT_CURRENCY.has(c.name)) return false;
    const i = currencyIndex(c.name);
    return i >= 0 && (c.args[i] === undefined || c.args[i] === '');
  });
}

/** Formulas whose cells share the currency map and the markets pages: one page answers 250 coins' quotes. */
const SHARES_PAGES = new Set(['PRICE', 'DATA', 'QUOTE', 'COIN', 'LIVEPRICE']);
const COINS_A_PAGE = 250;

/**
 * A refresh's credits before one was measured, from the formulas' text: the
 * calls that share pages cost the map and a page per 250 coins (600 price
 * cells cost 3 credits in the benchmark's portfolio), every other CRYPTO call
 * one per coin its first argument names (a range or an array constant of
 * coins: STATS, CORREL). An estimate ("about"): history over many buckets costs more, coins
 * scattered over the list more pages; the client's budget check still stops
 * any request past the budget. One credit a formula refused a sheet of 60
 * prices on a 50-credit budget every time it opened (review-features #12).
 */
export function unmeasuredCredits(formulas: readonly string[]): number {
  let shared = 0;
  let other = 0;
  for (const f of formulas) {
    for (const c of cryptoCalls(f)) {
      const many = itemsIn(c.args[0] ?? '');
      if (SHARES_PAGES.has(c.name)) shared += many;
      else other += many; // STATS or CORREL of a range: its coins' candles, one request each (review-r2 #9)
    }
  }
  return (shared > 0 ? 1 + Math.ceil(shared / COINS_A_PAGE) : 0) + other;
}

/** How many values an argument's text holds: the cells of a range (A2:A60), the items of an array constant, else one. */
function itemsIn(arg: string): number {
  const t = arg.trim();
  const range = parseCellAddress(t.includes('!') ? t : `x!${t}`);
  if (range) return (Math.abs(range.bottom - range.top) + 1) * (Math.abs(range.right - range.left) + 1);
  const constant = /^\{(.*)\}$/s.exec(arg.trim());
  if (constant) return constant[1].split(/[;,]/).filter((x) => x.trim() !== '').length;
  return 1;
}
