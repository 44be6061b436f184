/**
 * The pane's recent errors in words, not codes, and which of them are gone:
 * a key problem once a key was saved after it, a spent budget once the UTC
 * day turned, an outage once the same formula answered again. The cell's own
 * message says the rest. Pure.
 */
import { startOfUtcDay } from '../api/utc-day';
import { CELL_WORDS, errorRule, type ErrorRule, type ExcelErrorCode } from '../client/error-rules';
import type { ErrorLogEntry } from '../formulas/host';

/**
 * A logged code's words and what makes it go: its row of ERROR_RULES (the `words` and `gone`
 * columns); a table's cell error, logged by its Excel error alone, by that error.
 */
function wordsOf(code: string): Pick<ErrorRule, 'words' | 'gone'> {
  return Object.hasOwn(CELL_WORDS, code) ? { words: CELL_WORDS[code as ExcelErrorCode], gone: null } : errorRule(code);
}

export function errorWords(code: string): string {
  return wordsOf(code).words;
}

export interface ErrorContext {
  /** When a key was last saved (epoch ms), or null. */
  keySavedAt: number | null;
  now: number;
  /** When this formula last answered with fresh data, or null. */
  lastSuccess(formula: string): number | null;
}

/** The entries whose cause is not known to be gone. */
export function currentErrors(list: readonly ErrorLogEntry[], ctx: ErrorContext): ErrorLogEntry[] {
  const today = startOfUtcDay(ctx.now);
  return list.filter((e) => {
    switch (wordsOf(e.code).gone) {
      case 'key':
        return ctx.keySavedAt === null || e.time > ctx.keySavedAt;
      case 'day':
        return e.time >= today;
      case 'success': {
        const ok = ctx.lastSuccess(e.formula);
        return ok === null || ok < e.time;
      }
      default:
        return true;
    }
  });
}
