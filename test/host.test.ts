/**
 * The calculation host's rules, with formulas that count their runs: a
 * transient failure keeps the last good value (and logs it), a permanent one
 * does not, and value preview never runs a formula.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MarketClient, MemoryKeyStore } from '../src/client';
import { FormulaError } from '../src/formulas/cells';
import { CalculationHost } from '../src/formulas/host';
import type { FormulaFn } from '../src/formulas/formula-context';
import { FROZEN_NOW } from '../harness/instant';

function setup() {
  let now = FROZEN_NOW;
  const runs: Record<string, number> = { VALUE: 0, FLAKY: 0 };
  let fail = false;
  const count = (id: string): FormulaFn => async () => {
    runs[id]++;
    return runs[id];
  };
  // No request is ever made: these formulas do not call the client.
  const client = new MarketClient({ baseUrl: 'http://127.0.0.1:9', keyStore: new MemoryKeyStore(null), now: () => now });
  const host = new CalculationHost({
    client,
    now: () => now,
    catalog: {
      VALUE: count('VALUE'),
      FLAKY: async () => {
        runs.FLAKY++;
        if (fail) throw new FormulaError('#N/A', 'Market data unavailable', 'INTERNAL_ERROR', true);
        return runs.FLAKY;
      },
      BROKEN: async () => {
        if (fail) throw new FormulaError('#N/A', 'Unknown coin "x"', 'UNKNOWN_COIN');
        return 7;
      },
    },
  });
  return { host, runs, advance: (ms: number) => (now += ms), setFail: (f: boolean) => (fail = f) };
}

test('a transient failure keeps the last good value and logs it; preview spends nothing', async () => {
  const { host, runs, advance, setFail } = setup();
  assert.equal(await host.evaluate('FLAKY', []), 1);
  advance(61_000);
  setFail(true);
  assert.equal(await host.evaluate('FLAKY', []), 1, 'last good value');
  assert.equal(runs.FLAKY, 2, 'it did try');
  assert.match(host.errors()[0].message, /last good value/);
  await assert.rejects(host.evaluate('FLAKY', ['never seen']), /unavailable/);
  setFail(false);
  assert.equal(await host.evaluate('BROKEN', []), 7);
  setFail(true);
  await assert.rejects(host.evaluate('BROKEN', []), /Unknown coin/, 'a permanent error is not masked');
  const runsBefore = runs.VALUE;
  await assert.rejects(host.evaluate('VALUE', ['new'], { preview: true }), /Press Enter/);
  assert.equal(runs.VALUE, runsBefore, 'preview did not run the formula');
});

/** A host with one formula, SLOW, that records each run's signal and waits until release(); "bad" fails. */
function gatedHost() {
  const signals: (AbortSignal | undefined)[] = [];
  let release!: () => void;
  const gate = new Promise<void>((res) => (release = res));
  const client = new MarketClient({ baseUrl: 'http://127.0.0.1:9', keyStore: new MemoryKeyStore(null) });
  const host = new CalculationHost({
    client,
    catalog: {
      SLOW: async (ctx, x) => {
        signals.push(ctx.signal);
        await gate;
        if (x === 'bad') throw new FormulaError('#VALUE!', 'bad input');
        return `v${String(x)}`;
      },
    },
  });
  return { host, signals, release };
}

test('identical calls in flight share one evaluation; each settles; a later call runs again', async () => {
  const { host, signals, release } = gatedHost();
  const same = Array.from({ length: 50 }, () => host.evaluate('SLOW', ['a']));
  const other = host.evaluate('SLOW', ['b']);
  const bad = [host.evaluate('SLOW', ['bad']), host.evaluate('slow', ['bad'])];
  const ac = new AbortController();
  const withSignal = host.evaluate('SLOW', ['a'], { signal: ac.signal });
  assert.equal(signals.length, 3, 'one run for the 51 identical calls (one of them cancelable, as Excel calls are), one each for "b" and "bad"');
  release();
  assert.deepEqual(new Set(await Promise.all(same)), new Set(['va']));
  assert.equal(await other, 'vb');
  assert.equal(await withSignal, 'va');
  for (const p of bad) await assert.rejects(p, /bad input/, 'every sharer gets the error');
  assert.equal(await host.evaluate('SLOW', ['a']), 'va');
  assert.equal(signals.length, 4, 'settled calls are not reused: the next call evaluates again');
});

