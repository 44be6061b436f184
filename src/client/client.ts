/**
 * MarketClient: the façade the formula layer and the task pane use, and the
 * request lifecycle under it (as ky's Ky.ts: one lifecycle, each policy in a
 * file named after it). Every request goes: canonical form and validation
 * (canonical-request.ts) → response cache, fresh answer? (response-cache.ts)
 * → shared call in flight → key, then the plan gate (plan-gate.ts: plan,
 * refusals, budget) → pacer (pacer.ts) → attempts with retries (sender.ts,
 * retry.ts, transport.ts) → meter (credit-meter.ts) → cache → learners. Pure: global
 * fetch, AbortController, EventTarget and setTimeout only, so it runs in Node
 * (tests) and in the Excel runtime.
 *
 * Answers return to whoever asked: the quote batcher, the coin resolver, the
 * map store and HISTORICAL's coalescer ask the lifecycle (Requester) and keep
 * what they got. What an answer teaches the client itself (the plan, places in
 * the markets list) is the explicit list of learners below.
 */
import { CONVERT_CURRENCIES, DEFAULT_RATE_LIMIT_PER_MINUTE, type ConvertCurrency, type EndpointData, type EndpointName } from '../api/endpoints';
import type { AccountStatus, CurrencyListItem, HistoricalItem, MarketItem, Profile } from '../api/records';
import { allowsLastGood, ApiError, abortedError } from './api-error';
import { abortable } from './cancellation';
import { canonicalRequest, freshnessOf, type CanonicalRequest } from './canonical-request';
import { resolveOptions, type ClientOptions, type ResolvedOptions } from './client-options';
import type { Ambiguity, CoinRef } from './coin-ref';
import { CoinResolver } from './coin-resolver';
import { ColdStart } from './cold-start';
import { CreditMeter } from './credit-meter';
import { statusRecord } from './status-record';
import { HistoricalBatcher, type HistoricalAnswer, type HistoricalKey } from './historical-batcher';
import { normalizeKey } from './key-store';
import { MemoryKvStore } from './kv-store';
import type { CoinMap, RankBook } from './coin-map';
import { CoinMapStore } from './map-store';
import { DailySpend } from './daily-spend';
import { ListQuotes } from './list-quotes';
import { Pacer } from './pacer';
import { getPages, type PagesOptions } from './paging';
import { PlanGate } from './plan-gate';
import { QuoteBatcher } from './quote-batcher';
import type { Quote } from './quote';
import { ResponseCache, type CacheEntry } from './response-cache';
import { noApiKey, Sender } from './sender';
import { toFetched, type Answer, type AttemptFailure, type CallOptions, type Fetched, type RequestFlags, type RequestOptions, type Requester } from './types';
import { within } from './clock';

export type { ClientOptions } from './client-options';
export { DEFAULT_BATCH_WINDOW_MS, DEFAULT_FRESHNESS_MS, DEFAULT_MAX_CACHE_ENTRIES, DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_DEADLINE_MS, DEFAULT_TIMEOUT_MS } from './client-options';
export { PERSIST_DELAY_MS } from './map-store';
export type { Answer, AttemptFailure, Fetched, RequestFlags, RequestOptions } from './types';

/** One thing a fresh answer of endpoint `from` teaches the client. */
interface Learner {
  from: EndpointName;
  learn(data: unknown, cr: CanonicalRequest): void;
}

export class MarketClient {
  readonly meter: CreditMeter;
  readonly #spend: DailySpend;
  readonly #o: ResolvedOptions;
  readonly #cache: ResponseCache;
  readonly #pacer: Pacer;
  readonly #gate: PlanGate;
  readonly #maps: CoinMapStore;
  readonly #resolver: CoinResolver;
  readonly #batcher: QuoteBatcher;
  readonly #historical: HistoricalBatcher;
  readonly #learners: readonly Learner[];
  readonly #lifecycle: Requester;
  readonly #sender: Sender;
  readonly #cold: ColdStart;

