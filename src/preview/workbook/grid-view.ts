/**
 * The grid and formula bar: click a cell, type into the formula bar (or just
 * start typing on the cell), Enter commits and moves down, Escape reverts,
 * arrow keys move. Cells are role=gridcell named by their address ("B3");
 * an error shows its code, and its message on hover.
 */
import { isErrorValue } from '../runtime/values';
import { columnName, parseAddress, toAddress, type Position } from './address';
import { displayText, looksLikeDateHeading, returnsDate, type NumberFormat } from './format';
import type { Sheet } from './sheet';

const MIN_ROWS = 30;
const MIN_COLS = 10;

export class GridView {
  private active: Position = { row: 1, col: 1 };
  private rows = 0;
  private cols = 0;
  private readonly cells = new Map<string, HTMLTableCellElement>();
  private cell(address: string): HTMLTableCellElement | undefined {
    let td = this.cells.get(address);
    if (!td) {
      td = (this.table.querySelector(`#cell-${address}`) as HTMLTableCellElement | null) ?? undefined;
      if (td) this.cells.set(address, td);
    }
    return td;
  }
  /** What each cell shows now, so a recalculation touches only the cells that changed. */
  private readonly shown = new Map<string, string>();
  formats: Record<string, NumberFormat> = {};

  constructor(
    private readonly sheet: Sheet,
    private readonly table: HTMLTableElement,
    private readonly bar: HTMLInputElement,
    private readonly nameBox: HTMLElement,
  ) {
    sheet.addEventListener('change', () => this.render());
    table.addEventListener('mousedown', (e) => {
      const td = (e.target as HTMLElement).closest('td');
      if (td?.dataset.address) {
        e.preventDefault();
        this.select(parseAddress(td.dataset.address)!);
      }
    });
    table.addEventListener('dblclick', () => this.bar.focus());
    table.addEventListener('keydown', (e) => this.onGridKey(e));
    bar.addEventListener('keydown', (e) => this.onBarKey(e));
    this.render();
    this.select(this.active, false);
  }

  get activeAddress(): string {
    return toAddress(this.active);
  }

  select(p: Position, focus = true): void {
    this.cell(this.activeAddress)?.setAttribute('aria-selected', 'false');
    this.active = { row: Math.max(1, p.row), col: Math.max(1, p.col) };
    this.ensureSize(this.active.row, this.active.col);
    const td = this.cell(this.activeAddress)!;
    td.setAttribute('aria-selected', 'true');
    this.table.setAttribute('aria-activedescendant', td.id);
    this.nameBox.textContent = this.activeAddress;
    this.bar.value = this.sheet.input(this.activeAddress);
    if (focus) {
      this.table.focus({ preventScroll: true });
      td.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }

  commit(): void {
    const address = this.activeAddress;
    if (this.bar.value !== this.sheet.input(address) || this.bar.value.startsWith('=')) this.sheet.setInput(address, this.bar.value);
  }

  private onBarKey(e: KeyboardEvent): void {
    if (e.key === 'Enter') {
      e.preventDefault();
      this.commit();
      this.select({ row: this.active.row + (e.shiftKey ? -1 : 1), col: this.active.col });
    } else if (e.key === 'Tab') {
      e.preventDefault();
      this.commit();
      this.select({ row: this.active.row, col: this.active.col + (e.shiftKey ? -1 : 1) });
    } else if (e.key === 'Escape') {
      this.bar.value = this.sheet.input(this.activeAddress);
      this.select(this.active);
    }
  }

  private onGridKey(e: KeyboardEvent): void {
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Enter: [1, 0], Tab: [0, 1] };
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      this.select({ row: this.active.row + m[0], col: this.active.col + m[1] });
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      this.sheet.setInput(this.activeAddress, '');
      this.bar.value = '';
    } else if (e.key === 'F2') {
      e.preventDefault();
      this.bar.focus();
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // Typing on a cell starts a new entry, as in Excel.
      e.preventDefault();
      this.bar.value = e.key;
      this.bar.focus();
    }
  }

  private formatOf(address: string): NumberFormat {
    const explicit = this.formats[address];
    if (explicit) return explicit;
    const anchor = this.sheet.spilledFrom(address);
    if (anchor) {
      const p = parseAddress(address)!;
      const a = parseAddress(anchor)!;
      if (p.row > a.row && looksLikeDateHeading(this.sheet.value(toAddress({ row: a.row, col: p.col })))) return 'date';
      return 'general';
    }
    return returnsDate(this.sheet.input(address)) ? 'date' : 'general';
  }

  private ensureSize(row: number, col: number): void {
    const rows = Math.max(MIN_ROWS, row + 5, this.rows);
    const cols = Math.max(MIN_COLS, col + 2, this.cols);
    if (rows === this.rows && cols === this.cols) return;
    if (cols !== this.cols) {
      const head = this.table.tHead ?? this.table.createTHead();
      const tr = document.createElement('tr');
      const corner = document.createElement('th');
      corner.className = 'corner';
      tr.append(corner);
      for (let c = 1; c <= cols; c++) {
        const th = document.createElement('th');
        th.scope = 'col';
        th.textContent = columnName(c);
        tr.append(th);
      }
      head.replaceChildren(tr);
    }
    // Markup rather than one element at a time: a pasted column of 10,000 formulas adds 100,000 cells.
    const td = (r: number, c: number) => {
      const a = toAddress({ row: r, col: c });
      return `<td role="gridcell" aria-label="${a}" aria-selected="false" id="cell-${a}" data-address="${a}"></td>`;
    };
    const body = this.table.tBodies[0] ?? this.table.createTBody();
    for (let r = 1; r <= Math.min(this.rows, rows); r++) {
      const tr = body.rows[r - 1];
      let html = '';
      for (let c = tr.cells.length; c <= cols; c++) html += td(r, c);
      if (html) tr.insertAdjacentHTML('beforeend', html);
    }
    let html = '';
    for (let r = this.rows + 1; r <= rows; r++) {
      html += `<tr><th scope="row">${r}</th>`;
      for (let c = 1; c <= cols; c++) html += td(r, c);
      html += '</tr>';
    }
    if (html) body.insertAdjacentHTML('beforeend', html);
    this.rows = rows;
    this.cols = cols;
  }

  render(): void {
    const b = this.sheet.bounds();
    this.ensureSize(b.row, b.col);
    const now = new Set(this.sheet.addresses());
    for (const a of this.shown.keys()) if (!now.has(a)) now.add(a);
    for (const address of now) {
      const td = this.cell(address);
      if (!td) continue;
      const v = this.sheet.value(address);
      const err = isErrorValue(v) ? v : null;
      const text = displayText(v, this.formatOf(address));
      const title = err ? (err.message ? `${err.error} ${err.message}` : err.error) : '';
      const key = `${text}\u0000${title}\u0000${this.sheet.spilledFrom(address) ?? ''}`;
      if (this.shown.get(address) === key) continue;
      if (text === '' && !title && !this.sheet.input(address)) this.shown.delete(address);
      else this.shown.set(address, key);
      td.textContent = text;
      td.classList.toggle('error', Boolean(err));
      td.classList.toggle('num', typeof v === 'number');
      td.classList.toggle('spilled', Boolean(this.sheet.spilledFrom(address)));
      if (title) td.title = title;
      else td.removeAttribute('title');
    }
    if (document.activeElement !== this.bar) this.bar.value = this.sheet.input(this.activeAddress);
  }
}
