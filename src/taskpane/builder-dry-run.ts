/**
 * The builder's dry run: the formula runs with a client that answers nothing,
 * so its argument readers (src/formulas/args.ts) speak before any request, and
 * the requests it would start are noted for the cost (builder-cost.ts).
 */
import { ENDPOINTS, isPlan, planAllows, type EndpointName, type Plan } from '../api/endpoints';
import type { CoinRef } from '../client';
import { ApiError } from '../client/api-error';
import { planNeeded } from '../client/error-rules';
import type { HistoricalKey } from '../client/historical-batcher';
import { toFormulaError } from '../formulas/failure';
import type { FormulaContext, FormulaFn, Settings } from '../formulas/formula-context';
import { isReachCheck } from '../formulas/reach';

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
            if (!c) throw new ApiError({ code: 'UNKNOWN_COIN', message: `Unknown coin "${String(input)}"` });
            return c;
          };
        case 'get':
        case 'getPages':
          return async (endpoint: string, req: { id?: number; query?: Record<string, unknown>; maxItems?: number } = {}) => {
            // A check on an answer that did not cover its range follows only this run's empty answers: not a cost.
            if (key === 'get' && isReachCheck(endpoint, req.query)) throw new DataWouldBeFetched();
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
    // What the cell would show: the same mapping as the calculation host's.
    const { code, message } = toFormulaError(e, id.toUpperCase());
    // The formulas' messages name the argument first: "start must be…", "interval is required…".
    const first = /^([A-Za-z]+)\b/.exec(message)?.[1] ?? '';
    const field = params.find((p) => p.toLowerCase() === first.toLowerCase()) ?? null;
    return { error: { code, message, field }, requests, complete: true };
  }
}

/**
 * The plan the requests need when the account's is lower, as a sentence to follow the cost;
 * '' when its plan has them all, or is not one the add-in knows.
 */
export function planNote(requests: readonly PlannedRequest[], plan: string | undefined): string {
  if (!plan || !isPlan(plan)) return '';
  const needs = requests
    .map((r): Plan => (Object.hasOwn(ENDPOINTS, r.endpoint) ? planFor(plan, r.endpoint as EndpointName) : 'Sandbox'))
    .find((p) => !planAllows(plan, p));
  return needs ? ` ${planNeeded('It', needs, `yours: ${plan}`)}: the cell would show #N/A.` : '';
}

/** The plan a request needs from an account on `plan`: its stand-in's where the endpoint has one (SEARCH answers from the map). */
function planFor(plan: Plan, name: EndpointName): Plan {
  const spec: { plan: Plan; standIn?: string } = ENDPOINTS[name];
  const standIn = spec.standIn !== undefined && Object.hasOwn(ENDPOINTS, spec.standIn) ? ENDPOINTS[spec.standIn as EndpointName].plan : null;
  return standIn !== null && !planAllows(plan, spec.plan) ? standIn : spec.plan;
}

/** Lists a formula looks an argument up in before asking for its data (a chain by name, a category by slug). */
const LOOKUPS = new Set(Object.keys(ENDPOINTS).filter((n) => (ENDPOINTS[n as EndpointName] as { freshness: string }).freshness === 'reference'));
