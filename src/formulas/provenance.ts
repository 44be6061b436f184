/**
 * Where each answer came from: for every formula evaluation, the answers it
 * read (endpoint, when fetched, from the cache or not, stale or not) and what
 * they cost by the endpoint table, kept by the cell that asked (Excel's
 * invocation.address) and in a short log of recent evaluations. CRYPTO.ASOF
 * reads it from the sheet; the task pane writes the log to a sheet.
 *
 * Fetch times come from what the client's public API gives: get/getPages
 * answer with fetchedAt, stale and fromCache. A quote carries only `stale`: its
 * fetch time is when this runtime first saw that quote object (the quote cache
 * hands out the same object until the next fetch), a few milliseconds after the
 * markets answer arrived.
 */
import { LRUCache } from 'lru-cache';
import { ENDPOINTS, creditCost, type EndpointName } from '../api/endpoints';
import { fieldArg, type Arg } from './args';
import { DateCell, FormattedCell, DATE_FORMATS, invalidValue, notAvailable, toSerial, type Cell, type FormulaResult, type Grid } from './cells';
import type { Catalog, FormulaContext } from './host';

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

/** One evaluation of a formula, as the pane's log and CRYPTO.ASOF show it. */
export interface Provenance {
  /** When the evaluation settled (epoch ms). */
  time: number;
  /** "PRICE" */
  formula: string;
  /** The arguments as the function got them (for the log when the cell's own formula cannot be read). */
  args: readonly unknown[];
  /** Calling cells ("Sheet1!B3"), where the host was told. */
  addresses: string[];
  fetches: Fetch[];
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

/** Credits of an answer by the endpoint table: buckets endpoints charge by the items returned. */
export function answerCredits(endpoint: string, query: Readonly<Record<string, unknown>> | undefined, items: number): number {
  if (!Object.hasOwn(ENDPOINTS, endpoint)) return 0;
  const q: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(query ?? {})) q[k] = v === undefined || v === null ? undefined : String(v);
  const name = endpoint as EndpointName;
  const spec = ENDPOINTS[name] as { cost: string; pageSize?: number };
  if (spec.cost !== 'buckets') return creditCost(name, q, items);
  // A time series read in several pages is charged page by page.
  const page = Number(q.limit) || spec.pageSize || items || 1;
  let credits = 0;
  for (let left = Math.max(items, 0); ; left -= page) {
    credits += creditCost(name, q, Math.min(left, page));
    if (left <= page) break;
  }
  return credits;
}

const QUOTE_SEEN = new WeakMap<object, number>();

interface FetchedLike {
  data?: unknown;
  stale?: unknown;
  fetchedAt?: unknown;
  fromCache?: unknown;
}

/** The client's calls a formula makes (MarketClient's, in the shape formulas use). */
interface ClientLike {
  get(name: string, req?: { query?: Record<string, unknown> }): Promise<FetchedLike>;
  getPages(name: string, req: { query?: Record<string, unknown> }): Promise<FetchedLike>;
  quote(coin: unknown, opts?: { currency?: unknown }): Promise<unknown>;
  resolveCoin(input: unknown, opts?: unknown): Promise<unknown>;
  status(opts?: unknown): Promise<unknown>;
  lastFailure(caller?: string): unknown;
  readonly meter: unknown;
  readonly ambiguities: unknown;
  readonly queuedForRate: number;
  readonly rateLimitPerMinute: number;
}

/**
 * The client as one evaluation sees it: the same calls, and every answer it
 * reads noted in `into`. A small class rather than a Proxy: a column of
 * thousands of cells makes one each, on the path a warm recalculation times.
 */
class TrackingClient {
  constructor(
    private readonly c: ClientLike,
    private readonly into: Fetch[],
    private readonly now: () => number,
  ) {}

