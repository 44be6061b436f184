/**
 * Runs workloads through the formula CLI's recalculation (openSession →
 * recalculate, src/cli/recalculation.ts: every cell at once, as Excel hands a
 * sheet to the runtime) against the local API server on a thread of its own,
 * and the naive client against a server of its own over the same market.
 * Judged by bench/targets.ts.
 */
import { PLAN_LIMITS, type Plan } from '../src/api/endpoints';
import { WINDOW_MS } from '../src/client/pacer';
import { loadFunctionMetadata } from '../src/cli/metadata';
import type { RecalcOutcome } from '../src/cli/recalculation';
import type { MarketDataSource } from '../src/emulator/contract';
import { DEMO_KEYS, parseLatency, startEmulator } from '../src/emulator/server';
import { startApiThread, type ApiThread } from './api-thread';
import { CATALOG } from '../src/formulas/catalog';
import { latencyBound, minimumCredits } from './minimum';
import { median, transportFloor, trial, type Trial } from './trial';
import { runNaive } from './naive-client';
import type { BenchReport, NaiveResult, Target, WorkloadResult } from './report';
import { WORKLOAD_NAMES, buildWorkload, lookupMarket, type Workload, type WorkloadName } from './workloads';
import { runBrowserWorkloads } from './browser';
import { TARGETS } from './targets';

export interface BenchOptions {
  latency?: string | number;
  /** Cold fills timed per workload (median reported); default 1. */
  runs?: number;
  only?: string[];
  skip?: string[];
  tiny?: boolean;
  log?: (line: string) => void;
  /** Also time scale-1k and scale (when selected) in the preview workbook in Chromium; default true. */
  browser?: boolean;
}

// ---------------------------------------------------------------- cells

export function isErrorOutcome(o: RecalcOutcome): boolean {
  if ('error' in o) return true;
  return o.value.some((row) => row.some((c) => typeof c === 'object' && c !== null && 'error' in c));
}

function errorText(o: RecalcOutcome): string | null {
  if ('error' in o) return `${o.error} ${o.message}`;
  for (const row of o.value) for (const c of row) if (typeof c === 'object' && c !== null && 'error' in c) return `${c.error} ${c.message}`;
  return null;
}

// ---------------------------------------------------------------- one workload

const planOf = (key: string): Plan => DEMO_KEYS[key] ?? 'Pro';
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function availableFormulas(): Promise<(f: string) => boolean> {
  const meta = await loadFunctionMetadata();
  const ids = new Set(meta.map((m) => m.id.toUpperCase()));
  return (f) => ids.has(f) && Object.hasOwn(CATALOG, f);
}

