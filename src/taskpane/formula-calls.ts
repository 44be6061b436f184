/**
 * The CRYPTO calls in a formula's text, with their arguments as typed
 * (top-level commas split them; quotes, parentheses and array braces are
 * respected), which cells follow the default currency, and a refresh's credits
 * estimated from them. Pure.
 */
import { ENDPOINTS, creditCost, type ConvertCurrency } from '../api/endpoints';
import { headersArg, type Arg } from '../formulas/args';
import { usdHeader } from '../formulas/usd-money';
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
 * How each formula's cells change with the default currency setting: the one
 * table the pane reads after the setting changes (settings-section.ts).
 * - 'answer': an omitted currency is the default one (in src/formulas:
 *   currencyArg(currency, ctx.settings.defaultCurrency)), so its numbers
 *   change; the others answer in USD unless told.
 * - 'header': its numbers are USD whatever the setting, but its money columns
 *   are headed "Close (USD)" in a workbook whose default is not USD and
 *   "Close" in one whose default is (usd-money.ts usdHeader): only its header
 *   row changes, and only when shown.
 * - 'range header': the same, but only its history (a start or end given) has
 *   a money column: ALTSEASON's current reading has none.
 * test/formula-builder.test.ts holds 'answer' to the formulas whose requests
 * change with the setting, the header kinds to those whose examples' labels
 * alone change, and the offer to each example's cell.
 */
export const FOLLOWS_DEFAULT_CURRENCY: Readonly<Record<string, 'answer' | 'header' | 'range header'>> = {
  PRICE: 'answer', DATA: 'answer', QUOTE: 'answer', MARKETS: 'answer', PROFILE: 'answer', HISTORICAL: 'answer', LIVEPRICE: 'answer', COIN: 'answer',
  OHLCV: 'header', RETURNS: 'header', SPARKLINE: 'header', TVL: 'header',
  // USD by the spec, labelled "(USD)" since review-r3 #1 (usd-money.ts): the movers' and ALTSEASON's and
  // BLOCKCHAINS' header rows, and the Field column of GLOBAL's, DERIVATIVES' and BLOCKCHAIN's tables.
  TRENDING: 'header', GAINERS: 'header', LOSERS: 'header', ALTSEASON: 'range header', BLOCKCHAINS: 'header',
  GLOBAL: 'header', DERIVATIVES: 'header', BLOCKCHAIN: 'header',
};

/** Where a formula takes the parameter of that name (functions.json); -1 where it takes none. */
export type ParamIndex = (formula: string, param: 'currency' | 'headers' | 'field' | 'start' | 'end') => number;

/** An argument typed as a constant (blank, TRUE/FALSE, a number, "text") as a formula receives it; null for a reference or an expression. */
function constantArg(text: string): { value: unknown } | null {
  const t = text.trim();
  if (t === '') return { value: null };
  if (/^(TRUE|FALSE)$/i.test(t)) return { value: t.toUpperCase() === 'TRUE' };
  if (/^[+-]?(\d+\.?\d*|\.\d+)(E[+-]?\d+)?$/i.test(t)) return { value: Number(t) };
  const quoted = /^"((?:[^"]|"")*)"$/.exec(t);
  return quoted ? { value: quoted[1].replace(/""/g, '"') } : null;
}

/**
 * Whether a call shows its header row: read by the formulas' own headersArg
 * (default shown). A reference or expression may show it; a value headersArg
 * refuses is a #VALUE! cell, with no header to change.
 */
function showsHeaders(args: readonly string[], index: number): boolean {
  if (index < 0 || args[index] === undefined) return true;
  const given = constantArg(args[index]);
  if (given === null) return true;
  try {
    return headersArg(given.value as Arg);
  } catch {
    return false;
  }
}


/**
 * Whether a call shows money labels at all: its header row (showsHeaders), and,
 * for a Field/Value function (GLOBAL, DERIVATIVES, BLOCKCHAIN), its Field column,
 * which one field asked alone (=GLOBAL("totalMarketCap")) does not show: that
 * answer is the value only. "all", blank or a reference may show the table.
 */
function showsLabels(args: readonly string[], name: string, param: ParamIndex): boolean {
  if (!showsHeaders(args, param(name, 'headers'))) return false;
  if (FOLLOWS_DEFAULT_CURRENCY[name] === 'range header' && !(['start', 'end'] as const).some((p) => isGiven(args, param(name, p)))) return false;
  const i = param(name, 'field');
  if (i < 0 || args[i] === undefined) return true;
  const given = constantArg(args[i]);
  if (given === null || given.value === null) return true;
  return typeof given.value === 'string' && ['', 'all'].includes(given.value.trim().toLowerCase());
}

/** Whether the argument at `index` is given: typed (not blank), or a reference or expression that may hold a value. */
function isGiven(args: readonly string[], index: number): boolean {
  if (index < 0 || args[index] === undefined) return false;
  const a = constantArg(args[index]);
  return a === null || a.value !== null;
}

/**
 * What a change of the default currency from `from` to `to` changes in a cell:
 * 'answer' when one of its calls takes the default currency (its currency
 * argument omitted), else 'header' when one of its calls shows money headers
 * that read otherwise under `to` (USD to EUR, not EUR to EUR), else null.
 * An OHLCV whose fields name no money column counts too (a refresh that
 * changes nothing): which fields are money is history.ts's OHLCV_USD_FIELDS,
 * not exported.
 */
export function defaultCurrencyChange(formula: string, param: ParamIndex, from: ConvertCurrency, to: ConvertCurrency): 'answer' | 'header' | null {
  const calls = cryptoCalls(formula);
  const answer = calls.some((c) => {
    if (FOLLOWS_DEFAULT_CURRENCY[c.name] !== 'answer') return false;
    const i = param(c.name, 'currency');
    return i >= 0 && (c.args[i] === undefined || c.args[i] === '');
  });
  if (answer) return 'answer';
  const relabelled = usdHeader('', { defaultCurrency: from }) !== usdHeader('', { defaultCurrency: to });
  const header = relabelled && calls.some((c) => ['header', 'range header'].includes(FOLLOWS_DEFAULT_CURRENCY[c.name]) && showsLabels(c.args, c.name, param));
  return header ? 'header' : null;
}

/** Formulas whose cells share the currency map and the markets pages: one page answers a page size of coins' quotes (250). */
const SHARES_PAGES = new Set(['PRICE', 'DATA', 'QUOTE', 'COIN', 'LIVEPRICE']);

/**
 * A workbook's saved refresh spend as a measurement, else null: only a positive, finite number counts. A 0 is no
 * proof a refresh is free: a refresh whose answers came late, or one served from a cache this freshly started
 * runtime need not have, was saved as 0, and taken at its word it let the refresh on open past a spent budget
 * (every saved value became "Daily credit budget reached", review 2026-11-27, office #2) and a key save refresh
 * thousands of cells unasked (review 2026-11-27: cellRefreshEstimate trusted a saved 0).
 */
export function measuredCredits(saved: number | null | undefined): number | null {
  return typeof saved === 'number' && Number.isFinite(saved) && saved > 0 ? saved : null;
}

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
  if (shared === 0) return other;
  const pages = Math.ceil(shared / ENDPOINTS.markets.pageSize);
  return creditCost('currencyMap', {}) + pages * creditCost('markets', {}) + other;
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
