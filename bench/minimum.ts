/**
 * The fewest credits a workload could possibly cost with this API, derived from
 * the workload (which coins, where they sit in the markets list, which
 * endpoints and queries), priced with creditCost from src/api/endpoints.ts —
 * never from what the client did. And the latency bound: the critical path of
 * dependent round trips.
 *
 * Counting rules:
 * - one currency map (`/v3/currencies/map`) when any coin is typed as text
 *   (slug, symbol, name); coins typed as ids need none;
 * - coins' market records: the listed ones covered by the fewest windows of
 *   250 consecutive places of the markets list (`offset` is free, so windows
 *   need not start at a multiple of 250; greedy from the best rank is optimal),
 *   one markets request each; unlisted coins one profile each. The guessed
 *   batch-by-ids list (`/v3/currencies/list?currencyIds=`, 100 ids) is taken
 *   instead when it is cheaper and carries every field asked;
 * - every other distinct (endpoint, id, query) once, history priced by its
 *   bucket count, page-numbered lists once per page;
 * - /v3/status is free (0 credits), so it adds nothing;
 * - a route the service does not have (`without`: the no-markets workload) is
 *   not an option; trying it once costs nothing (a 404 is not charged).
 */
import { ENDPOINTS, creditCost, type EndpointName } from '../src/api/endpoints';
import type { BenchCell, Need } from './workloads';

export const MARKETS_WINDOW = ENDPOINTS.markets.pageSize;
export const LIST_BATCH = ENDPOINTS.currencyList.params.currencyIds.max;
/** Quote fields the guessed /v3/currencies/list item carries. */
const LIST_FIELDS = new Set(['price', 'marketCap', 'volume24h', 'percentChange.h24', 'circulatingSupply', 'rank', 'id', 'slug', 'symbol', 'name']);

export interface MinimumResult {
  credits: number;
  byEndpoint: Record<string, number>;
  derivation: string;
}

/** Fewest windows of `width` consecutive places covering every position (greedy from the lowest: optimal for points on a line). */
export function coverWindows(positions: Iterable<number>, width: number): number[] {
  const sorted = [...new Set(positions)].sort((a, b) => a - b);
  const starts: number[] = [];
  let end = -1;
  for (const p of sorted) {
    if (p > end) {
      starts.push(p);
      end = p + width - 1;
    }
  }
  return starts;
}

const canonical = (n: Extract<Need, { kind: 'request' }>) =>
  `${n.endpoint}|${n.id ?? ''}|${Object.keys(n.query).sort().map((k) => `${k}=${n.query[k]}`).join('&')}`;

function rangeText(positions: number[]): string {
  if (positions.length === 0) return '';
  const sorted = [...positions].sort((a, b) => a - b);
  return `list places ${sorted[0] + 1}–${sorted[sorted.length - 1] + 1}`;
}

export function minimumCredits(cells: readonly BenchCell[], o: { without?: readonly EndpointName[] } = {}): MinimumResult {
  const noMarkets = o.without?.includes('markets') === true;
  const byEndpoint: Record<string, number> = {};
  const add = (name: EndpointName, credits: number) => {
    const path = ENDPOINTS[name].path;
    byEndpoint[path] = (byEndpoint[path] ?? 0) + credits;
  };
  const parts: string[] = [];

  // currency map
  const mapNeeded = cells.some((c) => c.coin !== undefined && typeof c.coin !== 'number');
  if (mapNeeded) {
    const cost = creditCost('currencyMap', {});
    add('currencyMap', cost);
    parts.push(`${cost} currency map (coins typed as text)`);
  }

  // coins' market records
  const quoteIds = new Map<number, number | null>();
  const quoteFields = new Set<string>();
  /** Ambiguous symbols' other candidates: their ranks come free with markets pages, by id without them. */
  const rivals = new Set<number>();
  const requests = new Map<string, Extract<Need, { kind: 'request' }>>();
  for (const c of cells) {
    for (const n of c.needs) {
      if (n.kind === 'quote') {
        quoteIds.set(n.id, n.position);
        n.fields.forEach((f) => quoteFields.add(f));
        n.rivals?.forEach((r) => rivals.add(r));
      } else {
        requests.set(canonical(n), n);
      }
    }
  }
  if (quoteIds.size > 0) {
    const listed = [...quoteIds.values()].filter((p): p is number => p !== null);
    const unlisted = quoteIds.size - listed.length;
    const windows = coverWindows(listed, MARKETS_WINDOW);
    const marketsCost = noMarkets ? Number.POSITIVE_INFINITY : windows.length * creditCost('markets', {});
    const profileCost = (noMarkets ? quoteIds.size : unlisted) * creditCost('profile', {});
    const listOk = [...quoteFields].every((f) => LIST_FIELDS.has(f));
    const listIds = noMarkets ? new Set([...quoteIds.keys(), ...rivals]).size : quoteIds.size;
    const listCost = listOk ? Math.ceil(listIds / LIST_BATCH) * creditCost('currencyList', {}) : Number.POSITIVE_INFINITY;
    if (noMarkets && !Number.isFinite(listCost)) {
      add('profile', profileCost);
      parts.push(`${profileCost} profiles (${quoteIds.size} coins, no markets route)`);
    } else if (listCost < marketsCost + profileCost) {
      add('currencyList', listCost);
      const also = listIds > quoteIds.size ? ` and ${listIds - quoteIds.size} ambiguous symbols' other candidates` : '';
      parts.push(`${listCost} batch-by-ids list requests (${quoteIds.size} distinct coins${also}, ${LIST_BATCH} per request)`);
    } else {
      if (windows.length > 0) {
        add('markets', marketsCost);
        parts.push(`${marketsCost} markets request${marketsCost === 1 ? '' : 's'} (${windows.length} window${windows.length === 1 ? '' : 's'} of ${MARKETS_WINDOW} covering ${listed.length} distinct listed coins, ${rangeText(listed)})`);
      }
      if (unlisted > 0) {
        add('profile', profileCost);
        parts.push(`${profileCost} profiles (${unlisted} coins not in the markets list)`);
      }
    }
  }

  // every other distinct request
  const grouped = new Map<EndpointName, { n: number; credits: number; buckets: number; pages: number }>();
  for (const n of requests.values()) {
    const pages = n.pages ?? 1;
    const cost = creditCost(n.endpoint, n.query, n.buckets ?? 0) * pages;
    add(n.endpoint, cost);
    const g = grouped.get(n.endpoint) ?? { n: 0, credits: 0, buckets: 0, pages: 0 };
    g.n++;
    g.credits += cost;
    g.buckets += n.buckets ?? 0;
    g.pages += pages;
    grouped.set(n.endpoint, g);
  }
  for (const [name, g] of grouped) {
    const extra = g.buckets > 0 ? `, ${g.buckets} buckets` : g.pages > g.n ? `, ${g.pages} pages` : '';
    parts.push(`${g.credits} ${name} (${g.n} distinct${extra})`);
  }

  const credits = Object.values(byEndpoint).reduce((a, b) => a + b, 0);
  const derivation = parts.length === 0
    ? 'nothing to fetch: 0 credits (/v3/status is free).'
    : `${parts.join(' + ')} = ${credits} credits; /v3/status is free.`;
  return { credits, byEndpoint, derivation };
}