export async function runWorkload(
  name: WorkloadName,
  o: {
    latencyMs: number;
    latencySpec: string | number;
    market: MarketDataSource;
    api: ApiThread;
    tiny: boolean;
    available: (f: string) => boolean;
    log: (s: string) => void;
    naive?: boolean;
    /** Cold fills to time (each on a fresh session and server); times are their median. */
    runs?: number;
  },
): Promise<WorkloadResult> {
  // The workload is read from the market directly (the API thread serves the same
  // market, built from the same seed; both clocks are the real one).
  const lookup = lookupMarket(o.market, Date.now());
  const w: Workload = buildWorkload(name, lookup, { tiny: o.tiny, available: o.available });
  const texts = w.cells.map((c) => c.text);
  const min = minimumCredits(w.cells, { without: w.withoutRoutes });
  const bound = latencyBound(w.cells, o.latencyMs, { without: w.withoutRoutes });
  const runs = Math.max(1, o.runs ?? 1);
  o.log(`${name}: ${texts.length} cells on ${w.key}${w.missingFormulas?.length ? ` (missing: ${w.missingFormulas.join(', ')})` : ''}, ${runs} run${runs > 1 ? 's' : ''} …`);
  const trials: Trial[] = [];
  for (let i = 0; i < runs; i++) trials.push(await trial(w, texts, o.api, o.latencySpec));
  {
    // Requests, credits, errors and memory from the first run; times are medians over every run.
    const first = trials[0];
    const { cold, warm, usage: afterCold, rpm, heapGrowthMB, rssGrowthMB, retainedMB, warmRequests } = first;
    const coldMs = median(trials.map((t) => t.coldMs));
    const warmMs = median(trials.map((t) => t.warmMs));
    const warm2Ms = median(trials.map((t) => t.warm2Ms));
    const coldBusyMs = median(trials.map((t) => t.coldBusyMs));
    const serverMs = median(trials.map((t) => t.serverMs));
    const floor = await transportFloor(w, trials, o.api, o.latencySpec);
    const creditsPerRun = trials.map((t) => t.usage.dailyUsed);
    // Cells the recalculation fills: a formula that spills a 365 × 6 table fills 2,190 of them.
    const filledCells = cold.reduce((n, x) => n + ('value' in x ? x.value.reduce((m, row) => m + row.length, 0) : 1), 0);
    // Error cells: the worst run's (a run that errs is not hidden behind one that did not).
    const worst = trials.reduce((a, t) => (t.cold.filter(isErrorOutcome).length > a.cold.filter(isErrorOutcome).length ? t : a), first);
    const errored = worst.cold.filter(isErrorOutcome);
    const warmErrored = warm.filter(isErrorOutcome).length;
    const samples = [...new Set(errored.map(errorText).filter((s): s is string => s !== null))].slice(0, 3);
    const rateLimitErrorCells = errored.filter((x) => /rate.?limit|429|RATE_LIMIT/i.test(errorText(x) ?? '')).length;
    const creditsByEndpoint = Object.fromEntries(Object.entries(afterCold.byPath).map(([p, u]) => [p, u.credits]));
    const credits = afterCold.dailyUsed;
    const requests = afterCold.requests;
    o.log(`${name}: cold ${coldMs.toFixed(0)} ms${runs > 1 ? ` (median of ${trials.map((t) => t.coldMs.toFixed(0)).join(', ')})` : ''}, ${requests} requests, ${credits} credits (minimum ${min.credits}), warm ${warmMs.toFixed(1)} ms / ${warmRequests} requests, ${errored.length} error cells`);

    const result: WorkloadResult = {
      description: w.description,
      key: w.key,
      cells: texts.length,
      requests,
      credits,
      creditsByEndpoint,
      minimumCredits: min.credits,
      minimumDerivation: min.derivation,
      coldMs: round(coldMs),
      warmMs: round(warmMs, 2),
      warmRequests,
      errorCells: errored.length,
      peakMemoryMB: round(heapGrowthMB, 2),
      naive: { skipped: 'not run yet' },
      errorResponses: afterCold.errors,
      rssGrowthMB: round(rssGrowthMB, 2),
      retainedMB: round(retainedMB, 2),
      warm2Ms: round(warm2Ms, 2),
      coldBusyMs: round(coldBusyMs),
      serverHandlerMs: round(serverMs),
      latencyBoundMs: bound.ms,
      latencyBoundPath: bound.path,
      creditsVsMinimum: min.credits > 0 ? round(credits / min.credits, 3) : credits === 0 ? 1 : Number.POSITIVE_INFINITY,
      coldVsLatencyBound: bound.ms > 0 ? round(coldMs / bound.ms, 2) : 0,
      filledCells,
      warmMsPer1000Cells: filledCells > 0 ? round((warmMs * 1000) / filledCells, 2) : 0,
      warmMsPer1000Formulas: texts.length > 0 ? round((warmMs * 1000) / texts.length, 2) : 0,
      targets: {},
      runs,
    };
    if (floor !== null) {
      result.floorMs = round(floor.ms);
      result.floorWaves = floor.waves;
      result.coldVsFloor = floor.ms > 0 ? round(coldMs / floor.ms, 2) : 0;
    }
    if (runs > 1) {
      result.coldRunsMs = trials.map((t) => round(t.coldMs));
      result.creditsPerRun = creditsPerRun;
    }
    if (w.missingFormulas?.length) result.missingFormulas = w.missingFormulas;
    if (samples.length) result.errorSamples = samples;
    if (warmErrored !== errored.length) result.errorSamples = [...(result.errorSamples ?? []), `warm recalculation: ${warmErrored} error cells`];

    // rate bound (sandbox)
    const rateBinds = requests > rpm;
    if (w.rateBound) {
      result.rateLimitPerMinute = rpm;
      result.rateBoundMs = Math.max(0, ((requests - 1) / rpm) * WINDOW_MS);
      result.coldVsRateBound = result.rateBoundMs > 0 ? round(coldMs / result.rateBoundMs, 3) : 0;
      result.rateLimitErrorCells = rateLimitErrorCells;
    }

    // targets
    const t: Record<string, Target> = {};
    const mostCredits = Math.max(...creditsPerRun);
    const T = TARGETS;
    t.credits = {
      pass: mostCredits <= T.credits.maxVsMinimum * min.credits + 1e-9,
      detail: `${credits} credits vs minimum ${min.credits} (${result.creditsVsMinimum}×, target ≤ ${T.credits.maxVsMinimum}×)${creditsPerRun.some((c) => c !== credits) ? `; runs spent ${creditsPerRun.join(', ')}` : ''}`,
    };
    t.warm = {
      pass: warmRequests <= T.warm.requests && result.warmMsPer1000Cells < T.warm.maxMsPer1000Cells,
      detail: `${warmRequests} requests, ${result.warmMs} ms for ${filledCells.toLocaleString('en-US')} filled cells = ${result.warmMsPer1000Cells} ms per 1,000 (target ${T.warm.requests} and < ${T.warm.maxMsPer1000Cells})${filledCells !== texts.length ? `; ${result.warmMsPer1000Formulas} ms per 1,000 formulas (${texts.length} formulas, spilled ranges counted cell by cell above)` : ''}`,
    };
    if (rateBinds) {
      const boundMs = Math.max(bound.ms, ((requests - 1) / rpm) * WINDOW_MS);
      t.cold = { pass: null, detail: `rate limit binds (${requests} requests > ${rpm}/min): cold ${result.coldMs} ms vs rate bound ${Math.round(boundMs)} ms = ${round(coldMs / boundMs, 2)}×` };
      if (w.rateBound) t.cold = { pass: coldMs <= T.cold.maxVsRateBound * boundMs, detail: `rate bound: cold ${result.coldMs} ms vs (requests − 1)/${rpm} min = ${Math.round(boundMs)} ms: ${round(coldMs / boundMs, 2)}× (target ≤ ${T.cold.maxVsRateBound}×)` };
    } else if (bound.ms <= 0) {
      t.cold = { pass: null, detail: `no latency: no latency bound (cold ${result.coldMs} ms)` };
    } else {
      t.cold = { pass: coldMs <= T.cold.maxVsLatencyBound * bound.ms, detail: `cold ${result.coldMs} ms vs latency bound ${bound.ms} ms: ${result.coldVsLatencyBound}× (target ≤ ${T.cold.maxVsLatencyBound}×)` };
    }
    if (w.exactCredits) {
      t.exact = { pass: creditsPerRun.every((c) => c === min.credits * T.exact.vsMinimum), detail: `${creditsPerRun.join(', ')} credits vs ${min.credits}: ${w.exactCredits}` };
    }
    t.errors = {
      pass: errored.length <= T.errors.max,
      detail: `${errored.length} of ${texts.length} cells are errors${w.rateBound ? `, ${rateLimitErrorCells} of them rate-limit errors` : ''}`,
    };
    result.targets = t;

    // naive
    result.naive = w.naive !== true ? w.naive : o.naive === false ? { skipped: 'warm-up' } : await runNaiveFor(w, texts, o);
    if (!('skipped' in result.naive)) {
      result.naiveCreditsVsCredits = credits > 0 ? round(result.naive.credits / credits, 1) : Number.POSITIVE_INFINITY;
      t.naive = name === 'portfolio'
        ? { pass: result.naive.credits >= T.naive.minVsNaive * credits, detail: `naive ${result.naive.credits} credits vs ${credits}: ${result.naiveCreditsVsCredits}× (target ≥ ${T.naive.minVsNaive}×)` }
        : { pass: null, detail: `naive ${result.naive.credits} credits vs ${credits}: ${result.naiveCreditsVsCredits}×` };
    }
    return result;
  }
}

