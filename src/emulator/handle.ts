/**
 * What startEmulator returns: the running emulator, its clock, accounts,
 * faults and rate limiter, and its statistics.
 */
import type { Accounts, UsageSnapshot } from './accounts';
import type { EmulatorClock } from './clock';
import type { MarketDataSource } from './contract';
import type { Dialect } from './dialects';
import type { FaultInjector } from './faults';
import type { LatencySpec } from './options';
import type { RateLimiter } from './rate-limit';

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
