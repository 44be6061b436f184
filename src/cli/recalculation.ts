/**
 * Many formulas evaluated as one recalculation: all started at once, as Excel
 * hands a sheet's formulas to the runtime, so identical requests are shared
 * and quotes batched across them. Each formula's outcome comes back in the
 * order given, in the single-formula shape; text that is not a formula is
 * {"error": "#PARSE!"} in its place.
 */
import { calculate, type Outcome } from './calculate';
import { FormulaSyntaxError } from './formula-parser';
import type { CalculationHost } from '../formulas/host';

export type RecalcOutcome = Outcome | { error: '#PARSE!'; message: string };

export interface RecalcOptions {
  /** Told as each formula settles: its index, outcome and ms since the recalculation started. */
  onSettled?: (index: number, outcome: RecalcOutcome, ms: number) => void;
}

export function recalculate(host: CalculationHost, texts: readonly string[], opts: RecalcOptions = {}): Promise<RecalcOutcome[]> {
  const t0 = performance.now();
  const { onSettled } = opts;
  // One then() per formula, not a catch() and a then(): a sheet of 10,000 cells waits here at once.
  return Promise.all(
    texts.map((text, i) =>
      calculate(host, text).then(
        onSettled
          ? (o) => {
              onSettled(i, o, performance.now() - t0);
              return o;
            }
          : undefined,
        (e: unknown): RecalcOutcome => {
          const o = parseFailure(e);
          onSettled?.(i, o, performance.now() - t0);
          return o;
        },
      ),
    ),
  );
}

/** A formula that is not a formula: its #PARSE! outcome (anything else is a bug, and rejects). */
function parseFailure(e: unknown): RecalcOutcome {
  if (e instanceof FormulaSyntaxError) return { error: '#PARSE!', message: e.message };
  throw e;
}

/** The formulas of a file: one per non-empty line (surrounding blanks ignored). */
export function formulaLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
}
