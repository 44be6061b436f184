/**
 * Every formula call settles by its deadline (src/formulas/call-deadline.ts):
 * a formula that never answers, with and without a last good value, and paged
 * history under 80 % faults through the whole stack, over real HTTP.
 *
 *   node --import tsx --test test/call-deadline.test.ts
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calculate, type Outcome } from '../src/cli/calculate';
import { openSession } from '../src/cli/session';
import { MarketClient, MemoryKeyStore } from '../src/client';
import { FormulaError } from '../src/formulas/cells';
import { CalculationHost } from '../src/formulas/host';

test('a call that never answers settles at the deadline: #N/A saying so, its work cancelled; a last good value stands in', async () => {
  const signals: AbortSignal[] = [];
  let hang = false;
  const client = new MarketClient({ baseUrl: 'http://127.0.0.1:9', keyStore: new MemoryKeyStore(null) });
  const host = new CalculationHost({
    client,
    deadlineMs: 150,
    catalog: {
      // Ignores its signal on purpose: the deadline must not depend on the formula honouring it.
      STUCK: (ctx) => {
        signals.push(ctx.signal!);
        return hang ? new Promise(() => undefined) : Promise.resolve(42);
      },
    },
  });
  hang = true;
  const t0 = performance.now();
  // As Excel calls it (cancelable): the formula gets a signal, aborted at the deadline.
  const err = await host.call('STUCK', ['a'], { cancelable: true }).result.then(() => null, (e: unknown) => e);
  const ms = performance.now() - t0;
  assert.ok(err instanceof FormulaError, 'rejected with a cell error');
  assert.equal(err.code, '#N/A');
  assert.match(err.message, /^No answer within 1 s \(the service did not answer\); the next recalculation retries$/);
  assert.ok(ms >= 140 && ms < 1_000, `settled after ${ms.toFixed(0)} ms`);
  assert.equal(signals[0]?.aborted, true, 'the work was cancelled');
  // As the CLI calls it (no signal): settles all the same.
  const plain = await host.evaluate('STUCK', ['c']).then(() => null, (e: unknown) => e);
  assert.ok(plain instanceof FormulaError && /^No answer within/.test(plain.message));
  assert.equal(signals[1]?.aborted, true, 'its work cancelled too: the deadline window\'s signal (call-deadline.ts)');

  hang = false;
  assert.equal(await host.evaluate('STUCK', ['b']), 42);
  hang = true;
  assert.equal(await host.evaluate('STUCK', ['b']), 42, 'the last good value');
  assert.match(host.errors()[0].message, /No answer within .*last good value/);
});

test('paged history under 80 % 500s once the coin map is in: every cell settles by the deadline with a value or a clear #N/A', async () => {
  // A real clock: pacing, backoff and Retry-After wait for real, as in Excel. So openSession on the
  // wall clock, not testSession: that stops the session's clock, which the client's pacer reads
  // (src/cli/session.ts), at the frozen instant, and a full rate window would then never pass.
  const s = await openSession({ emulator: { seed: 3 }, host: { deadlineMs: 2_500 } });
  try {
    // The coin map arrives before the faults start: the cells then get as far as paged history.
    await calculate(s.host, '=CRYPTO.PRICE("bitcoin")');
    s.emulator!.faults.setRates({ '500': 0.8 });
    // Enough requests, with retries, to fill the Pro plan's 100 a minute: without a deadline
    // the last cells wait a minute for the pacer, and longer for each failed retry.
    const coins = [
      'bitcoin', 'ethereum', 'solana', 'cardano', 'dogecoin', 'tron', 'chainlink', 'avalanche', 'polkadot', 'litecoin',
      'uniswap', 'stellar', 'near', 'aptos', 'sui', 'arbitrum', 'optimism', 'ripple', 'toncoin', 'pepe',
    ];
    const formulas = coins.flatMap((c) => [
      `=CRYPTO.OHLCV("${c}","2024-01-01")`,
      `=CRYPTO.OHLCV("${c}","10D",,"hourly")`,
      `=CRYPTO.RETURNS("${c}","monthly")`,
      `=CRYPTO.PRICE("${c}")`,
    ]);
    const t0 = performance.now();
    const outcomes: (Outcome | undefined)[] = formulas.map(() => undefined);
    const all = Promise.all(formulas.map((f, i) => calculate(s.host, f).then((o) => (outcomes[i] = o))));
    await new Promise((r) => setTimeout(r, 3_000));
    const pending = outcomes.filter((o) => o === undefined).length;
    assert.equal(pending, 0, `${pending} of ${formulas.length} cells pending 0.5 s after the deadline`);
    await all;
    const ms = performance.now() - t0;
    const seen = new Set<string>();
    for (const o of outcomes as Outcome[]) {
      if ('value' in o) continue;
      assert.equal(o.error, '#N/A');
      // what failed: the last 500, or the deadline (the host's for the call, or the client's for its request)
      assert.match(o.message, /INTERNAL_ERROR|No answer within 3 s|no answer within 3 s, retries included/, o.message);
      assert.match(o.message, /the next recalculation retries/);
      seen.add(o.message.replace(/"[^"]*"/g, "C").slice(0, 120));
    }
    console.log(`# ${formulas.length} cells at 80 % 500s settled within ${ms.toFixed(0)} ms; errors: ${[...seen].join(" | ")}`);
  } finally {
    await s.close();
  }
});
