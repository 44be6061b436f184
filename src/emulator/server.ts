/**
 * The emulator's HTTP layer: a local stand-in for the CryptoRank v3 API that the
 * tests, the demo and the benchmark run against. Plain node:http on 127.0.0.1.
 *
 * Per request, in this order (errors cost nothing):
 *   fault injection (opt-in) → method → route → key (missing / invalid / inactive)
 *   → rate limit → plan → validation (id, repeated and unknown params, values)
 *   → credit limits (daily, then monthly) → handler → envelope, credits charged.
 *
 * Paths, parameters, plans, costs and error codes all come from src/api/endpoints.ts;
 * the data comes from the synthetic market (src/emulator/market, via contract.ts).
 * See docs/emulator.md.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import {
  API_ERROR_CODES,
  ENDPOINTS,
  ENDPOINT_NAMES,
  PLAN_LIMITS,
  creditCost,
  notFoundRoute,
  planAllows,
  validateQuery,
  type ApiErrorCode,
  type EndpointName,
  type Plan,
} from '../api/endpoints';
import type { StatusBody } from '../api/records';
import { Accounts, DEMO_KEYS, creditPeriod, type UsageSnapshot } from './accounts';
import { InvalidRequestError, NotFoundError, PlanLimitError, type DataEndpointName, type HandlerResult, type MarketDataSource } from './contract';
import { FaultInjector, SLOW_ANSWER_MS, mulberry32, type Fault, type FaultRates } from './faults';
import { RateLimiter } from './rate-limit';
import { DIALECTS, inDialect, isDialect, refusedParams, type Dialect } from './dialects';

export { DEMO_KEYS } from './accounts';
export { DIALECTS, isDialect, type Dialect } from './dialects';
export type { UsageSnapshot, PathUsage } from './accounts';
export { FAULT_KINDS, parseFaultSpec, formatFaultSpec, FaultInjector } from './faults';
export type { FaultKind, FaultRates, QueuedFault } from './faults';

export const HOST = '127.0.0.1';
const JSON_TYPE = 'application/json; charset=utf-8';
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
} as const;
const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'X-Api-Key, Content-Type',
  'Access-Control-Max-Age': '600',
} as const;
/** What a `malformed` fault answers with (200, JSON content type). */
export const MALFORMED_BODY = '{"data":[{"id":1,"slug":"bitcoin","price":"6';

// ---------------------------------------------------------------- options

export interface LatencySpec {
  /** Added to every response, ms. */
  ms: number;
  /** Uniform ± jitter around `ms`, drawn from the seed (deterministic sequence). */
  jitter: number;
}

/** `50` → 50 ms; `50:20` → 50 ± 20 ms. */
export function parseLatency(spec: string | number | Partial<LatencySpec>): LatencySpec {
  let ms: number;
  let jitter = 0;
  if (typeof spec === 'number') ms = spec;
  else if (typeof spec === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(?:[:±]\s*(\d+(?:\.\d+)?))?\s*$/.exec(spec);
    if (!m) throw new Error(`bad latency "${spec}": expected <ms> or <ms>:<jitter>, e.g. 50 or 50:20`);
    ms = Number(m[1]);
    jitter = m[2] === undefined ? 0 : Number(m[2]);
  } else {
    ms = spec.ms ?? 0;
    jitter = spec.jitter ?? 0;
  }
  if (!(ms >= 0) || !(jitter >= 0) || !Number.isFinite(ms) || !Number.isFinite(jitter)) {
    throw new Error('latency and jitter must be non-negative numbers');
  }
  return { ms, jitter };
}

/** Epoch ms from a number, a Date or an ISO 8601 string. */
export function parseNow(now: number | string | Date): number {
  const ms = typeof now === 'number' ? now : now instanceof Date ? now.getTime() : Date.parse(now);
  if (!Number.isFinite(ms)) throw new Error(`bad --now "${String(now)}": expected an ISO 8601 date`);
  return ms;
}

