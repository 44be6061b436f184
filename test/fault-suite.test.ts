/**
 * The fault suite: every fault kind the local API server offers, at 30 %, 80 %
 * and 100 %, under a ~90-cell research workload recalculated through the
 * calculation host (bench/chaos-run.ts), cold and as a refresh of good values.
 * Real time with the deadline and per-attempt timeout scaled down (3 s, 1 s).
 *
 *   node --import tsx --test test/fault-suite.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  FAULT_KINDS, FAULT_RATES, WORKLOAD, referenceAnswers, runScenario, warmSession, type ScenarioResult, type WarmSession,
} from '../bench/chaos-run';
import type { RecalcOutcome } from '../src/cli/recalculation';
import { openSession } from '../src/cli/session';
import { recalculate } from '../src/cli/recalculation';

let reference: RecalcOutcome[];
/** One warm session per rate, reused by every fault kind's refresh. */
let warm: WarmSession[];

before(async () => {
  reference = await referenceAnswers();
  warm = [];
  for (const _ of FAULT_RATES) warm.push(await warmSession());
});
after(async () => {
  await Promise.all(warm.map((w) => w.session.close()));
});

test('the fault-free answers are values: every figure below is measured against real data', () => {
  assert.equal(reference.length, WORKLOAD.length);
  assert.ok(reference.every((o) => 'value' in o), 'no whole-formula error without faults');
});

for (const kind of FAULT_KINDS) {
  describe(`fault ${kind}`, () => {
    let results: ScenarioResult[];
    before(async () => {
      // The three rates at once: separate servers and sessions, so they share only the CPU.
      results = await Promise.all(FAULT_RATES.map((rate, i) => runScenario(kind, rate, reference, { warm: warm[i] })));
      for (const r of results) {
        console.log(
          `# ${kind} @ ${r.rate * 100} %: right ${r.right}/${r.cells}, errors ${r.errors}, pending ${r.pending}, ` +
            `last good kept ${r.lastGoodKept}/${r.hadGood}, wasted ${r.wastedRetries}, settled in ${Math.round(r.settleMs)} ms`,
        );
      }
    });

    test('no cell pending at the deadline; every cell a right value or a clear #N/A, never a wrong number', () => {
      for (const r of results) {
        assert.equal(r.pending, 0, `${kind} @ ${r.rate}: ${r.pending} pending`);
        assert.equal(r.wrong, 0, `${kind} @ ${r.rate}: ${r.wrong} cells with a different value`);
        assert.equal(r.right + r.errors, r.cells);
        assert.deepEqual(r.unclear, [], `${kind} @ ${r.rate}: errors that do not say what failed and that a recalculation retries`);
      }
    });

    test('a failed refresh keeps every last good value', () => {
      for (const r of results) {
        assert.ok(r.hadGood >= WORKLOAD.length - 1, `${kind} @ ${r.rate}: only ${r.hadGood} good values to keep`);
        assert.equal(r.lastGoodKept, r.hadGood, `${kind} @ ${r.rate}: ${r.hadGood - r.lastGoodKept} last good values lost`);
      }
    });

    test('no retries of 400/401/403/404; a 429 is never retried sooner than its Retry-After; little work outlives the cells', () => {
      for (const r of results) {
        assert.equal(r.retriesOf4xx, 0, `${kind} @ ${r.rate}`);
        assert.equal(r.retryAfterBroken, 0, `${kind} @ ${r.rate}`);
        // Shared work (a quote batch, the coin map) may outlive the last cell by up to its own
        // request deadline; on a loaded machine that is a request or two, never a stream of them.
        assert.ok(r.lateRequests <= 3, `${kind} @ ${r.rate}: ${r.lateRequests} requests after every cell had settled`);
      }
    });

    if (kind !== 'slow' && kind !== 'hang') {
      test('fast failures at 100 %: no cell is right, every one says what failed', () => {
        const all = results.find((r) => r.rate === 1)!;
        assert.equal(all.right, 0);
        assert.equal(all.errors, all.cells);
      });
    }
  });
}

describe('answers that are not failures of the service are not retried', () => {
  test('401 (unknown key), 403 (no subscription), 404 (no such coin id) and 400: one request each', async () => {
    const seen: { url: string; status: number }[] = [];
    const s = await openSession({ key: 'not-a-real-key', emulator: { onResponse: (e) => seen.push({ url: `${e.key} ${e.url}`, status: e.status }) } });
    try {
      const [bad] = await recalculate(s.host, ['=CRYPTO.FEARGREED()']);
      assert.ok('error' in bad && /rejected/.test(bad.message), JSON.stringify(bad));
      s.keys.setKey('demo-inactive');
      s.client.onKeyChanged();
      const [inactive] = await recalculate(s.host, ['=CRYPTO.GLOBAL("totalMarketCap")']);
      assert.ok('error' in inactive && /subscription/.test(inactive.message), JSON.stringify(inactive));
      s.keys.setKey('demo-pro');
      s.client.onKeyChanged();
      await assert.rejects(s.client.get('profile', { id: 99_999_999 }), (e: { code?: string }) => e.code === 'NOT_FOUND');
      await assert.rejects(s.client.get('candles', { id: 1, query: { from: '2030-01-01T00:00:00.000Z' } }), (e: { status?: number }) => e.status === 400);
      const byUrl = new Map<string, number>();
      for (const e of seen) if ([400, 401, 403, 404].includes(e.status)) byUrl.set(e.url, (byUrl.get(e.url) ?? 0) + 1);
      const statuses = new Set(seen.map((e) => e.status));
      for (const st of [400, 401, 403, 404]) assert.ok(statuses.has(st), `saw a ${st}: ${JSON.stringify(seen)}`);
      for (const [url, n] of byUrl) assert.equal(n, 1, `${url} was sent ${n} times`);
    } finally {
      await s.close();
    }
  });
});
