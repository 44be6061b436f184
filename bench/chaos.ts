/**
 * npm run chaos [-- --scaled] [--json] [--seed N]
 *
 * The reliability table of docs/reliability.md: every fault kind of the local
 * API server at 30 %, 80 % and 100 % under the research workload of
 * bench/chaos-run.ts (cold, and as a refresh of good values), then the
 * property-generated bad input of bench/bad-input.ts, 200 calls per formula.
 * By default with the product's timing (45 s deadline, 20 s per attempt, slow
 * answers 5 s late): about a minute. --scaled uses the test suite's (3 s, 1 s,
 * 0.7 s). Progress goes to stderr.
 */
import fc from 'fast-check';
import { FROZEN_NOW } from '../harness/instant';
import { argumentsFor, judge } from './bad-input';
import { FAULT_KINDS, FAULT_RATES, SCALED_TIMING, WORKLOAD, referenceAnswers, runScenario, type ChaosTiming, type ScenarioResult } from './chaos-run';
import { DEFAULT_TIMEOUT_MS } from '../src/client/client';
import { loadFunctionMetadata } from '../src/cli/metadata';
import { openSession, type Session } from '../src/cli/session';
import { CALL_DEADLINE_MS } from '../src/formulas/call-deadline';
import { SLOW_ANSWER_MS } from '../src/emulator/faults';

const PRODUCT_TIMING: ChaosTiming = { deadlineMs: CALL_DEADLINE_MS, timeoutMs: DEFAULT_TIMEOUT_MS, slowMs: SLOW_ANSWER_MS, graceMs: 1_000 };
const BAD_INPUT_RUNS = 200;

interface BadInputTally {
  calls: number;
  value: number;
  '#VALUE!': number;
  '#N/A': number;
  wrong: string[];
}

async function badInput(seed: number): Promise<BadInputTally> {
  const box: { s?: Session } = {};
  // A frozen clock whose sleeps advance it: pacing costs no real time.
  const s = await openSession({
    emulator: { now: FROZEN_NOW },
    client: { sleep: async (ms) => void box.s?.emulator?.clock.advance(ms) },
  });
  box.s = s;
  const t: BadInputTally = { calls: 0, value: 0, '#VALUE!': 0, '#N/A': 0, wrong: [] };
  try {
    for (const meta of await loadFunctionMetadata()) {
      for (const args of fc.sample(argumentsFor(meta), { numRuns: BAD_INPUT_RUNS, seed })) {
        const v = judge(meta, await s.host.evaluate(meta.id, args).then((ok) => ({ ok }), (err: unknown) => ({ err })));
        t.calls++;
        if (v.kind === 'wrong') t.wrong.push(`${meta.id}: ${v.why}`);
        else t[v.kind]++;
      }
    }
  } finally {
    await s.close();
  }
  return t;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

function table(results: ScenarioResult[], timing: ChaosTiming): string {
  const rows = results.map(
    (r) =>
      `| ${r.kind} | ${pct(r.rate)} | ${r.right} | ${r.errors} | ${r.pending} | ${r.lastGoodKept} of ${r.hadGood} | ${r.wastedRetries} | ${(r.settleMs / 1000).toFixed(1)} s |`,
  );
  return [
    `Workload: ${WORKLOAD.length} cells; deadline ${timing.deadlineMs / 1000} s, ${timing.timeoutMs / 1000} s per attempt, slow answers ${timing.slowMs / 1000} s late.`,
    '',
    '| fault | rate | cells right | errors | pending | last good kept | wasted retries | time to settle |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const scaled = argv.includes('--scaled');
  const json = argv.includes('--json');
  const seedAt = argv.indexOf('--seed');
  const seed = seedAt >= 0 ? Number(argv[seedAt + 1]) : 17;
  const timing = scaled ? SCALED_TIMING : PRODUCT_TIMING;
  const t0 = performance.now();
  const reference = await referenceAnswers(WORKLOAD, timing);
  process.stderr.write(`chaos: reference answers in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${FAULT_KINDS.length * FAULT_RATES.length} scenarios at once\n`);
  // Every scenario at once: each has its own servers and sessions, and mostly waits.
  const results = await Promise.all(FAULT_KINDS.flatMap((kind) => FAULT_RATES.map((rate) => runScenario(kind, rate, reference, { timing, seed }))));
  process.stderr.write(`chaos: scenarios done in ${((performance.now() - t0) / 1000).toFixed(1)} s; bad input next\n`);
  const bad = await badInput(seed);
  if (json) {
    process.stdout.write(JSON.stringify({ timing, results, badInput: bad }) + '\n');
    return;
  }
  const wrong = results.reduce((a, r) => a + r.wrong, 0);
  const broken = results.reduce((a, r) => a + r.retryAfterBroken, 0);
  const unclear = results.reduce((a, r) => a + r.unclear.length, 0);
  process.stdout.write(
    [
      table(results, timing),
      '',
      `Across every row: ${wrong} cells with a wrong value, ${unclear} unclear error messages, ${broken} retries sooner than a 429's Retry-After.`,
      '',
      `Bad input: ${bad.calls} generated calls (${BAD_INPUT_RUNS} per formula, seed ${seed}): ${bad.value} values, ${bad['#VALUE!']} #VALUE!, ${bad['#N/A']} #N/A, ${bad.wrong.length} wrong (a thrown error, a stack trace, an unnamed argument or a cell Excel cannot show).`,
      ...bad.wrong.slice(0, 10).map((w) => `  - ${w}`),
      '',
    ].join('\n'),
  );
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`chaos: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exit(1);
  },
);
