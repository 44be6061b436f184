/**
 * Fault scenarios: a realistic workload recalculated through the calculation
 * host against the local API server with one fault kind at one rate, cold
 * (nothing known) and as a refresh (a good recalculation, then the faulty
 * one). The fault suite (test/fault-suite.test.ts) asserts on the results;
 * `npm run chaos` prints them as the table in docs/reliability.md.
 *
 * Real time, scaled down: a call's deadline, the client's per-attempt timeout
 * and a slow answer's delay are seconds, not the product's 45 s / 20 s / 5 s,
 * so 18 scenarios fit in the test suite. Backoff, Retry-After and the pacer's
 * minute window are the product's own.
 */
import { isDeepStrictEqual } from 'node:util';
import { FROZEN_NOW } from '../harness/instant';
import { openSession, type Session } from '../src/cli/session';
import { recalculate, type RecalcOutcome } from '../src/cli/recalculation';
import type { ResponseLogEntry } from '../src/emulator/server';
import { FAULT_KINDS, type FaultKind } from '../src/emulator/faults';
import type { MarketDataSource } from '../src/emulator/contract';

export { FAULT_KINDS, type FaultKind };
export const FAULT_RATES = [0.3, 0.8, 1] as const;

export interface ChaosTiming {
  /** The host's deadline per formula call. */
  deadlineMs: number;
  /** The client's per-attempt timeout (what a hung request costs). */
  timeoutMs: number;
  /** How late a `slow` answer comes. */
  slowMs: number;
  /** After the deadline, how long until a cell still pending counts as pending. */
  graceMs: number;
}

export const SCALED_TIMING: ChaosTiming = { deadlineMs: 3_000, timeoutMs: 1_000, slowMs: 700, graceMs: 500 };

/** The instant the market is read at: every session sees the same data. */
const AT = FROZEN_NOW;

const COINS = [
  'bitcoin', 'ethereum', 'solana', 'cardano', 'dogecoin', 'tron', 'chainlink', 'avalanche', 'polkadot', 'litecoin',
  'uniswap', 'stellar', 'near', 'aptos', 'sui', 'arbitrum', 'optimism', 'ripple', 'toncoin', 'pepe',
];

/** ~100 cells of a research sheet: prices, quotes, the markets list, history, returns, market-wide figures. */
export const WORKLOAD: readonly string[] = [
  ...COINS.flatMap((c) => [`=CRYPTO.PRICE("${c}")`, `=CRYPTO.PRICE("${c.toUpperCase()}")`]),
  ...COINS.slice(0, 5).map((c) => `=CRYPTO.PRICE("${c}","EUR")`),
  `=CRYPTO.QUOTE({"${COINS.slice(0, 5).join('";"')}"},"price,marketCap,percentChange.h24")`,
  `=CRYPTO.QUOTE({"${COINS.slice(5, 10).join('";"')}"},"price,volume24h")`,
  `=CRYPTO.QUOTE({"${COINS.slice(10, 15).join('";"')}";"";"zz-nope-zz"},"price")`,
  '=CRYPTO.MARKETS(300)',
  '=CRYPTO.MARKETS(20,"volume24h")',
  ...COINS.slice(0, 10).map((c) => `=CRYPTO.OHLCV("${c}","2024-01-01","2024-12-31")`),
  ...COINS.slice(10, 15).map((c) => `=CRYPTO.OHLCV("${c}","2023-01-01",,"weekly")`),
  ...COINS.slice(15, 20).map((c) => `=CRYPTO.OHLCV("${c}","10D",,"hourly")`),
  ...COINS.slice(0, 5).map((c) => `=CRYPTO.RETURNS("${c}","monthly")`),
  ...COINS.slice(5, 8).map((c) => `=CRYPTO.RETURNS("${c}","yearly")`),
  ...COINS.slice(0, 5).map((c) => `=CRYPTO.HISTORICAL("${c}","2025-01-01")`),
  '=CRYPTO.FEARGREED()',
  '=CRYPTO.GLOBAL("totalMarketCap")',
  '=CRYPTO.TRENDING()',
  '=CRYPTO.PROFILE("bitcoin","id")',
];

export interface LoggedResponse extends ResponseLogEntry {
  /** performance.now() when the server decided it. */
  t: number;
}

/** One recalculation's cells and what the server saw meanwhile. */
export interface PassResult {
  outcomes: (RecalcOutcome | undefined)[];
  /** ms from the start until each cell settled. */
  times: number[];
  /** Cells not settled `graceMs` after the deadline. */
  pending: number;
  /** ms from the start until the last cell settled. */
  settleMs: number;
  /** The pass's own traffic. */
  log: Traffic;
  /** performance.now() when the pass started and when its last cell settled. */
  startedAt: number;
  settledAt: number;
}

