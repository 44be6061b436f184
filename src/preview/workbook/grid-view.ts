/**
 * The grid and formula bar: click a cell (Shift+click or Shift+arrows select
 * a range), type into the formula bar (or just start typing on the cell),
 * Enter commits and moves down, Escape reverts, arrow keys move, Ctrl+arrows
 * jump to the edge of the data, Ctrl+D and Ctrl+R fill down and right, paste
 * puts one value a cell. Cells are role=gridcell named by their address
 * ("B3"); an error shows its code, and its message on hover and, for the
 * active cell, in the status bar. Only the rows in view (and a margin) are in
 * the page, between two spacer rows: laying out a table of every cell of a
 * 10,000-row paste cost seconds at every recalculation.
 */
import { errorMessage, isEntityValue, isErrorValue, isFormattedNumber } from '../../engine/values';
import { columnName, parseAddress, toAddress, type Position } from './address';
import { copiedText, movedInput, pasteInputs } from './clipboard';
import { CardPopup } from './entity-card';
import { automaticFormat, displayText, formatCode, type NumberFormat } from './format';
import { Selection } from './selection';
import type { Sheet } from './sheet';

const MIN_ROWS = 30;
/** A to Z are always drawn; the grid grows to the right with the data, its spills and the active cell. */
const MIN_COLS = 26;
/** Excel's 1,048,576 rows; 702 columns (A to ZZ) where Excel has 16,384: every column is drawn, so the far ones cost layout. */
export const MAX_ROW = 1_048_576;
export const MAX_COL = 702;
/** Every row is this tall (CSS in index.html fixes it), so scroll position maps to rows. */
export const ROW_PX = 22;
const MARGIN_ROWS = 20;

export interface GridElements {
  table: HTMLTableElement;
  bar: HTMLInputElement;
  nameBox: HTMLElement;
  /** The status bar's part that shows the active cell's error message. */
  message?: HTMLElement;
}

export class GridView {
  readonly selection = new Selection();
  private rows = 0;
  private cols = 0;
  /** The rows in the page now. */
  private first = 0;
  private last = -1;
  private readonly cells = new Map<string, HTMLTableCellElement>();
  /** What each cell in the page shows now, so a recalculation touches only the cells that changed. */
  private readonly shown = new Map<string, string>();
  private readonly table: HTMLTableElement;
  private readonly bar: HTMLInputElement;
  private readonly nameBox: HTMLElement;
  private readonly message: HTMLElement | undefined;
  /** Formats set on cells (a template, the format buttons): a name or an Excel format code. */
  formats: Record<string, NumberFormat | string> = {};
  private dragging = false;
  /** The card of a data-type cell (an entity), opened by clicking the cell or Ctrl+Shift+F5. */
  readonly card = new CardPopup();

  constructor(
    private readonly sheet: Sheet,
    tableOrElements: HTMLTableElement | GridElements,
    bar?: HTMLInputElement,
    nameBox?: HTMLElement,
  ) {
    const els: GridElements = tableOrElements instanceof HTMLTableElement ? { table: tableOrElements, bar: bar!, nameBox: nameBox! } : tableOrElements;
    this.table = els.table;
    this.bar = els.bar;
    this.nameBox = els.nameBox;
    this.message = els.message;
    sheet.addEventListener('change', () => this.render());
    this.table.addEventListener('mousedown', (e) => {
      const td = (e.target as HTMLElement).closest('td');
      if (td?.dataset.address) {
        e.preventDefault();
        this.dragging = true;
        this.select(parseAddress(td.dataset.address)!, true, e.shiftKey);
      }
    });
    this.table.addEventListener('mouseover', (e) => {
      const td = (e.target as HTMLElement).closest('td');
      if (this.dragging && td?.dataset.address) this.select(parseAddress(td.dataset.address)!, true, true);
    });
    document.addEventListener('mouseup', () => (this.dragging = false));
    this.table.addEventListener('click', (e) => {
      const td = (e.target as HTMLElement).closest('td');
      if (td?.dataset.address && !e.shiftKey) this.showCard(td.dataset.address);
    });
    this.table.addEventListener('dblclick', () => this.bar.focus());
    this.table.addEventListener('keydown', (e) => this.onGridKey(e));
    this.table.addEventListener('paste', (e) => this.onPaste(e));
    this.table.addEventListener('copy', (e) => this.onCopy(e));
    this.bar.addEventListener('keydown', (e) => this.onBarKey(e));
    this.scroller.addEventListener('scroll', () => this.render(), { passive: true });
    this.render();
    this.select(this.selection.active, false);
  }

  /** Opens the card of the entity in `address`, if it holds one (Excel: the cell's icon, or Ctrl+Shift+F5). */
  showCard(address: string): boolean {
    const v = this.sheet.value(address);
    const td = this.cell(address);
    if (!isEntityValue(v) || !td) return false;
    this.card.show(v, address, td, this.sheet.dateSystem);
    return true;
  }

  private get scroller(): HTMLElement {
    return (this.table.parentElement as HTMLElement | null) ?? document.body;
  }

