/**
 * The calculation host: evaluates one formula by id with Excel-shaped
 * arguments. Excel's glue (src/functions), the formula CLI, the tests and the
 * benchmark all go through here, so a formula behaves the same everywhere.
 *
 * It owns the rules that hold for every formula: no credits during value
 * preview, cancellation, the last good value on a transient failure, and the
 * log of recent errors the task pane shows.
 */
import { LRUCache } from 'lru-cache';
import type { MarketClient } from '../client';
import { abortedError } from '../client/api-error';
import { abortable } from '../client/cancellation';
import { FormulaError, formulaError, type DateSystem, type FormulaResult } from './cells';
import type { Catalog, FormulaContext, FormulaFn, Settings } from './formula-context';
import { ErrorLog, type ErrorLogEntry } from './error-log';
import type { Arg } from './args';
import { CALL_DEADLINE_MS, Deadlines, deadlineError } from './call-deadline';
import { toFormulaError } from './failure';
import { trackingClient, type QuoteSightings } from './answer-tracking';
import { NO_FETCHES, ProvenanceBook, markStale, resultSize, summarize, type Provenance } from './provenance';
import { Slices } from './slices';
import { RefusedGuesses } from './refused-guesses';
import { NO_ADDRESSES, addAddress, waitFor, type SharedEvaluation } from './shared-evaluation';

export interface EvaluateOptions {
  signal?: AbortSignal;
  /** Excel's formula value preview: answer from what is known, spend nothing. */
  preview?: boolean;
}

export interface HostOptions {
  client: MarketClient;
  catalog: Catalog;
  settings?: Partial<Settings>;
  now?: () => number;
  /** How many distinct formula calls keep a last good value (bounded memory). */
  lastGoodEntries?: number;
  /** Formulas started per task before yielding to the event loop (see slices.ts). */
  sliceSize?: number;
  /** Every call settles within this (call-deadline.ts); default CALL_DEADLINE_MS. */
  deadlineMs?: number;
}

export const DEFAULT_SLICE_SIZE = 250;

/** A call's result and how to cancel it (a no-op when the call cannot be cancelled). */
export interface HostCall {
  result: Promise<FormulaResult>;
  cancel(): void;
}

const noop = () => undefined;

export class CalculationHost extends EventTarget {
  readonly client: MarketClient;
  readonly settings: Settings;
  private readonly catalog: Catalog;
  private readonly now: () => number;
  private readonly lastGood: LRUCache<string, { result: FormulaResult; fetchedAt: number | null }>;
  /** Where each answer came from, by calling cell, and the recent evaluations (CRYPTO.ASOF, the pane's log). */
  readonly provenance = new ProvenanceBook();
  /** Guessed parameter names the service refused this session (refused-guesses.ts). */
  private readonly refusedGuesses = new RefusedGuesses();
  private readonly log: ErrorLog;
  private readonly inFlight = new Map<string, SharedEvaluation>();
  private readonly keys = new WeakMap<Arg[], string>();
  /** Which quote objects an evaluation has read already: later readers record them from the cache, uncharged. */
  private readonly quoteSightings: QuoteSightings = new WeakMap();
  private readonly slices: Slices<SharedEvaluation>;
  private readonly deadlines: Deadlines<SharedEvaluation>;

  constructor(opts: HostOptions) {
    super();
    this.client = opts.client;
    this.catalog = opts.catalog;
    this.settings = { defaultCurrency: 'USD', dateSystem: '1900', ...opts.settings };
    this.now = opts.now ?? Date.now;
    this.lastGood = new LRUCache({ max: opts.lastGoodEntries ?? 20_000 });
    this.log = new ErrorLog(this.now, () => this.dispatchEvent(new Event('error-logged')));
    this.slices = new Slices(opts.sliceSize ?? DEFAULT_SLICE_SIZE, (e) => this.run(e));
    this.deadlines = new Deadlines(opts.deadlineMs ?? CALL_DEADLINE_MS, this.now, (e, bucket) => {
      e.controller?.abort(); // stop the requests nobody waits for
      this.conclude(e, false, deadlineError(this.deadlines.ms, bucket.openedAt, this.client, e.formula));
    });
  }

