/**
 * The formula builder's model: which fields a formula's arguments become
 * (from functions.json: types, optional, repeating, custom enums for choice
 * lists), the formula text and the arguments Excel would hand the function,
 * checking them with the formula's own code (a dry run: the formula runs with
 * a client that answers nothing, so its argument readers in
 * src/formulas/args.ts speak before any request), and the requests it would
 * make, priced by the endpoint table (src/api/endpoints.ts). Pure: no DOM.
 */
import type { HistoricalKey } from '../client/historical-batcher';
import { ENDPOINTS, creditCost, type EndpointName } from '../api/endpoints';
import type { CoinRef } from '../client';
import { FormulaError } from '../formulas/cells';
import type { FormulaContext, FormulaFn, Settings } from '../formulas/host';

export interface ParamMeta {
  name: string;
  description?: string;
  type?: string;
  dimensionality?: 'scalar' | 'matrix';
  optional?: boolean;
  repeating?: boolean;
  customEnumId?: string;
}
export interface FunctionMeta {
  id: string;
  name: string;
  description: string;
  parameters: ParamMeta[];
  result?: { dimensionality?: string };
  options?: { stream?: boolean };
}
export interface EnumMeta {
  id: string;
  values: { name: string; stringValue?: string; numberValue?: number; tooltip?: string }[];
}
export interface FunctionsJson {
  functions: FunctionMeta[];
  enums?: EnumMeta[];
}

export type FieldKind = 'coin' | 'coins' | 'choice' | 'multi' | 'date' | 'number' | 'flag' | 'headers' | 'list' | 'text';

export interface Choice {
  value: string;
  label: string;
}

export interface Field {
  name: string;
  kind: FieldKind;
  label: string;
  hint: string;
  required: boolean;
  /** What a required field is filled with in the examples and the generated test; the placeholder otherwise. */
  example: string;
  choices: Choice[];
}

/**
 * What a parameter holds where functions.json cannot say (it types them any,
 * string or number): one table, by parameter name.
 */
const BY_NAME: Record<string, { kind: FieldKind; example?: string }> = {
  coin: { kind: 'coin' },
  coins: { kind: 'coins' },
  benchmark: { kind: 'text', example: 'bitcoin' },
  start: { kind: 'date', example: '2024-01-01' },
  end: { kind: 'date', example: '2024-06-30' },
  date: { kind: 'date', example: '2024-01-01' },
  headers: { kind: 'headers' },
  excludeStablecoins: { kind: 'flag' },
  includeUntracked: { kind: 'flag' },
  count: { kind: 'number', example: '10' },
  riskFree: { kind: 'number', example: '0.04' },
  intervalSeconds: { kind: 'number', example: '60' },
  daysAhead: { kind: 'number', example: '30' },
  minUsdAmount: { kind: 'number', example: '1000000' },
  minPercentOfMcap: { kind: 'number', example: '1' },
  ecosystem: { kind: 'number', example: '1' },
  chain: { kind: 'text', example: 'ethereum' },
  query: { kind: 'text', example: 'bitcoin' },
  category: { kind: 'text', example: '' },
  tag: { kind: 'text', example: '' },
};

/** Formulas the builder does not offer: ASOF points at a cell, which a form field cannot be. */
const NOT_BUILT = new Set(['ASOF']);

export const builderFunctions = (meta: FunctionsJson): FunctionMeta[] => meta.functions.filter((f) => !NOT_BUILT.has(f.id));

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());

