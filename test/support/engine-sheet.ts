/**
 * A sheet for the engine's own tests: cells from a record ("A2": value), a
 * fixed clock, a date system; `(formula) => value` evaluated at A10. Shared by
 * the date tests and the treasury-bill tests.
 */
import { Engine, type Scope } from '../../src/engine/evaluator';
import type { DateSystem } from '../../src/engine/date-system';
import type { Value } from '../../src/engine/values';

export function engineSheet(o: { dateSystem?: DateSystem; now: number; cells?: Record<string, Value> }): (formula: string) => ReturnType<Engine['evaluate']> {
  const engine = new Engine([]);
  const cells = o.cells ?? {};
  const at = (row: number, col: number): Value => cells[`${String.fromCharCode(64 + col)}${row}`] ?? null;
  const scope: Scope = {
    cell: (p) => at(p.row, p.col),
    range: (from, to) =>
      Array.from({ length: to.row - from.row + 1 }, (_, r) => Array.from({ length: to.col - from.col + 1 }, (_, c) => at(from.row + r, from.col + c))),
    customFunction: () => null,
    now: () => o.now,
    ...(o.dateSystem ? { dateSystem: o.dateSystem } : {}),
  };
  return (formula: string) => engine.evaluate(formula, { row: 10, col: 1 }, scope);
}
