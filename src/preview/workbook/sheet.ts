/**
 * One worksheet: what the user typed in each cell, and the values a
 * recalculation gives them, spilled arrays included. No DOM: the grid view
 * renders it. Recalculations are batched: results arriving together are shown
 * together.
 */
import type { DateSystem } from '../../engine/date-system';
import type { Value } from '../../engine/values';
import type { CellValue } from '../runtime/values';
import { byPosition, parseAddress, toAddress, type Position } from './address';
import type { CallSites } from './calls';
import { Dependents } from './dependents';
import type { Evaluated, FormulaEngine } from './engine';

export const SPILL_BLOCKED = { error: '#SPILL!', message: "Spill range isn't blank: clear the cells in the way." } as const;
const CIRCULAR = { error: '#REF!', message: 'Circular reference' } as const;

/** What a typed literal is: a number, TRUE/FALSE, or text ('123 keeps digits as text). */
export function literalValue(input: string): CellValue {
  if (input.startsWith("'")) return input.slice(1);
  const t = input.trim();
  if (t !== '' && Number.isFinite(Number(t))) return Number(t);
  if (/^(true|false)$/i.test(t)) return /^true$/i.test(t);
  return input;
}

export const isFormula = (input: string | undefined) => input !== undefined && input.startsWith('=') && input.length > 1;

export class Sheet extends EventTarget {
  private readonly inputs = new Map<string, string>();
  /**
   * Cells holding a data type as their value, not typed and not a formula:
   * an entity written through Range.valuesAsJson (the card stays, its fields
   * read by `=A1.Price`). Typing or writing in the cell replaces it.
   */
  private readonly held = new Map<string, Value>();
  private values = new Map<string, Value>();
  /** Spilled cell → the formula cell it spills from. */
  private spillOf = new Map<string, string>();
  /** Formula cell → the size of the array it spills (for `A1#`). */
  private spillSize = new Map<string, { rows: number; cols: number }>();
  private state = new Map<string, 'visiting' | 'done'>();
  private emptyReads = new Set<string>();
  private previousSpill = new Map<string, string>();
  private scheduled: ReturnType<typeof setTimeout> | null = null;
  private readonly dependents = new Dependents();
  /** Cells whose calls delivered results since the last recalculation. */
  private readonly arrived = new Set<string>();
  private readonly idleWaiters: (() => void)[] = [];
  /**
   * The instant (epoch ms) NOW() and TODAY() give in this recalculation, read
   * once when it starts and kept while its calls' answers land. Excel's NOW
   * "changes only when the sheet is calculated ... It is not updated
   * continuously" (Microsoft's NOW function help,
   * mac2.microsoft.com/help/office/14/en-us/word/item/f472b08a-ed24-4c08-9bad-137b5c9bbc02);
   * an answer arriving re-evaluates its cell without a new NOW. Read
   * afresh there, `=CRYPTO.OHLCV("bitcoin",NOW()-7)` had new arguments at
   * each answer, so its call was canceled and another started, forever
   * (#BUSY!, and real requests spent). The formula CLI does the same
   * (src/cli/recalculation.ts).
   */
  private instant: number;
  recalculations = 0;

  constructor(
    private readonly engine: FormulaEngine,
    readonly calls: CallSites,
    /** The clock a recalculation reads NOW() from (epoch ms); tests pass their own. */
    private readonly clock: () => number = Date.now,
  ) {
    super();
    this.instant = clock();
  }

  input(address: string): string {
    return this.inputs.get(address) ?? '';
  }

  /** The workbook's date system, which its formulas compute in and its date formats show. */
  get dateSystem(): DateSystem {
    return this.engine.dateSystem;
  }

  /** The cell's value: a formatted number as it came (the grid shows its format), errors with their messages. */
  value(address: string): Value {
    return this.values.get(address) ?? null;
  }

  /** Rows and columns of the array this formula cell spills, or null. */
  spillExtent(address: string): { rows: number; cols: number } | null {
    return this.spillSize.get(address) ?? null;
  }

  /** The formula cell whose array covers this cell, if it is a spilled cell. */
  spilledFrom(address: string): string | undefined {
    return this.spillOf.get(address);
  }

  /** Every cell with something typed, held or spilled in it. */
  addresses(): string[] {
    return [...new Set([...this.inputs.keys(), ...this.held.keys(), ...this.spillOf.keys()])];
  }

  /** The data type a cell holds as its value (written through valuesAsJson), or undefined. */
  heldValue(address: string): Value | undefined {
    return this.held.get(address);
  }

  /** Every cell holding a data type as its value (for saving). */
  heldValues(): Record<string, Value> {
    return Object.fromEntries(this.held);
  }

