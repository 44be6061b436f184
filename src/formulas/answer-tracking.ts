/**
 * The client as one formula evaluation sees it: the same calls, and every
 * answer the evaluation reads noted (endpoint, fetched at, from the cache or
 * not, stale or not, its credits by the endpoint table) for its provenance
 * (provenance.ts). Fetch times are what the client's public API gives:
 * get/getPages answer with fetchedAt, stale and fromCache; a historical item
 * the answer its coalesced request came in; a quote carries only
 * `stale`, so its fetch time is when the host first saw that quote object
 * (the quote cache hands out the same object until the next fetch), a few
 * milliseconds after the markets answer arrived: the host keeps those sightings
 * (QuoteSightings) and hands them to each evaluation's client. The currency map
 * (coinList: SEARCH without the search endpoint) carries its own fetch time.
 */
import { DEFAULT_FRESHNESS_MS, ENDPOINTS, creditCost, type EndpointName } from '../api/endpoints';
import type { HistoricalItem } from '../api/records';
import { CallClient, type CallPages, type CallRequest, type CallTarget } from '../client/call-client';
import type { HistoricalKey } from '../client/historical-batcher';
import type { CoinMap, RankBook } from '../client/coin-map';
import type { Quote } from '../client/quote';
import type { CoinRef } from '../client/coin-ref';
import type { ConvertCurrency, EndpointData } from '../api/endpoints';
import type { Fetched } from '../client/types';
import { noteFetch, type Fetch, type FetchLog } from './provenance';

/** Credits of an answer by the endpoint table: buckets endpoints charge by the items returned. */
export function answerCredits(endpoint: string, query: Readonly<Record<string, unknown>> | undefined, items: number): number {
  if (!Object.hasOwn(ENDPOINTS, endpoint)) return 0;
  const q: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(query ?? {})) q[k] = v === undefined || v === null ? undefined : String(v);
  const name = endpoint as EndpointName;
  return (ENDPOINTS[name] as { cost: string }).cost === 'buckets' ? bucketCredits(name, q, items) : creditCost(name, q, items);
}

/**
 * Credits of `buckets` points of a time series: read page by page (the
 * query's limit, else the endpoint's default), each page charged by the
 * endpoint table. The builder's estimate and the provenance of an answer both
 * count this way.
 */
export function bucketCredits(name: EndpointName, q: Readonly<Record<string, string | undefined>>, buckets: number): number {
  const params = ENDPOINTS[name].params as Record<string, { default?: unknown } | undefined>;
  const page = Number(q.limit ?? params.limit?.default) || buckets || 1;
  let credits = 0;
  for (let left = Math.max(buckets, 0); ; left -= page) {
    credits += creditCost(name, q, Math.min(left, page));
    if (left <= page) break;
  }
  return credits;
}

/**
 * Each quote object's record for its readers after the first (the first saw it
 * arrive and was charged its credits; later ones read it from the cache). One
 * table per calculation host, which owns the evaluations; weak, so a quote the
 * cache has dropped takes its record with it. A currency map is kept here too,
 * once a reader has seen it: no later reader is charged for it.
 */
export type QuoteSightings = WeakMap<Quote | CoinMap, Readonly<Fetch>>;

/**
 * The client bound to one evaluation (CallClient), noting every answer it
 * reads in `into`. A subclass rather than a Proxy: a column of thousands of
 * cells makes one each, on the path a warm recalculation times.
 */
class TrackingClient extends CallClient {
  constructor(
    target: CallTarget,
    caller: string,
    signal: AbortSignal | undefined,
    private readonly into: FetchLog,
    private readonly now: () => number,
    private readonly sightings: QuoteSightings,
  ) {
    super(target, caller, signal, true); // the host settles each evaluation itself, at its deadline or cancel
  }

