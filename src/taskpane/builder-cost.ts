/**
 * What the requests of a dry run (builder-dry-run.ts) cost when nothing is
 * cached, by the endpoint table (src/api/endpoints.ts).
 */
import { ENDPOINTS, creditCost, pageSizeOf, type EndpointName } from '../api/endpoints';
import { creditsPhrase } from '../client';
import { bucketCredits } from '../formulas/answer-tracking';
import type { PlannedRequest } from './builder-dry-run';
import { DAY_MS, HOUR_MS } from '../api/utc-day';


/** Time-series buckets between `from` and `to` (both included, as the API counts them), by interval. */
export function bucketsBetween(from: number, to: number, interval: string): number {
  if (!Number.isFinite(from) || !Number.isFinite(to) || to < from) return 0;
  if (interval === 'hour' || interval === '1h') return Math.floor(to / HOUR_MS) - Math.floor(from / HOUR_MS) + 1;
  if (interval === 'week') return Math.floor((to - from) / (7 * DAY_MS)) + 1;
  if (interval === 'month') {
    const a = new Date(from);
    const b = new Date(to);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1;
  }
  return Math.floor(to / DAY_MS) - Math.floor(from / DAY_MS) + 1;
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
      const from = q.from !== undefined ? timeOf(q.from) : to - 30 * DAY_MS;
      const interval = q.interval ?? String(spec.params.interval?.default ?? 'day');
      const buckets = bucketsBetween(from, to, interval);
      c = bucketCredits(name, q, buckets);
      lines.push(`${name}: ${buckets} ${interval === 'day' ? 'days' : `${interval}s`}, ${creditsPhrase(c)}`);
    } else if (r.kind === 'pages' && spec.paging && r.maxItems && q.daysAhead !== undefined && r.maxItems > pageSizeOf(spec)) {
      // A window's list (UNLOCKS' daysAhead) ends where the window does: maxItems is a cap, only the first page is certain.
      const most = Math.ceil(r.maxItems / pageSizeOf(spec));
      exact = false;
      c = creditCost(name, { ...q, limit: String(pageSizeOf(spec)) });
      lines.push(`${name}: 1 to ${most} pages as the window holds, ${c} to ${most * c} credits`);
    } else if (r.kind === 'pages' && spec.paging) {
      const pageSize = pageSizeOf(spec);
      const pages = r.maxItems ? Math.max(1, Math.ceil(r.maxItems / pageSize)) : 1;
      if (!r.maxItems) exact = false;
      c = pages * creditCost(name, { ...q, limit: String(pageSize) });
      lines.push(`${name}: ${pages} page${pages === 1 ? '' : 's'}${r.maxItems ? '' : ' or more'}, ${creditsPhrase(c)}`);
    } else {
      c = creditCost(name, q);
      lines.push(`${r.kind === 'quote' ? 'markets (the coin\'s page of prices)' : name}: ${creditsPhrase(c)}`);
    }
    credits += c;
  }
  if (!complete) lines.push('then the data it names');
  return { credits, lines, exact };
}
