/**
 * Shared set-up of the client tests: the emulator in-process on a free port with
 * a controlled clock, clients whose `now` is that clock and whose `sleep`
 * advances it (minutes of pacing run in milliseconds), a distinctive key to
 * search for, and a recorder of console output and of every error seen.
 */
import assert from 'node:assert/strict';
import { FROZEN_NOW } from '../harness/instant';
import { startEmulator, type Emulator, type EmulatorOptions, type ResponseLogEntry } from '../src/emulator/server';
import type { MarketDataSource } from '../src/emulator/contract';
import { ApiError, MarketClient, MemoryKeyStore, MemoryKvStore, type ClientOptions } from '../src/client/index';
import { ENDPOINTS } from '../src/api/endpoints';
import type { CurrencyMapItem, MarketItem } from '../src/api/records';

export const NOW = FROZEN_NOW;
/** Distinctive keys registered in every emulator the tests start; searched for in every output. */
export const SECRET_PRO = 'sk-live-7Q2fZ9-SECRET-pro-4b1e';
export const SECRET_SANDBOX = 'sk-live-3Xv8K1-SECRET-sandbox-9d2a';
export const SECRETS = [SECRET_PRO, SECRET_SANDBOX];

// ------------------------------------------------------------ console capture
export const consoleOutput: string[] = [];
for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
  const original = console[m].bind(console);
  console[m] = (...args: unknown[]) => {
    consoleOutput.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === 'string' ? a : safeJson(a))).join(' '));
    original(...args);
  };
}
process.on('warning', (w) => consoleOutput.push(`${w.name}: ${w.message}`));

function safeJson(x: unknown): string {
  try {
    return JSON.stringify(x);
  } catch {
    return String(x);
  }
}

/** Every ApiError a test caught (via `rejects`), to search for the key. */
export const seenErrors: ApiError[] = [];

/** Await a rejection, assert it is an ApiError with `code`, remember it, return it. */
export async function rejects(p: Promise<unknown>, code: string): Promise<ApiError> {
  let err: unknown;
  try {
    await p;
  } catch (e) {
    err = e;
  }
  if (!(err instanceof ApiError)) throw new Error(`expected ApiError ${code}, got ${err === undefined ? 'success' : String(err)}`);
  seenErrors.push(err);
  if (err.code !== code) throw new Error(`expected ApiError ${code}, got ${err.code}: ${err.message}`);
  return err;
}

// ------------------------------------------------------------ emulator
let marketPromise: Promise<MarketDataSource> | null = null;
/** The synthetic market, built once per test file. */
export function market(): Promise<MarketDataSource> {
  marketPromise ??= import('../src/emulator/market/index').then((m) => m.createMarket({}));
  return marketPromise;
}

/** A response the server decided, with the emulator clock at that moment. */
export type LogEntry = ResponseLogEntry & { at: number };

export interface Rig {
  em: Emulator;
  log: LogEntry[];
  /** Client on the controlled clock; `sleep` advances the emulator's clock. */
  client(o?: Partial<ClientOptions> & { key?: string | null }): MarketClient;
  /** Requests the server saw, by path without query. */
  hits(path?: string): LogEntry[];
  close(): Promise<void>;
}

export async function rig(opts: EmulatorOptions = {}): Promise<Rig> {
  const log: LogEntry[] = [];
  let t = NOW;
  /** Requests clients started that the server has not decided yet (by path and query): a sleep waits for them. */
  const pending = new Map<string, symbol[]>();
  let pendingCount = 0;
  const settle = (url: string, token?: symbol): void => {
    const q = pending.get(url);
    if (!q || q.length === 0) return;
    const i = token === undefined ? 0 : q.indexOf(token);
    if (i < 0) return;
    q.splice(i, 1);
    pendingCount--;
  };
  const em = await startEmulator({
    market: opts.market ?? (await market()),
    clock: () => t,
    ...opts,
    keys: { 'demo-pro': 'Pro', 'demo-sandbox': 'Sandbox', 'demo-advanced': 'Advanced', 'demo-inactive': null, [SECRET_PRO]: 'Pro', [SECRET_SANDBOX]: 'Sandbox' },
    onResponse: (e) => {
      log.push({ ...e, at: em.clock.now() });
      settle(e.url);
    },
  });
  return {
    em,
    log,
    client(o = {}) {
      const { key = SECRET_PRO, fetch: innerFetch = fetch, ...rest } = o;
      return new MarketClient({
        baseUrl: em.url,
        fetch: (input, init) => {
          const u = new URL(String(input));
          const k = u.pathname + u.search;
          const token = Symbol(k);
          pending.set(k, [...(pending.get(k) ?? []), token]);
          pendingCount++;
          // settled without reaching the server (aborted, refused): stop waiting for it
          return innerFetch(input, init).finally(() => settle(k, token));
        },
        keyStore: new MemoryKeyStore(key),
        storage: new MemoryKvStore(),
        now: () => em.clock.now(),
        sleep: async (ms, signal) => {
          // Requests already granted must reach the server before time moves on,
          // as they would in real time.
          const deadline = Date.now() + 2_000;
          do await new Promise((r) => setImmediate(r));
          while (pendingCount > 0 && Date.now() < deadline);
          if (signal?.aborted) throw new ApiError({ code: 'ABORTED', message: 'aborted' });
          em.clock.advance(Math.max(0, ms));
          await new Promise((r) => setImmediate(r));
          if (signal?.aborted) throw new ApiError({ code: 'ABORTED', message: 'aborted' });
        },
        random: () => 0.5,
        ...rest,
      });
    },
    hits(path?: string) {
      return log.filter((e) => path === undefined || e.url.split('?')[0] === path);
    },
    close: () => em.close(),
  };
}

/** Resolves after `ms` of real time. */
/** An answer's `data` as the rig's server gives it to the demo Pro key, read directly (not through the client). */
export async function serverData<T>(r: Rig, path: string): Promise<T> {
  const res = await fetch(r.em.url + path, { headers: { 'X-Api-Key': 'demo-pro' } });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: T }).data;
}

/** The market as the rig's server lists it: the currency map, and every markets page in order. */
export async function serverMarket(r: Rig): Promise<{ coins: CurrencyMapItem[]; listing: MarketItem[] }> {
  const coins = await serverData<CurrencyMapItem[]>(r, ENDPOINTS.currencyMap.path);
  const listing: MarketItem[] = [];
  for (let offset = 0; ; offset += 250) {
    const page = await serverData<MarketItem[]>(r, `${ENDPOINTS.markets.path}?limit=250&offset=${offset}`);
    listing.push(...page);
    if (page.length < 250) break;
  }
  return { coins, listing };
}

export const realDelay = (ms: number) => new Promise((r) => setTimeout(r, ms));
