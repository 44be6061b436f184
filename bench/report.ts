/**
 * Results, targets and their presentation: the readable table (default) and
 * the one JSON object of `--json`.
 */

import type { BrowserResult } from './browser';
import { TARGET_LINES } from './targets';

export type NaiveResult =
  | {
      requests: number;
      credits: number;
      coldMs: number;
      errorCells: number;
      creditsByEndpoint: Record<string, number>;
      /** The naive client ran on its own server with the requests/minute limit lifted (it would have exceeded the plan's limit). */
      rateLimitLifted: boolean;
      /** Minutes the same requests take at the plan's limit. */
      minutesAtPlanLimit: number;
    }
  | { skipped: string };

export interface Target {
  /** null: not applicable to this workload. */
  pass: boolean | null;
  detail: string;
}

export interface WorkloadResult {
  description: string;
  key: string;
  cells: number;
  requests: number;
  credits: number;
  creditsByEndpoint: Record<string, number>;
  minimumCredits: number;
  minimumDerivation: string;
  coldMs: number;
  warmMs: number;
  warmRequests: number;
  errorCells: number;
  /** Peak heap-used growth over the workload (cold + warm), MB of 2^20 bytes, from a GC'd baseline. */
  peakMemoryMB: number;
  naive: NaiveResult;
  // ---- beyond the issue's keys
  /** Error answers the key received (429s and others; they cost nothing). */
  errorResponses: number;
  /** Peak RSS growth, MB. */
  rssGrowthMB: number;
  /** Heap used after the warm pass and a full GC, over the baseline: what the session and the results retain, MB. */
  retainedMB: number;
  /** A second warm pass right after the first (steady state; diagnostic, no target). */
  warm2Ms: number;
  /** Cold fills timed; coldMs, warmMs and warm2Ms are their medians. */
  runs: number;
  /** Each run's cold fill (ms), when there was more than one. */
  coldRunsMs?: number[];
  /** Each run's credits, when there was more than one (they should all be equal). */
  creditsPerRun?: number[];
  /** Time the API server (on its own thread) spent in its data handlers during the cold pass (diagnostic). */
  serverHandlerMs: number;
  latencyBoundMs: number;
  latencyBoundPath: string;
  /** The transport floor (floor.ts): the cold's requests replayed in its waves with no add-in code, median ms; absent where not measured (rate-bound). */
  floorMs?: number;
  /** Waves the replay made of the cold's requests (compare the latency bound's round trips). */
  floorWaves?: number;
  /** coldMs over floorMs: the add-in's own time, relative to this machine's. */
  coldVsFloor?: number;
  /**
   * The add-in's thread busy during the cold fill (not waiting for an answer or a timer), median ms:
   * Node's performance.eventLoopUtilization() `active`, garbage collection included. Near coldMs, the
   * fill waits on this machine's CPU, not on the network (diagnostic).
   */
  coldBusyMs: number;
  creditsVsMinimum: number;
  coldVsLatencyBound: number;
  /** Cells the cold fill wrote: every cell of a spilled range counts (an error is one cell). */
  filledCells: number;
  /** Warm time per 1,000 filled cells (the warm target). */
  warmMsPer1000Cells: number;
  /** Warm time per 1,000 formulas (equal to the above when every formula fills one cell). */
  warmMsPer1000Formulas: number;
  naiveCreditsVsCredits?: number;
  /** Sandbox: (requests − 1) / rpm minutes, and coldMs over it. */
  rateLimitPerMinute?: number;
  rateBoundMs?: number;
  coldVsRateBound?: number;
  rateLimitErrorCells?: number;
  missingFormulas?: string[];
  errorSamples?: string[];
  targets: Record<string, Target>;
}