async function runNaiveFor(
  w: Workload,
  texts: string[],
  o: { latencySpec: string | number; api: ApiThread; log: (s: string) => void },
): Promise<NaiveResult> {
  const planRpm = PLAN_LIMITS[planOf(w.key)].rateLimitPerMinute;
  const expected = texts.length + 1;
  const lift = expected > planRpm;
  const em = await o.api.start({ latency: o.latencySpec, ...(lift ? { rpm: 1_000_000 } : {}) });
  try {
    const run = await runNaive(texts, { origin: em.url, key: w.key });
    const u = await em.usage(w.key);
    const errorCells = run.outcomes.filter((x) => !x.ok).length;
    o.log(`${w.name}: naive ${u.requests} requests, ${u.dailyUsed} credits, ${run.ms.toFixed(0)} ms, ${errorCells} error cells${lift ? ' (rate limit lifted)' : ''}`);
    return {
      requests: u.requests,
      credits: u.dailyUsed,
      coldMs: round(run.ms),
      errorCells,
      creditsByEndpoint: Object.fromEntries(Object.entries(u.byPath).map(([p, x]) => [p, x.credits])),
      rateLimitLifted: lift,
      minutesAtPlanLimit: round(u.requests / planRpm, 1),
    };
  } finally {
    await em.close();
  }
}