export function fieldsOf(fn: FunctionMeta, meta: FunctionsJson): Field[] {
  return fn.parameters.map((p) => {
    const named = BY_NAME[p.name];
    const e = p.customEnumId ? meta.enums?.find((x) => x.id === p.customEnumId) : undefined;
    let kind: FieldKind = named?.kind ?? (p.type === 'number' ? 'number' : p.dimensionality === 'matrix' ? 'list' : 'text');
    if (e && !named) kind = p.repeating ? 'multi' : 'choice';
    const choices: Choice[] = e
      ? e.values.map((v) => ({ value: v.stringValue ?? String(v.numberValue ?? v.name), label: v.tooltip ? `${v.stringValue ?? v.name}: ${v.tooltip.replace(/^(Field|Value|Column): /, '')}` : (v.stringValue ?? v.name) }))
      : kind === 'headers'
        ? [{ value: '1', label: '1: show the header row' }, { value: '0', label: '0: no header row' }]
        : kind === 'flag'
          ? [{ value: 'TRUE', label: 'TRUE' }, { value: 'FALSE', label: 'FALSE' }]
          : [];
    const required = !p.optional && !p.repeating;
    const example = named?.example ?? (kind === 'choice' && required ? choices[0]?.value ?? '' : '');
    return { name: p.name, kind, label: words(p.name), hint: p.description ?? '', required, example, choices };
  });
}

/** What the form holds: a field's text (or several, for a repeating choice); the coin comes from the search. */
export type FormValues = Record<string, string | string[]>;