  /**
   * The workbook's date system for calls from now on (Excel's glue sets it on
   * every call: office/custom-functions.ts). Date arguments are serials read in
   * it (args.ts), so after a change (the 1900 guess corrected when Excel's late
   * answer comes: office/workbook-traits.ts) the same arguments are other days:
   * calls still under way are no longer shared with new ones, and the last good
   * values read in the old system go. Review 2026-11-27: a 1904 workbook's
   * correcting recalculation joined the 1900 reading in flight, or showed it as
   * its last good value, 1,462 days off.
   */
  useDateSystem(dates: DateSystem): void {
    if (this.settings.dateSystem === dates) return;
    this.settings.dateSystem = dates;
    this.inFlight.clear(); // each evaluation under way still settles for the callers it has
    this.lastGood.clear();
  }

  has(id: string): boolean {
    return Object.hasOwn(this.catalog, id.toUpperCase());
  }

  /**
   * Resolves with the result, or rejects with a FormulaError; always settles.
   * With a signal, an abort rejects this call at once (#N/A Canceled).
   */
  evaluate(id: string, args: Arg[], opts: EvaluateOptions = {}): Promise<FormulaResult> {
    const { signal } = opts;
    if (!signal) {
      const e = this.entry(id, args, opts.preview === true, false);
      if (e instanceof Promise) return e;
      e.pinned = true;
      return e.promise;
    }
    if (signal.aborted) return Promise.reject(toFormulaError(abortedError(), id.toUpperCase()));
    const call = this.call(id, args, { preview: opts.preview, cancelable: true });
    return abortable(call.result, signal, call.cancel).catch((e: unknown) => {
      throw toFormulaError(e, id.toUpperCase());
    });
  }

  /**
   * One call, and (when `cancelable`) a cancel() for Excel's
   * invocation.onCanceled: a plain callback, where an AbortSignal per cell
   * would cost an event listener per cell. A cancelled call's result still
   * settles (Excel ignores it).
   *
   * Identical calls in flight share one evaluation: a column of the same
   * formula waits as one, not as a thousand suspended calls. The shared
   * evaluation is cancelled only once every caller that can cancel has, and no
   * caller that cannot waits.
   */
  call(id: string, args: Arg[], opts: { preview?: boolean; cancelable?: boolean; address?: string } = {}): HostCall {
    const e = this.entry(id, args, opts.preview === true, opts.cancelable === true, opts.address);
    if (e instanceof Promise) return { result: e, cancel: noop };
    if (opts.address) addAddress(e, opts.address);
    if (!opts.cancelable) {
      e.pinned = true;
      return { result: e.promise, cancel: noop };
    }
    e.cancelable++;
    return { result: e.promise, cancel: this.canceller(e) };
  }

  /** The shared evaluation for this call (started if none is in flight), or its answer when there is nothing to share. */
  private entry(id: string, args: Arg[], preview: boolean, cancelable: boolean, address?: string): SharedEvaluation | Promise<FormulaResult> {
    const formula = id.toUpperCase();
    const fn = this.catalog[formula];
    if (!fn) return Promise.reject(formulaError('UNEXPECTED', `Unknown formula CRYPTO.${formula}`));
    const key = this.keyOf(formula, args);
    if (preview) {
      const known = this.lastGood.get(key);
      if (known) return Promise.resolve(this.presented(known.result));
      return Promise.reject(formulaError('NOT_FETCHED', 'Press Enter to fetch: the preview spends no credits'));
    }
    return this.inFlight.get(key) ?? this.share(formula, fn, key, args, cancelable, address);
  }

