/**
 * LIVEPRICE: the PriceStream poller against the local API server, with the
 * emulator's controlled clock (prices move once per clock hour) and injected
 * timers (a test fires them by hand), and LIVEPRICE as a one-shot formula.
 *
 *   node --import tsx --test test/formulas-live.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Session } from '../src/cli/session';
import { frozenSession } from './support/frozen-session';
import { calculate } from '../src/cli/calculate';
import type { FormattedCell, FormulaError } from '../src/formulas/cells';
import { STALE_FORMAT } from '../src/formulas/provenance';
import type { LiveArgs } from '../src/formulas/live';
import { liveCell } from '../src/formulas/live-cell';
import { PriceStream, type PriceStreamOptions } from '../src/formulas/price-stream';
import { TEST_DIALECT } from './support/dialect';

const HOUR = 3_600_000;
const MARKETS = '/v3/currencies/markets';


/** Timers the test fires by hand; `ms` is what the poller asked for. */
class FakeTimers {
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  #next = 1;
  set = (fn: () => void, ms: number): number => {
    const id = this.#next++;
    this.pending.set(id, { fn, ms });
    return id;
  };
  clear = (h: unknown): void => {
    this.pending.delete(h as number);
  };
  /** The one pending timer. */
  only(): { fn: () => void; ms: number } {
    assert.equal(this.pending.size, 1, `one timer pending, not ${this.pending.size}`);
    return [...this.pending.values()][0];
  }
  fire(): void {
    const [id, t] = [...this.pending.entries()][0];
    assert.equal(this.pending.size, 1);
    this.pending.delete(id);
    t.fn();
  }
}

/** Records what one subscriber was told. */
class Cell {
  values: number[] = [];
  errors: FormulaError[] = [];
  log: string[] = [];
  /** Stale prices as liveCell marks them ("(stale)"): logged `s:`. */
  stale: number[] = [];
  onValue = (p: number | FormattedCell, quote?: { stale: boolean }) => {
    const v = typeof p === 'number' ? p : p.value;
    const stale = typeof p !== 'number' ? p.numberFormat === STALE_FORMAT : quote?.stale === true;
    this.values.push(v);
    if (stale) this.stale.push(v);
    this.log.push(`${stale ? 's' : 'v'}:${v}`);
  };
  onError = (e: FormulaError) => {
    this.errors.push(e);
    this.log.push(`e:${e.message}`);
  };
  get last(): number | undefined {
    return this.values[this.values.length - 1];
  }
}

let s: Session;
let sandbox: Session;
before(async () => {
  [s, sandbox] = await Promise.all([frozenSession(), frozenSession({ key: 'demo-sandbox' })]);
});
after(async () => {
  await Promise.all([s?.close(), sandbox?.close()]);
});

function streamOn(on: Session, opts: Partial<PriceStreamOptions> = {}): { stream: PriceStream; timers: FakeTimers } {
  const timers = new FakeTimers();
  const stream = new PriceStream({
    client: on.client, now: () => on.emulator!.clock.now(), setTimer: timers.set, clearTimer: timers.clear, ...opts,
  });
  return { stream, timers };
}
const args = (coin: string | number, intervalSeconds = 3600, currency: 'USD' | 'EUR' = 'USD'): LiveArgs => ({ coin, intervalSeconds, currency });
const marketsRequests = (on: Session) => on.emulator!.usage(on === s ? 'demo-pro' : 'demo-sandbox').byPath[MARKETS]?.requests ?? 0;
async function price(coin: string, on: Session = s, currency = 'USD'): Promise<number> {
  const out = await calculate(on.host, `=CRYPTO.PRICE("${coin}","${currency}")`);
  assert.ok('value' in out, JSON.stringify(out));
  return out.value[0][0] as number;
}

