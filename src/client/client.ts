/**
 * MarketClient: the facade the formula layer and the task pane use. Every
 * request goes: canonical form and validation → response cache (fresh answer?)
 * → shared call in flight → key, budget, plan → pacer → one HTTP attempt, with
 * retries → meter → cache. Pure: global fetch, AbortController, EventTarget and
 * setTimeout only, so it runs in Node (tests) and in the Excel runtime.
 */
import {
  CONVERT_CURRENCIES,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  ENDPOINTS,
  creditCost,
  planAllows,
  type ConvertCurrency,
  type EndpointData,
  type EndpointName,
  type Freshness,
} from '../api/endpoints';
import type { RejectedItem } from '../api/read-data';
import type { AccountStatus, MarketItem, Profile } from '../api/records';
import { allowsStaleFallback, ApiError, abortedError } from './api-error';
import { errorRule } from './error-rules';
import { canonicalRequest, freshnessOf, type CanonicalRequest, type QueryInput } from './canonical-request';
import { abortable, realSleep, type Sleep } from './clock';
import { CoinMap, CoinMapStorage, MARKETS_PAGE_SIZE, RankBook } from './coin-map';
import type { Ambiguity, CoinRef } from './coin-ref';
import { CoinResolver, type ResolveOptions } from './coin-resolver';
import { CreditMeter } from './credit-meter';
import { normalizeKey, type KeyStore } from './key-store';
import { MemoryKvStore, type KvStore } from './kv-store';
import { Pacer } from './pacer';
import { QuoteBatcher } from './quote-batcher';
import type { Quote } from './quote';
import { ResponseCache, type CacheEntry } from './response-cache';
import { withRetries } from './retry';
import { attempt, isPlan, type AttemptResult } from './transport';
import { getPages, type PagesOptions } from './paging';

export interface ClientOptions {
  /** Host root, e.g. 'https://api.cryptorank.io' or 'http://127.0.0.1:4010'; endpoint paths start with /v3. */
  baseUrl: string;
  keyStore: KeyStore;
  /** Where the currency map and learned ranks persist across sessions; default memory. */
  storage?: KvStore;
  now?: () => number;
  fetch?: typeof fetch;
  /** Per attempt; default 20 s (well under Excel's ~60 s). */
  timeoutMs?: number;
  /**
   * One request's whole life (pacing, attempts, backoff); default 45 s, the
   * formula deadline. Shared work no single cell can cancel (the coin map,
   * /v3/status, quote batches) ends by then too, waited for or not.
   */
  requestDeadlineMs?: number;
  /** Default 3. */
  maxRetries?: number;
  freshnessMs?: Partial<Record<Freshness, number>>;
  /** Bounded memory; default 5 000 responses (and 4x as many per-coin quotes). */
  maxCacheEntries?: number;
  /** Quote coalescing window; default 15 ms. */
  batchWindowMs?: number;
  sleep?: Sleep;
  random?: () => number;
}

export interface Fetched<T> {
  data: T;
  meta?: Record<string, unknown>;
  /** Items of a list the service answered but that could not be read; each costs only itself. Absent when none. */
  rejected?: RejectedItem[];
  stale: boolean;
  fetchedAt: number;
  fromCache: boolean;
}

export interface RequestOptions {
  id?: number;
  query?: QueryInput;
  caller?: string;
  signal?: AbortSignal;
}

export const DEFAULT_FRESHNESS_MS: Record<Freshness, number> = {
  live: 60_000,
  history: 24 * 3_600_000,
  reference: 24 * 3_600_000,
  account: 15_000,
};
export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_REQUEST_DEADLINE_MS = 45_000;
export const DEFAULT_MAX_RETRIES = 3;
/**
 * The currency map gets more tries than other requests: every coin typed as
 * text waits on this one request, so its failure fails a whole sheet. Nine
 * attempts fit the request deadline with the backoff's growth (at most about
 * 45 s of waits); at 30 % failures all nine fail about once in 50,000 loads.
 */
