/**
 * The formula builder's DOM pieces: a field for each argument (formula-builder.ts
 * says which), the cost line, and the first rows of a previewed result.
 */
import { CellError, DateCell, FormattedCell, fromSerial, type FormulaResult } from '../formulas/cells';
import { el } from './dom';
import type { Field } from './formula-builder';
import { creditsPhrase } from '../client';
import { formatInt } from './format';

const RESULT_ROWS = 6;
const RESULT_COLS = 4;

export function costText(credits: number, exact: boolean, lines: string[], planNote: string): string {
  if (credits === 0) return `Costs no credits.${planNote}`;
  return `Costs ${creditsPhrase(credits, formatInt)}${exact ? '' : ' or more'} when fetched (${lines.join('; ')}); an answer fetched recently is reused for free.${planNote}`;
}

export function fieldElement(f: Field): HTMLElement {
  const wrap = document.createElement('div');
  wrap.className = 'field';
  const id = `bf-${f.name}`;
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = f.kind === 'coins' ? 'Other coins' : `${f.label}${f.required ? '' : ' (optional)'}`;
  let control: HTMLInputElement | HTMLSelectElement;
  if (f.choices.length > 0) {
    const select = document.createElement('select');
    select.className = 'input';
    if (f.kind === 'multi') {
      select.multiple = true;
      select.size = Math.min(6, f.choices.length);
    } else if (!f.required) {
      const none = document.createElement('option');
      none.value = '';
      none.textContent = '(default)';
      select.append(none);
    }
    for (const c of f.choices) {
      const o = document.createElement('option');
      o.value = c.value;
      o.textContent = c.label;
      select.append(o);
    }
    control = select;
  } else {
    const input = document.createElement('input');
    input.className = 'input';
    input.type = 'text';
    input.spellcheck = false;
    input.autocomplete = 'off';
    if (f.kind === 'number') input.inputMode = 'decimal';
    input.placeholder = f.kind === 'coins' ? 'bitcoin, ethereum' : f.example ? `e.g. ${f.example}` : '';
    control = input;
  }
  control.id = id;
  control.setAttribute('aria-describedby', `${id}-hint ${id}-error`);
  // Required is said here and by "(optional)" on the others; "is required" shows as an error only once the field was touched.
  if (f.required && f.kind !== 'coins') control.setAttribute('aria-required', 'true');
  const hint = document.createElement('p');
  hint.className = 'hint';
  hint.id = `${id}-hint`;
  hint.textContent = f.kind === 'coins' ? 'More coins after the one above, by slug, comma-separated.' : f.hint;
  const err = document.createElement('p');
  err.className = 'field-error';
  err.id = `${id}-error`;
  wrap.append(label, control, hint, err);
  return wrap;
}

/** A cell of the result as the grid would show it, in short. */
function cellText(c: unknown): string {
  if (c instanceof CellError) return `${c.error} ${c.message}`;
  if (c instanceof DateCell) return new Date(fromSerial(c.serial)).toISOString().slice(0, c.numberFormat.includes('h') ? 16 : 10).replace('T', ' ');
  if (c instanceof FormattedCell) return String(c.value);
  if (typeof c === 'number') return Number.isInteger(c) ? String(c) : String(Number(c.toPrecision(10)));
  return String(c ?? '');
}

export function renderResult(result: FormulaResult): void {
  const grid = Array.isArray(result) ? result : [[result]];
  const rows = grid.slice(0, RESULT_ROWS).map((row, i) => {
    const tr = document.createElement('tr');
    for (const c of row.slice(0, RESULT_COLS)) {
      const td = document.createElement(i === 0 && grid.length > 1 && typeof row[0] === 'string' ? 'th' : 'td');
      td.textContent = cellText(c);
      tr.append(td);
    }
    return tr;
  });
  el('builder-result-rows').replaceChildren(...rows);
  el('builder-result-wrap').hidden = false;
}