describe('PriceStream', () => {
  test('one poll serves every subscriber; identical arguments share one subscription; each tick reads fresh prices', async () => {
    const { stream, timers } = streamOn(s);
    const btc1 = new Cell(), btc2 = new Cell(), btc3 = new Cell(), eth = new Cell(), sol = new Cell();
    const m0 = marketsRequests(s);
    const offs = [
      stream.subscribe(args('bitcoin'), btc1.onValue, btc1.onError),
      stream.subscribe(args('bitcoin'), btc2.onValue, btc2.onError),
      stream.subscribe(args('ethereum'), eth.onValue, eth.onError),
      stream.subscribe(args('solana'), sol.onValue, sol.onError),
    ];
    await stream.idle();
    assert.equal(marketsRequests(s) - m0, 1, 'three coins, one markets page');
    assert.deepEqual(stream.stats().subscriptions, 3);
    assert.deepEqual(stream.stats().listeners, 4);
    const p0 = await price('bitcoin');
    assert.deepEqual(btc1.values, [p0]);
    assert.deepEqual(btc2.values, [p0]);
    assert.deepEqual(eth.values, [await price('ethereum')]);
    // A late joiner with the same arguments gets the last value at once, without a request.
    offs.push(stream.subscribe(args('BITCOIN'), btc3.onValue, btc3.onError));
    assert.deepEqual(btc3.values, [p0]);
    assert.equal(stream.stats().subscriptions, 3);
    await stream.idle();
    assert.equal(marketsRequests(s) - m0, 1);

    // One timer for the whole stream, at the subscriptions' interval.
    assert.equal(timers.only().ms, 3600_000);
    for (let hour = 1; hour <= 2; hour++) {
      s.emulator!.clock.advance(HOUR);
      const before = marketsRequests(s);
      timers.fire();
      await stream.idle();
      assert.equal(marketsRequests(s) - before, 1, `tick ${hour}: one request for every coin`);
      const p = await price('bitcoin');
      assert.notEqual(p, p0, 'the price moved with the clock');
      for (const c of [btc1, btc2, btc3]) assert.equal(c.last, p, `tick ${hour}: every bitcoin cell updated`);
      assert.equal(eth.last, await price('ethereum'));
      assert.equal(sol.values.length, hour + 1);
      assert.equal(timers.only().ms, 3600_000);
    }
    offs.forEach((off) => off());
    assert.equal(timers.pending.size, 0);
  });

  test('the interval floor: live freshness on Pro, a quarter of the daily credits on Sandbox, more for more pages', async () => {
    // Pro: 100 requests/min and 80 000 credits/day afford far more; the 60 s freshness rules.
    const pro = streamOn(s);
    const offPro = pro.stream.subscribe(args('bitcoin', 1), () => {}, () => {});
    await pro.stream.idle();
    assert.equal(pro.timers.only().ms, 60_000);
    assert.equal(pro.stream.effectiveIntervalMs(1), 60_000);
    assert.equal(pro.stream.effectiveIntervalMs(300), 300_000, 'a longer interval is kept');
    offPro();

    // A slower freshness setting is a slower floor.
    const slow = streamOn(s, { liveFreshnessMs: 120_000 });
    const offSlow = slow.stream.subscribe(args('bitcoin', 30), () => {}, () => {});
    await slow.stream.idle();
    assert.equal(slow.timers.only().ms, 120_000);
    offSlow();

    // Sandbox: 400 credits/day, a quarter for streaming = 100 polls of one page a day → every 864 s.
    // Where status reports no daily figures (legacy), the month's 10,000 spread over 31 days.
    const daily = TEST_DIALECT === 'legacy' ? 10_000 / 31 : 400;
    const floor = (credits: number) => Math.ceil((credits * 86_400_000) / (daily / 4) / 1000) * 1000;
    assert.equal(floor(1), TEST_DIALECT === 'legacy' ? 1_072_000 : 864_000);
    const sb = streamOn(sandbox);
    const cell = new Cell();
    const offSb = sb.stream.subscribe(args('bitcoin', 1), cell.onValue, cell.onError);
    await sb.stream.idle();
    assert.equal(cell.values.length, 1);
    assert.deepEqual(sb.stream.perTick(), { requests: 1, credits: 1 });
    assert.equal(sb.timers.only().ms, floor(1));
    // A EUR subscription needs a second page at 2 credits: 3 credits a tick → 2592 s.
    const offEur = sb.stream.subscribe(args('bitcoin', 1, 'EUR'), () => {}, () => {});
    await sb.stream.idle();
    assert.deepEqual(sb.stream.perTick(), { requests: 2, credits: 3 });
    assert.equal(sb.timers.only().ms, floor(3));
    offEur();
    assert.equal(sb.timers.only().ms, floor(1), 'back to one page when the EUR cell leaves');
    offSb();
    assert.equal(sb.timers.pending.size, 0);
  });

  test("the user's daily credit budget paces the stream where it is below the plan's: a quarter of it, not of the plan (review-r2 #1)", async () => {
    // Pro's 80,000 credits a day afford a poll a minute (the 60 s freshness floor): 1,440 credits a day,
    // which spent a 50-credit budget in 50 minutes and left every other formula refused for the day.
    // A quarter of 50 is 12.5 credits a day for one page: a poll every 6912 s (under two hours).
    const floor = (budget: number) => Math.ceil((1 * 86_400_000) / (budget / 4) / 1000) * 1000;
    const { stream, timers } = streamOn(s);
    const off = stream.subscribe(args('bitcoin', 1), () => {}, () => {});
    await stream.idle();
    assert.equal(timers.only().ms, 60_000, 'no budget: the plan (freshness) rules');
    try {
      s.client.setDailyBudget(50);
      assert.equal(stream.floorMs(), floor(50));
      assert.equal(floor(50), 6_912_000);
      assert.equal(stream.effectiveIntervalMs(1), 6_912_000);
      // A budget above what the plan affords changes nothing: the plan's share rules.
      s.client.setDailyBudget(10_000_000);
      assert.equal(stream.floorMs(), 60_000);
      // No credits allowed at all: the longest interval, never a busy loop.
      s.client.setDailyBudget(0);
      assert.equal(stream.floorMs(), 86_400_000);
    } finally {
      s.client.setDailyBudget(null);
      off();
    }
    // Sandbox: 400 credits a day pace every 864 s; a 50-credit budget is the lower one.
    const sb = streamOn(sandbox);
    const offSb = sb.stream.subscribe(args('bitcoin', 1), () => {}, () => {});
    await sb.stream.idle();
    try {
      sandbox.client.setDailyBudget(50);
      assert.equal(sb.stream.floorMs(), floor(50));
    } finally {
      sandbox.client.setDailyBudget(null);
      offSb();
    }
  });

  test('coins on two markets pages: two requests a tick, and the floor counts both', async () => {
    const top = await calculate(s.host, '=CRYPTO.MARKETS(300,,,,,,,,0)');
    assert.ok('value' in top);
    const deep = String(top.value[299][3]); // slug of the coin ranked 300th
    const { stream, timers } = streamOn(s);
    const a = new Cell(), b = new Cell();
    const offs = [stream.subscribe(args('bitcoin'), a.onValue, a.onError), stream.subscribe(args(deep), b.onValue, b.onError)];
    await stream.idle();
    assert.deepEqual(stream.perTick(), { requests: 2, credits: 2 });
    assert.equal(b.last, await price(deep));
    s.emulator!.clock.advance(HOUR);
    const before = marketsRequests(s);
    timers.fire();
    await stream.idle();
    assert.equal(marketsRequests(s) - before, 2, 'page 1 and page 2');
    assert.equal(a.values.length, 2);
    assert.equal(b.values.length, 2);
    offs.forEach((off) => off());
  });

  test('cleanup: the last unsubscribe clears the timer; a poll in flight does not start a new one', async () => {
    const { stream, timers } = streamOn(s);
    const a = new Cell(), b = new Cell();
    const offA = stream.subscribe(args('ethereum'), a.onValue, a.onError);
    const offB = stream.subscribe(args('ethereum'), b.onValue, b.onError);
    await stream.idle();
    assert.equal(timers.pending.size, 1);
    offA();
    offA(); // idempotent
    assert.equal(timers.pending.size, 1, 'one listener left: the stream goes on');
    s.emulator!.clock.advance(HOUR);
    timers.fire();
    await stream.idle();
    assert.equal(a.values.length, 1, 'the one that left hears nothing more');
    assert.equal(b.values.length, 2);
    offB();
    assert.equal(timers.pending.size, 0);
    assert.deepEqual(stream.stats(), { ...stream.stats(), subscriptions: 0, listeners: 0, timerPending: false });

    // Leave while the first fetch is still running: nothing is delivered, nothing is scheduled.
    const c = new Cell();
    s.emulator!.clock.advance(HOUR);
    const offC = stream.subscribe(args('cardano'), c.onValue, c.onError);
    offC();
    await stream.idle();
    assert.deepEqual(c.log, []);
    assert.equal(timers.pending.size, 0);
  });

  test('errors reach the cells without stopping the stream, and values come back', async () => {
    const { stream, timers } = streamOn(s);
    const good = new Cell(), bad = new Cell();
    const offs = [
      stream.subscribe(args('bitcoin'), good.onValue, good.onError),
      stream.subscribe(args('notacoinatall'), bad.onValue, bad.onError),
    ];
    await stream.idle();
    assert.equal(good.values.length, 1);
    assert.equal(bad.values.length, 0);
    assert.equal(bad.errors.length, 1);
    assert.equal(bad.errors[0].code, '#N/A');
    assert.match(bad.errors[0].message, /notacoinatall/);

    // The key is removed: the next tick is an error for every cell, and the loop keeps going.
    s.keys.setKey(null);
    s.emulator!.clock.advance(HOUR);
    timers.fire();
    await stream.idle();
    assert.equal(good.errors.length, 1);
    assert.match(good.errors[0].message, /No API key/);
    assert.equal(timers.pending.size, 1, 'still polling');

    // The key is back: values again.
    s.keys.setKey('demo-pro');
    s.emulator!.clock.advance(HOUR);
    timers.fire();
    await stream.idle();
    assert.equal(good.last, await price('bitcoin'));
    assert.deepEqual(good.log.map((x) => x[0]), ['v', 'e', 'v']);
    offs.forEach((off) => off());
    assert.equal(timers.pending.size, 0);
  });

  test('a poll the client cannot refresh (budget reached) reaches the cell as the same price marked stale, and the mark goes with the next fresh price (review-r2 #2)', async () => {
    const own = await frozenSession(); // its own budget and caches
    try {
      // Credits out of the pacing (dailyShare): a budget reached on purpose would otherwise slow the ticks to days.
      const { stream, timers } = streamOn(own, { dailyShare: 1e6 });
      const cell = new Cell();
      const hostCell = new Cell();
      const offs = [
        stream.subscribe(args('bitcoin'), cell.onValue, cell.onError),
        liveCell({ ...own.host, report: (f, e, lastGood) => own.host.report(f, e, lastGood), settings: { markStale: true } }, stream, { coin: 'bitcoin', intervalSeconds: 3600, currency: 'USD' }, 'USD', hostCell.onValue, hostCell.onError),
      ];
      await stream.idle();
      const p0 = cell.last!;
      assert.deepEqual(cell.log, [`v:${p0}`]);
      // The budget is reached: the next poll is refused and the client serves the last quote, stale.
      own.client.setDailyBudget(own.client.meter.creditsToday());
      own.emulator!.clock.advance(HOUR);
      timers.fire();
      await stream.idle();
      assert.deepEqual(cell.log, [`v:${p0}`, `s:${p0}`], 'the same number, delivered again as stale');
      assert.deepEqual(hostCell.log, [`v:${p0}`, `s:${p0}`], 'liveCell marks it "(stale)" as the host marks stale values');
      assert.equal(cell.errors.length, 0);
      // Refresh all data drops the client's quotes: the refusal is then an error that allows the last
      // good value, and the cell keeps its last price, still marked, rather than turning to #N/A.
      own.client.refreshAll();
      own.emulator!.clock.advance(HOUR);
      timers.fire();
      await stream.idle();
      assert.deepEqual(cell.log, [`v:${p0}`, `s:${p0}`], 'still stale: nothing new to deliver');
      // The budget is lifted: the next poll is fresh, and the mark goes.
      own.client.setDailyBudget(null);
      own.emulator!.clock.advance(HOUR);
      timers.fire();
      await stream.idle();
      const p1 = await price('bitcoin', own);
      assert.notEqual(p1, p0);
      assert.deepEqual(cell.log, [`v:${p0}`, `s:${p0}`, `v:${p1}`]);
      assert.deepEqual(hostCell.log, [`v:${p0}`, `s:${p0}`, `v:${p1}`]);
      offs.forEach((off) => off());
    } finally {
      await own.close();
    }
  });

  test('a listener that throws does not stop the others', async () => {
    const { stream } = streamOn(s);
    const ok = new Cell();
    const offs = [
      stream.subscribe(args('bitcoin', 7200), () => { throw new Error('boom'); }, () => {}),
      stream.subscribe(args('bitcoin', 7200), ok.onValue, ok.onError),
    ];
    await stream.idle();
    assert.equal(ok.values.length, 1);
    offs.forEach((off) => off());
  });
});