export interface BenchReport {
  workloads: Record<string, WorkloadResult>;
  /** The same cells typed into the preview workbook in Chromium (bench/browser.ts). */
  browser?: Record<string, BrowserResult>;
  settings: { latencyMs: number; runs: number; node: string; startedAt: string; totalMs: number; tiny: boolean };
  /** Growth line over the scale workloads: cells → heap growth MB, requests. */
  growth?: { cells: number; peakMemoryMB: number; requests: number; credits: number; coldMs: number }[];
}

const mark = (t: Target | undefined) => (t === undefined || t.pass === null ? '·' : t.pass ? '✓' : '✗');
const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '—');

function pad(s: string, w: number, right = false): string {
  const len = [...s].length;
  return len >= w ? s : right ? s + ' '.repeat(w - len) : ' '.repeat(w - len) + s;
}

export function renderTable(r: BenchReport): string {
  const head = ['workload', 'cells', 'req', 'credits', 'min', 'cr/min', 'naive cr', 'naive×', 'cold ms', 'bound ms', 'cold/bnd', 'floor ms', 'warm ms', 'warm req', 'err', 'mem MB'];
  const rows: string[][] = [];
  for (const [name, w] of Object.entries(r.workloads)) {
    const n = w.naive;
    const naiveCr = 'skipped' in n ? 'skip' : fmt(n.credits);
    const naiveX = w.naiveCreditsVsCredits === undefined ? '—' : `${fmt(w.naiveCreditsVsCredits, 1)}×`;
    const coldBound = w.rateBoundMs !== undefined && w.coldVsRateBound !== undefined && (w.targets.cold?.detail ?? '').startsWith('rate')
      ? `${fmt(w.coldVsRateBound, 2)}r`
      : fmt(w.coldVsLatencyBound, 2);
    rows.push([
      name,
      fmt(w.cells),
      fmt(w.requests),
      fmt(w.credits),
      fmt(w.minimumCredits),
      `${fmt(w.creditsVsMinimum, 2)} ${mark(w.targets.credits)}`,
      naiveCr,
      `${naiveX} ${mark(w.targets.naive)}`,
      fmt(w.coldMs),
      fmt(w.rateBoundMs !== undefined && (w.targets.cold?.detail ?? '').startsWith('rate') ? w.rateBoundMs : w.latencyBoundMs),
      `${coldBound} ${mark(w.targets.cold)}`,
      w.floorMs === undefined ? '—' : fmt(w.floorMs),
      `${fmt(w.warmMs, 1)} ${mark(w.targets.warm)}`,
      fmt(w.warmRequests),
      `${fmt(w.errorCells)} ${mark(w.targets.errors)}`,
      `${fmt(w.peakMemoryMB, 1)} ${mark(w.targets.memory)}`,
    ]);
  }
  const widths = head.map((h, i) => Math.max([...h].length, ...rows.map((row) => [...row[i]].length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i], i === 0)).join('  ');
  const out: string[] = [];
  out.push(`CRYPTO.* benchmark — latency ${r.settings.latencyMs} ms per response, local API server on its own thread, times are medians of ${r.settings.runs} cold fill${r.settings.runs > 1 ? 's' : ''} per workload, ${(r.settings.totalMs / 1000).toFixed(1)} s total${r.settings.tiny ? ' (tiny workloads)' : ''}`);
  out.push('');
  out.push(line(head));
  out.push(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const row of rows) out.push(line(row));
  out.push('');
  out.push(`Targets: ${Object.values(TARGET_LINES).join('; ')}. ✓ pass, ✗ fail, · not applicable.`);
  out.push('');
  for (const [name, w] of Object.entries(r.workloads)) {
    out.push(`${name} — ${w.description} (key ${w.key})`);
    out.push(`  minimum: ${w.minimumDerivation}`);
    out.push(`  spent:   ${Object.entries(w.creditsByEndpoint).map(([p, c]) => `${p} ${c}`).join(', ') || 'nothing'}; ${w.requests} requests, ${w.errorResponses} error answers`);
    out.push(`  latency bound: ${w.latencyBoundPath}`);
    if (w.floorMs !== undefined) {
      out.push(`  transport floor: the cold's ${fmt(w.requests)} requests in ${w.floorWaves} wave${w.floorWaves === 1 ? '' : 's'}, only fetched and parsed: ${fmt(w.floorMs)} ms; cold = floor + ${fmt(w.coldMs - w.floorMs)} ms of the add-in's own (${fmt(w.coldVsFloor ?? 0, 2)}× floor)`);
    }
    if (w.coldRunsMs) out.push(`  cold fills: ${w.coldRunsMs.map((x) => fmt(x)).join(', ')} ms (median ${fmt(w.coldMs)})`);
    out.push(`  the add-in's thread busy during the cold fill: ${fmt(w.coldBusyMs)} ms of ${fmt(w.coldMs)} (${fmt((100 * w.coldBusyMs) / Math.max(w.coldMs, 1e-9))} %; the rest it waited for answers)`);
    out.push(`  memory: peak heap growth ${fmt(w.peakMemoryMB, 1)} MB, retained after GC ${fmt(w.retainedMB, 1)} MB, peak RSS growth ${fmt(w.rssGrowthMB, 1)} MB; second warm pass ${fmt(w.warm2Ms, 1)} ms; API server handlers ${fmt(w.serverHandlerMs)} ms during the cold pass`);
    if (w.rateBoundMs !== undefined) {
      out.push(`  rate bound: (${w.requests} − 1) / ${w.rateLimitPerMinute} per minute = ${fmt(w.rateBoundMs)} ms; cold / rate bound = ${fmt(w.coldVsRateBound ?? NaN, 3)}; rate-limit error cells ${w.rateLimitErrorCells ?? 0}`);
    }
    const n = w.naive;
    out.push('skipped' in n
      ? `  naive: skipped — ${n.skipped}`
      : `  naive: ${n.requests} requests, ${n.credits} credits, cold ${fmt(n.coldMs)} ms, ${n.errorCells} error cells${n.rateLimitLifted ? ` (rate limit lifted on its own server; ${fmt(n.minutesAtPlanLimit, 1)} min at the plan's limit)` : ''}`);
    if (w.missingFormulas?.length) out.push(`  MISSING formulas (cells left out): ${w.missingFormulas.join(', ')}`);
    if (w.errorSamples?.length) out.push(`  error samples: ${w.errorSamples.join(' | ')}`);
    for (const [k, t] of Object.entries(w.targets)) if (t.pass !== null) out.push(`  ${mark(t)} ${k}: ${t.detail}`);
    out.push('');
  }
  if (r.browser && Object.keys(r.browser).length) {
    out.push('Browser: the same PRICE cells pasted into the preview workbook (built bundle, headless Chromium, local API server in-process at the same latency); cold = paste until every value is on screen, warm = a full recalculation (every CRYPTO call again, cache warm):');
    for (const [name, b] of Object.entries(r.browser)) {
      const w = r.workloads[name];
      out.push(`  ${pad(name, 9, true)} ${pad(fmt(b.cells), 7)} cells: browser cold ${fmt(b.coldMs)} ms, warm ${fmt(b.warmMs)} ms, ${b.requests} requests, ${b.errorCells} error cells | Node cold ${w ? fmt(w.coldMs) : '—'} ms, warm ${w ? fmt(w.warmMs, 1) : '—'} ms`);
    }
    out.push('');
  }
  if (r.growth?.length) {
    out.push('Growth (scale workloads):');
    for (const g of r.growth) {
      out.push(`  ${pad(fmt(g.cells), 7)} cells: ${pad(fmt(g.peakMemoryMB, 1), 6)} MB heap growth, ${g.requests} requests, ${g.credits} credits, cold ${fmt(g.coldMs)} ms`);
    }
  }
  return out.join('\n');
}

export function renderJson(r: BenchReport): string {
  return JSON.stringify(r);
}