export interface EmulatorOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Latency added to every response: ms, "ms:jitter", or { ms, jitter }. Default none. */
  latency?: number | string | Partial<LatencySpec>;
  /** Override every plan's requests per minute. */
  rpm?: number;
  /** Random fault shares: a spec string ("500:0.05,drop:0.01") or an object. Default none. */
  faults?: string | FaultRates;
  /** Seed of the fault draws and the latency jitter (default 1). */
  seed?: number;
  /** How late a `slow` fault's answer comes, ms (default SLOW_ANSWER_MS). */
  slowMs?: number;
  /** Fixed clock: the emulator's "now" never moves (except by clock.advance/set). */
  now?: number | string | Date;
  /** Clock function, epoch ms (a test's controlled clock). Takes precedence over `now`. */
  clock?: () => number;
  /** The data source; default: `createMarket({ seed: marketSeed })` from ./market. */
  market?: MarketDataSource;
  /** Seed handed to createMarket when `market` is not given (default: the market's own). */
  marketSeed?: number;
  /** Keys and plans (null = no active subscription); default DEMO_KEYS. */
  keys?: Readonly<Record<string, Plan | null>>;
  /** Which documented shape the answers take (see ./dialects.ts); default `spec`. */
  dialect?: Dialect;
  /**
   * Routes this server does not have, as the live service lacks
   * /v3/currencies/markets for a Sandbox key (api-notes "Round two"): answered
   * 404 "Cannot GET " + path and query, the live wording, and left out of
   * /v3/status `endpoints`.
   */
  withoutRoutes?: readonly EndpointName[];
  /** Called after each response is decided (for request logs). */
  onResponse?: (entry: ResponseLogEntry) => void;
}

export interface ResponseLogEntry {
  method: string;
  /** Path and query as requested. */
  url: string;
  /** HTTP status; 0 for a hung or dropped request. */
  status: number;
  /** Error code, or the fault kind for injected faults. */
  code?: string;
  key?: string;
  credits: number;
  /** Latency added, ms. */
  delay: number;
  fault?: Fault['kind'];
}

// ---------------------------------------------------------------- handle

export interface EmulatorClock {
  /** The emulator's time, epoch ms: what handlers, envelopes and credit days use. */
  now(): number;
  /** Move the clock (and the rate-limit window) forward by `ms`. */
  advance(ms: number): void;
  /** Set the emulator's time. */
  set(ms: number): void;
  /** True when the clock is frozen (`now` option without a `clock` function). */
  readonly fixed: boolean;
}

export interface EmulatorStats {
  /** HTTP requests received (preflights included). */
  requests: number;
  /** Responses per HTTP status; hung and dropped requests count under "hang" and "drop". */
  byStatus: Record<string, number>;
  /** Faults injected per kind (queued and random). */
  faults: Record<string, number>;
  /** Credits charged over all keys. */
  credits: number;
}

export interface Emulator {
  /** Origin, e.g. `http://127.0.0.1:4010` (endpoint paths already start with /v3). */
  url: string;
  /** `url + '/v3'`, the equivalent of https://api.cryptorank.io/v3. */
  baseUrl: string;
  port: number;
  /** Stop listening, destroy every open socket (hung responses included), cancel delayed responses. */
  close(): Promise<void>;
  clock: EmulatorClock;
  accounts: Accounts;
  /** Credit and request accounting of one key. */
  usage(key: string): UsageSnapshot;
  /** Test hook: set a key's usage for the current day / credit period. */
  setUsage(key: string, patch: { dailyUsed?: number; monthlyUsed?: number }): void;
  /** Random shares and the queue of next faults: `faults.queue({ kind: '500', times: 3 })`. */
  faults: FaultInjector;
  rateLimiter: RateLimiter;
  /** Current per-minute override (undefined: per plan). */
  readonly rpm: number | undefined;
  setRpm(rpm: number | undefined): void;
  readonly latency: LatencySpec;
  setLatency(spec: number | string | Partial<LatencySpec>): void;
  /** The requests-per-minute limit a key gets now. */
  rateLimitFor(key: string): number;
  stats(): EmulatorStats;
  resetStats(): void;
  market: MarketDataSource;
  readonly seed: number;
  readonly dialect: Dialect;
}

// ---------------------------------------------------------------- routing

interface Route {
  name: EndpointName;
  segments: string[];
  idIndex: number;
}
const STATIC_ROUTES = new Map<string, EndpointName>();
const TEMPLATE_ROUTES: Route[] = [];
for (const name of ENDPOINT_NAMES) {
  const path: string = ENDPOINTS[name].path;
  const segments = path.split('/');
  const idIndex = segments.indexOf('{id}');
  if (idIndex < 0) STATIC_ROUTES.set(path, name);
  else TEMPLATE_ROUTES.push({ name, segments, idIndex });
}