  /** Data types as the cells' values (Range.valuesAsJson), replacing what was there; then one recalculation. */
  setHeld(cells: Record<string, Value>): void {
    for (const [a, v] of Object.entries(cells)) {
      this.calls.cancelCell(a);
      this.inputs.delete(a);
      this.held.set(a, v);
    }
    this.recalculate();
  }

  /** Enter in the formula bar: the cell's old calls are canceled, as Excel does when a formula is re-entered. */
  setInput(address: string, text: string): void {
    this.calls.cancelCell(address);
    this.held.delete(address);
    if (text === '') this.inputs.delete(address);
    else this.inputs.set(address, text);
    this.recalculate();
  }

  /** Several cells typed at once (a paste, a fill, a cleared selection), then one recalculation; '' clears a cell. */
  setInputs(cells: Record<string, string>): void {
    for (const [a, text] of Object.entries(cells)) {
      this.calls.cancelCell(a);
      this.held.delete(a);
      if (text === '') this.inputs.delete(a);
      else this.inputs.set(a, text);
    }
    this.recalculate();
  }

  /** Many cells at once (a template, a saved sheet with the data types its cells held), then one recalculation. */
  load(cells: Record<string, string>, held: Record<string, Value> = {}): void {
    for (const a of [...this.inputs.keys()]) this.calls.cancelCell(a);
    this.inputs.clear();
    this.held.clear();
    for (const [a, text] of Object.entries(cells)) if (text !== '') this.inputs.set(a, text);
    for (const [a, v] of Object.entries(held)) if (!this.inputs.has(a)) this.held.set(a, v);
    this.recalculate();
  }

  /**
   * Every formula again, at a new instant for NOW() and TODAY() (`at`: one the
   * workbook read for all its sheets, else this sheet's clock); `full` calls
   * every custom function again (Excel's full calculation).
   */
  recalculate(opts: { full?: boolean; at?: number } = {}): void {
    if (opts.full) this.calls.cancelAll();
    this.instant = opts.at ?? this.clock();
    this.run();
  }

  /**
   * Drawn again after a change that does not recalculate in Excel (a number
   * format): NOW() keeps its instant, so no call on it starts again.
   */
  redraw(): void {
    this.run();
  }

  /** A call of this cell delivered a result: results arriving within one task are shown together. */
  scheduleRecalculation(cell: string): void {
    this.arrived.add(cell);
    this.scheduled ??= setTimeout(() => this.runArrived(), 0);
  }