test('a new date system starts afresh: a call in it neither joins one read in the old system nor falls back to its last good value', async () => {
  // A DAY formula that reads its serial in the host's date system, as date arguments are (args.ts), and waits.
  let release!: () => void;
  let gate = new Promise<void>((res) => (release = res));
  let fail = false;
  let runs = 0;
  const client = new MarketClient({ baseUrl: 'http://127.0.0.1:9', keyStore: new MemoryKeyStore(null) });
  const host = new CalculationHost({
    client,
    catalog: {
      DAY: async (ctx, serial) => {
        runs++;
        const system = ctx.settings.dateSystem; // read as the call starts, as a date argument is
        await gate;
        if (fail) throw new FormulaError('#N/A', 'Market data unavailable', 'INTERNAL_ERROR', true);
        return `${String(serial)} in ${system}`;
      },
    },
  });
  host.useDateSystem('1900'); // the guess before Excel answers (office/workbook-traits.ts)
  const guessed = host.evaluate('DAY', [44000]);
  host.useDateSystem('1904'); // Excel's late answer: the correcting recalculation follows
  const corrected = host.evaluate('DAY', [44000]);
  assert.equal(runs, 2, 'the call in the new system runs on its own');
  release();
  assert.equal(await guessed, '44000 in 1900');
  assert.equal(await corrected, '44000 in 1904');

  // A transient failure after the change does not show the old system's reading as the last good value.
  host.useDateSystem('1900');
  assert.equal(await host.evaluate('DAY', [45000]), '45000 in 1900');
  host.useDateSystem('1904');
  fail = true;
  gate = Promise.resolve();
  await assert.rejects(host.evaluate('DAY', [45000]), /unavailable/);
  // The same system again keeps what it has.
  fail = false;
  assert.equal(await host.evaluate('DAY', [45000]), '45000 in 1904');
  host.useDateSystem('1904');
  fail = true;
  assert.equal(await host.evaluate('DAY', [45000]), '45000 in 1904', 'the last good value in this system stands in');
});

test('a shared evaluation is cancelled only when every caller has cancelled, and no caller that cannot is waiting', async () => {
  const { host, signals, release } = gatedHost();
  const cancel = () => new AbortController();
  // Two cancelable callers: one cancels and gets its own rejection; the other still gets the value.
  const [c1, c2] = [cancel(), cancel()];
  const p1 = host.evaluate('SLOW', ['a'], { signal: c1.signal });
  const p2 = host.evaluate('SLOW', ['a'], { signal: c2.signal });
  c1.abort();
  await assert.rejects(p1, (e: unknown) => e instanceof FormulaError && e.code === '#N/A' && /Cancel/.test(e.message));
  assert.equal(signals[0]?.aborted, false, 'the evaluation goes on for the caller still waiting');
  // Every caller cancels: the evaluation is cancelled, and a new call starts afresh.
  const [c3, c4] = [cancel(), cancel()];
  const p3 = host.evaluate('SLOW', ['b'], { signal: c3.signal });
  const p4 = host.evaluate('SLOW', ['b'], { signal: c4.signal });
  c3.abort();
  c4.abort();
  await Promise.allSettled([p3, p4]);
  assert.equal(signals[1]?.aborted, true, 'nobody waits: the formula sees its signal aborted');
  const p5 = host.evaluate('SLOW', ['b'], { signal: cancel().signal });
  assert.equal(signals.length, 3, 'a call after the cancellation starts a new evaluation');
  // A caller that cannot cancel keeps the evaluation alive.
  const c6 = cancel();
  const p6 = host.evaluate('SLOW', ['c'], { signal: c6.signal });
  const p7 = host.evaluate('SLOW', ['c']);
  c6.abort();
  await assert.rejects(p6);
  assert.equal(signals[3]?.aborted, false);
  release();
  assert.equal(await p2, 'va');
  assert.equal(await p5, 'vb');
  assert.equal(await p7, 'vc');
});

test("call(): Excel's glue cancels with a plain callback; a second cancel() of the same call counts once", async () => {
  const { host, signals, release } = gatedHost();
  const a = host.call('SLOW', ['a'], { cancelable: true });
  const b = host.call('SLOW', ['a'], { cancelable: true });
  a.cancel();
  a.cancel();
  assert.equal(signals.length, 1, 'one evaluation for both calls');
  assert.equal(signals[0]?.aborted, false, 'cancelling one call twice does not cancel the other');
  b.cancel();
  assert.equal(signals[0]?.aborted, true, 'the last cancelable caller gone: the evaluation is cancelled');
  const c = host.call('SLOW', ['a'], { cancelable: true });
  assert.equal(signals.length, 2, 'a new call after the cancellation evaluates afresh');
  release();
  assert.equal(await c.result, 'va');
  const unknown = host.call('NOPE', [], { cancelable: true });
  unknown.cancel();
  await assert.rejects(unknown.result, /Unknown formula CRYPTO\.NOPE/);
});

test("an arguments array is keyed by what it holds when it is asked (Excel's are new each call); a frozen one, handed again as is, by its first asking", async () => {
  const { host } = setup();
  const args: unknown[] = ['a'];
  assert.equal(await host.evaluate('VALUE', args as never), 1);
  args[0] = 'b'; // not frozen: its caller may change it
  await assert.rejects(host.evaluate('VALUE', args as never, { preview: true }), /Press Enter/, 'VALUE("b") has no last good value: not the key of "a"');
  const frozen = Object.freeze(['c']);
  assert.equal(await host.evaluate('VALUE', frozen as never), 2);
  assert.equal(await host.evaluate('VALUE', Object.freeze(['c']) as never, { preview: true }), 2, 'the same text in a new frozen array: the same key');
  assert.equal(await host.evaluate('VALUE', frozen as never, { preview: true }), 2, 'the frozen array again: its remembered key');
});