export interface ScenarioResult {
  kind: FaultKind;
  rate: number;
  cells: number;
  /** Cold: cells equal to the fault-free answer. */
  right: number;
  /** Cold: cells that are (or hold) an error where the fault-free answer has none. */
  errors: number;
  /** Cold: cells with a value that differs from the fault-free answer (must be 0). */
  wrong: number;
  /** Cold and refresh: cells still pending after the deadline. */
  pending: number;
  /** Refresh: cells that kept their good value through the faulty recalculation, of how many had one. */
  lastGoodKept: number;
  hadGood: number;
  /** Requests no cell could use: retriesOf4xx + lateRequests. */
  wastedRetries: number;
  /** Requests repeated after a 400/401/403/404 (must be 0). */
  retriesOf4xx: number;
  /** Requests sent after every cell had settled. */
  lateRequests: number;
  /** Requests repeated within Retry-After of a 429 for the same URL (must be 0). */
  retryAfterBroken: number;
  /** Cold: ms until the last cell settled. */
  settleMs: number;
  /** Errors whose message does not say what failed and that a recalculation retries (must be empty). */
  unclear: string[];
}

let marketOnce: Promise<MarketDataSource> | null = null;
/** One synthetic market for every server of a run (building one costs a second of CPU). */
function sharedMarket(): Promise<MarketDataSource> {
  marketOnce ??= import('../src/emulator/market/index').then((m) => m.createMarket({}));
  return marketOnce;
}

/** What the server answered and what the client sent, as they happened. */
export interface Traffic {
  responses: LoggedResponse[];
  /** Path and query of each request the client sent, and performance.now() then. */
  sends: { url: string; t: number }[];
  /** Each 429 the client received: when, and its Retry-After in ms. */
  refusals: { url: string; t: number; retryAfterMs: number }[];
}

async function startSession(timing: ChaosTiming, seed: number, log: Traffic, rpm?: number): Promise<Session> {
  const t0 = performance.now();
  return openSession({
    emulator: {
      clock: () => AT + Math.floor(performance.now() - t0),
      market: await sharedMarket(),
      seed,
      slowMs: timing.slowMs,
      rpm,
      onResponse: (e) => log.responses.push({ ...e, t: performance.now() }),
    },
    client: {
      timeoutMs: timing.timeoutMs,
      fetch: (input, init) => {
        const u = new URL(String(input));
        const url = u.pathname + u.search;
        log.sends.push({ url, t: performance.now() });
        return fetch(input, init).then((res) => {
          if (res.status === 429) log.refusals.push({ url, t: performance.now(), retryAfterMs: Number(res.headers.get('retry-after') ?? 0) * 1000 });
          return res;
        });
      },
    },
    host: { deadlineMs: timing.deadlineMs },
  });
}

/** A session that has calculated the workload once without faults: its cells have last good values to keep. */
export interface WarmSession {
  session: Session;
  log: Traffic;
  good: RecalcOutcome[];
}

/**
 * Warm sessions are reused across scenarios (faults cleared between them); the
 * server allows far more than 100 requests a minute, so one scenario's requests
 * do not pace the next one's: what they test is the last good value.
 */
export async function warmSession(cells: readonly string[] = WORKLOAD, timing: ChaosTiming = SCALED_TIMING, seed = 17): Promise<WarmSession> {
  const log: Traffic = { responses: [], sends: [], refusals: [] };
  const session = await startSession(timing, seed, log, 100_000);
  return { session, log, good: await recalculate(session.host, cells) };
}

/** One recalculation of `cells`, watched: which cells are still pending at the deadline (plus grace). */
export async function watchedPass(s: Session, cells: readonly string[], timing: ChaosTiming, log: Traffic): Promise<PassResult> {
  const from = { responses: log.responses.length, sends: log.sends.length, refusals: log.refusals.length };
  const outcomes: (RecalcOutcome | undefined)[] = cells.map(() => undefined);
  const startedAt = performance.now();
  let settledAt = startedAt;
  const times = cells.map(() => Number.NaN);
  const all = recalculate(s.host, cells, {
    onSettled: (i, o, ms) => {
      outcomes[i] = o;
      times[i] = ms;
      settledAt = performance.now();
    },
  });
  let pending = 0;
  const deadline = new Promise<void>((r) => setTimeout(r, timing.deadlineMs + timing.graceMs));
  await Promise.race([all.then(() => undefined), deadline]);
  pending = outcomes.filter((o) => o === undefined).length;
  if (pending > 0) {
    // Still waiting past the deadline: report it; do not wait forever for it.
    await Promise.race([all, new Promise((r) => setTimeout(r, timing.deadlineMs * 2))]);
  }
  // Let requests that were on the wire as the last cell settled reach the server's log.
  await new Promise((r) => setTimeout(r, 100));
  return { outcomes, times, pending, settleMs: settledAt - startedAt, log: { responses: log.responses.slice(from.responses), sends: log.sends.slice(from.sends), refusals: log.refusals.slice(from.refusals) }, startedAt, settledAt };
}

