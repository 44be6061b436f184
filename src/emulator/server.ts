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
 * Beside this file: its options (options.ts), clock (clock.ts), route table
 * (routes.ts), how an answer goes out (responder.ts), and the handle it returns
 * (handle.ts). See docs/emulator.md.
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
  type EndpointName,
  type Plan,
} from '../api/endpoints';
import type { StatusBody } from '../api/records';
import { Accounts, DEMO_KEYS, creditPeriod } from './accounts';
import { InvalidRequestError, NotFoundError, PlanLimitError, type DataEndpointName, type HandlerResult, type MarketDataSource } from './contract';
import { FaultInjector } from './faults';
import { RateLimiter } from './rate-limit';
import { DIALECTS, inDialect, isDialect, refusedParams } from './dialects';
import { checkRpm, parseLatency, type EmulatorOptions, type ResponseLogEntry } from './options';
import { emulatorClock } from './clock';
import type { Emulator, EmulatorStats } from './handle';
import { matchRoute, parseId } from './routes';
import { CORS_HEADERS, HttpError, JSON_TYPE, PREFLIGHT_HEADERS, Responder } from './responder';

export { DEMO_KEYS } from './accounts';
export { DIALECTS, isDialect, type Dialect } from './dialects';
export type { UsageSnapshot, PathUsage } from './accounts';
export { FAULT_KINDS, parseFaultSpec, formatFaultSpec, FaultInjector } from './faults';
export type { FaultKind, FaultRates, QueuedFault } from './faults';
export { parseLatency, parseNow, type LatencySpec, type EmulatorOptions, type ResponseLogEntry } from './options';
export type { EmulatorClock } from './clock';
export type { Emulator, EmulatorStats } from './handle';
export { matchRoute } from './routes';
export { MALFORMED_BODY } from './responder';

export const HOST = '127.0.0.1';

async function loadMarket(seed: number | undefined): Promise<MarketDataSource> {
  const mod = await import('./market/index');
  return await mod.createMarket(seed === undefined ? {} : { seed });
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const seed = opts.seed ?? 1;
  const market = opts.market ?? (await loadMarket(opts.marketSeed));
  const accounts = new Accounts(opts.keys ?? DEMO_KEYS);
  const rateLimiter = new RateLimiter();
  const faults = new FaultInjector(opts.faults ?? {}, seed);
  const latency = parseLatency(opts.latency ?? 0);
  let rpm = checkRpm(opts.rpm);
  const dialect = opts.dialect ?? 'spec';
  const without = new Set<EndpointName>(opts.withoutRoutes ?? []);
  if (!isDialect(dialect)) throw new Error(`dialect must be one of ${DIALECTS.join(', ')}, got ${String(dialect)}`);

  const { clock, rateNow } = emulatorClock(opts);

  let stats: EmulatorStats = freshStats();
  const sockets = new Set<Socket>();
  let closing: Promise<void> | null = null;

  const count = (status: string): void => {
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
  };

  const responder = new Responder(opts, latency, seed, count);

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
        return responder.send(res, 204, '', { ...PREFLIGHT_HEADERS }, log);
      }
      return responder.sendError(res, new HttpError('NOT_FOUND', notFoundRoute(method, pathname + url.search)), log);
    }

    const fault = faults.next(pathname);
    if (fault?.kind === 'slow') {
      responder.slow(res);
      log.fault = 'slow';
    }
    else if (fault) return responder.applyFault(req, res, fault, log);

    // The live 404 names the path and the query as asked: "Cannot GET /v3/currencies/markets?limit=250" [live].
    if (method !== 'GET') return responder.sendError(res, new HttpError('NOT_FOUND', notFoundRoute(method, pathname + url.search)), log);
    const route = matchRoute(pathname);
    if (!route || without.has(route.name)) return responder.sendError(res, new HttpError('NOT_FOUND', notFoundRoute('GET', pathname + url.search)), log);

    // key
    const header = req.headers['x-api-key'];
    const key = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
    if (key === '') return responder.sendError(res, new HttpError('API_KEY_MISSING'), log);
    log.key = key;
    if (!accounts.has(key)) return responder.sendError(res, new HttpError('API_KEY_INVALID'), log);
    const fail = (err: HttpError): void => {
      accounts.noteError(key);
      responder.sendError(res, err, log);
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
      return responder.sendJson(res, 200, JSON.stringify(inDialect(dialect, 'status', statusBody(key, plan, now))), log);
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
    responder.sendJson(res, 200, body, log);
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
          responder.cancelDelayed();
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
      return { ...responder.latency };
    },
    setLatency(spec) {
      responder.latency = parseLatency(spec);
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