  /** Resolves once no call is pending and no recalculation is due. */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.scheduled === null && this.calls.stats().pending === 0;
  }

  private run(): void {
    if (this.scheduled !== null) clearTimeout(this.scheduled);
    this.scheduled = null;
    this.arrived.clear();
    const formulas = [...this.inputs.keys()]
      .filter((a) => isFormula(this.inputs.get(a)))
      .map((a) => ({ a, p: parseAddress(a)! }))
      .sort((x, y) => byPosition(x.p, y.p));
    // A cell read before the formula that spills into it was placed needs one more pass (rare: at most two more).
    for (let pass = 0; pass < 3; pass++) {
      this.values = new Map();
      this.spillOf = new Map();
      this.spillSize = new Map();
      this.state = new Map();
      this.emptyReads = new Set();
      this.dependents.clear();
      this.calls.beginPass();
      for (const { a, p } of formulas) this.evaluateCell(a, p);
      this.calls.endPass();
      const stale = [...this.emptyReads].some((a) => this.spillOf.has(a));
      this.previousSpill = this.spillOf;
      if (!stale) break;
    }
    for (const [a, text] of this.inputs) if (!isFormula(text)) this.values.set(a, literalValue(text));
    for (const [a, v] of this.held) this.values.set(a, v);
    this.finish();
  }

  private finish(): void {
    this.recalculations++;
    this.dispatchEvent(new Event('change'));
    if (this.isIdle()) this.idleWaiters.splice(0).forEach((w) => w());
  }

  /**
   * Only the cells whose calls answered, and the formulas that read them (or
   * their spills), in sheet order. A spill that changes shape can move other
   * formulas' inputs: then the whole sheet is recalculated instead.
   */
  private runArrived(): void {
    this.scheduled = null;
    const spills = new Map<string, string[]>();
    for (const [t, a] of this.spillOf) (spills.get(a) ?? spills.set(a, []).get(a)!).push(t);
    const affected = [...this.dependents.closure(this.arrived, (c) => [c, ...(spills.get(c) ?? [])])]
      .filter((a) => isFormula(this.inputs.get(a)))
      .map((a) => ({ a, p: parseAddress(a)! }))
      .sort((x, y) => byPosition(x.p, y.p));
    this.arrived.clear();
    for (const { a } of affected) this.state.delete(a);
    for (const { a, p } of affected) {
      if (this.state.get(a) === 'done') continue; // evaluated already, as an input of an earlier one
      const before = spills.get(a) ?? [];
      const blockedBefore = this.values.get(a) === SPILL_BLOCKED;
      for (const t of before) {
        this.spillOf.delete(t);
        this.values.delete(t);
      }
      this.spillSize.delete(a);
      this.evaluateCell(a, p);
      const after = [...this.spillOf].filter(([, anchor]) => anchor === a).map(([t]) => t);
      if (blockedBefore !== (this.values.get(a) === SPILL_BLOCKED) || after.length !== before.length || after.some((t) => !before.includes(t))) {
        this.run();
        return;
      }
    }
    this.finish();
  }

  private evaluateCell(address: string, at: Position): Value {
    const st = this.state.get(address);
    if (st === 'done') return this.values.get(address) ?? null;
    if (st === 'visiting') return CIRCULAR;
    this.state.set(address, 'visiting');
    let occurrence = 0;
    const result = this.dependents.within(address, () =>
      this.engine.evaluate(this.inputs.get(address)!.slice(1), at, {
        cell: (p) => this.read(toAddress(p), p),
        range: (from, to) => this.readRange(from, to),
        spillExtent: (p) => this.readSpill(toAddress(p), p),
        customFunction: (id, args) => this.calls.value(address, occurrence++, id, args),
        now: () => this.instant,
      }),
    );
    this.place(address, at, result);
    this.state.set(address, 'done');
    return this.values.get(address) ?? null;
  }

  /** `A1#`: the anchor's formula evaluated first, then the size of what it spills. */
  private readSpill(address: string, p: Position): { rows: number; cols: number } | null {
    this.dependents.read(address);
    if (isFormula(this.inputs.get(address))) this.evaluateCell(address, p);
    return this.spillSize.get(address) ?? null;
  }

  private read(address: string, p: Position): Value {
    this.dependents.read(address);
    const input = this.inputs.get(address);
    if (input !== undefined) return isFormula(input) ? this.evaluateCell(address, p) : literalValue(input);
    if (this.held.has(address)) return this.held.get(address)!;
    if (!this.spillOf.has(address)) {
      // Spilled by a formula not evaluated yet in this pass? The last pass knows which one.
      const anchor = this.previousSpill.get(address);
      if (anchor && isFormula(this.inputs.get(anchor))) this.evaluateCell(anchor, parseAddress(anchor)!);
    }
    if (this.spillOf.has(address)) return this.values.get(address) ?? null;
    this.emptyReads.add(address);
    return null;
  }

  private readRange(from: Position, to: Position): Value[][] {
    const bounds = this.bounds();
    const bottom = Math.min(to.row, bounds.row);
    const right = Math.min(to.col, bounds.col);
    const rows: Value[][] = [];
    for (let r = from.row; r <= bottom; r++) {
      const row: Value[] = [];
      for (let c = from.col; c <= right; c++) row.push(this.read(toAddress({ row: r, col: c }), { row: r, col: c }));
      rows.push(row);
    }
    return rows;
  }

  /** The furthest row and column anything is typed or was spilled into. */
  bounds(): Position {
    let row = 1;
    let col = 1;
    for (const a of [...this.inputs.keys(), ...this.held.keys(), ...this.previousSpill.keys(), ...this.spillOf.keys()]) {
      const p = parseAddress(a)!;
      if (p.row > row) row = p.row;
      if (p.col > col) col = p.col;
    }
    return { row, col };
  }

  private place(address: string, at: Position, result: Evaluated): void {
    if (!Array.isArray(result)) {
      this.values.set(address, result);
      return;
    }
    const targets: [string, Value][] = [];
    for (let i = 0; i < result.length; i++) {
      for (let j = 0; j < result[i].length; j++) {
        const t = toAddress({ row: at.row + i, col: at.col + j });
        if ((i > 0 || j > 0) && (this.inputs.has(t) || this.held.has(t) || this.spillOf.has(t))) {
          this.values.set(address, SPILL_BLOCKED);
          return;
        }
        targets.push([t, result[i][j]]);
      }
    }
    for (const [t, v] of targets) {
      this.values.set(t, v);
      if (t !== address) this.spillOf.set(t, address);
    }
    this.spillSize.set(address, { rows: result.length, cols: result[0]?.length ?? 0 });
  }
}