  /**
   * Formula and arguments as the in-flight and last-good key. Remembered per
   * arguments array: a recalculation hands the same bound arguments for every
   * cell of the same text (src/cli/calculate.ts), and building and hashing a new
   * key string for each of 10,000 cells was a tenth of a warm recalculation.
   * Arguments are only read, never changed, once handed to the host; the CLI
   * freezes the ones it hands again, and only those are remembered.
   */
  private keyOf(formula: string, args: Arg[]): string {
    // Only an array its caller froze is handed again as is (the CLI binds each formula text once). Excel
    // passes a new array on every call: remembering those would be an entry per call for nothing, and an
    // array changed after a call would keep its old key.
    const reused = Object.isFrozen(args);
    const known = reused ? this.keys.get(args) : undefined;
    if (known !== undefined && known.charCodeAt(formula.length) === 0 && known.startsWith(formula)) return known;
    const key = `${formula}\u0000${JSON.stringify(args)}`;
    if (reused) this.keys.set(args, key);
    return key;
  }

  /** A cancel() that counts once: the last cancelable caller to go cancels the evaluation. */
  private canceller(entry: SharedEvaluation): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--entry.cancelable > 0 || entry.pinned) return;
      if (this.inFlight.get(entry.key) === entry) this.inFlight.delete(entry.key);
      entry.controller?.abort();
    };
  }

  private share(formula: string, fn: FormulaFn, key: string, args: Arg[], cancelable: boolean, address?: string): SharedEvaluation {
    // No controller (and no signal for the client to listen to) unless a caller can cancel: a
    // call's requests end by its deadline bucket's signal all the same.
    const entry: SharedEvaluation = {
      // The calling cell is known before the start: a result known at once is recorded as it starts.
      key, formula, fn, args, promise: null as unknown as Promise<FormulaResult>, resolve: null, reject: null,
      addresses: address ? [address] : NO_ADDRESSES, addressSet: undefined, fetches: NO_FETCHES, controller: cancelable ? new AbortController() : null, cancelable: 0, pinned: false, done: false,
    };
    // Runs now, or in a later slice (see slices.ts): then it is waited for.
    if (!this.slices.offer(entry)) waitFor(entry);
    if (!entry.done) this.inFlight.set(key, entry); // a result known at once has nothing to share
    return entry;
  }

  /**
   * Runs the formula. No async frame, no race and no wrapper promise per
   * evaluation: thousands wait at once, and each object that waits is memory
   * the garbage collector keeps copying. The deadline's bucket settles an
   * evaluation still waiting when it passes (call-deadline.ts), so a call
   * Excel cannot cancel still stops its requests and settles.
   */
  private run(entry: SharedEvaluation): void {
    const bucket = this.deadlines.open();
    const signal = entry.controller?.signal ?? bucket.signal;
    // The client as this evaluation sees it: every answer it reads is noted for its provenance.
    const client = trackingClient(this.client, entry.formula, signal, entry, this.now, this.quoteSightings);
    const ctx: FormulaContext = { client, settings: this.settings, now: this.now, caller: entry.formula, signal, provenance: this.provenance, refusedGuesses: this.refusedGuesses };
    let pending: Promise<FormulaResult> | FormulaResult;
    try {
      pending = entry.fn(ctx, ...entry.args);
    } catch (e) {
      return this.conclude(entry, false, e);
    }
    // Known at once: nothing to wait for, no deadline to keep.
    if (!(pending instanceof Promise)) return this.conclude(entry, true, pending);
    waitFor(entry);
    this.deadlines.join(bucket, entry);
    pending.then(
      (result) => {
        this.deadlines.leave(bucket, entry);
        this.conclude(entry, true, result);
      },
      (e: unknown) => {
        this.deadlines.leave(bucket, entry);
        this.conclude(entry, false, e);
      },
    );
  }

  /** Settles the evaluation once (an answer after its deadline is too late): its result, or the last good value, or the error. */
  private conclude(entry: SharedEvaluation, ok: boolean, outcome: unknown): void {
    if (entry.done) return;
    let result: FormulaResult;
    try {
      result = this.presented(ok ? this.succeeded(entry, outcome as FormulaResult) : this.failed(entry, outcome));
    } catch (e) {
      if (entry.reject) entry.reject(e);
      else entry.promise = Promise.reject(e);
      return;
    }
    if (entry.resolve) entry.resolve(result);
    else entry.promise = Promise.resolve(result);
  }

  /** The result as the callers get it (a workbook's own conventions: the CLI's WorkbookHost); as is here. */
  protected presented(result: FormulaResult): FormulaResult {
    return result;
  }

  /** The evaluation is over: calls from now on start a new one. */
  private settled(entry: SharedEvaluation): void {
    entry.done = true;
    if (this.inFlight.get(entry.key) === entry) this.inFlight.delete(entry.key);
  }

  private succeeded(entry: SharedEvaluation, result: FormulaResult): FormulaResult {
    const { formula } = entry;
    this.settled(entry);
    const sum = summarize(entry.fetches);
    // The same value again (a price from the quote cache) keeps its entry: get() marks it recently used.
    const known = this.lastGood.get(entry.key);
    if (known?.result !== result || known.fetchedAt !== sum.fetchedAt) this.lastGood.set(entry.key, { result, fetchedAt: sum.fetchedAt });
    this.log.cellErrors(formula, result);
    this.recorded(formula, entry, sum, result, null);
    // A value a failed refresh left stale in the client's cache is marked where the workbook shows it.
    return sum.freshness === 'stale' && this.settings.markStale ? markStale(result) : result;
  }

  private failed(entry: SharedEvaluation, e: unknown): FormulaResult {
    const { formula } = entry;
    this.settled(entry);
    const err = toFormulaError(e, formula);
    const known = err.lastGood ? this.lastGood.get(entry.key) : undefined;
    this.log.failed(formula, err, known !== undefined);
    const failure = { code: err.apiCode ?? err.code, message: err.message };
    if (known) {
      // The last good value stands in: its own fetch time, marked stale in the cell.
      this.recorded(formula, entry, { fetchedAt: known.fetchedAt, freshness: 'stale', credits: summarize(entry.fetches).credits }, known.result, failure);
      return this.settings.markStale ? markStale(known.result) : known.result;
    }
    this.recorded(formula, entry, summarize(entry.fetches), null, failure);
    throw err;
  }

  /** Where the answer came from, by the cells it went to (provenance.ts). */
  private recorded(
    formula: string,
    entry: SharedEvaluation,
    sum: Pick<Provenance, 'fetchedAt' | 'freshness' | 'credits'>,
    result: FormulaResult | null,
    error: { code: string; message: string } | null,
  ): void {
    if (formula === 'ASOF') return; // reading provenance is not an answer of its own
    const size = Array.isArray(result) ? resultSize(result) : null;
    this.provenance.record({
      time: this.now(),
      formula,
      args: entry.args,
      addresses: entry.addresses,
      fetches: entry.fetches,
      fetchedAt: sum.fetchedAt,
      freshness: sum.freshness,
      credits: sum.credits,
      error,
      rows: size ? size.rows : 1,
      cols: size ? size.cols : 1,
      result: result ?? undefined,
    });
  }

  /**
   * A failure of a formula that does not run through evaluate() (LIVEPRICE's
   * stream): logged like every other formula's; the cell error to show.
   * `servedLastGood`: the cell keeps its last good value, so the entry says so
   * as PRICE's does (review 2026-11-27: LIVEPRICE's entries never did).
   */
  report(formula: string, e: unknown, servedLastGood = false): FormulaError {
    const err = toFormulaError(e, formula);
    this.log.failed(formula, err, servedLastGood);
    return err;
  }

  /** Recent errors, newest first (error-log.ts). */
  errors(): readonly ErrorLogEntry[] {
    return this.log.newestFirst();
  }

  /** Forget last good values too: after "Refresh all data" the user wants fresh numbers or a clear error. */
  clearLastGood(): void {
    this.lastGood.clear();
  }
}

export { FormulaError };
export type { ErrorLogEntry };
