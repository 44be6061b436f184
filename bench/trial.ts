/**
 * One timed run of a workload: a cold fill and two warm recalculations on a
 * fresh session against a fresh API server, with memory sampled and the cold
 * pass's requests logged; and the transport floor of a workload's runs
 * (floor.ts), replayed once they are all timed. bench/run.ts judges them.
 */
import { performance as nodePerformance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { recalculate, type RecalcOutcome } from '../src/cli/recalculation';
import { openSession } from '../src/cli/session';
import type { UsageSnapshot } from '../src/emulator/accounts';
import type { ApiThread } from './api-thread';
import { replay, waves, type SeenRequest } from './floor';
import type { Workload } from './workloads';

let gcFn: (() => void) | null | undefined;
/** A full GC when the flag can be turned on at run time (it can in Node 20), else nothing. */
export function collectGarbage(): void {
  if (gcFn === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gcFn = vm.runInNewContext('gc') as () => void;
    } catch {
      gcFn = null;
    }
  }
  gcFn?.();
}

/**
 * How the process must look before a cold fill is timed: at most `maxCpuShare` of one core busy (every thread:
 * process.cpuUsage() counts the API thread and V8's helpers too) over `windowMs`, waited for at most `maxWaitMs`.
 * The full GC forced before each fill (the memory baseline) leaves its sweeping to background threads. Timed at
 * once, on a 2-core machine that work competed with the fill, the more the larger the harness's own heap:
 * a 10,000-cell fill took 214 ms with 190 MB of old objects beside it and 178 ms once they were swept
 * (docs/benchmark.md, 2026-11-27, night). A workbook's recalculation does not begin at the end of a full GC.
 */
export interface Quiet {
  windowMs: number;
  maxCpuShare: number;
  maxWaitMs: number;
}
export const QUIET: Readonly<Quiet> = { windowMs: 20, maxCpuShare: 0.1, maxWaitMs: 1_000 };

/** Resolves once the process has been quiet for one window (QUIET), or after QUIET.maxWaitMs: the ms waited. */
export async function quietProcess(q: Readonly<Quiet> = QUIET): Promise<number> {
  const start = performance.now();
  for (;;) {
    const before = process.cpuUsage();
    await new Promise((r) => setTimeout(r, q.windowMs));
    const used = process.cpuUsage(before);
    const waited = performance.now() - start;
    if ((used.user + used.system) / 1000 <= q.windowMs * q.maxCpuShare || waited >= q.maxWaitMs) return waited;
  }
}

const MB = 1024 * 1024;

/** Samples process.memoryUsage() every few ms: peak heapUsed and RSS. */
function memorySampler(intervalMs = 5) {
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const sample = () => {
    const m = process.memoryUsage();
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    if (m.rss > peakRss) peakRss = m.rss;
  };
  const timer = setInterval(sample, intervalMs);
  return {
    baseHeap: base.heapUsed,
    sample,
    stop() {
      clearInterval(timer);
      sample();
      return { heapGrowthMB: (peakHeap - base.heapUsed) / MB, rssGrowthMB: (peakRss - base.rss) / MB };
    },
  };
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export interface Trial {
  cold: RecalcOutcome[];
  warm: RecalcOutcome[];
  coldMs: number;
  /** The add-in's thread busy (not waiting for I/O or timers) during the cold fill, ms: performance.eventLoopUtilization's `active`. */
  coldBusyMs: number;
  warmMs: number;
  warm2Ms: number;
  warmRequests: number;
  serverMs: number;
  usage: UsageSnapshot;
  rpm: number;
  heapGrowthMB: number;
  rssGrowthMB: number;
  retainedMB: number;
  /** The requests the API server answered during the cold pass, in its waves (floor.ts). */
  coldWaves: SeenRequest[][];
}

/** One cold fill and two warm recalculations, on a fresh session against a fresh API server (empty caches, fresh accounting). */
export async function trial(w: Workload, texts: readonly string[], api: ApiThread, latencySpec: string | number): Promise<Trial> {
  const em = await api.start({ latency: latencySpec, withoutRoutes: w.withoutRoutes, logRequests: true });
  const session = await openSession({ key: w.key, apiUrl: em.url });
  try {
    // cold, from a quiet process: the forced GC's background sweeping done (QUIET)
    collectGarbage();
    await quietProcess();
    const mem = memorySampler();
    await em.takeHandlerMs();
    const elu = nodePerformance.eventLoopUtilization();
    const t0 = performance.now();
    const cold = await recalculate(session.host, texts);
    const coldMs = performance.now() - t0;
    const coldBusyMs = nodePerformance.eventLoopUtilization(elu).active;
    mem.sample();
    const coldWaves = waves(await em.takeRequests());
    const serverMs = await em.takeHandlerMs();
    const usage = await em.usage(w.key);
    const statsCold = await em.stats();

    // warm: the same cells again, at once
    const t1 = performance.now();
    const warm = await recalculate(session.host, texts);
    const warmMs = performance.now() - t1;
    const { heapGrowthMB, rssGrowthMB } = mem.stop();
    const warmRequests = (await em.stats()).requests - statsCold.requests;
    // What stays: after a full GC, with the session (caches, map) and both passes' results still held.
    collectGarbage();
    const retainedMB = (process.memoryUsage().heapUsed - mem.baseHeap) / MB;
    // A second warm pass: the steady state, once the cold pass's garbage and JIT are out of the way (diagnostic).
    const t2 = performance.now();
    await recalculate(session.host, texts);
    const warm2Ms = performance.now() - t2;
    const rpm = await em.rateLimitFor(w.key);
    return { cold, warm, coldMs, coldBusyMs, warmMs, warm2Ms, warmRequests, serverMs, usage, rpm, heapGrowthMB, rssGrowthMB, retainedMB, coldWaves };
  } finally {
    await session.close();
    await em.close();
  }
}

/**
 * The transport floor (floor.ts) of the runs whose requests went in the
 * fewest waves (a run that sent a batch early, a cold JIT, made round trips it
 * did not need: replaying them would flatter the add-in), each replayed on a
 * server of its own with the rate limit lifted (transport, not pacing), after
 * every run is timed, so no run shares its time with a replay. Not where the
 * rate limit is what a cold fill waits for.
 */
export async function transportFloor(w: Workload, trials: readonly Trial[], api: ApiThread, latencySpec: string | number): Promise<{ ms: number; waves: number } | null> {
  const measured = trials.filter((t) => t.coldWaves.length > 0);
  if (w.rateBound || measured.length === 0) return null;
  const fewest = Math.min(...measured.map((t) => t.coldWaves.length));
  const times: number[] = [];
  for (const t of measured.filter((x) => x.coldWaves.length === fewest)) {
    const floor = await api.start({ latency: latencySpec, withoutRoutes: w.withoutRoutes, rpm: 1_000_000 });
    try {
      times.push(await replay(floor.url, w.key, t.coldWaves));
    } finally {
      await floor.close();
    }
  }
  return { ms: median(times), waves: fewest };
}