// ---------------------------------------------------------------- all

export function selectWorkloads(only?: string[], skip?: string[]): WorkloadName[] {
  const known = new Set<string>(WORKLOAD_NAMES);
  for (const n of [...(only ?? []), ...(skip ?? [])]) {
    if (!known.has(n)) throw new Error(`unknown workload "${n}"; known: ${WORKLOAD_NAMES.join(', ')}`);
  }
  return WORKLOAD_NAMES.filter((n) => (!only?.length || only.includes(n)) && !skip?.includes(n));
}

export async function runBench(opts: BenchOptions = {}): Promise<BenchReport> {
  const log = opts.log ?? (() => undefined);
  const latencySpec = opts.latency ?? 50;
  const latencyMs = parseLatency(latencySpec).ms;
  const names = selectWorkloads(opts.only, opts.skip);
  const started = Date.now();
  const t0 = performance.now();

  // The market the workloads are read from; the API servers run on a thread of their own
  // (the real API is remote), over a market built from the same seed.
  const first = await startEmulator({});
  const market = first.market;
  await first.close();
  const api = await startApiThread();
  const available = await availableFormulas();

  const report: BenchReport = {
    workloads: {},
    settings: { latencyMs, runs: Math.max(1, opts.runs ?? 1), node: process.version, startedAt: new Date(started).toISOString(), totalMs: 0, tiny: opts.tiny === true },
  };
  try {
    // Warm-up, not measured: load and JIT the calculation path, the client and fetch once, so the
    // first workload is not charged for them (each workload still gets a fresh session and empty cache).
    if (!opts.tiny) {
      log('warm-up (not measured) …');
      for (const n of ['portfolio', 'research', 'dashboard'] as const) {
        await runWorkload(n, { latencyMs: 0, latencySpec: 0, market, api, tiny: true, available, log: () => undefined, naive: false });
      }
    }

    for (const name of names) {
      report.workloads[name] = await runWorkload(name, { latencyMs, latencySpec, market, api, tiny: opts.tiny === true, available, log, runs: opts.runs });
    }
  } finally {
    await api.close();
  }

  // The same PRICE cells in the preview workbook (the built bundle in Chromium), beside the Node figures.
  if (opts.browser !== false) {
    const lookup = lookupMarket(market, Date.now());
    const same = names.filter((n) => n === 'scale-1k' || n === 'scale');
    report.browser = await runBrowserWorkloads(
      same.map((n) => ({ name: n, texts: buildWorkload(n, lookup, { tiny: opts.tiny === true, available }).cells.map((c) => c.text) })),
      { latencyMs, log },
    );
  }

  // memory: linear growth and the 10,000-cell ceiling, over the scale workloads
  const scale = names.filter((n) => n.startsWith('scale')).map((n) => ({ n, w: report.workloads[n] })).sort((a, b) => a.w.cells - b.w.cells);
  if (scale.length > 0) {
    report.growth = scale.map(({ w }) => ({ cells: w.cells, peakMemoryMB: w.peakMemoryMB, requests: w.requests, credits: w.credits, coldMs: w.coldMs }));
    for (let i = 0; i < scale.length; i++) {
      const { w } = scale[i];
      const prev = i > 0 ? scale[i - 1].w : null;
      // Linear: growing the workbook k times grows the heap at most about k times (1.25 k, and 5 MB of slack for GC timing).
      const M = TARGETS.memory;
      const linear = prev === null || w.peakMemoryMB <= M.linear * (w.cells / prev.cells) * Math.max(prev.peakMemoryMB, 0) + M.slackMB;
      const under = w.cells < M.atCells || w.peakMemoryMB < M.maxMB;
      w.targets.memory = {
        pass: linear && under,
        detail: `${w.peakMemoryMB} MB heap growth at ${w.cells} cells${prev ? ` (${prev.peakMemoryMB} MB at ${prev.cells}: ${round(w.peakMemoryMB / Math.max(prev.peakMemoryMB, 0.01), 2)}× for ${round(w.cells / prev.cells, 1)}× the cells)` : ''}${w.cells >= M.atCells ? `; target < ${M.maxMB} MB` : ''}`,
      };
    }
  }
  report.settings.totalMs = Math.round(performance.now() - t0);
  return report;
}
