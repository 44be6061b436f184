/**
 * Many formulas evaluated as one recalculation: all started at once, as Excel
 * hands a sheet's formulas to the runtime, so identical requests are shared
 * and quotes batched across them. Each formula's outcome comes back in the
 * order given, in the single-formula shape; text that is not a formula is
 * {"error": "#PARSE!"} in its place.
 */
import { calculateCell, type Outcome, type ParseOutcome } from './calculate';
import type { CalculationHost } from '../formulas/host';

export type RecalcOutcome = Outcome | ParseOutcome;

export interface RecalcOptions {
  /** Told as each formula settles: its index, outcome and ms since the recalculation started. */
  onSettled?: (index: number, outcome: RecalcOutcome, ms: number) => void;
  /** The clock TODAY() and NOW() read (epoch ms), once for the whole recalculation; default the system clock. */
  now?: () => number;
}

export function recalculate(host: CalculationHost, texts: readonly string[], opts: RecalcOptions = {}): Promise<RecalcOutcome[]> {
  const t0 = performance.now();
  const { onSettled } = opts;
  // Every formula's NOW() is the same instant, as in one Excel recalculation (calculate.ts).
  const at = (opts.now ?? Date.now)();
  const calc = { now: () => at };
  // One promise per formula unless told as each settles: a sheet of 10,000 cells waits here at once.
  if (!onSettled) return Promise.all(texts.map((text) => calculateCell(host, text, calc)));
  return Promise.all(
    texts.map((text, i) =>
      calculateCell(host, text, calc).then((o) => {
        onSettled(i, o, performance.now() - t0);
        return o;
      }),
    ),
  );
}

/** The formulas of a file: one per non-empty line (surrounding blanks ignored). */
export function formulaLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
}