export const MAP_MAX_RETRIES = 8;
export const DEFAULT_MAX_CACHE_ENTRIES = 5_000;
export const DEFAULT_BATCH_WINDOW_MS = 15;
/** How long after learning something (a map, ranks) it is written to storage. */
export const PERSIST_DELAY_MS = 250;
/** After a failed lazy /v3/status, how long requests go ahead on the default rate before asking again. */
const STATUS_RETRY_MS = 60_000;
export interface AttemptFailure {
  code: string;
  message: string;
  /** Client clock. */
  at: number;
}

export interface Answer {
  entry: CacheEntry;
  stale: boolean;
  fromCache: boolean;
}

export interface RequestFlags {
  caller?: string;
  signal?: AbortSignal;
  /** Skip the fresh-cache check (status({force})). */
  force?: boolean;
  /** Do not keep the answer in the response cache (the currency map lives in CoinMap). */
  store?: boolean;
}

export class MarketClient {
  readonly meter: CreditMeter;
  readonly #o: Required<Omit<ClientOptions, 'freshnessMs' | 'storage'>> & { freshnessMs: Record<Freshness, number> };
  readonly #cache: ResponseCache;
  readonly #pacer: Pacer;
  readonly #ranks: RankBook;
  readonly #storage: CoinMapStorage;
  readonly #resolver: CoinResolver;
  readonly #batcher: QuoteBatcher;
  #map: CoinMap | null = null;
  #mapLoading: Promise<CoinMap> | null = null;
  #storageRead: Promise<void> | null = null;
  #plan: AccountStatus | null = null;
  #planLoading: Promise<void> | null = null;
  #planFailedAt: number | null = null;
  /** Endpoints the service answered ENDPOINT_NOT_AVAILABLE for, on this key: later calls fail without a request. */
  readonly #denied = new Set<EndpointName>();
  #budget: number | null = null;
  #persistScheduled = false;
  /** A fetched map not yet written to storage. */
  #unsavedMap: CoinMap | null = null;
  /** The latest failed attempt per caller (formula), and overall (key ''). */
  readonly #lastFailures = new Map<string, AttemptFailure>();