describe('a LIVEPRICE cell goes through the calculation host', () => {
  test("its errors reach the host's error log (the pane's list): a bad argument, an unknown coin; values do not", async () => {
    const { stream } = streamOn(s);
    const good = new Cell(), unknown = new Cell(), bad = new Cell();
    const before = s.host.errors().length;
    const offs = [
      liveCell(s.host, stream, { coin: 'bitcoin', intervalSeconds: 60, currency: 'USD' }, 'USD', good.onValue, good.onError),
      liveCell(s.host, stream, { coin: 'no-such-coin-zz', intervalSeconds: 60, currency: 'USD' }, 'USD', unknown.onValue, unknown.onError),
      liveCell(s.host, stream, { coin: 'bitcoin', intervalSeconds: 0, currency: 'USD' }, 'USD', bad.onValue, bad.onError),
    ];
    await stream.idle();
    assert.deepEqual(good.values, [await price('bitcoin')]);
    assert.equal(good.errors.length, 0);
    assert.equal(unknown.errors[0]?.code, '#N/A');
    assert.equal(bad.errors[0]?.code, '#VALUE!');
    const logged = s.host.errors().slice(0, s.host.errors().length - before);
    assert.equal(logged.length, 2, JSON.stringify(logged));
    assert.ok(logged.every((e) => e.formula === 'LIVEPRICE'));
    assert.ok(logged.some((e) => e.code === 'UNKNOWN_COIN' && /no-such-coin-zz/.test(e.message)));
    assert.ok(logged.some((e) => e.code === 'INVALID_ARGUMENT' && /intervalSeconds/.test(e.message)));
    offs.forEach((off) => off());
  });

  test('a failed poll is logged "(showing the last good value)" when the cell keeps its last price, as PRICE\'s is, and not when it has none (review 2026-11-27)', async () => {
    const own = await frozenSession(); // its own budget and caches
    try {
      const { stream, timers } = streamOn(own, { dailyShare: 1e6 });
      const kept = new Cell(), none = new Cell();
      const offs = [liveCell(own.host, stream, { coin: 'bitcoin', intervalSeconds: 3600, currency: 'USD' }, 'USD', kept.onValue, kept.onError)];
      await stream.idle();
      const before = own.host.errors().length;
      // The budget is reached and the client's quotes dropped: the refusal allows the last good value.
      own.client.setDailyBudget(own.client.meter.creditsToday());
      own.client.refreshAll();
      own.emulator!.clock.advance(HOUR);
      timers.fire();
      await stream.idle();
      assert.equal(kept.errors.length, 0, 'the cell keeps its last price');
      assert.equal(kept.values.length, 2);
      assert.equal(kept.values[1], kept.values[0], 'the same price, standing in');
      // A new cell under the same refusal has no last good value: it shows the error.
      offs.push(liveCell(own.host, stream, { coin: 'ethereum', intervalSeconds: 3600, currency: 'USD' }, 'USD', none.onValue, none.onError));
      await stream.idle();
      assert.equal(none.values.length, 0);
      assert.equal(none.errors.length, 1, 'no last good value: the error shows');
      const logged = own.host.errors().slice(0, own.host.errors().length - before);
      assert.equal(logged.length, 2, JSON.stringify(logged));
      const [noneEntry, keptEntry] = logged; // newest first
      assert.match(keptEntry.message, /budget/i);
      assert.ok(keptEntry.message.endsWith(' (showing the last good value)'), keptEntry.message);
      assert.equal(noneEntry.message, none.errors[0].message);
      assert.ok(!noneEntry.message.includes('last good value'), noneEntry.message);
      offs.forEach((off) => off());
    } finally {
      await own.close();
    }
  });
});

