/**
 * The offer after a new default currency: which CRYPTO cells still show the
 * old one (their answer, or only their money headers), and what refreshing
 * them costs. Pure.
 */
import type { ConvertCurrency } from '../api/endpoints';
import { usdHeader } from '../formulas/usd-money';
import { defaultCurrencyChange, unmeasuredCredits, type ParamIndex } from './formula-calls';
import { formatInt } from './format';

/** How many cells each list names before "and N more". */
const NAMED_CELLS = 8;

interface FormulaCell {
  sheet: string;
  address: string;
  formula: string;
}

export interface CurrencyOffer<C extends FormulaCell> {
  /** The cells to enter again: those whose answer, or header row, changes. */
  cells: C[];
  /** About how many credits refreshing them spends. */
  credits: number;
  text: string;
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

function named(cells: readonly FormulaCell[]): string {
  const more = cells.length > NAMED_CELLS ? ` and ${cells.length - NAMED_CELLS} more` : '';
  return cells.slice(0, NAMED_CELLS).map((c) => `${c.sheet}!${c.address}`).join(', ') + more;
}

/**
 * The cells a change of the default currency from `from` to `to` leaves
 * showing `from`, and the offer's words; null when there are none. Refreshing
 * costs credits, the header-only cells' too: new settings build a new client
 * whose cache starts empty (office/runtime.ts applySettings), so every cell
 * entered again fetches its data again. The estimate is the one a workbook's
 * first refresh on open uses (unmeasuredCredits: prices share pages; a
 * history, a credit a coin), over the cells' distinct formulas.
 */
export function currencyOffer<C extends FormulaCell>(cells: readonly C[], param: ParamIndex, from: ConvertCurrency, to: ConvertCurrency): CurrencyOffer<C> | null {
  const answers: C[] = [];
  const headers: C[] = [];
  for (const c of cells) {
    const change = defaultCurrencyChange(c.formula, param, from, to);
    if (change === 'answer') answers.push(c);
    else if (change === 'header') headers.push(c);
  }
  const all = [...answers, ...headers];
  if (all.length === 0) return null;
  const credits = unmeasuredCredits([...new Set(all.map((c) => c.formula))]);
  const words: string[] = [];
  if (answers.length > 0) {
    const n = answers.length;
    words.push(`${n} CRYPTO ${plural(n, 'cell uses', 'cells use')} the default currency and still ${plural(n, 'shows', 'show')} ${from}: ${named(answers)}.`);
  }
  if (headers.length > 0) {
    const n = headers.length;
    const heading = (c: ConvertCurrency) => `"${usdHeader('Close', { defaultCurrency: c })}"`;
    words.push(
      `${n} CRYPTO ${plural(n, 'table still has', 'tables still have')} the headers of a ${from} workbook (${heading(from)}; with ${to}, ${heading(to)}), ` +
        `${plural(n, 'its', 'their')} USD numbers unchanged: ${named(headers)}.`,
    );
  }
  const them = plural(all.length, 'it', 'them');
  words.push(
    `Refresh ${them}${answers.length > 0 ? ` to show ${to}` : ''}? ` +
      `That fetches ${them} again: about ${formatInt(credits)} ${plural(credits, 'credit', 'credits')} (estimated from ${plural(all.length, 'its formula', 'their formulas')}).`,
  );
  return { cells: all, credits, text: words.join(' ') };
}
