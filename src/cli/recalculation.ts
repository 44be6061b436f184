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
  return Promise.all(
    texts.map((text, i) =>
      calculate(host, text)
        .catch((e: unknown): RecalcOutcome => {
          if (e instanceof FormulaSyntaxError) return { error: '#PARSE!', message: e.message };
          throw e;
        })
        .then((o) => {
          opts.onSettled?.(i, o, performance.now() - t0);
          return o;
        }),
    ),
  );
}

/** The formulas of a file: one per non-empty line (surrounding blanks ignored). */
export function formulaLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
}
