/**
 * The client as one formula evaluation sees it: the same calls, and every
 * answer the evaluation reads noted (endpoint, fetched at, from the cache or
 * not, stale or not, its credits by the endpoint table) for its provenance
 * (provenance.ts). Fetch times are what the client's public API gives:
 * get/getPages answer with fetchedAt, stale and fromCache; a quote carries only
 * `stale`, so its fetch time is when this runtime first saw that quote object
 * (the quote cache hands out the same object until the next fetch), a few
 * milliseconds after the markets answer arrived.
 */
import { ENDPOINTS, creditCost, type EndpointName } from '../api/endpoints';
import type { Fetch } from './provenance';

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