export interface BuiltCall {
  /** "=CRYPTO.OHLCV(\"solana\",\"2024-01-01\")" */
  text: string;
  /** The arguments as Excel hands them to the function (omitted: null; matrix: 2-D; repeating: a list). */
  args: unknown[];
  /** Fields whose text is not of their kind (before the formula is asked). */
  errors: Record<string, string>;
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

interface Arg {
  text: string;
  value: unknown;
}

/** One field's text as a formula argument, or null when left empty. */
function argOf(f: Field, p: ParamMeta, raw: string): Arg | string | null {
  const t = raw.trim();
  if (t === '') return null;
  switch (f.kind) {
    case 'number':
    case 'headers': {
      if (!NUMBER.test(t)) return `${f.name} must be a number; got "${t}"`;
      const n = Number(t);
      return { text: String(n), value: n };
    }
    case 'flag':
      return /^true$/i.test(t) ? { text: 'TRUE', value: true } : { text: 'FALSE', value: false };
    case 'text':
      // An id where an id or a name is taken (a category, a chain): a number, as typed in a cell.
      if (p.type !== 'string' && NUMBER.test(t)) return { text: String(Number(t)), value: Number(t) };
      return { text: quote(t), value: t };
    default:
      return { text: quote(t), value: t };
  }
}

/** The formula for these fields and coin: its text and the arguments the function would get. */
export function buildCall(fn: FunctionMeta, fields: readonly Field[], values: FormValues, coin: CoinRef | null): BuiltCall {
  const texts: string[] = [];
  const args: unknown[] = [];
  const errors: Record<string, string> = {};
  fn.parameters.forEach((p, i) => {
    const f = fields[i];
    const matrix = p.dimensionality === 'matrix';
    if (f.kind === 'coin' || f.kind === 'coins') {
      const others = f.kind === 'coins' ? String(values[f.name] ?? '').split(',').map((s) => s.trim()).filter(Boolean) : [];
      const list = [...(coin ? [coin.slug] : []), ...others];
      if (list.length === 0) {
        texts.push('');
        args.push(null);
      } else if (list.length === 1) {
        texts.push(quote(list[0]));
        args.push(matrix ? [[list[0]]] : list[0]);
      } else {
        texts.push(`{${list.map(quote).join(';')}}`); // a column, as a range of coins is
        args.push(list.map((c) => [c]));
      }
      return;
    }
    if (p.repeating) {
      const chosen = ([] as string[]).concat(values[f.name] ?? []).map((s) => s.trim()).filter(Boolean);
      texts.push(...chosen.map(quote));
      args.push(chosen);
      return;
    }
    const a = argOf(f, p, String(values[f.name] ?? ''));
    if (typeof a === 'string') {
      errors[f.name] = a;
      texts.push('');
      args.push(null);
      return;
    }
    texts.push(a ? a.text : '');
    args.push(a === null ? null : matrix ? [[a.value]] : a.value);
  });
  while (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
  return { text: `=CRYPTO.${fn.name}(${texts.join(',')})`, args, errors };
}

// ---------------------------------------------------------------- the dry run

/** A request the formula would make. */
export interface PlannedRequest {
  kind: 'get' | 'pages' | 'quote';
  endpoint: string;
  query: Record<string, unknown>;
  maxItems?: number;
  coinId?: number;
}

export interface DryRun {
  /** The formula refused its arguments before asking for data: #VALUE! (or #N/A) and its message. */
  error: { code: string; message: string; field: string | null } | null;
  requests: PlannedRequest[];
  /**
   * False when the formula stopped on the dry run's empty answers before its
   * last request (a lookup such as the blockchain list, whose answer decides
   * the next request): the requests seen are then only the first ones.
   */
  complete: boolean;
}

/** The formula's answer is not needed: the dry run ends where data would be. */
class DataWouldBeFetched extends Error {}

export interface DryRunDeps {
  settings: Settings;
  now: () => number;
  /** A coin by what the formula asks for (from the currency map: no request). */
  resolve(input: string | number): CoinRef | null;
  /** The real client, for what formulas read without a request (the plan, the rate). */
  client: object;
}

/**
 * Runs the formula with a client that answers no request: argument errors
 * surface as they would in the cell; the requests it starts are noted. An
 * error after the first request depends on data and says nothing about the
 * arguments.
 */
export async function dryRun(id: string, fn: FormulaFn, args: unknown[], params: readonly string[], deps: DryRunDeps): Promise<DryRun> {
  const requests: PlannedRequest[] = [];
  let asked = false;
  const empty = () => ({ data: [], stale: false, fetchedAt: deps.now(), fromCache: false });
  const probe = new Proxy(deps.client, {
    get(target, key) {
      switch (key) {
        case 'resolveCoin':
          return async (input: string | number) => {
            const c = deps.resolve(input);
            if (!c) throw Object.assign(new Error(`Unknown coin "${String(input)}"`), { code: 'UNKNOWN_COIN' });
            return c;
          };
        case 'get':
        case 'getPages':
          return async (endpoint: string, req: { id?: number; query?: Record<string, unknown>; maxItems?: number } = {}) => {
            asked = true;
            requests.push({ kind: key === 'get' ? 'get' : 'pages', endpoint, query: { ...req.query }, maxItems: req.maxItems, coinId: req.id });
            return empty();
          };
        case 'quote':
          return async (coin: unknown, o: { currency?: string } = {}) => {
            asked = true;
            const ref = typeof coin === 'object' && coin !== null ? (coin as CoinRef) : deps.resolve(coin as string);
            requests.push({ kind: 'quote', endpoint: 'markets', query: { convert: o.currency ?? 'USD' }, coinId: ref?.id });
            throw new DataWouldBeFetched();
          };
        case 'quoteNow':
          return () => undefined; // nothing is cached for a dry run: quote() records the request
        case 'historical':
          // HISTORICAL's coalesced request for this one coin (client/historical-batcher.ts).
          return async (k: HistoricalKey) => {
            asked = true;
            const query = { date: new Date(k.date).toISOString(), currencyIds: String(k.id), convert: k.currency === 'USD' ? undefined : k.currency };
            requests.push({ kind: 'get', endpoint: 'historicalItem', query, coinId: k.id });
            throw new DataWouldBeFetched();
          };
        case 'status':
          return async () => {
            throw new DataWouldBeFetched();
          };
        default: {
          const v = Reflect.get(target, key, target);
          return typeof v === 'function' ? v.bind(target) : v;
        }
      }
    },
  });
  const ctx: FormulaContext = { client: probe as FormulaContext['client'], settings: deps.settings, now: deps.now, caller: id };
  try {
    await fn(ctx, ...args);
    return { error: null, requests, complete: true };
  } catch (e) {
    if (e instanceof DataWouldBeFetched) return { error: null, requests, complete: true };
    // Empty answers the formula could not go on from: what comes after is not known.
    if (asked) return { error: null, requests, complete: !requests.some((r) => LOOKUPS.has(r.endpoint)) };
    const code = e instanceof FormulaError ? e.code : (e as { code?: unknown })?.code === 'UNKNOWN_COIN' ? '#N/A' : '#VALUE!';
    const message = e instanceof Error ? e.message : String(e);
    // The formulas' messages name the argument first: "start must be…", "interval is required…".
    const first = /^([A-Za-z]+)\b/.exec(message)?.[1] ?? '';
    const field = params.find((p) => p.toLowerCase() === first.toLowerCase()) ?? null;
    return { error: { code, message, field }, requests, complete: true };
  }
}

/** Lists a formula looks an argument up in before asking for its data (a chain by name, a category by slug). */
const LOOKUPS = new Set(Object.keys(ENDPOINTS).filter((n) => (ENDPOINTS[n as EndpointName] as { freshness: string }).freshness === 'reference'));

// ---------------------------------------------------------------- credits

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Time-series buckets between `from` and `to` (both included, as the API counts them), by interval. */
export function bucketsBetween(from: number, to: number, interval: string): number {
  if (!Number.isFinite(from) || !Number.isFinite(to) || to < from) return 0;
  if (interval === 'hour' || interval === '1h') return Math.floor(to / HOUR) - Math.floor(from / HOUR) + 1;
  if (interval === 'week') return Math.floor((to - from) / (7 * DAY)) + 1;
  if (interval === 'month') {
    const a = new Date(from);
    const b = new Date(to);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1;
  }
  return Math.floor(to / DAY) - Math.floor(from / DAY) + 1;
}

const timeOf = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN);

export interface CostEstimate {
  credits: number;
  /** Where the figure comes from, one line a request. */
  lines: string[];
  /** False where the table cannot say exactly (pages of a list whose length is not known). */
  exact: boolean;
}

/**
 * The credits the requests cost by the endpoint table when nothing is cached:
 * flat endpoints 1, the markets list 1 (+1 in a currency other than USD), time
 * series 1 per 100 buckets begun (1 + 1 per 100 beyond the first 100).
 */
export function estimateCredits(requests: readonly PlannedRequest[], now: number, complete = true): CostEstimate {
  let credits = 0;
  let exact = complete;
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const r of requests) {
    const key = JSON.stringify([r.kind, r.endpoint, r.coinId, r.query]);
    if (seen.has(key)) continue; // the client asks once for the same request
    seen.add(key);
    if (!Object.hasOwn(ENDPOINTS, r.endpoint)) continue;
    const name = r.endpoint as EndpointName;
    const spec = ENDPOINTS[name] as { cost: string; pageSize?: number; paging?: string; params: Record<string, { default?: unknown }> };
    const q: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(r.query)) q[k] = v === undefined || v === null ? undefined : String(v);
    let c: number;
    if (spec.cost === 'buckets') {
      const to = Math.min(q.to !== undefined ? timeOf(q.to) : now, now);
      const from = q.from !== undefined ? timeOf(q.from) : to - 30 * DAY;
      const interval = q.interval ?? String(spec.params.interval?.default ?? 'day');
      const buckets = bucketsBetween(from, to, interval);
      const page = Number(q.limit ?? spec.params.limit?.default) || buckets || 1;
      c = 0;
      for (let left = buckets; ; left -= page) {
        c += creditCost(name, q, Math.min(Math.max(left, 0), page));
        if (left <= page) break;
      }
      lines.push(`${name}: ${buckets} ${interval === 'day' ? 'days' : `${interval}s`}, ${c} credit${c === 1 ? '' : 's'}`);
    } else if (r.kind === 'pages' && spec.paging) {
      const pageSize = spec.pageSize ?? 100;
      const pages = r.maxItems ? Math.max(1, Math.ceil(r.maxItems / pageSize)) : 1;
      if (!r.maxItems) exact = false;
      c = pages * creditCost(name, { ...q, limit: String(pageSize) });
      lines.push(`${name}: ${pages} page${pages === 1 ? '' : 's'}${r.maxItems ? '' : ' or more'}, ${c} credit${c === 1 ? '' : 's'}`);
    } else {
      c = creditCost(name, q);
      lines.push(`${r.kind === 'quote' ? 'markets (the coin\'s page of prices)' : name}: ${c} credit${c === 1 ? '' : 's'}`);
    }
    credits += c;
  }
  if (!complete) lines.push('then the data it names');
  return { credits, lines, exact };
}
