/**
 * MarketClient: the façade the formula layer and the task pane use, and the
 * request lifecycle under it (as ky's Ky.ts: one lifecycle, each policy in a
 * file named after it). Every request goes: canonical form and validation
 * (canonical-request.ts) → response cache, fresh answer? (response-cache.ts)
 * → shared call in flight → key, then the plan gate (plan-gate.ts: plan,
 * refusals, budget) → pacer (pacer.ts) → attempts with retries (retry.ts,
 * transport.ts) → meter (credit-meter.ts) → cache → learners. Pure: global
 * fetch, AbortController, EventTarget and setTimeout only, so it runs in Node
 * (tests) and in the Excel runtime.
 *
 * Answers return to whoever asked: the quote batcher, the coin resolver, the
 * map store and HISTORICAL's coalescer ask the lifecycle (Requester) and keep
 * what they got. What an answer teaches the client itself (the plan, places in
 * the markets list) is the explicit list of learners below.
 */
import { CONVERT_CURRENCIES, DEFAULT_RATE_LIMIT_PER_MINUTE, ENDPOINTS, type ConvertCurrency, type EndpointData, type EndpointName } from '../api/endpoints';
import type { AccountStatus, CurrencyListItem, HistoricalItem, MarketItem, Profile } from '../api/records';
import { allowsStaleFallback, ApiError, abortedError, hasCode, routeUnavailable } from './api-error';
import { CallClient } from './call-client';
import { abortable, onAbort } from './cancellation';
import { canonicalRequest, freshnessOf, type CanonicalRequest } from './canonical-request';
import { MAP_MAX_DELAY_MS, resolveOptions, type ClientOptions, type ResolvedOptions } from './client-options';
import type { Ambiguity, CoinRef } from './coin-ref';
import { CoinResolver } from './coin-resolver';
import { CreditMeter } from './credit-meter';
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
import { withRetries } from './retry';
import { attempt, type AttemptResult } from './transport';
import { toFetched, type Answer, type AttemptFailure, type CallOptions, type Fetched, type RequestFlags, type RequestOptions, type Requester } from './types';

export type { ClientOptions } from './client-options';
export { DEFAULT_BATCH_WINDOW_MS, DEFAULT_FRESHNESS_MS, DEFAULT_MAX_CACHE_ENTRIES, DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_DEADLINE_MS, DEFAULT_TIMEOUT_MS } from './client-options';
export { PERSIST_DELAY_MS } from './map-store';
export type { Answer, AttemptFailure, Fetched, RequestFlags, RequestOptions } from './types';

/** One thing a fresh answer of endpoint `from` teaches the client. */
interface Learner {
  from: EndpointName;
  learn(data: unknown, cr: CanonicalRequest): void;
}

/**
 * Requests many cells wait on: the currency map (every text coin), /v3/status
 * (every request's pace) and a markets page (a column of prices). One failure
 * of these fails whole sheets, so they are tried until the request deadline,
 * closer together (client-options.ts MAP_MAX_RETRIES); tries nobody waits for
 * stop with their waiters (shared-work.ts). Under 80 % of dropped connections
 * a markets page's four tries all failed about one cold sheet in four.
 */
const SHARED = new Set<EndpointName>(['currencyMap', 'status', 'markets']);