  constructor(opts: ClientOptions) {
    const now = opts.now ?? Date.now;
    const f = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
    this.#o = {
      baseUrl: opts.baseUrl,
      keyStore: opts.keyStore,
      now,
      fetch: f,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      requestDeadlineMs: opts.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS,
      maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
      freshnessMs: { ...DEFAULT_FRESHNESS_MS, ...opts.freshnessMs },
      maxCacheEntries: opts.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES,
      batchWindowMs: opts.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS,
      sleep: opts.sleep ?? realSleep,
      random: opts.random ?? Math.random,
    };
    this.meter = new CreditMeter(now);
    this.#cache = new ResponseCache(this.#o.maxCacheEntries);
    this.#pacer = new Pacer({ rpm: DEFAULT_RATE_LIMIT_PER_MINUTE, now, sleep: this.#o.sleep });
    this.#storage = new CoinMapStorage(opts.storage ?? new MemoryKvStore());
    this.#ranks = new RankBook(() => this.#schedulePersist());
    this.#resolver = new CoinResolver({
      loadMap: (o) => this.#loadMap(o),
      ranks: this.#ranks,
      now,
      fetchListingPage: async (page, o) => {
        const { entry } = await this.#marketsPage(page, 'USD', o);
        return entry.data.length + (entry.rejected?.length ?? 0);
      },
      fetchProfileRank: async (id, o) => {
        await this.#request(canonicalRequest('profile', id, {}), o);
      },
    });
    this.#batcher = new QuoteBatcher(
      {
        ranks: this.#ranks,
        now,
        ttlMs: () => this.#o.freshnessMs.live,
        fetchPage: async (page, currency, caller) => {
          const a = await this.#marketsPage(page, currency, { caller });
          return { items: a.entry.data, rejected: a.entry.rejected, stale: a.stale, fetchedAt: a.entry.fetchedAt };
        },
        fetchProfile: async (id, currency, caller) => {
          const a = await this.#request(canonicalRequest('profile', id, { convert: currency }), { caller });
          return { profile: a.entry.data as Profile, stale: a.stale, fetchedAt: a.entry.fetchedAt, timestamp: a.entry.timestamp };
        },
      },
      this.#o.batchWindowMs,
      this.#o.maxCacheEntries * 4,
    );
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

  // ------------------------------------------------------------ requests

  async get<N extends EndpointName>(name: N, req: RequestOptions = {}): Promise<Fetched<EndpointData<N>>> {
    const cr = canonicalRequest(name, req.id, req.query);
    const a = await this.#request(cr, { caller: req.caller, signal: req.signal });
    return toFetched<EndpointData<N>>(a);
  }

  /** Follows pagination and concatenates `data`: see paging.ts. */
  getPages<N extends EndpointName>(name: N, req: PagesOptions): Promise<Fetched<EndpointData<N>>> {
    return getPages(
      { request: (cr, f) => this.#request(cr, f), get: (n, r) => this.get(n, r), now: this.#o.now },
      name,
      req,
    );
  }

  /** Plan and credits (free). Updates meter.plan and the pacer's requests/minute. */
  async status(opts: { signal?: AbortSignal; force?: boolean } = {}): Promise<AccountStatus> {
    const a = await this.#request(canonicalRequest('status', undefined, {}), { signal: opts.signal, force: opts.force });
    return a.entry.data as AccountStatus;
  }

  // ------------------------------------------------------------ coins and quotes

  resolveCoin(input: string | number, opts: ResolveOptions = {}): Promise<CoinRef> {
    return this.#resolver.resolve(input, opts);
  }

  async resolveCoins(inputs: (string | number)[], opts: ResolveOptions = {}): Promise<(CoinRef | ApiError)[]> {
    return Promise.all(
      inputs.map((i) =>
        this.resolveCoin(i, opts).catch((e: unknown) =>
          e instanceof ApiError ? e : new ApiError({ code: 'UNEXPECTED_RESPONSE', message: String(e) }),
        ),
      ),
    );
  }

  quote(
    coin: string | number | CoinRef,
    opts: { currency?: ConvertCurrency; caller?: string; signal?: AbortSignal } = {},
  ): Promise<Quote> {
    const currency = opts.currency ?? 'USD';
    if (!(CONVERT_CURRENCIES as readonly string[]).includes(currency)) {
      return Promise.reject(new ApiError({ code: 'VALIDATION_ERROR', message: `Currency must be one of ${CONVERT_CURRENCIES.join(', ')}.` }));
    }
    // Not async: thousands of cells wait here at once, and a pending async frame each is memory the GC keeps copying.
    if (typeof coin === 'object' && coin !== null) return Promise.resolve(this.#quoteOf(coin, currency, opts));
    return this.resolveCoin(coin, opts).then((ref) => this.#quoteOf(ref, currency, opts));
  }

  #quoteOf(ref: CoinRef, currency: ConvertCurrency, opts: { caller?: string; signal?: AbortSignal }): Quote | Promise<Quote> {
    const cached = this.#batcher.fresh(ref.id, currency);
    if (cached) {
      this.meter.recordCacheHit();
      return cached;
    }
    return this.#batcher.load({ id: ref.id, currency, caller: opts.caller }, opts.signal);
  }

  // ------------------------------------------------------------ control

  /** Drop every cached response and quote (memory). The persisted currency map stays unless includeReference. */
  refreshAll(opts: { includeReference?: boolean } = {}): void {
    this.#cache.clear();
    this.#batcher.clear();
    this.#resolver.forget();
    if (opts.includeReference) {
      this.#map = null;
      this.#ranks.clear();
      this.#storageRead = Promise.resolve();
      void this.#storage.clear();
    }
  }

  /** After this many credits spent today (UTC) by this client, metered requests fail with BUDGET_EXCEEDED. null: no budget. */
  setDailyBudget(credits: number | null): void {
    this.#budget = credits === null || !Number.isFinite(credits) ? null : Math.max(0, credits);
  }

  /** The key changed: drop caches and what was learned about the plan. */
  onKeyChanged(): void {
    this.#cache.clear();
    this.#batcher.clear();
    this.#plan = null;
    this.#planLoading = null;
    this.#planFailedAt = null;
    this.#denied.clear();
    this.#pacer.setRpm(DEFAULT_RATE_LIMIT_PER_MINUTE);
    this.meter.setPlan(null);
  }

  // ------------------------------------------------------------ internals

  #ttl(cr: CanonicalRequest): number {
    return this.#o.freshnessMs[freshnessOf(cr, this.#o.now())];
  }

  async #request(cr: CanonicalRequest, f: RequestFlags): Promise<Answer> {
    if (f.signal?.aborted) throw abortedError(cr.name);
    const held = this.#cache.get(cr.key);
    if (held && !f.force && this.#o.now() - held.fetchedAt < this.#ttl(cr)) {
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
    const spec = ENDPOINTS[cr.name];
    // Ask for the plan before anything waits: /v3/status then takes the pacer's next
    // slot ahead of the burst that wants it, which runs at the lowest plan's rate
    // until the plan is known (a Pro burst queued ahead of it waited a minute per 10).
    const plan = spec.cost === 'free' ? null : this.#ensurePlan(signal);
    plan?.catch(() => undefined); // awaited below only where the endpoint needs the plan first
    const apiKey = normalizeKey(await this.#o.keyStore.getKey());
    if (!apiKey) {
      throw new ApiError({ code: 'NO_API_KEY', message: 'No API key: add your CryptoRank API key in the task pane.', endpoint: cr.name });
    }
    if (plan) {
      this.#checkBudget(cr);
      // Endpoints every plan has need not wait for /v3/status, before they are sent or
      // after they are answered: the pacer runs at the lowest plan's rate until the
      // plan arrives, and setRpm() then wakes whatever it holds. The round trips overlap.
      if (spec.plan !== 'Sandbox') await plan;
      this.#checkPlan(cr);
    }
    const generation = this.#cache.generation;
    const result = await this.#send(cr, caller, apiKey, signal);
    const entry: CacheEntry = { data: result.data, meta: result.meta, fetchedAt: this.#o.now(), timestamp: result.timestamp };
    if (result.rejected) entry.rejected = result.rejected;
    if (store) this.#cache.set(cr.key, entry, generation);
    this.#learn(cr, entry);
    return entry;
  }

  /** One request with retries, metered, within its deadline; an endpoint the plan lacks is remembered. */
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
      if (e instanceof ApiError && e.code === 'ENDPOINT_NOT_AVAILABLE') this.#denied.add(cr.name);
      throw e;
    } finally {
      bound.done();
    }
  }

  /** `signal`, aborted also when the request's deadline passes. */
  #bounded(signal: AbortSignal): { signal: AbortSignal; expired(): boolean; done(): void } {
    const c = new AbortController();
    let expired = false;
    const onAbort = () => c.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const t = setTimeout(() => {
      expired = true;
      c.abort();
    }, this.#o.requestDeadlineMs);
    return {
      signal: c.signal,
      expired: () => expired,
      done: () => {
        clearTimeout(t);
        signal.removeEventListener('abort', onAbort);
      },
    };
  }

  #attempts(cr: CanonicalRequest, caller: string | undefined, apiKey: string, signal: AbortSignal): Promise<AttemptResult> {
    return withRetries(
      async (sig) => {
        try {
          const r = await attempt({ baseUrl: this.#o.baseUrl, request: cr, apiKey, fetch: this.#o.fetch, timeoutMs: this.#o.timeoutMs, signal: sig, now: this.#o.now });
          this.meter.recordRequest(cr.name, caller, r.usedCredits);
          return r;
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 'ABORTED')) {
            this.meter.recordRequest(cr.name, caller, 0);
            const failure = { code: e instanceof ApiError ? e.code : 'UNEXPECTED', message: e instanceof Error ? e.message : String(e), at: this.#o.now() };
            this.#lastFailures.set('', failure);
            if (caller !== undefined) this.#lastFailures.set(caller, failure);
          }
          throw e;
        }
      },
      // /v3/status goes ahead of the queue: a re-ask after a failed one (STATUS_RETRY_MS) would
      // otherwise wait behind every request queued at the lowest plan's rate, and so would the
      // requests that need the plan first (each page of paged history).
      { maxRetries: cr.name === 'currencyMap' ? Math.max(this.#o.maxRetries, MAP_MAX_RETRIES) : this.#o.maxRetries, pacer: this.#pacer, sleep: this.#o.sleep, now: this.#o.now, random: this.#o.random, signal, first: cr.name === 'status' },
    );
  }

  /** What every fresh answer teaches: plan and rate, ranks, quotes. */
  #learn(cr: CanonicalRequest, entry: CacheEntry): void {
    if (cr.name === 'status') {
      const s = entry.data as AccountStatus;
      // Another plan (an upgrade): what the service refused before may be allowed now.
      if (this.#plan && this.#plan.plan !== s.plan) this.#denied.clear();
      this.#plan = s;
      this.#planFailedAt = null;
      this.#pacer.setRpm(s.rateLimitPerMinute);
      this.meter.setPlan(s);
    } else if (cr.name === 'markets') {
      const items = entry.data as MarketItem[];
      const q = cr.query;
      const byRank = ['sortBy', 'sortOrder', 'category', 'tag', 'ecosystem', 'lifecycle'].every((k) => q[k] === undefined);
      if (byRank) this.#ranks.learnListing(Number(q.offset ?? 0), Number(q.limit ?? ENDPOINTS.markets.params.limit.default), items);
      this.#batcher.absorb(items, (q.convert ?? 'USD') as ConvertCurrency, entry.fetchedAt);
    } else if (cr.name === 'profile') {
      const p = entry.data as Profile;
      this.#ranks.learnRank(p.id, p.rank);
      // Not traded or unranked: the markets list will not have it; quotes go straight to the profile.
      if (p.lifecycle !== 'traded' || p.rank === null) this.#ranks.markUnlisted(p.id);
    }
  }

  #checkBudget(cr: CanonicalRequest): void {
    if (this.#budget === null) return;
    const spent = this.meter.creditsToday();
    if (spent + creditCost(cr.name, cr.query) > this.#budget) {
      throw new ApiError({
        code: 'BUDGET_EXCEEDED',
        message: `Daily credit budget reached (${spent} of ${this.#budget} credits spent today). Raise it in the task pane.`,
        endpoint: cr.name,
      });
    }
  }

  /** Read /v3/status once, lazily, before the first metered request (and after a key change). */
  async #ensurePlan(signal: AbortSignal): Promise<void> {
    if (this.#plan) return;
    if (this.#planFailedAt !== null && this.#o.now() - this.#planFailedAt < STATUS_RETRY_MS) return;
    this.#planLoading ??= this.status().then(
      () => {
        this.#planLoading = null;
      },
      (e: unknown) => {
        this.#planLoading = null;
        if (e instanceof ApiError && errorRule(e.code, e.status).fixKey) throw e;
        this.#planFailedAt = this.#o.now(); // go ahead at the default rate
      },
    );
    await abortable(this.#planLoading, signal);
  }

  /**
   * An endpoint the key cannot call fails here, without a request: one the
   * service already refused on this key; one outside the endpoints /v3/status
   * listed; or, where status lists none (documented shapes without
   * `endpoints`), one whose minimum plan in the endpoint table is above the
   * key's plan. An unknown plan name is left to the service to judge.
   */
  #checkPlan(cr: CanonicalRequest): void {
    const requiredPlan = ENDPOINTS[cr.name].plan;
    const deny = (why: string): never => {
      throw new ApiError({
        code: 'ENDPOINT_NOT_AVAILABLE',
        message: `${cr.name} needs the ${requiredPlan} plan or higher (${why}).`,
        status: 403,
        endpoint: cr.name,
        requiredPlan,
      });
    };
    if (this.#denied.has(cr.name)) deny('the service refused it for this key');
    const s = this.#plan;
    if (!s) return;
    const allowed = s.endpoints;
    if (allowed && allowed.length > 0) {
      const path = ENDPOINTS[cr.name].path;
      const norm = (p: string) => p.replace(/:(\w+)/g, '{$1}').replace(/\/+$/, '');
      if (!allowed.some((p) => norm(p) === path)) deny(`this key has ${s.plan}`);
      return;
    }
    if (isPlan(s.plan) && !planAllows(s.plan, requiredPlan)) deny(`this key has ${s.plan}`);
  }

  #marketsPage(page: number, currency: ConvertCurrency, o: ResolveOptions): Promise<Answer & { entry: { data: MarketItem[] } }> {
    const cr = canonicalRequest('markets', undefined, { offset: page * MARKETS_PAGE_SIZE, limit: MARKETS_PAGE_SIZE, convert: currency });
    return this.#request(cr, o) as Promise<Answer & { entry: { data: MarketItem[] } }>;
  }

  /** The currency map: memory, then storage (24 h), then one request. A failed refresh keeps an older map. */
  #loadMap(o: ResolveOptions): Promise<CoinMap> {
    const now = this.#o.now();
    if (this.#map?.isFresh(now)) return Promise.resolve(this.#map);
    this.#mapLoading ??= (async () => {
      try {
        this.#storageRead ??= (async () => {
          const [m] = await Promise.all([this.#storage.loadMap(), this.#storage.loadRanks(this.#ranks, now)]);
          if (m && (!this.#map || m.fetchedAt > this.#map.fetchedAt)) this.#map = m;
        })();
        await this.#storageRead;
        if (this.#map?.isFresh(this.#o.now())) return this.#map;
        try {
          const a = await this.#request(canonicalRequest('currencyMap', undefined, {}), { caller: o.caller, store: false });
          const map = new CoinMap(a.entry.data as CoinRef[], a.entry.fetchedAt);
          this.#map = map;
          this.#resolver.forget();
          this.#unsavedMap = map;
          this.#schedulePersist();
          return map;
        } catch (e) {
          if (this.#map && allowsStaleFallback(e)) return this.#map;
          throw e;
        }
      } finally {
        this.#mapLoading = null;
      }
    })();
    return abortable(this.#mapLoading, o.signal);
  }

  /**
   * Write what was learned (a new map, ranks) to storage a moment later:
   * serializing 2,000 coins is not work for the cells waiting on the map, and
   * one write covers a whole recalculation's worth of pages.
   */
  #schedulePersist(): void {
    if (this.#persistScheduled) return;
    this.#persistScheduled = true;
    setTimeout(() => {
      this.#persistScheduled = false;
      void this.flushStorage();
    }, PERSIST_DELAY_MS);
  }

  /** Write a newly fetched currency map and changed ranks to storage now. */
  async flushStorage(): Promise<void> {
    const map = this.#unsavedMap;
    this.#unsavedMap = null;
    const saves: Promise<void>[] = [];
    if (map && this.#map === map) saves.push(this.#storage.saveMap(map));
    if (this.#ranks.takeDirty()) saves.push(this.#storage.saveRanks(this.#ranks, this.#o.now()));
    await Promise.all(saves);
  }
}

function toFetched<T>(a: Answer): Fetched<T> {
  const f: Fetched<T> = { data: a.entry.data as T, stale: a.stale, fetchedAt: a.entry.fetchedAt, fromCache: a.fromCache };
  if (a.entry.meta) f.meta = a.entry.meta;
  if (a.entry.rejected) f.rejected = a.entry.rejected;
  return f;
}
