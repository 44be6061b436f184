/**
 * The local API server on a thread of its own, for the benchmark.
 *
 * The real API is a remote service: generating and serializing its answers is
 * not work for the add-in's thread. Run in-process, the server's CPU and
 * garbage (hundreds of KB of JSON per markets page) would be charged to every
 * cold fill, so the benchmark runs it in a worker and asks it for accounting
 * (credits, requests, handler time) by message.
 */
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import type { UsageSnapshot } from '../src/emulator/accounts';
import type { EndpointName } from '../src/api/endpoints';
import type { MarketDataSource } from '../src/emulator/contract';
import { startEmulator, type Emulator, type EmulatorStats, type ResponseLogEntry } from '../src/emulator/server';
import type { SeenRequest } from './floor';

export interface ServerOptions {
  latency: string | number;
  /** Requests per minute for every key (lifts or tightens the plans' limits). */
  rpm?: number;
  /** Routes the server does not have (the emulator's withoutRoutes). */
  withoutRoutes?: readonly EndpointName[];
  /** Keep the requests it answers, for takeRequests() (the transport floor: floor.ts). */
  logRequests?: boolean;
}

/** One API server running on the API thread. */
export interface RemoteServer {
  url: string;
  usage(key: string): Promise<UsageSnapshot>;
  stats(): Promise<EmulatorStats>;
  rateLimitFor(key: string): Promise<number>;
  /** Time the server's data handlers took since the last call (ms). */
  takeHandlerMs(): Promise<number>;
  /** The requests answered since the last call (with logRequests), in the server thread's clock. */
  takeRequests(): Promise<SeenRequest[]>;
  close(): Promise<void>;
}

export interface ApiThread {
  start(o: ServerOptions): Promise<RemoteServer>;
  close(): Promise<void>;
}

type Request =
  | { id: number; op: 'start'; options: ServerOptions }
  | { id: number; op: 'usage'; server: number; key: string }
  | { id: number; op: 'stats'; server: number }
  | { id: number; op: 'rateLimitFor'; server: number; key: string }
  | { id: number; op: 'takeHandlerMs' }
  | { id: number; op: 'takeRequests'; server: number }
  | { id: number; op: 'close'; server: number };
type Reply = { id: number; value?: unknown; error?: string };

/** Starts the API thread (it builds its own market: the same seed gives the same data). */
export async function startApiThread(): Promise<ApiThread> {
  // Run from TypeScript source (tsx), the thread registers the same loader before loading this file.
  const self = import.meta.url;
  const worker = self.endsWith('.ts')
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.tsImport(${JSON.stringify(self)}, ${JSON.stringify(self)}))`, { eval: true })
    : new Worker(new URL(self));
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 1;
  worker.on('message', (m: Reply | { ready: true }) => {
    if ('ready' in m) return;
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error !== undefined) p?.reject(new Error(m.error));
    else p?.resolve(m.value);
  });
  const failAll = (e: Error) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('error', failAll);
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  // Distributive Omit: each request's own fields, without the id.
  type Call = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;
  const call = <T>(req: Call): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...req, id });
    });
  return {
    async start(options) {
      const { server, url } = await call<{ server: number; url: string }>({ op: 'start', options });
      return {
        url,
        usage: (key) => call({ op: 'usage', server, key }),
        stats: () => call({ op: 'stats', server }),
        rateLimitFor: (key) => call({ op: 'rateLimitFor', server, key }),
        takeHandlerMs: () => call({ op: 'takeHandlerMs' }),
        takeRequests: () => call({ op: 'takeRequests', server }),
        close: () => call({ op: 'close', server }),
      };
    },
    async close() {
      await worker.terminate();
      failAll(new Error('API thread closed'));
    },
  };
}

// ---------------------------------------------------------------- the thread itself

/** The market with every handler timed (handlers are synchronous: wall time is their CPU time). */
function timedMarket(m: MarketDataSource, clock: { ms: number }): MarketDataSource {
  const handlers = Object.fromEntries(
    Object.entries(m.handlers).map(([k, h]) => [
      k,
      (req: Parameters<typeof h>[0]) => {
        const t = performance.now();
        try {
          return h(req);
        } finally {
          clock.ms += performance.now() - t;
        }
      },
    ]),
  ) as MarketDataSource['handlers'];
  return { handlers };
}

async function serve(): Promise<void> {
  const port = parentPort!;
  const first = await startEmulator({});
  const handlerClock = { ms: 0 };
  const market = timedMarket(first.market, handlerClock);
  await first.close();
  const servers = new Map<number, Emulator>();
  const seen = new Map<number, SeenRequest[]>();
  let next = 1;
  const server = (n: number): Emulator => {
    const s = servers.get(n);
    if (!s) throw new Error(`no server ${n}`);
    return s;
  };
  const handle = async (r: Request): Promise<unknown> => {
    switch (r.op) {
      case 'start': {
        const n = next++;
        const log: SeenRequest[] = [];
        // Told as each answer is decided, before its latency: it leaves `delay` ms later. Faults (status 0) are not requests a client would repeat.
        const onResponse = r.options.logRequests
          ? (e: ResponseLogEntry) => {
              const now = performance.now();
              if (e.status !== 0) log.push({ method: e.method, url: e.url, arrived: now, answered: now + e.delay });
            }
          : undefined;
        const em = await startEmulator({ latency: r.options.latency, market, ...(r.options.rpm ? { rpm: r.options.rpm } : {}), withoutRoutes: r.options.withoutRoutes, onResponse });
        servers.set(n, em);
        seen.set(n, log);
        return { server: n, url: em.url };
      }
      case 'usage':
        return server(r.server).usage(r.key);
      case 'stats':
        return server(r.server).stats();
      case 'rateLimitFor':
        return server(r.server).rateLimitFor(r.key);
      case 'takeHandlerMs': {
        const ms = handlerClock.ms;
        handlerClock.ms = 0;
        return ms;
      }
      case 'takeRequests': {
        const log = seen.get(r.server) ?? [];
        seen.set(r.server, []);
        return log;
      }
      case 'close': {
        await servers.get(r.server)?.close();
        servers.delete(r.server);
        seen.delete(r.server);
        return null;
      }
    }
  };
  port.on('message', (r: Request) => {
    handle(r).then(
      (value) => port.postMessage({ id: r.id, value }),
      (e: unknown) => port.postMessage({ id: r.id, error: e instanceof Error ? e.message : String(e) }),
    );
  });
  port.postMessage({ ready: true });
}

if (!isMainThread && parentPort) void serve();