  private cell(address: string): HTMLTableCellElement | undefined {
    return this.cells.get(address);
  }

  get activeAddress(): string {
    return toAddress(this.selection.active);
  }

  /** Make `p` the active cell; `extend` keeps the anchor, selecting the range between. */
  select(p: Position, focus = true, extend = false): void {
    this.selection.set({ row: Math.min(MAX_ROW, p.row), col: Math.min(MAX_COL, p.col) }, extend);
    this.scrollToRow(this.selection.active.row);
    this.render();
    this.markSelection();
    const td = this.cell(this.activeAddress)!;
    this.table.setAttribute('aria-activedescendant', td.id);
    this.nameBox.textContent = this.activeAddress;
    this.bar.value = this.sheet.input(this.activeAddress);
    this.showMessage();
    if (focus) {
      this.table.focus({ preventScroll: true });
      td.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }

  private markSelection(): void {
    for (const [address, td] of this.cells) {
      const p = parseAddress(address)!;
      td.setAttribute('aria-selected', String(this.selection.contains(p)));
      td.classList.toggle('active', address === this.activeAddress);
    }
  }

  commit(): void {
    const address = this.activeAddress;
    if (this.bar.value !== this.sheet.input(address) || this.bar.value.startsWith('=')) this.sheet.setInput(address, this.bar.value);
  }

  /** Sets a number format on every selected cell (the format buttons). */
  setFormat(format: NumberFormat): void {
    for (const a of this.selection.addresses()) {
      if (format === 'general') delete this.formats[a];
      else this.formats[a] = format;
    }
    this.shown.clear();
    this.render();
  }

  /** The format shown in the active cell: its own, its value's, Excel's automatic one, or General. */
  formatOf(address: string): string | undefined {
    const own = this.formats[address];
    if (own) return formatCode(own);
    const v = this.sheet.value(address);
    if (isFormattedNumber(v)) return v.numberFormat;
    return automaticFormat(this.sheet.input(address));
  }

  /** Ctrl+D: the top row of the selection (or the cell above one cell) copied down, relative references moved. */
  fill(direction: 'down' | 'right'): void {
    const r = this.selection.rect();
    const single = r.top === r.bottom && r.left === r.right;
    const down = direction === 'down';
    const inputs: Record<string, string> = {};
    if (down) {
      const top = single ? r.top - 1 : r.top;
      if (top < 1) return;
      for (let col = r.left; col <= r.right; col++) {
        const from = toAddress({ row: top, col });
        for (let row = top + 1; row <= r.bottom; row++) inputs[toAddress({ row, col })] = movedInput(this.sheet.input(from), from, toAddress({ row, col }));
      }
    } else {
      const left = single ? r.left - 1 : r.left;
      if (left < 1) return;
      for (let row = r.top; row <= r.bottom; row++) {
        const from = toAddress({ row, col: left });
        for (let col = left + 1; col <= r.right; col++) inputs[toAddress({ row, col })] = movedInput(this.sheet.input(from), from, toAddress({ row, col }));
      }
    }
    this.sheet.setInputs(inputs);
    this.bar.value = this.sheet.input(this.activeAddress);
  }

  /** Text pasted on the grid: one value a cell, from the active cell down and right. */
  paste(text: string): void {
    const r = this.selection.rect();
    const at = { row: r.top, col: r.left };
    const inputs = pasteInputs(text, at);
    this.sheet.setInputs(inputs);
    // The pasted range stays selected, its first cell active, as Excel leaves it.
    const last = Object.keys(inputs).map((a) => parseAddress(a)!).reduce((m, p) => ({ row: Math.max(m.row, p.row), col: Math.max(m.col, p.col) }), at);
    this.selection.set(last);
    this.select(at, true, true);
  }

  private onPaste(e: ClipboardEvent): void {
    const text = e.clipboardData?.getData('text/plain');
    if (text === undefined || text === '') return;
    e.preventDefault();
    this.paste(text);
  }

  private onCopy(e: ClipboardEvent): void {
    const r = this.selection.rect();
    const rows: string[][] = [];
    for (let row = r.top; row <= r.bottom; row++) {
      const line: string[] = [];
      for (let col = r.left; col <= r.right; col++) {
        const a = toAddress({ row, col });
        line.push(displayText(this.sheet.value(a), this.formatOf(a), this.sheet.dateSystem));
      }
      rows.push(line);
    }
    e.clipboardData?.setData('text/plain', copiedText(rows));
    e.preventDefault();
  }

  private onBarKey(e: KeyboardEvent): void {
    const p = this.selection.active;
    if (e.key === 'Enter') {
      e.preventDefault();
      this.commit();
      this.select({ row: p.row + (e.shiftKey ? -1 : 1), col: p.col });
    } else if (e.key === 'Tab') {
      e.preventDefault();
      this.commit();
      this.select({ row: p.row, col: p.col + (e.shiftKey ? -1 : 1) });
    } else if (e.key === 'Escape') {
      this.bar.value = this.sheet.input(this.activeAddress);
      this.select(p);
    }
  }

  /** Ctrl+arrow, as in Excel: to the last filled cell of a block, or the next filled cell, or the sheet's edge. */
  private edge(from: Position, dr: number, dc: number): Position {
    const filled = (q: Position) => this.sheet.value(toAddress(q)) !== null || this.sheet.input(toAddress(q)) !== '';
    const inSheet = (q: Position) => q.row >= 1 && q.col >= 1 && q.row <= MAX_ROW && q.col <= MAX_COL;
    const b = this.sheet.bounds();
    const next = (q: Position) => ({ row: q.row + dr, col: q.col + dc });
    let q = from;
    if (filled(q) && inSheet(next(q)) && filled(next(q))) {
      while (inSheet(next(q)) && filled(next(q))) q = next(q);
      return q;
    }
    q = next(q);
    // Past the used area nothing is filled: straight to the sheet's edge.
    while (inSheet(q) && !filled(q) && (dr > 0 ? q.row <= b.row : dr < 0 ? q.row >= 1 : dc > 0 ? q.col <= b.col : q.col >= 1)) q = next(q);
    if (!inSheet(q)) return { row: Math.min(MAX_ROW, Math.max(1, q.row)), col: Math.min(MAX_COL, Math.max(1, q.col)) };
    if (!filled(q)) return { row: dr > 0 ? MAX_ROW : dr < 0 ? 1 : q.row, col: dc > 0 ? MAX_COL : dc < 0 ? 1 : q.col };
    return q;
  }

  private onGridKey(e: KeyboardEvent): void {
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const p = this.selection.active;
    const ctrl = e.ctrlKey || e.metaKey;
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      this.select(ctrl ? this.edge(p, m[0], m[1]) : { row: p.row + m[0], col: p.col + m[1] }, true, e.shiftKey);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      const back = e.shiftKey ? -1 : 1;
      this.select(e.key === 'Enter' ? { row: p.row + back, col: p.col } : { row: p.row, col: p.col + back });
    } else if (e.key === 'Home') {
      e.preventDefault();
      this.select(ctrl ? { row: 1, col: 1 } : { row: p.row, col: 1 }, true, e.shiftKey);
    } else if (e.key === 'End' && ctrl) {
      e.preventDefault();
      this.select(this.sheet.bounds(), true, e.shiftKey);
    } else if (ctrl && (e.key === 'd' || e.key === 'D' || e.key === 'r' || e.key === 'R')) {
      e.preventDefault();
      this.fill(e.key.toLowerCase() === 'd' ? 'down' : 'right');
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      this.sheet.setInputs(Object.fromEntries(this.selection.addresses().map((a) => [a, ''])));
      this.bar.value = '';
    } else if (e.key === 'F5' && ctrl && e.shiftKey) {
      e.preventDefault();
      this.showCard(this.activeAddress);
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
    const active = this.selection.active;
    const rows = Math.min(MAX_ROW, Math.max(MIN_ROWS, b.row + 5, active.row + 5));
    // Every spill is inside bounds(): the columns cover it, and two more to type into.
    const cols = Math.min(MAX_COL, Math.max(MIN_COLS, b.col + 2, active.col + 2));
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
        html += `<td role="gridcell" aria-label="${a}" aria-selected="false" id="${this.table.id === 'grid' ? 'cell' : `${this.table.id}-cell`}-${a}" data-address="${a}"></td>`;
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
    this.markSelection();
  }

  /** The active cell's error, in words, in the status bar: visible without hovering. */
  private showMessage(): void {
    if (!this.message) return;
    const v = this.sheet.value(this.activeAddress);
    this.message.textContent = isErrorValue(v) ? `${this.activeAddress}: ${v.error} ${errorMessage(v)}` : '';
  }

  render(): void {
    this.layout();
    for (const [address, td] of this.cells) {
      const v = this.sheet.value(address);
      const err = isErrorValue(v) ? v : null;
      const text = displayText(v, this.formatOf(address), this.sheet.dateSystem);
      const title = err ? (err.message ? `${err.error} ${err.message}` : err.error) : '';
      const spilled = Boolean(this.sheet.spilledFrom(address));
      const key = `${text}\u0000${title}\u0000${spilled}\u0000${isEntityValue(v)}`;
      if ((this.shown.get(address) ?? '\u0000\u0000false\u0000false') === key) continue;
      this.shown.set(address, key);
      td.textContent = text;
      td.classList.toggle('error', Boolean(err));
      td.classList.toggle('num', typeof v === 'number' || isFormattedNumber(v));
      // A data type shows its text after an icon (CSS), as Excel shows one; a click opens its card.
      td.classList.toggle('entity', isEntityValue(v));
      td.classList.toggle('spilled', spilled);
      if (title) td.title = title;
      else td.removeAttribute('title');
    }
    if (document.activeElement !== this.bar) this.bar.value = this.sheet.input(this.activeAddress);
    this.showMessage();
  }
}
