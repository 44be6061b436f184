/**
 * Where each answer came from: for every formula evaluation, the answers it
 * read (endpoint, when fetched, from the cache or not, stale or not) and what
 * they cost by the endpoint table, kept by the cell that asked (Excel's
 * invocation.address) and in a short log of recent evaluations. CRYPTO.ASOF
 * (asof.ts) reads it from the sheet; the task pane writes the log to a sheet.
 * The answers are noted by the evaluation's view of the client (answer-tracking.ts).
 */
import { LRUCache } from 'lru-cache';
import { DateCell, FormattedCell, type Cell, type FormulaResult, type Grid } from './cells';
import { EntityCell } from './entity-cell';

/** One answer a formula read. */
export interface Fetch {
  endpoint: string;
  /** Epoch ms (client clock). */
  fetchedAt: number;
  stale: boolean;
  fromCache: boolean;
  /** Credits this answer cost by the endpoint table (0 from the cache); an estimate where a shared request served several cells. */
  credits: number;
}

export type Freshness = 'fresh' | 'cached' | 'stale' | 'none';

/** The answers an evaluation read, noted as it reads them: none until the first (many read one, some none). */
export interface FetchLog {
  fetches: readonly Fetch[];
}

/** An empty list shared by every evaluation that has read nothing (yet). */
export const NO_FETCHES: readonly Fetch[] = Object.freeze([]);

/** Note an answer in `log`: a list of its own from the first. */
export function noteFetch(log: FetchLog, f: Fetch): void {
  if (log.fetches === NO_FETCHES) log.fetches = [f];
  else (log.fetches as Fetch[]).push(f);
}

/** One evaluation of a formula, as the pane's log and CRYPTO.ASOF show it. */
export interface Provenance {
  /** When the evaluation settled (epoch ms). */
  time: number;
  /** "PRICE" */
  formula: string;
  /** The arguments as the function got them (for the log when the cell's own formula cannot be read). */
  args: readonly unknown[];
  /** Calling cells ("Sheet1!B3"), where the host was told. */
  addresses: readonly string[];
  fetches: readonly Fetch[];
  /** Oldest answer used; null when nothing was fetched (an argument error, no key). */
  fetchedAt: number | null;
  freshness: Freshness;
  credits: number;
  /** The failure, when the evaluation failed (then `freshness` is 'stale' if the last good value stood in). */
  error: { code: string; message: string } | null;
  /** Size of what the cell shows: a spill covers this many rows and columns from its anchor. */
  rows: number;
  cols: number;
  /** The answer (shared with the host's last good values, not a copy): ASOF given a value finds it by this. */
  result?: FormulaResult;
}

/** What an evaluation's answers add up to. */
export function summarize(fetches: readonly Fetch[]): Pick<Provenance, 'fetchedAt' | 'freshness' | 'credits'> {
  if (fetches.length === 0) return { fetchedAt: null, freshness: 'none', credits: 0 };
  let fetchedAt = Number.POSITIVE_INFINITY;
  let credits = 0;
  let stale = false;
  let cached = true;
  for (const f of fetches) {
    if (f.fetchedAt < fetchedAt) fetchedAt = f.fetchedAt;
    credits += f.credits;
    stale ||= f.stale;
    cached &&= f.fromCache;
  }
  return { fetchedAt, freshness: stale ? 'stale' : cached ? 'cached' : 'fresh', credits };
}

export function resultSize(result: FormulaResult): { rows: number; cols: number } {
  if (!Array.isArray(result)) return { rows: 1, cols: 1 };
  return { rows: result.length, cols: Math.max(1, ...result.map((r) => r.length)) };
}

// ---------------------------------------------------------------- where the user looks

/** The number format a value served from the last good answer shows in: the number as General would, then "(stale)". */
export const STALE_FORMAT = 'General" (stale)"';

/**
 * The last good value standing in after a failure, marked in the cell: its
 * numbers show "(stale)" after them (their values are unchanged, so formulas
 * reading them still work). Dates and text are left as they are. An entity
 * (CRYPTO.COIN) says it too: its text, and its formatted figures (A1.Price).
 */
export function markStale(result: FormulaResult): FormulaResult {
  const mark = (c: Cell): Cell => (typeof c === 'number' ? new FormattedCell(c, STALE_FORMAT) : c instanceof EntityCell ? staleEntity(c) : c);
  return Array.isArray(result) ? (result as Grid).map((row) => row.map(mark)) : mark(result);
}

/**
 * review 2026-11-27: entities #1: a stale COIN passed for fresh beside PRICE's "(stale)". A new entity (the
 * original is shared with the last good values): "(stale)" after its text and after each formatted figure
 * but its dates; ids and names as they are, so an entity passed back still resolves.
 */
function staleEntity(e: EntityCell): EntityCell {
  const properties = { ...e.value.properties };
  for (const [name, p] of Object.entries(properties)) {
    if (p.type === 'FormattedNumber' && !e.dateProperties.includes(name)) properties[name] = { ...p, numberFormat: `${p.numberFormat}" (stale)"` };
  }
  return new EntityCell({ ...e.value, text: `${e.value.text} (stale)`, properties }, e.dateProperties);
}