  private note(endpoint: string, query: Readonly<Record<string, unknown>> | undefined, r: FetchedLike): void {
    if (typeof r !== 'object' || r === null) return;
    const fromCache = r.fromCache === true;
    this.into.push({
      endpoint,
      fetchedAt: typeof r.fetchedAt === 'number' ? r.fetchedAt : this.now(),
      stale: r.stale === true,
      fromCache,
      credits: fromCache || r.stale === true ? 0 : answerCredits(endpoint, query, Array.isArray(r.data) ? r.data.length : 1),
    });
  }

  get(name: string, req?: { query?: Record<string, unknown> }): Promise<FetchedLike> {
    return this.c.get(name, req).then((r) => (this.note(name, req?.query, r), r));
  }
  getPages(name: string, req: { query?: Record<string, unknown> }): Promise<FetchedLike> {
    return this.c.getPages(name, req).then((r) => (this.note(name, req?.query, r), r));
  }
  quote(coin: unknown, opts?: { currency?: unknown }): Promise<unknown> {
    return this.c.quote(coin, opts).then((q) => {
      if (typeof q === 'object' && q !== null) {
        let seen = QUOTE_SEEN.get(q);
        const first = seen === undefined;
        if (first) QUOTE_SEEN.set(q, (seen = this.now()));
        const stale = (q as { stale?: unknown }).stale === true;
        const currency = typeof opts?.currency === 'string' ? opts.currency : 'USD';
        this.into.push({ endpoint: 'markets', fetchedAt: seen!, stale, fromCache: !first, credits: first && !stale ? creditCost('markets', { convert: currency }) : 0 });
      }
      return q;
    });
  }
  resolveCoin(input: unknown, opts?: unknown): Promise<unknown> {
    return this.c.resolveCoin(input, opts);
  }
  status(opts?: unknown): Promise<unknown> {
    return this.c.status(opts);
  }
  lastFailure(caller?: string): unknown {
    return this.c.lastFailure(caller);
  }
  get meter(): unknown {
    return this.c.meter;
  }
  get ambiguities(): unknown {
    return this.c.ambiguities;
  }
  get queuedForRate(): number {
    return this.c.queuedForRate;
  }
  get rateLimitPerMinute(): number {
    return this.c.rateLimitPerMinute;
  }
}

/** The client behind an evaluation's tracking one: what work shared across cells (HISTORICAL's coalescer) is keyed by. */
export function untracked<C extends object>(client: C): C {
  return client instanceof TrackingClient ? ((client as unknown as { c: C }).c) : client;
}

/** An answer that reached the evaluation by another way than its own call (a coalesced batch), noted for its provenance. */
export function noteFetch(client: object, f: Fetch): void {
  if (client instanceof TrackingClient) (client as unknown as { into: Fetch[] }).into.push(f);
}

/** The client as one evaluation sees it (TrackingClient): typed as the client the formulas take. */
export function trackingClient<C extends object>(client: C, into: Fetch[], now: () => number): C {
  return new TrackingClient(client as unknown as ClientLike, into, now) as unknown as C;
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
 * reading them still work). Dates and text are left as they are.
 */
