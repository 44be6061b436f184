/**
 * What a formula is handed, and what a formula is: the contract between the
 * calculation host (host.ts), which runs formulas, and the formulas
 * (src/formulas/*), which read the client through it.
 */
import type { CallClient } from '../client/call-client';
import type { Arg } from './args';
import type { DateSystem, FormulaResult } from './cells';
import type { ProvenanceBook } from './provenance';
import type { RefusedGuesses } from './refused-guesses';

export interface Settings {
  defaultCurrency: 'USD' | 'EUR';
  /** The workbook's date system: date arguments are serials in it (args.ts). */
  dateSystem: DateSystem;
  /**
   * Numbers of an answer served stale (the last good value after a failure)
   * show "(stale)" in their cell (provenance.ts): the workbook's runtime sets
   * it; the CLI prints plain values.
   */
  markStale?: boolean;
}

export interface FormulaContext {
  /** The client bound to this call: its requests carry the caller and the call's signal. */
  client: CallClient;
  settings: Settings;
  now(): number;
  /** The formula's id, e.g. "PRICE": credits are attributed to it. */
  caller: string;
  signal?: AbortSignal;
  /** Where each answer came from (CRYPTO.ASOF reads it). */
  provenance?: ProvenanceBook;
  /** Guessed parameter names the service refused this session (refused-guesses.ts). */
  refusedGuesses?: RefusedGuesses;
}

/** A formula: its result, or a promise of it (a result known at once, a price from the quote cache, needs no promise). */
export type FormulaFn = (ctx: FormulaContext, ...args: Arg[]) => Promise<FormulaResult> | FormulaResult;
export type Catalog = Readonly<Record<string, FormulaFn>>;