// ---------------------------------------------------------------- the book

/** A1 reference "Sheet1!B3" (or "'My sheet'!B3:C4") into its sheet and 1-based row/column bounds. */
export function parseCellAddress(address: string): { sheet: string; top: number; left: number; bottom: number; right: number } | null {
  const m = /^(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/i.exec(address.trim());
  if (!m) return null;
  const col = (s: string) => [...s.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2];
  const left = col(m[3]);
  const top = Number(m[4]);
  return { sheet, top, left, bottom: m[6] ? Number(m[6]) : top, right: m[5] ? col(m[5]) : left };
}

export const LOG_SIZE = 500;

/**
 * Provenance by calling cell (bounded), and the recent evaluations, newest
 * last. A cell inside a spill is found through its anchor.
 */
export class ProvenanceBook extends EventTarget {
  readonly #byAddress: LRUCache<string, Provenance>;
  /** The recent evaluations, a ring of LOG_SIZE: shifting an array per record is work a 10,000-cell recalculation does 10,000 times. */
  readonly #log: Provenance[] = [];
  #next = 0;

  constructor(maxCells = 20_000) {
    super();
    this.#byAddress = new LRUCache({ max: maxCells });
  }

  #notifying = false;

  record(p: Provenance): void {
    for (const a of p.addresses) this.#byAddress.set(normalize(a), p);
    this.#log[this.#next] = p;
    this.#next = (this.#next + 1) % LOG_SIZE;
    // One 'recorded' event for all the answers of a task: a recalculation settles thousands at once.
    if (!this.#notifying) {
      this.#notifying = true;
      setTimeout(() => {
        this.#notifying = false;
        this.dispatchEvent(new Event('recorded'));
      }, 0);
    }
  }

  /** The answer shown at this cell: its own, or the spill's that covers it. */
  at(address: string): Provenance | null {
    const own = this.#byAddress.get(normalize(address));
    if (own) return own;
    const cell = parseCellAddress(address);
    if (!cell) return null;
    let best: Provenance | null = null;
    for (const [a, p] of this.#byAddress.entries()) {
      if (p.rows === 1 && p.cols === 1) continue;
      const anchor = parseCellAddress(a);
      if (!anchor || anchor.sheet.toLowerCase() !== cell.sheet.toLowerCase()) continue;
      if (cell.top >= anchor.top && cell.top < anchor.top + p.rows && cell.left >= anchor.left && cell.left < anchor.left + p.cols) {
        if (!best || p.time > best.time) best = p;
      }
    }
    return best;
  }

  /**
   * The most recent answer equal to this value (a nested call's result:
   * =CRYPTO.ASOF(CRYPTO.PRICE("bitcoin"))), as the workbook holds it: dates as
   * serials or formatted numbers, a 1x1 range as its value.
   */
  byValue(v: unknown): Provenance | null {
    const want = plainGrid(v);
    if (!want) return null;
    for (const p of this.recent()) {
      if (p.result === undefined || p.error) continue;
      const got = plainGrid(p.result);
      if (got && sameGrid(got, want)) return p;
    }
    return null;
  }

  /** Recent evaluations, newest first. */
  recent(): readonly Provenance[] {
    return [...this.#log.slice(this.#next), ...this.#log.slice(0, this.#next)].reverse();
  }

  clear(): void {
    this.#byAddress.clear();
    this.#log.length = 0;
    this.#next = 0;
  }
}

const normalize = (a: string) => a.replace(/\$/g, '').toUpperCase();

/** A cell as plain data: a date or formatted number as its number, an error as its code. */
function plainCell(c: unknown): unknown {
  if (c instanceof DateCell) return c.serial;
  if (c instanceof FormattedCell) return c.value;
  if (typeof c === 'object' && c !== null) {
    const o = c as { basicValue?: unknown; error?: unknown };
    if (typeof o.basicValue === 'number') return o.basicValue;
    if (typeof o.error === 'string') return o.error;
    return undefined;
  }
  return c === null ? '' : c;
}

function plainGrid(v: unknown): unknown[][] | null {
  const grid = Array.isArray(v) ? (v as unknown[]).map((r) => (Array.isArray(r) ? r : [r])) : [[v]];
  if (grid.length === 0) return null;
  return grid.map((r) => r.map(plainCell));
}

/** Equal cell by cell; numbers within a part in 10^12 (a 1904 workbook's dates differ by 1,462 days: not equal). */
function sameGrid(a: unknown[][], b: unknown[][]): boolean {
  if (a.length !== b.length) return false;
  return a.every((row, i) => row.length === b[i].length && row.every((x, j) => {
    const y = b[i][j];
    if (typeof x === 'number' && typeof y === 'number') return x === y || Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y));
    return x === y;
  }));
}

/** A freshness as the log and ASOF say it. */
export const FRESHNESS_WORDS: Record<Freshness, string> = {
  fresh: 'fresh',
  cached: 'cached',
  stale: 'stale',
  none: 'no data',
};

