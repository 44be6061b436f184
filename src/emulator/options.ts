/**
 * What startEmulator takes (EmulatorOptions) and how its option strings read:
 * latency ("50", "50:20"), the fixed clock's --now, the per-minute override.
 * The CLI (cli.ts) parses its flags with these too.
 */
import type { EndpointName, Plan } from '../api/endpoints';
import type { MarketDataSource } from './contract';
import type { Fault, FaultRates } from './faults';
import type { Dialect } from './dialects';

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

export function checkRpm(rpm: number | undefined): number | undefined {
  if (rpm === undefined) return undefined;
  if (!Number.isInteger(rpm) || rpm < 1) throw new Error(`rpm must be a positive integer, got ${rpm}`);
  return rpm;
}
