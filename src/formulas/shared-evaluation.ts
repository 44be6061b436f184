/**
 * One evaluation of a formula and the calls waiting on it: the calculation
 * host (host.ts) shares one between identical calls in flight. Its answer,
 * the calling cells it answers, the answers it read, and who may cancel it.
 */
import type { Arg } from './args';
import type { FormulaResult } from './cells';
import type { FormulaFn } from './formula-context';
import type { Fetch } from './provenance';

export const NO_ADDRESSES: readonly string[] = Object.freeze([]);
/** Past this many calling cells, an evaluation keeps them in a Set too. */
const ADDRESS_SCAN_MAX = 16;

/** One evaluation and the calls waiting on it. */
export interface SharedEvaluation {
  /** Formula and arguments: the in-flight map's key. */
  key: string;
  formula: string;
  fn: FormulaFn;
  /** The arguments it is evaluated with (its provenance names them). */
  args: Arg[];
  /** Its answer: settled at once when known at once, else through `resolve`/`reject`. */
  promise: Promise<FormulaResult>;
  resolve: ((r: FormulaResult) => void) | null;
  reject: ((e: unknown) => void) | null;
  /** The calling cells (Excel's invocation.address) this evaluation answers, and the answers it read (provenance.ts): shared empty lists until the first. */
  addresses: readonly string[];
  fetches: readonly Fetch[];
  /** The addresses again, once there are many: a column of one formula shares an evaluation between thousands of cells. */
  addressSet?: Set<string>;
  /** Cancels the evaluation (null: its first caller could not cancel); also aborted at the deadline. */
  controller: AbortController | null;
  /** Callers still waiting that can cancel. */
  cancelable: number;
  /** A caller that cannot cancel waits: the evaluation runs to the end. */
  pinned: boolean;
  /** Settled: calls from now on start a new evaluation. */
  done: boolean;
}

/** Adds a calling cell once: a scan of the list while it is short, a Set once it grows (each of n cells would scan n). */
export function addAddress(e: SharedEvaluation, address: string): void {
  if (e.addresses === NO_ADDRESSES) {
    e.addresses = [address];
    return;
  }
  if (e.addressSet ? e.addressSet.has(address) : e.addresses.includes(address)) return;
  (e.addresses as string[]).push(address);
  if (e.addressSet) e.addressSet.add(address);
  else if (e.addresses.length > ADDRESS_SCAN_MAX) e.addressSet = new Set(e.addresses);
}

/** The evaluation's promise, to be settled later (by its answer or its deadline). */
export function waitFor(entry: SharedEvaluation): void {
  entry.promise ??= new Promise<FormulaResult>((resolve, reject) => {
    entry.resolve = resolve;
    entry.reject = reject;
  });
}
