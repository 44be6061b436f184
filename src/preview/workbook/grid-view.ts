/**
 * The grid and formula bar: click a cell, type into the formula bar (or just
 * start typing on the cell), Enter commits and moves down, Escape reverts,
 * arrow keys move. Cells are role=gridcell named by their address ("B3");
 * an error shows its code, and its message on hover. Only the rows in view
 * (and a margin) are in the page, between two spacer rows: laying out a table
 * of every cell of a 10,000-row paste cost seconds at every recalculation.
 */
import { isErrorValue } from '../runtime/values';
import { columnName, parseAddress, toAddress, type Position } from './address';
import { displayText, looksLikeDateHeading, returnsDate, type NumberFormat } from './format';
import type { Sheet } from './sheet';

const MIN_ROWS = 30;
const MIN_COLS = 10;
/** Every row is this tall (CSS in index.html fixes it), so scroll position maps to rows. */
export const ROW_PX = 22;
const MARGIN_ROWS = 20;

export class GridView {
  private active: Position = { row: 1, col: 1 };
  private rows = 0;
  private cols = 0;
  /** The rows in the page now. */
  private first = 0;
  private last = -1;
  private readonly cells = new Map<string, HTMLTableCellElement>();
  /** What each cell in the page shows now, so a recalculation touches only the cells that changed. */
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
    this.scroller.addEventListener('scroll', () => this.render(), { passive: true });
    this.render();
    this.select(this.active, false);
  }

  private get scroller(): HTMLElement {
    return (this.table.parentElement as HTMLElement | null) ?? document.body;
  }

  private cell(address: string): HTMLTableCellElement | undefined {
    return this.cells.get(address);
  }

  get activeAddress(): string {
    return toAddress(this.active);
  }

  select(p: Position, focus = true): void {
    this.cell(this.activeAddress)?.setAttribute('aria-selected', 'false');
    this.active = { row: Math.max(1, p.row), col: Math.max(1, p.col) };
    this.scrollToRow(this.active.row);
    this.render();
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

  private scrollToRow(row: number): void {
    const el = this.scroller;
    const head = this.table.tHead?.offsetHeight ?? ROW_PX;
    const top = (row - 1) * ROW_PX;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_PX + head > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_PX + head - el.clientHeight;
  }

  private header(cols: number): void {
    const head = this.table.tHead ?? this.table.createTHead();
    let html = '<tr><th class="corner"></th>';
    for (let c = 1; c <= cols; c++) html += `<th scope="col">${columnName(c)}</th>`;
    head.innerHTML = `${html}</tr>`;
  }

  /** Rebuilds the rows in the page when the sheet's size or the rows in view changed. */
  private layout(): void {
    const b = this.sheet.bounds();
    const rows = Math.max(MIN_ROWS, b.row + 5, this.active.row + 5);
    const cols = Math.max(MIN_COLS, b.col + 2, this.active.col + 2);
    const el = this.scroller;
    const first = Math.max(1, Math.floor(el.scrollTop / ROW_PX) - MARGIN_ROWS);
    const last = Math.min(rows, Math.ceil((el.scrollTop + Math.max(el.clientHeight, 600)) / ROW_PX) + MARGIN_ROWS);
    if (cols !== this.cols) this.header(cols);
    this.table.setAttribute('aria-rowcount', String(rows + 1));
    this.table.setAttribute('aria-colcount', String(cols + 1));
    if (rows === this.rows && cols === this.cols && first === this.first && last === this.last) return;
    const span = cols + 1;
    const spacer = (n: number) => (n > 0 ? `<tr aria-hidden="true" class="spacer"><td colspan="${span}" style="height:${n * ROW_PX}px"></td></tr>` : '');
    let html = spacer(first - 1);
    for (let r = first; r <= last; r++) {
      html += `<tr aria-rowindex="${r + 1}"><th scope="row">${r}</th>`;
      for (let c = 1; c <= cols; c++) {
        const a = toAddress({ row: r, col: c });
        html += `<td role="gridcell" aria-label="${a}" aria-selected="${a === this.activeAddress}" id="cell-${a}" data-address="${a}"></td>`;
      }
      html += '</tr>';
    }
    html += spacer(rows - last);
    const body = this.table.tBodies[0] ?? this.table.createTBody();
    body.innerHTML = html;
    this.cells.clear();
    this.shown.clear();
    for (const td of body.querySelectorAll<HTMLTableCellElement>('td[data-address]')) this.cells.set(td.dataset.address!, td);
    Object.assign(this, { rows, cols, first, last });
  }

  render(): void {
    this.layout();
    for (const [address, td] of this.cells) {
      const v = this.sheet.value(address);
      const err = isErrorValue(v) ? v : null;
      const text = displayText(v, this.formatOf(address));
      const title = err ? (err.message ? `${err.error} ${err.message}` : err.error) : '';
      const spilled = Boolean(this.sheet.spilledFrom(address));
      const key = `${text}\u0000${title}\u0000${spilled}`;
      if ((this.shown.get(address) ?? '\u0000\u0000false') === key) continue;
      this.shown.set(address, key);
      td.textContent = text;
      td.classList.toggle('error', Boolean(err));
      td.classList.toggle('num', typeof v === 'number');
      td.classList.toggle('spilled', spilled);
      if (title) td.title = title;
      else td.removeAttribute('title');
    }
    if (document.activeElement !== this.bar) this.bar.value = this.sheet.input(this.activeAddress);
  }
}
