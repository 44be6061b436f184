/**
 * Which formula cells read which cells, recorded while formulas evaluate, so a
 * result arriving for one cell recalculates that cell and what reads it rather
 * than the whole sheet. Entries may be stale (a formula that no longer reads a
 * cell): that costs a needless re-evaluation, never a missed one.
 */
export class Dependents {
  private readers = new Map<string, Set<string>>();
  private readonly stack: string[] = [];

  clear(): void {
    this.readers = new Map();
  }

  /** Runs `evaluate` with reads attributed to `formulaCell`. */
  within<T>(formulaCell: string, evaluate: () => T): T {
    this.stack.push(formulaCell);
    try {
      return evaluate();
    } finally {
      this.stack.pop();
    }
  }

  /** The formula being evaluated read `cell`. */
  read(cell: string): void {
    const reader = this.stack[this.stack.length - 1];
    if (reader === undefined || reader === cell) return;
    let set = this.readers.get(cell);
    if (!set) this.readers.set(cell, (set = new Set()));
    set.add(reader);
  }

  /**
   * The changed formula cells and every formula that reads them, directly or
   * not; `covers(cell)` lists the cells a formula's value occupies (its spill).
   */
  closure(changed: Iterable<string>, covers: (cell: string) => readonly string[]): Set<string> {
    const out = new Set<string>();
    const todo = [...changed];
    while (todo.length) {
      const c = todo.pop()!;
      if (out.has(c)) continue;
      out.add(c);
      for (const cell of covers(c)) for (const r of this.readers.get(cell) ?? []) if (!out.has(r)) todo.push(r);
    }
    return out;
  }
}
