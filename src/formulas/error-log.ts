/**
 * The recent errors the task pane lists (usage-section.ts): one entry per
 * failed evaluation, and one per result that holds a cell error (the first
 * such cell explains it); the newest ERROR_LOG_SIZE are kept.
 */
import { CellError, type FormulaError, type FormulaResult, type Grid } from './cells';

export interface ErrorLogEntry {
  time: number;
  formula: string;
  code: string;
  message: string;
}

/** Enough for the pane's list (it shows 20) without growing with the workbook. */
export const ERROR_LOG_SIZE = 50;

export class ErrorLog {
  readonly #entries: ErrorLogEntry[] = [];
  readonly #now: () => number;
  readonly #added: () => void;

  /** `added`: told after each entry (the host tells the pane). */
  constructor(now: () => number, added: () => void) {
    this.#now = now;
    this.#added = added;
  }

  /** A formula failed; `servedLastGood`: its last good value stood in. */
  failed(formula: string, err: FormulaError, servedLastGood: boolean): void {
    this.#push({
      time: this.#now(),
      formula,
      code: err.apiCode ?? err.code,
      message: servedLastGood ? `${err.message} (showing the last good value)` : err.message,
    });
  }

  /** A result that holds a cell error: one entry for the first, enough to explain it. */
  cellErrors(formula: string, result: FormulaResult): void {
    if (!Array.isArray(result)) return;
    for (const row of result as Grid) {
      for (const cell of row) {
        if (cell instanceof CellError) {
          this.#push({ time: this.#now(), formula, code: cell.error, message: cell.message });
          return;
        }
      }
    }
  }

  /** Newest first. */
  newestFirst(): readonly ErrorLogEntry[] {
    return [...this.#entries].reverse();
  }

  #push(entry: ErrorLogEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > ERROR_LOG_SIZE) this.#entries.shift();
    this.#added();
  }
}