  constructor(opts: ClientOptions) {
    const o = (this.#o = resolveOptions(opts));
    // The lifecycle as the policies below the façade ask it: they get their answers back.
    const lifecycle: Requester = { request: (cr, f) => this.#request(cr, f), now: o.now };
    this.meter = new CreditMeter(o.now);
    this.#cache = new ResponseCache(o.maxCacheEntries);
    this.#pacer = new Pacer({ rpm: DEFAULT_RATE_LIMIT_PER_MINUTE, now: o.now, sleep: o.sleep, maxHoldMs: o.maxRateLimitWaitMs });
    this.#gate = new PlanGate({ readStatus: () => this.status(), pacer: this.#pacer, meter: this.meter, now: o.now, spendKnown: () => this.#spend.ready });
    this.#sender = new Sender({
      options: o,
      meter: this.meter,
      pacer: this.#pacer,
      gate: this.#gate,
      generation: () => this.#cache.generation,
      readKey: () => this.#readKey(),
      // The pages a cold start sends ahead of the map go on the wire before any answer is read (cold-start.ts).
      wireFirst: () => this.#cold.wiring(),
    });
    const kv = opts.storage ?? new MemoryKvStore();
    this.#spend = new DailySpend(kv, this.meter);
    // Quotes of a cold start: the first markets page beside the map, their batch as the map arrives (cold-start.ts).
    const cold = new ColdStart({
      noPlaceKnown: () => this.#maps.ranks.empty,
      peek: (input, map) => this.#resolver.peek(input, map),
      probe: (currency, caller, signal) => this.#batcher.probe(currency, caller, signal),
      // Pages past the first before the map only at a rate above the lowest plan's (cold-start.ts).
      pagesAllowed: () => this.#pacer.rpm > DEFAULT_RATE_LIMIT_PER_MINUTE,
      ahead: (pages, currency, caller, signal) => this.#batcher.ahead(pages, currency, caller, signal),
      prime: (ids, currency, caller, waiting) => this.#batcher.prime(ids, currency, caller, waiting),
    });
    this.#cold = cold;
    this.#maps = new CoinMapStore({
      requester: lifecycle,
      kv,
      ttlMs: () => o.freshnessMs.reference,
      onNetworkLoad: (load, signal) => cold.mapAsked(load, signal),
      onNetworkMap: (load, map) => cold.mapArrived(load, map),
    });
    const ranks = this.#maps.ranks;
    // Quotes from the list of currencies (a key without the markets list): asked by the batcher for
    // prices and by the resolver for ranks, in the same gathered requests; the batcher keeps the quotes.
    const list = new ListQuotes({
      requester: lifecycle,
      gathering: () => this.#batcher.gathering,
      onQuote: (q) => this.#batcher.keepListQuote(q),
    });
    this.#batcher = new QuoteBatcher({ requester: lifecycle, ranks, ttlMs: () => o.freshnessMs.live, list }, o.batchWindowMs, o.maxCacheEntries * 4);
    this.#resolver = new CoinResolver({ maps: this.#maps, ranks, requester: lifecycle, list });
    this.#historical = new HistoricalBatcher(lifecycle);
    this.#lifecycle = lifecycle;
    this.#learners = [
      { from: 'status', learn: (s) => (this.#gate.learn(s as AccountStatus), this.#cold.planKnown()) }, // plan and rate; pages ahead of the map
      { from: 'markets', learn: (items, cr) => ranks.learnMarkets(cr.query, items as MarketItem[]) }, // places in the list
      { from: 'profile', learn: (p) => ranks.learnProfile(p as Profile) }, // rank, or not listed
      { from: 'currencyList', learn: (items) => ranks.learnRanks(items as CurrencyListItem[]) }, // ranks, where the markets list is not the key's
    ];
  }

  get ambiguities(): readonly Ambiguity[] {
    return this.#resolver.ambiguities;
  }

  /**
   * The latest failed HTTP attempt (cancellations aside) for requests `caller`
   * started, else for any: what a call that ran out of time tells the user.
   */
  lastFailure(caller?: string): AttemptFailure | null {
    return this.#sender.lastFailure(caller);
  }

  /** Requests waiting for a slot under the rate limit. */
  get queuedForRate(): number {
    return this.#pacer.waiting;
  }

  /** The pacer's current requests/minute (learned from /v3/status). */
  get rateLimitPerMinute(): number {
    return this.#pacer.rpm;
  }

  // ------------------------------------------------------------ the façade

  async get<N extends EndpointName>(name: N, req: RequestOptions = {}): Promise<Fetched<EndpointData<N>>> {
    const a = await this.#request(canonicalRequest(name, req.id, req.query), { caller: req.caller, signal: req.signal });
    return toFetched<EndpointData<N>>(a);
  }

  /** Follows pagination and concatenates `data`: see paging.ts. */
  getPages<N extends EndpointName>(name: N, req: PagesOptions): Promise<Fetched<EndpointData<N>>> {
    return getPages(this.#lifecycle, name, req);
  }

  /** Plan and credits (free). The plan gate learns the plan and the pacer's requests/minute from it. */
  async status(opts: { signal?: AbortSignal; force?: boolean } = {}): Promise<AccountStatus> {
    const a = await this.#request(canonicalRequest('status', undefined, {}), { signal: opts.signal, force: opts.force });
    // The schema's fields only, copied: the answer keeps whatever else the server sent (status-record.ts).
    return statusRecord(a.entry.data as AccountStatus);
  }

  resolveCoin(input: string | number, opts: CallOptions = {}): Promise<CoinRef> {
    return this.#resolver.resolve(input, opts);
  }

  quote(coin: string | number | CoinRef, opts: CallOptions & { currency?: ConvertCurrency } = {}): Promise<Quote> {
    const currency = opts.currency ?? 'USD';
    if (!(CONVERT_CURRENCIES as readonly string[]).includes(currency)) {
      return Promise.reject(new ApiError({ code: 'VALIDATION_ERROR', message: `Currency must be one of ${CONVERT_CURRENCIES.join(', ')}.` }));
    }
    // Not async: thousands of cells wait here at once, and a pending async frame each is memory the GC keeps copying.
    const ref = typeof coin === 'object' && coin !== null ? coin : this.#resolver.known(coin);
    const wrap = opts.settlesItself !== true;
    if (ref && !opts.signal?.aborted) return Promise.resolve(this.#quoteOf(ref, currency, opts, wrap));
    // One abortable for the chain: the resolution and the batch count this caller among their waiters without one each.
    const chain = this.#resolver.shared(coin as string | number, opts).then((r) => this.#quoteOf(r, currency, opts, false));
    this.#cold.quoteWaits(this.#maps.loading, coin as string | number, currency, opts.caller, opts.signal);
    return wrap ? abortable(chain, opts.signal) : chain;
  }

  /**
   * The quote at once when it needs no waiting (the coin already resolved, its
   * quote fresh in the cache), else undefined: a warm recalculation's PRICE
   * cells need no promise each.
   */
  quoteNow(coin: string | number | CoinRef, currency: ConvertCurrency = 'USD'): Quote | undefined {
    const ref = typeof coin === 'object' && coin !== null ? coin : this.#resolver.known(coin);
    const q = ref && this.#batcher.fresh(ref.id, currency);
    if (q) this.meter.recordCacheHit();
    return q;
  }

  /** `wrap`: the promise rejects when the caller's signal aborts (false: the caller wraps its chain itself). */
  #quoteOf(ref: CoinRef, currency: ConvertCurrency, opts: CallOptions, wrap = true): Quote | Promise<Quote> {
    const cached = this.#batcher.fresh(ref.id, currency);
    if (cached) {
      this.meter.recordCacheHit();
      return cached;
    }
    const key = { id: ref.id, currency, caller: opts.caller };
    return wrap ? this.#batcher.load(key, opts.signal) : this.#batcher.shared(key, opts.signal);
  }

  /** One coin at one date, coalesced with every other load of the moment (historical-batcher.ts). */
  historical(key: HistoricalKey, opts: CallOptions = {}): Promise<HistoricalItem> {
    return this.#historical.load(key, opts);
  }

  /** The currency map (memory, storage, or one request) and the ranks learned so far: the formula builder's coin search. */
  async coinList(opts: CallOptions = {}): Promise<{ map: CoinMap; ranks: RankBook }> {
    return { map: await this.#maps.load(opts), ranks: this.#maps.ranks };
  }

  /** The answer a historical item came in (fetch time, freshness), for provenance. */
  historicalAnswer(item: HistoricalItem): HistoricalAnswer | undefined {
    return this.#historical.answerOf(item);
  }

  // ------------------------------------------------------------ control

  /** Drop every cached response and quote (memory). The persisted currency map stays unless includeReference. */
  refreshAll(opts: { includeReference?: boolean } = {}): void {
    this.#cache.clear();
    this.#batcher.clear();
    this.#resolver.forget();
    this.#pacer.clearHold(); // the user asked for data now: an old 429's wait does not stand
    this.#gate.forgetKeyRefusal(); // nor an old refusal of the key (a renewed subscription)
    this.#gate.forgetRefusals(); // nor of an endpoint (an upgrade, a route back after a blip: review F2)
    if (opts.includeReference) this.#maps.clear();
  }

  /** After this many credits spent today (UTC) by this client, metered requests fail with BUDGET_EXCEEDED. null: no budget. */
  setDailyBudget(credits: number | null): void {
    this.#gate.setBudget(credits);
  }

  /** The daily credit budget setDailyBudget() set (null: none). */
  get dailyBudget(): number | null {
    return this.#gate.budget;
  }

  /** The key changed: drop caches and what was learned about the plan. */
  onKeyChanged(): void {
    this.#cache.clear();
    this.#maps.detach(); // the map load in flight went with the old key (map-store.ts)
    this.#batcher.clear();
    this.#gate.reset();
    this.#pacer.clearHold(); // a 429 was about the old key's window
  }

  /** Write a newly fetched currency map, changed ranks and today's credits to storage now. */
  async flushStorage(): Promise<void> {
    await Promise.all([this.#maps.flush(), this.#spend.flush()]);
  }

  // ------------------------------------------------------------ the lifecycle

  /** One request: a fresh cached answer, the call in flight, or a new one; a stale answer where a failure allows it. */
  async #request(cr: CanonicalRequest, f: RequestFlags): Promise<Answer> {
    if (f.signal?.aborted) throw abortedError(cr.name);
    const held = this.#cache.get(cr.key);
    if (held && !f.force && within(this.#o.now(), held.fetchedAt, this.#o.freshnessMs[freshnessOf(cr, this.#o.now())])) {
      this.meter.recordCacheHit();
      return { entry: held, stale: false, fromCache: true };
    }
    // One `charged` per call, handed to every caller waiting on it: its credits are counted once, not by each
    // caller (review 2026-11-27: supply #1, two cells sharing a request each said they cost its credit).
    const start = (signal: AbortSignal) => this.#fetchFresh(cr, f.caller, signal, f.store ?? true).then((entry) => ({ entry, charged: { done: false } }));
    const { promise, shared } = this.#cache.share(cr.key, start, f.signal);
    if (shared) this.meter.recordSharedCall();
    try {
      return { ...(await promise), stale: false, fromCache: false };
    } catch (e) {
      if (held && allowsLastGood(e)) return { entry: held, stale: true, fromCache: true };
      throw e;
    }
  }

  /** The key as the key store holds it now: read as a request starts, and again at its turn after a key change (sender.ts). */
  async #readKey(): Promise<string | null> {
    return normalizeKey(await this.#o.keyStore.getKey());
  }

  async #fetchFresh(cr: CanonicalRequest, caller: string | undefined, signal: AbortSignal, store: boolean): Promise<CacheEntry> {
    const admit = this.#gate.admission(cr, signal);
    // The key and its generation together: the sender checks both again as the request goes (Sender #keyAfterChange).
    const generation = this.#cache.generation;
    const apiKey = await this.#readKey();
    if (!apiKey) throw noApiKey(cr.name);
    const release = admit ? await admit() : undefined;
    // Answered (the meter has its credits) or failed: its cost is no longer held against the budget.
    const result = await this.#sender.send(cr, caller, { apiKey, generation }, signal).finally(() => release?.());
    const entry: CacheEntry = { data: result.data, meta: result.meta, fetchedAt: this.#o.now(), timestamp: result.timestamp };
    if (result.rejected) entry.rejected = result.rejected;
    if (store) this.#cache.set(cr.key, entry, generation);
    // An answer to a request sent before a key change (or "Refresh all data") teaches nothing: /v3/status for the
    // old key, still on its way, was learned as the new key's plan and rate (review of 2026-11-27).
    if (generation === this.#cache.generation) for (const l of this.#learners) if (l.from === cr.name) l.learn(entry.data, cr);
    return entry;
  }

}