export interface LatencyBound {
  /** Dependent round trips on the critical path. */
  trips: number;
  ms: number;
  path: string;
}

/**
 * The critical path of dependent round trips: /v3/status, only when a cell
 * needs an endpoint above the Sandbox plan (the plan must be known before a
 * rate-limit slot is spent on an endpoint the key may lack; for endpoints
 * every plan has it can go alongside) → the currency map (when any coin is
 * typed as text: ids are known only after it) → the data, all in parallel; a
 * page-numbered list adds one trip per further page (the next page is known to
 * exist only from the previous page's meta). Quotes of coins that are all on
 * the markets list's first page need no trip after the map: a cold client
 * asks that page beside it (a walk for any coin whose place is unknown begins
 * there; src/client/batch-fetch.ts probe()).
 */
export function latencyBound(cells: readonly BenchCell[], latencyMs: number, o: { without?: readonly EndpointName[] } = {}): LatencyBound {
  const aboveSandbox = cells.some((c) => c.needs.some((n) => n.kind === 'request' && ENDPOINTS[n.endpoint].plan !== 'Sandbox'));
  const steps = aboveSandbox ? ['status'] : [];
  const text = cells.some((c) => c.coin !== undefined && typeof c.coin !== 'number');
  const quotes = cells.some((c) => c.needs.some((n) => n.kind === 'quote'));
  // The plan's list is a hint (issue #21): the markets route is tried once before the list of
  // currencies is used; at best alongside the map.
  const onlyFirstPage =
    quotes && !o.without?.includes('markets') &&
    cells.every((c) => c.needs.every((n) => n.kind === 'quote' && n.position !== null && n.position < MARKETS_WINDOW));
  if (o.without?.includes('markets') && quotes) steps.push(text ? 'map ‖ markets tried (404)' : 'markets tried (404)');
  else if (text && onlyFirstPage) {
    const trips = steps.length + 1;
    return { trips, ms: trips * latencyMs, path: `${[...steps, 'map ‖ data (the first markets page)'].join(' → ')} = ${trips} × ${latencyMs} ms` };
  } else if (text) steps.push('map');
  let dataTrips = 0;
  const names = new Set<string>();
  for (const c of cells) {
    for (const n of c.needs) {
      dataTrips = Math.max(dataTrips, n.kind === 'request' ? (n.pages ?? 1) : 1);
      names.add(n.kind === 'quote' ? (o.without?.includes('markets') ? 'list of currencies by ids' : 'markets pages') : n.endpoint);
    }
  }
  if (dataTrips > 0) steps.push(dataTrips === 1 ? `data (${[...names].join(', ')}) in parallel` : `data in parallel, ${dataTrips} pages in sequence`);
  const trips = steps.length - (dataTrips > 0 ? 1 : 0) + Math.max(1, dataTrips);
  return { trips, ms: trips * latencyMs, path: `${steps.join(' → ')} = ${trips} × ${latencyMs} ms` };
}