  private note(endpoint: string, query: Readonly<Record<string, unknown>> | undefined, r: Fetched<unknown>): void {
    // One call shared by several readers: the first is charged its credits, the others read it as from the
    // cache (as historical() below; review 2026-11-27: supply #1).
    const fromCache = r.fromCache === true || r.charged?.done === true;
    if (r.charged) r.charged.done = true;
    noteFetch(this.into, {
      endpoint,
      fetchedAt: typeof r.fetchedAt === 'number' ? r.fetchedAt : this.now(),
      stale: r.stale === true,
      fromCache,
      credits: fromCache || r.stale === true ? 0 : answerCredits(endpoint, query, Array.isArray(r.data) ? r.data.length : 1),
    });
  }

  private noteQuote(q: Quote, currency: ConvertCurrency | undefined): void {
    const again = this.sightings.get(q);
    if (again) {
      noteFetch(this.into, again); // one record shared by every later reader: a column of cells allocates nothing here
      return;
    }
    const seen = this.now();
    const stale = q.stale === true;
    this.sightings.set(q, { endpoint: 'markets', fetchedAt: seen, stale, fromCache: true, credits: 0 });
    noteFetch(this.into, { endpoint: 'markets', fetchedAt: seen, stale, fromCache: false, credits: stale ? 0 : creditCost('markets', { convert: currency ?? 'USD' }) });
  }

  /**
   * The currency map as read: its own fetch time. Charged (fresh) to the first reader this host saw that
   * it arrived while waiting for it; a map from memory or storage, or one another reader was charged for,
   * is from the cache. The map store hands one older than the reference freshness only when a failure
   * lets the last good one stand in (client/map-store.ts): stale.
   */
  private noteMap(map: CoinMap, asked: number): void {
    const charged = this.sightings.has(map);
    const stale = this.now() - map.fetchedAt >= DEFAULT_FRESHNESS_MS.reference;
    const fetched = !charged && !stale && map.fetchedAt >= asked;
    const f: Fetch = { endpoint: 'currencyMap', fetchedAt: map.fetchedAt, stale, fromCache: !fetched, credits: fetched ? creditCost('currencyMap', {}) : 0 };
    if (!charged) this.sightings.set(map, { ...f, fromCache: true, credits: 0 });
    noteFetch(this.into, f);
  }

  override coinList(): Promise<{ map: CoinMap; ranks: RankBook }> {
    const asked = this.now();
    return super.coinList().then((list) => (this.noteMap(list.map, asked), list));
  }

  override get<N extends EndpointName>(name: N, req: CallRequest = {}): Promise<Fetched<EndpointData<N>>> {
    return super.get(name, req).then((r) => (this.note(name, req.query, r), r));
  }

  override getPages<N extends EndpointName>(name: N, req: CallPages = {}): Promise<Fetched<EndpointData<N>>> {
    return super.getPages(name, req).then((r) => (this.note(name, req.query, r), r));
  }

  override quote(coin: string | number | CoinRef, opts: { currency?: ConvertCurrency } = {}): Promise<Quote> {
    return super.quote(coin, opts).then((q) => (this.noteQuote(q, opts.currency), q));
  }

  override quoteNow(coin: string | number | CoinRef, opts: { currency?: ConvertCurrency } = {}): Quote | undefined {
    const q = super.quoteNow(coin, opts);
    if (q) this.noteQuote(q, opts.currency);
    return q;
  }

  override historical(key: HistoricalKey): Promise<HistoricalItem> {
    return super.historical(key).then((item) => {
      const a = this.historicalAnswer(item);
      if (a) {
        // One request served several cells: the first cell is charged its credit.
        noteFetch(this.into, { endpoint: 'historicalItem', fetchedAt: a.fetchedAt, stale: a.stale, fromCache: a.fromCache || a.charged.done, credits: a.charged.done ? 0 : creditCost('historicalItem', {}) });
        a.charged.done = true;
      }
      return item;
    });
  }
}

/**
 * The client as one evaluation sees it: bound to its caller and signal, every
 * answer it reads noted in `into`, quotes charged once by the host's `sightings`.
 */
export function trackingClient(target: CallTarget, caller: string, signal: AbortSignal | undefined, into: FetchLog, now: () => number, sightings: QuoteSightings): CallClient {
  return new TrackingClient(target, caller, signal, into, now, sightings);
}
