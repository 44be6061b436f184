/**
 * Assertions over formula outcomes, shared by the formula test files: evaluate
 * formula text through a session's calculation host and insist on a value, a
 * single cell, a number or an error.
 */
import assert from 'node:assert/strict';
import { calculate, type JsonCell, type Outcome } from '../../src/cli/calculate';
import type { Session } from '../../src/cli/session';

/** Checks that evaluate on `main()` unless another session is passed. */
export function formulaChecks(main: () => Session) {
  const calc = (text: string, on: Session = main()): Promise<Outcome> => calculate(on.host, text);
  async function grid(text: string, on: Session = main()): Promise<JsonCell[][]> {
    const out = await calc(text, on);
    assert.ok('value' in out, `${text}: expected a value, got ${JSON.stringify(out)}`);
    return out.value;
  }
  async function one(text: string, on: Session = main()): Promise<JsonCell> {
    const g = await grid(text, on);
    assert.equal(g.length, 1, `${text}: one row`);
    assert.equal(g[0].length, 1, `${text}: one cell`);
    return g[0][0];
  }
  async function num(text: string, on: Session = main()): Promise<number> {
    const v = await one(text, on);
    assert.equal(typeof v, 'number', `${text}: a number, got ${JSON.stringify(v)}`);
    return v as number;
  }
  async function failure(text: string, on: Session = main()): Promise<{ error: string; message: string }> {
    const out = await calc(text, on);
    assert.ok('error' in out, `${text}: expected an error, got ${JSON.stringify(out)}`);
    return out;
  }
  return { calc, grid, one, num, failure };
}

/** A table's column by its header (the header row is row 0). */
export function col(g: JsonCell[][], header: string): JsonCell[] {
  const i = g[0].indexOf(header);
  assert.ok(i >= 0, `no column ${header} in ${JSON.stringify(g[0])}`);
  return g.slice(1).map((r) => r[i]);
}

/** An outcome that must be an error (the whole formula's). */
export function failed(out: Outcome): { error: string; message: string } {
  assert.ok('error' in out, `expected an error, got ${JSON.stringify(out).slice(0, 300)}`);
  return out;
}

/** A cell that must be a number. */
export function numberIn(c: JsonCell): number {
  assert.equal(typeof c, 'number', `expected a number, got ${JSON.stringify(c)}`);
  return c as number;
}

/** Equal within a relative tolerance. */
export function close(a: number, b: number, rel = 1e-9): void {
  assert.ok(Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-12), `${a} ≉ ${b}`);
}

/** Equal within an absolute tolerance. */
export function near(a: number, b: number, tol: number, what = ''): void {
  assert.ok(Math.abs(a - b) <= tol, `${what} ${a} ≉ ${b} (±${tol})`);
}

/** An outcome that must be a value: its grid. */
export function valueOf(out: Outcome): JsonCell[][] {
  assert.ok('value' in out, `expected a value, got ${JSON.stringify(out)}`);
  return out.value;
}