/** An attempt failing within this long failed fast: no answer was worked on (retry.ts refundSlot). */
const FAST_FAILURE_MS = 2_000;

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
  /** The latest failed attempt per caller (formula), and overall (key ''). */
  readonly #lastFailures = new Map<string, AttemptFailure>();
  /** Bound clients of callers without a signal: one each is enough. */
  readonly #bound = new Map<string, CallClient>();

  constructor(opts: ClientOptions) {
    const o = (this.#o = resolveOptions(opts));
    // The lifecycle as the policies below the façade ask it: they get their answers back.
    const lifecycle: Requester = { request: (cr, f) => this.#request(cr, f), now: o.now };
    this.meter = new CreditMeter(o.now);
    this.#cache = new ResponseCache(o.maxCacheEntries);
    this.#pacer = new Pacer({ rpm: DEFAULT_RATE_LIMIT_PER_MINUTE, now: o.now, sleep: o.sleep, maxHoldMs: o.maxRateLimitWaitMs });
    this.#gate = new PlanGate({ readStatus: () => this.status(), pacer: this.#pacer, meter: this.meter, now: o.now, spendKnown: () => this.#spend.ready });
    const kv = opts.storage ?? new MemoryKvStore();
    this.#spend = new DailySpend(kv, this.meter);
    this.#maps = new CoinMapStore({ requester: lifecycle, kv, ttlMs: () => o.freshnessMs.reference });
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
      { from: 'status', learn: (s) => this.#gate.learn(s as AccountStatus) }, // plan and rate
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
    return (caller !== undefined ? this.#lastFailures.get(caller) : undefined) ?? this.#lastFailures.get('') ?? null;
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

  /** This client bound to one formula call: its caller and its signal (call-client.ts). */
  for(caller: string, signal?: AbortSignal): CallClient {
    if (signal) return new CallClient(this, caller, signal);
    let c = this.#bound.get(caller);
    if (!c) this.#bound.set(caller, (c = new CallClient(this, caller)));
    return c;
  }

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
    return a.entry.data as AccountStatus;
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
    if (opts.includeReference) this.#maps.clear();
  }

  /** After this many credits spent today (UTC) by this client, metered requests fail with BUDGET_EXCEEDED. null: no budget. */
  setDailyBudget(credits: number | null): void {
    this.#gate.setBudget(credits);
  }

  /** The key changed: drop caches and what was learned about the plan. */
  onKeyChanged(): void {
    this.#cache.clear();
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
    if (held && !f.force && this.#o.now() - held.fetchedAt < this.#o.freshnessMs[freshnessOf(cr, this.#o.now())]) {
      this.meter.recordCacheHit();
      return { entry: held, stale: false, fromCache: true };
    }
    const { promise, shared } = this.#cache.share(cr.key, (signal) => this.#fetchFresh(cr, f.caller, signal, f.store ?? true), f.signal);
    if (shared) this.meter.recordSharedCall();
    try {
      return { entry: await promise, stale: false, fromCache: false };
    } catch (e) {
      if (held && allowsStaleFallback(e)) return { entry: held, stale: true, fromCache: true };
      throw e;
    }
  }

  async #fetchFresh(cr: CanonicalRequest, caller: string | undefined, signal: AbortSignal, store: boolean): Promise<CacheEntry> {
    const admit = this.#gate.admission(cr, signal);
    const apiKey = normalizeKey(await this.#o.keyStore.getKey());
    if (!apiKey) {
      throw new ApiError({ code: 'NO_API_KEY', message: 'No API key: add your CryptoRank API key in the task pane.', endpoint: cr.name });
    }
    if (admit) await admit();
    const generation = this.#cache.generation;
    const result = await this.#send(cr, caller, apiKey, signal);
    const entry: CacheEntry = { data: result.data, meta: result.meta, fetchedAt: this.#o.now(), timestamp: result.timestamp };
    if (result.rejected) entry.rejected = result.rejected;
    if (store) this.#cache.set(cr.key, entry, generation);
    for (const l of this.#learners) if (l.from === cr.name) l.learn(entry.data, cr);
    return entry;
  }

  /** One request with retries, metered, within its deadline; an endpoint the service refused is told to the gate. */
  async #send(cr: CanonicalRequest, caller: string | undefined, apiKey: string, signal: AbortSignal): Promise<AttemptResult> {
    const bound = this.#bounded(signal);
    try {
      return await this.#attempts(cr, caller, apiKey, bound.signal);
    } catch (e) {
      if (bound.expired()) {
        const last = this.lastFailure(caller);
        const why = last ? `; last failure: ${last.message.replace(/\.$/, '')}` : '';
        throw new ApiError({ code: 'TIMEOUT', message: `${cr.name}: no answer within ${Math.ceil(this.#o.requestDeadlineMs / 1000)} s, retries included${why}.`, endpoint: cr.name });
      }
      // Refused, or no such route (404 "Cannot GET"; a request for one id may be a coin that does not exist).
      if (hasCode(e, 'ENDPOINT_NOT_AVAILABLE') || (routeUnavailable(e) && cr.id === undefined)) this.#gate.refused(cr.name);
      this.#gate.failed(e);
      throw e;
    } finally {
      bound.done();
    }
  }

  /** `signal`, aborted also when the request's deadline passes. */
  #bounded(signal: AbortSignal): { signal: AbortSignal; expired(): boolean; done(): void } {
    const c = new AbortController();
    let expired = false;
    const stop = onAbort(signal, () => c.abort());
    const t = setTimeout(() => {
      expired = true;
      c.abort();
    }, this.#o.requestDeadlineMs);
    return {
      signal: c.signal,
      expired: () => expired,
      done: () => {
        clearTimeout(t);
        stop();
      },
    };
  }

  #attempts(cr: CanonicalRequest, caller: string | undefined, apiKey: string, signal: AbortSignal): Promise<AttemptResult> {
    const o = this.#o;
    return withRetries(
      async (sig) => {
        try {
          const r = await attempt({
            baseUrl: o.baseUrl, request: cr, apiKey, fetch: o.fetch, timeoutMs: o.timeoutMs, maxBytes: o.maxResponseBytes, signal: sig, now: o.now, keyPlan: this.#gate.plan?.plan,
          });
          this.meter.recordRequest(cr.name, caller, r.usedCredits);
          return r;
        } catch (e) {
          if (!hasCode(e, 'ABORTED')) {
            this.meter.recordRequest(cr.name, caller, 0);
            const failure = { code: e instanceof ApiError ? e.code : 'UNEXPECTED', message: e instanceof Error ? e.message : String(e), at: o.now() };
            this.#lastFailures.set('', failure);
            if (caller !== undefined) this.#lastFailures.set(caller, failure);
          }
          throw e;
        }
      },
      // /v3/status goes ahead of the queue: a re-ask after a failed one (STATUS_RETRY_MS) would
      // otherwise wait behind every request queued at the lowest plan's rate, and so would the
      // requests that need the plan first (each page of paged history).
      {
        // Requests many cells wait on get more tries, closer together (SHARED).
        maxRetries: SHARED.has(cr.name) ? Math.max(o.maxRetries, o.sharedMaxRetries) : o.maxRetries,
        maxDelayMs: SHARED.has(cr.name) ? MAP_MAX_DELAY_MS : undefined,
        pacer: this.#pacer,
        sleep: o.sleep,
        now: o.now,
        random: o.random,
        signal,
        first: cr.name === 'status',
        // While the plan is unknown the pacer runs at the lowest plan's rate; a fast failure (a 500,
        // a dropped connection) gives its slot back, so a cold start under heavy faults is not
        // paced into its deadline by attempts that failed at once (issue #22). A connection that
        // failed with no HTTP answer gives it back whatever the plan: guess: it never reached the
        // service's rate limit (a 500 did, so it keeps its slot once the plan's rate is known).
        refundSlot: (e, ms) =>
          e.retryable && e.code !== 'RATE_LIMIT_EXCEEDED' && ms < FAST_FAILURE_MS && (this.#gate.plan === null || e.code === 'NETWORK_ERROR'),
        // A granted slot goes to /v3/status when its re-ask is due: requests queued before it was
        // due would otherwise take every slot of the next window ahead of it.
        yieldSlot: cr.name === 'status' ? undefined : () => this.#gate.reaskIfDue(),
      },
    );
  }
}
