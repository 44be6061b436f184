/**
 * Text to and from the clipboard as Excel reads and writes it: one line a
 * row, tab-separated cells (a column of coin names pastes one name a cell).
 * Filling copies a formula with its relative references moved, through
 * @borgar/fx's R1C1 translation (`=B4*C4` filled down one row is `=B5*C5`).
 */
import { translateFormulaToA1, translateFormulaToR1C1 } from '@borgar/fx';
import { toAddress, type Position } from './address';

/** Pasted text as rows of cells; the line break after the last row is not another row. */
export function pastedCells(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => l.split('\t'));
}

/** The inputs a paste at `at` writes: one cell per value, down and right. */
export function pasteInputs(text: string, at: Position): Record<string, string> {
  const out: Record<string, string> = {};
  pastedCells(text).forEach((row, i) => row.forEach((v, j) => (out[toAddress({ row: at.row + i, col: at.col + j })] = v)));
  return out;
}

/** A cell's input moved from one cell to another: a formula's relative references follow; anything else is copied. */
export function movedInput(input: string, from: string, to: string): string {
  if (!input.startsWith('=') || input.length < 2) return input;
  try {
    return translateFormulaToA1(translateFormulaToR1C1(input, from), to);
  } catch {
    return input;
  }
}

/** Rows of text as the clipboard carries them. */
export function copiedText(rows: string[][]): string {
  return rows.map((r) => r.join('\t')).join('\n');
}