export function markStale(result: FormulaResult): FormulaResult {
  const mark = (c: Cell): Cell => (typeof c === 'number' ? new FormattedCell(c, STALE_FORMAT) : c);
  return Array.isArray(result) ? (result as Grid).map((row) => row.map(mark)) : mark(result);
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
  readonly #log: Provenance[] = [];

  constructor(maxCells = 20_000) {
    super();
    this.#byAddress = new LRUCache({ max: maxCells });
  }

  #notifying = false;

  record(p: Provenance): void {
    for (const a of p.addresses) this.#byAddress.set(normalize(a), p);
    this.#log.push(p);
    if (this.#log.length > LOG_SIZE) this.#log.shift();
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
    for (let i = this.#log.length - 1; i >= 0; i--) {
      const p = this.#log[i];
      if (p.result === undefined || p.error) continue;
      const got = plainGrid(p.result);
      if (got && sameGrid(got, want)) return p;
    }
    return null;
  }

  /** Recent evaluations, newest first. */
  recent(): readonly Provenance[] {
    return [...this.#log].reverse();
  }

  clear(): void {
    this.#byAddress.clear();
    this.#log.length = 0;
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

// ---------------------------------------------------------------- CRYPTO.ASOF

export const ASOF_FIELDS = ['fetchedAt', 'status', 'endpoint', 'credits', 'error'] as const;
export type AsOfField = (typeof ASOF_FIELDS)[number];
/** ASOF's field argument: one field, or "all" for the Field/Value table. */
const ASOF_CHOICES = [...ASOF_FIELDS, 'all'] as const;

export const FRESHNESS_WORDS: Record<Freshness, string> = {
  fresh: 'fresh',
  cached: 'cached',
  stale: 'stale',
  none: 'no data',
};

/** One field of a provenance, or all of them as a Field/Value table. */
export function asOfCells(p: Provenance, field: AsOfField | null): FormulaResult {
  const endpoints = [...new Set(p.fetches.map((f) => f.endpoint))].join(', ');
  const fetched: Cell = p.fetchedAt === null ? '' : new DateCell(toSerial(p.fetchedAt), `${DATE_FORMATS.dateTime}:ss`);
  const values: Record<AsOfField, Cell> = {
    fetchedAt: fetched,
    status: FRESHNESS_WORDS[p.freshness],
    endpoint: endpoints,
    credits: p.credits,
    error: p.error ? p.error.message : '',
  };
  if (field) {
    if (field === 'fetchedAt' && p.fetchedAt === null) {
      throw notAvailable(p.error ? `No answer was fetched: ${p.error.message}` : 'This CRYPTO cell fetched nothing (its answer needs no request)');
    }
    return values[field];
  }
  const labels: Record<AsOfField, string> = {
    fetchedAt: 'Fetched at (UTC)',
    status: 'Status',
    endpoint: 'Endpoint',
    credits: 'Credits',
    error: 'Error',
  };
  return [['Field', 'Value'], ...ASOF_FIELDS.map((f) => [labels[f], values[f]])];
}

/** The top-left cell of a reference: "Sheet1!B2:G30" → "Sheet1!B2". */
const firstCell = (address: string) => address.replace(/:[^!]*$/, '');

/**
 * CRYPTO.ASOF(cell, [field]): when the answer shown at `cell` (a CRYPTO
 * formula's cell or a cell of its spill) was fetched, whether it is fresh,
 * reused from the cache or stale (the last good value after a failure), which
 * endpoint answered, its credits, its error. The glue passes the cell's
 * address (requiresParameterAddresses) as the third argument; the reference
 * itself makes Excel recalculate ASOF when that cell's answer arrives.
 */
function asof(ctx: FormulaContext, cell: Arg, field: Arg, address: Arg): Promise<FormulaResult> {
  const f = fieldArg(field, ASOF_CHOICES) ?? 'fetchedAt';
  let p: Provenance | null | undefined;
  if (typeof address === 'string' && address.includes('!')) {
    const at = firstCell(address);
    p = ctx.provenance?.at(at);
    if (!p) {
      return Promise.reject(
        notAvailable(`No CRYPTO answer at ${at} since the add-in started: ASOF knows the answers fetched in this session (refresh the cell to fetch it)`),
      );
    }
  } else {
    // A value, not a cell (a nested call): the most recent answer equal to it.
    const given = Array.isArray(cell) ? cell.flat(2) : [cell];
    if (given.length === 0 || given.every((x) => x === null || x === undefined || x === '')) {
      return Promise.reject(invalidValue('cell must be a cell with a CRYPTO formula, or a cell it spills into, e.g. =CRYPTO.ASOF(B2)'));
    }
    p = ctx.provenance?.byValue(cell);
    if (!p) return Promise.reject(notAvailable('No CRYPTO answer with this value since the add-in started: point ASOF at the cell, e.g. =CRYPTO.ASOF(B2)'));
  }
  try {
    return Promise.resolve(asOfCells(p, f === 'all' ? null : f));
  } catch (e) {
    return Promise.reject(e);
  }
}

export const provenanceFormulas: Catalog = { ASOF: asof };