describe('LIVEPRICE in any fiat currency', () => {
  test('a GBP subscription streams PRICE\'s GBP value: the USD quote at the fiat list\'s rate, the list counted once per tick', async () => {
    const { stream } = streamOn(s);
    const cell = new Cell();
    const usd = new Cell();
    const offs = [
      stream.subscribe({ coin: 'bitcoin', intervalSeconds: 3600, currency: 'GBP' }, cell.onValue, cell.onError),
      stream.subscribe({ coin: 'ethereum', intervalSeconds: 3600, currency: 'JPY' }, usd.onValue, usd.onError),
    ];
    await stream.idle();
    assert.equal(cell.last, await price('bitcoin', s, 'GBP'));
    assert.equal(usd.last, await price('ethereum', s, 'JPY'));
    // One markets page (USD) for both coins, and the fiat list once.
    assert.deepEqual(stream.perTick(), { requests: 2, credits: 2 });
    offs.forEach((off) => off());
    const once = await calculate(s.host, '=CRYPTO.LIVEPRICE("bitcoin",60,"gbp")');
    assert.ok('value' in once, JSON.stringify(once));
    assert.equal(once.value[0][0], await price('bitcoin', s, 'GBP'));
  });
});

describe('LIVEPRICE outside Excel', () => {
  test('answers the current price once', async () => {
    const out = await calculate(s.host, '=CRYPTO.LIVEPRICE("bitcoin")');
    assert.ok('value' in out, JSON.stringify(out));
    assert.equal(out.value[0][0], await price('bitcoin'));
    const eur = await calculate(s.host, '=CRYPTO.LIVEPRICE("ethereum",120,"eur")');
    assert.ok('value' in eur, JSON.stringify(eur));
    assert.equal(eur.value[0][0], await price('ethereum', s, 'EUR'));
    assert.notEqual(eur.value[0][0], await price('ethereum'));
  });
  test('bad interval or currency: #VALUE! naming what is allowed; no key: #N/A', async () => {
    const i = await calculate(s.host, '=CRYPTO.LIVEPRICE("bitcoin",0)');
    assert.ok('error' in i);
    assert.equal(i.error, '#VALUE!');
    assert.match(i.message, /intervalSeconds must be a whole number from 1 to 86400/);
    const c = await calculate(s.host, '=CRYPTO.LIVEPRICE("bitcoin",60,"XYZ")');
    assert.ok('error' in c);
    assert.equal(c.error, '#VALUE!');
    assert.match(c.message, /USD, EUR, .*GBP.*; got "XYZ"/);
    const nokey = await frozenSession({ key: null });
    try {
      const k = await calculate(nokey.host, '=CRYPTO.LIVEPRICE("bitcoin")');
      assert.ok('error' in k);
      assert.equal(k.error, '#N/A');
      assert.match(k.message, /No API key/);
    } finally {
      await nokey.close();
    }
  });
});