/** The endpoint a pathname addresses (static paths win over `{id}` templates), with the raw id segment. */
export function matchRoute(pathname: string): { name: EndpointName; rawId?: string } | null {
  const s = STATIC_ROUTES.get(pathname);
  if (s) return { name: s };
  const parts = pathname.split('/');
  for (const r of TEMPLATE_ROUTES) {
    if (r.segments.length !== parts.length) continue;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      if (i === r.idIndex) ok = parts[i] !== '';
      else ok = parts[i] === r.segments[i];
    }
    if (ok) return { name: r.name, rawId: parts[r.idIndex] };
  }
  return null;
}

function parseId(raw: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}

// ---------------------------------------------------------------- server

async function loadMarket(seed: number | undefined): Promise<MarketDataSource> {
  const mod = await import('./market/index');
  return await mod.createMarket(seed === undefined ? {} : { seed });
}

class HttpError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? API_ERROR_CODES[code].message);
  }
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const seed = opts.seed ?? 1;
  const market = opts.market ?? (await loadMarket(opts.marketSeed));
  const accounts = new Accounts(opts.keys ?? DEMO_KEYS);
  const rateLimiter = new RateLimiter();
  const faults = new FaultInjector(opts.faults ?? {}, seed);
  let latency = parseLatency(opts.latency ?? 0);
  const jitterRandom = mulberry32(seed ^ 0x5bd1e995);
  let rpm = checkRpm(opts.rpm);
  const dialect = opts.dialect ?? 'spec';
  const without = new Set<EndpointName>(opts.withoutRoutes ?? []);
  if (!isDialect(dialect)) throw new Error(`dialect must be one of ${DIALECTS.join(', ')}, got ${String(dialect)}`);

  // Clock: the emulator's time, and the time the rate-limit window runs on. With a
  // frozen clock (`now` without `clock`) the window runs on real elapsed time, so
  // the CLI with --now still lets a client recover from a 429.
  const base: () => number = opts.clock ?? (opts.now !== undefined ? constant(parseNow(opts.now)) : Date.now);
  const fixed = opts.clock === undefined && opts.now !== undefined;
  let offset = 0;
  let advanced = 0;
  const clock: EmulatorClock = {
    now: () => base() + offset,
    advance(ms: number) {
      offset += ms;
      advanced += ms;
    },
    set(ms: number) {
      offset = ms - base();
    },
    fixed,
  };
  const rateNow = fixed ? () => Date.now() + advanced : clock.now;

  let stats: EmulatorStats = freshStats();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  /** Responses a `slow` fault delays (answered normally, late). */
  const slowed = new WeakSet<http.ServerResponse>();
  const slowMs = opts.slowMs ?? SLOW_ANSWER_MS;
  let closing: Promise<void> | null = null;

  const nextDelay = (): number => {
    if (latency.ms <= 0 && latency.jitter <= 0) return 0;
    const j = latency.jitter > 0 ? (jitterRandom() * 2 - 1) * latency.jitter : 0;
    return Math.max(0, Math.round(latency.ms + j));
  };

  const later = (fn: () => void, delay: number): void => {
    if (delay <= 0) return fn();
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, delay);
    timers.add(t);
  };

  const count = (status: string): void => {
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
  };

  function send(
    res: http.ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string>,
    log: Omit<ResponseLogEntry, 'status' | 'delay'>,
  ): void {
    count(String(status));
    const delay = nextDelay() + (slowed.has(res) ? slowMs : 0);
    opts.onResponse?.({ ...log, status, delay });
    later(() => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
      res.end(body);
    }, delay);
  }

  function sendJson(res: http.ServerResponse, status: number, body: string, log: Omit<ResponseLogEntry, 'status' | 'delay'>, extra: Record<string, string> = {}): void {
    send(res, status, body, { ...CORS_HEADERS, 'Content-Type': JSON_TYPE, ...extra }, log);
  }

  function sendError(res: http.ServerResponse, err: HttpError, log: Omit<ResponseLogEntry, 'status' | 'delay' | 'code'>): void {
    const { status } = API_ERROR_CODES[err.code];
    const body = JSON.stringify({ error: { code: err.code, message: err.message, status } });
    sendJson(res, status, body, { ...log, code: err.code }, err.headers);
  }

  function applyFault(req: http.IncomingMessage, res: http.ServerResponse, fault: Fault, log: Omit<ResponseLogEntry, 'status' | 'delay'>): void {
    const entry = { ...log, fault: fault.kind, code: fault.kind };
    switch (fault.kind) {
      case '429':
        return sendError(res, new HttpError('RATE_LIMIT_EXCEEDED', undefined, { 'Retry-After': String(fault.retryAfter) }), entry);
      case '500':
        return sendError(res, new HttpError('INTERNAL_ERROR'), entry);
      case 'malformed':
        return sendJson(res, 200, MALFORMED_BODY, entry);
      case 'hang':
        // Never answer; the socket stays open until the client gives up or close() destroys it.
        count('hang');
        opts.onResponse?.({ ...entry, status: 0, delay: 0 });
        return;
      case 'slow':
        return; // answered as usual, late (see send)
      case 'drop': {
        count('drop');
        const delay = nextDelay();
        opts.onResponse?.({ ...entry, status: 0, delay });
        later(() => req.socket.destroy(), delay);
        return;
      }
    }
  }

  function statusBody(key: string, plan: Plan, now: number): StatusBody {
    const { start, end } = creditPeriod(now);
    return {
      plan,
      rateLimitPerMinute: rpm ?? PLAN_LIMITS[plan].rateLimitPerMinute,
      credits: accounts.credits(key, now),
      currentPeriodStart: new Date(start).toISOString(),
      currentPeriodEnd: new Date(end).toISOString(),
      endpoints: ENDPOINT_NAMES.filter((n) => planAllows(plan, ENDPOINTS[n].plan) && !without.has(n)).map((n) => ENDPOINTS[n].path),
    };
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    stats.requests++;
    req.resume();
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    let url: URL;
    try {
      url = new URL(rawUrl, 'http://localhost');
    } catch {
      url = new URL('http://localhost/');
    }
    const pathname = url.pathname;
    const log: Omit<ResponseLogEntry, 'status' | 'delay'> = { method, url: rawUrl, credits: 0 };

    if (method === 'OPTIONS') {
      if (pathname === '/v3' || pathname.startsWith('/v3/')) {
        return send(res, 204, '', { ...PREFLIGHT_HEADERS }, log);
      }
      return sendError(res, new HttpError('NOT_FOUND', notFoundRoute(method, pathname + url.search)), log);
    }

    const fault = faults.next(pathname);
    if (fault?.kind === 'slow') {
      slowed.add(res);
      log.fault = 'slow';
    }
    else if (fault) return applyFault(req, res, fault, log);

    // The live 404 names the path and the query as asked: "Cannot GET /v3/currencies/markets?limit=250" [live].
    if (method !== 'GET') return sendError(res, new HttpError('NOT_FOUND', notFoundRoute(method, pathname + url.search)), log);
    const route = matchRoute(pathname);
    if (!route || without.has(route.name)) return sendError(res, new HttpError('NOT_FOUND', notFoundRoute('GET', pathname + url.search)), log);

    // key
    const header = req.headers['x-api-key'];
    const key = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
    if (key === '') return sendError(res, new HttpError('API_KEY_MISSING'), log);
    log.key = key;
    if (!accounts.has(key)) return sendError(res, new HttpError('API_KEY_INVALID'), log);
    const fail = (err: HttpError): void => {
      accounts.noteError(key);
      sendError(res, err, log);
    };
    const plan = accounts.plan(key);
    if (!plan) return fail(new HttpError('NO_ACTIVE_SUBSCRIPTION'));

    // rate limit
    const decision = rateLimiter.take(key, rpm ?? PLAN_LIMITS[plan].rateLimitPerMinute, rateNow());
    if (!decision.allowed) {
      return fail(new HttpError('RATE_LIMIT_EXCEEDED', undefined, { 'Retry-After': String(decision.retryAfter) }));
    }

    // plan
    const name = route.name;
    const spec = ENDPOINTS[name];
    if (!planAllows(plan, spec.plan)) {
      // The live words, which do not name the plan [live]: "Endpoint is not available in your plan".
      return fail(new HttpError('ENDPOINT_NOT_AVAILABLE'));
    }

    // validation
    let id: number | undefined;
    if (route.rawId !== undefined) {
      const parsed = parseId(route.rawId);
      if (parsed === null) return fail(new HttpError('VALIDATION_ERROR', 'id must be a positive integer'));
      id = parsed;
    }
    const query: Record<string, string> = Object.create(null);
    const problems: string[] = [];
    for (const [k, val] of url.searchParams) {
      if (Object.hasOwn(query, k)) {
        if (!problems.includes(`${k} must not be repeated`)) problems.push(`${k} must not be repeated`);
        continue;
      }
      query[k] = val;
    }
    problems.push(...validateQuery(name, query), ...refusedParams(dialect, name, query).map((p) => `property ${p} should not exist`));
    if (problems.length > 0) return fail(new HttpError('VALIDATION_ERROR', problems.join('; ')));

    const now = clock.now();
    if (name === 'status') {
      accounts.charge(key, now, spec.path, 0);
      return sendJson(res, 200, JSON.stringify(inDialect(dialect, 'status', statusBody(key, plan, now))), log);
    }

    // credit limits (with the cost known before the handler; history endpoints are re-checked after)
    const limitError = (cost: number): HttpError | null => {
      const over = accounts.wouldExceed(key, now, cost);
      if (over === 'daily') return new HttpError('PLAN_LIMIT_EXCEEDED', 'Daily credit limit exceeded');
      if (over === 'monthly') return new HttpError('PLAN_LIMIT_EXCEEDED', 'Monthly credit limit exceeded');
      return null;
    };
    const before = limitError(creditCost(name, query, 0));
    if (before) return fail(before);

    // handler
    let result: HandlerResult;
    if (name === 'ping') {
      result = { data: { message: 'pong' } };
    } else {
      try {
        const handler = market.handlers[name as DataEndpointName];
        if (!handler) throw new Error(`the market has no handler for ${name}`);
        result = handler({ id, query, now, plan });
      } catch (err) {
        // The spec's message for an addressed resource that does not exist; the handler's reason stays in the log.
        if (err instanceof NotFoundError) return fail(new HttpError('NOT_FOUND'));
        if (err instanceof InvalidRequestError) return fail(new HttpError('VALIDATION_ERROR', err.message || undefined));
        if (err instanceof PlanLimitError) return fail(new HttpError('PLAN_LIMIT_EXCEEDED', err.message || undefined));
        process.emitWarning(`emulator: ${name} handler failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        return fail(new HttpError('INTERNAL_ERROR'));
      }
    }
    const cost = creditCost(name, query, result.buckets ?? 0);
    const after = limitError(cost);
    if (after) return fail(after);

    let body: string;
    try {
      const data = inDialect(dialect, name, result.data);
      body = JSON.stringify(
        result.meta === undefined
          ? { data, status: { timestamp: now, usedCredits: cost } }
          : { data, meta: result.meta, status: { timestamp: now, usedCredits: cost } },
      );
    } catch (err) {
      process.emitWarning(`emulator: ${name} result is not serialisable: ${String(err)}`);
      return fail(new HttpError('INTERNAL_ERROR'));
    }
    accounts.charge(key, now, spec.path, cost);
    stats.credits += cost;
    log.credits = cost;
    sendJson(res, 200, body, log);
  }

  const server = http.createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      process.emitWarning(`emulator: request failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { ...CORS_HEADERS, 'Content-Type': JSON_TYPE });
        res.end(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: API_ERROR_CODES.INTERNAL_ERROR.message, status: 500 } }));
      }
    }
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('emulator: no TCP address');
  const port = address.port;
  const url = `http://${HOST}:${port}`;

  return {
    url,
    baseUrl: `${url}/v3`,
    port,
    close() {
      if (!closing) {
        closing = new Promise<void>((resolve) => {
          for (const t of timers) clearTimeout(t);
          timers.clear();
          server.close(() => resolve());
          for (const s of sockets) s.destroy();
        });
      }
      return closing;
    },
    clock,
    accounts,
    usage: (key) => accounts.usage(key, clock.now()),
    setUsage: (key, patch) => accounts.setUsage(key, clock.now(), patch),
    faults,
    rateLimiter,
    get rpm() {
      return rpm;
    },
    setRpm(n) {
      rpm = checkRpm(n);
    },
    get latency() {
      return { ...latency };
    },
    setLatency(spec) {
      latency = parseLatency(spec);
    },
    rateLimitFor(key) {
      const plan = accounts.plan(key);
      return rpm ?? (plan ? PLAN_LIMITS[plan].rateLimitPerMinute : 0);
    },
    stats: () => ({ ...stats, byStatus: { ...stats.byStatus }, faults: { ...faults.injected } }),
    resetStats() {
      stats = freshStats();
      for (const k of Object.keys(faults.injected) as (keyof typeof faults.injected)[]) faults.injected[k] = 0;
    },
    market,
    seed,
    dialect,
  };
}

function freshStats(): EmulatorStats {
  return { requests: 0, byStatus: {}, faults: {}, credits: 0 };
}

function constant(ms: number): () => number {
  return () => ms;
}

function checkRpm(rpm: number | undefined): number | undefined {
  if (rpm === undefined) return undefined;
  if (!Number.isInteger(rpm) || rpm < 1) throw new Error(`rpm must be a positive integer, got ${rpm}`);
  return rpm;
}