const isError = (o: RecalcOutcome | undefined): boolean =>
  o === undefined || 'error' in o || o.value.some((row) => row.some((c) => typeof c === 'object' && c !== null && 'error' in c));

function errorMessages(o: RecalcOutcome): string[] {
  if ('error' in o) return [`${o.error} ${o.message}`];
  return o.value.flat().flatMap((c) => (typeof c === 'object' && c !== null && 'error' in c ? [`${c.error} ${c.message}`] : []));
}

/** Requests the client sent for a URL after the server had refused it with 400/401/403/404 (must be none). */
export function retriesOf4xx(p: PassResult): number {
  const refusedAt = new Map<string, number>();
  for (const e of p.log.responses) if ([400, 401, 403, 404].includes(e.status) && !refusedAt.has(e.url)) refusedAt.set(e.url, e.t);
  return p.log.sends.filter((x) => x.t > (refusedAt.get(x.url) ?? Number.POSITIVE_INFINITY)).length;
}

/**
 * Requests sent after every cell had settled: shared work no one cell can
 * cancel (a quote batch, the coin map) that outlived the cells, up to its own
 * request deadline.
 */
export function lateRequests(p: PassResult): number {
  return p.log.sends.filter((x) => x.t > p.settledAt + 5).length;
}

/**
 * Requests the client sent to a URL sooner after it received that URL's 429
 * than the Retry-After said. (A 429 the client never read, because its attempt
 * had timed out first, does not count: the client could not honour it.)
 */
export function retryAfterBroken(p: PassResult): number {
  let broken = 0;
  for (const r of p.log.refusals) {
    const next = p.log.sends.find((x) => x.url === r.url && x.t > r.t);
    if (next && next.t - r.t < r.retryAfterMs - 2) broken++; // 2 ms: timers may fire that early
  }
  return broken;
}

/** The workload's fault-free answers at AT. */
export async function referenceAnswers(cells: readonly string[] = WORKLOAD, timing: ChaosTiming = SCALED_TIMING): Promise<RecalcOutcome[]> {
  const s = await startSession({ ...timing, deadlineMs: 60_000 }, 1, { responses: [], sends: [], refusals: [] });
  try {
    return await recalculate(s.host, cells);
  } finally {
    await s.close();
  }
}

export async function runScenario(
  kind: FaultKind,
  rate: number,
  reference: readonly RecalcOutcome[],
  opts: { cells?: readonly string[]; timing?: ChaosTiming; seed?: number; warm?: WarmSession } = {},
): Promise<ScenarioResult> {
  const cells = opts.cells ?? WORKLOAD;
  const timing = opts.timing ?? SCALED_TIMING;
  const seed = opts.seed ?? 17;
  const coldLog: Traffic = { responses: [], sends: [], refusals: [] };
  const [cold, warm] = await Promise.all([startSession(timing, seed, coldLog), opts.warm ?? warmSession(cells, timing, seed)]);
  try {
    cold.emulator!.faults.setRates({ [kind]: rate });
    const refresh = (async () => {
      const w = warm.session;
      w.emulator!.faults.setRates({ [kind]: rate });
      w.client.refreshAll(); // a refresh: every cell asks the service again
      try {
        return await watchedPass(w, cells, timing, warm.log);
      } finally {
        w.emulator!.faults.clear();
      }
    })();
    const [c, r] = await Promise.all([watchedPass(cold, cells, timing, coldLog), refresh]);

    let right = 0;
    let errors = 0;
    let wrong = 0;
    const unclear = new Set<string>();
    c.outcomes.forEach((o, i) => {
      if (o === undefined) return;
      if (isDeepStrictEqual(o, reference[i])) right++;
      else if (isError(o)) {
        errors++;
        const known = new Set(errorMessages(reference[i]));
        for (const m of errorMessages(o)) if (!known.has(m) && !/\(.+\).*the next recalculation retries$/.test(m)) unclear.add(`${cells[i]}: ${m}`);
      } else wrong++;
    });
    let hadGood = 0;
    let kept = 0;
    r.outcomes.forEach((o, i) => {
      if (isError(warm.good[i])) return;
      hadGood++;
      if (isDeepStrictEqual(o, warm.good[i])) kept++;
    });
    return {
      kind,
      rate,
      cells: cells.length,
      right,
      errors,
      wrong,
      pending: c.pending + r.pending,
      lastGoodKept: kept,
      hadGood,
      wastedRetries: retriesOf4xx(c) + retriesOf4xx(r) + lateRequests(c) + lateRequests(r),
      retriesOf4xx: retriesOf4xx(c) + retriesOf4xx(r),
      lateRequests: lateRequests(c) + lateRequests(r),
      retryAfterBroken: retryAfterBroken(c) + retryAfterBroken(r),
      settleMs: c.settleMs,
      unclear: [...unclear],
    };
  } finally {
    await Promise.all([cold.close(), opts.warm ? undefined : warm.session.close()]);
  }
}
