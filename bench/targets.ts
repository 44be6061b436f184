/**
 * THE benchmark's targets: every threshold a workload is judged by, and the
 * words the report prints for it, in one place (bench/run.ts judges with these
 * numbers; bench/report.ts prints these lines; docs/benchmark.md explains them).
 */
export const TARGETS = {
  /** Credits spent at most this many times the minimum (bench/minimum.ts). */
  credits: { maxVsMinimum: 1.15 },
  /** The portfolio spends at least this many times fewer credits than the naive client. */
  naive: { minVsNaive: 10 },
  /** A warm recalculation sends no request and takes less than this per 1,000 filled cells. */
  warm: { requests: 0, maxMsPer1000Cells: 100 },
  /** A cold fill within this many times its latency bound; where the rate limit binds (sandbox), its rate bound. */
  cold: { maxVsLatencyBound: 2, maxVsRateBound: 1.5 },
  /** Workloads that claim their minimum exactly (analytics, data, coins: Workload.exactCredits says why) spend it, no more. */
  exact: { vsMinimum: 1 },
  errors: { max: 0 },
  /** Heap growth: linear over the scale workloads (k times the cells, at most `linear` × k the heap, plus slack), under a ceiling at the largest. */
  memory: { linear: 1.25, slackMB: 5, maxMB: 100, atCells: 10_000 },
} as const;

/** One line per target, as the report's legend prints them. */
export const TARGET_LINES: Record<keyof typeof TARGETS, string> = {
  credits: `credits ≤ ${TARGETS.credits.maxVsMinimum} × minimum`,
  naive: `portfolio: ≥ ${TARGETS.naive.minVsNaive}× fewer credits than naive`,
  warm: `warm: ${TARGETS.warm.requests} requests, < ${TARGETS.warm.maxMsPer1000Cells} ms per 1,000 cells filled (a spilled range counts each of its cells)`,
  cold: `cold ≤ ${TARGETS.cold.maxVsLatencyBound} × latency bound (rate limit not binding)`,
  exact: "analytics, data, coins: credits = minimum exactly (the coins' daily OHLCV; PRICE's windows for DATA and COIN)",
  errors: 'no error cells',
  memory: `scale: linear, < ${TARGETS.memory.maxMB} MB at ${TARGETS.memory.atCells.toLocaleString('en-US')} cells`,
};
