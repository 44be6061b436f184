/**
 * Review 2026-11-27 (entities): a stale COIN entity says so as PRICE does (#1), an entity does not
 * claim Traded TRUE when the answer had no isTraded (#3), and a LIVEPRICE failure that leaves the
 * last price standing is handed on once per failure, for the pane's error log (#2).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coinEntity } from '../src/formulas/coin-entity';
import { CalculationHost } from '../src/formulas/host';
import { CATALOG } from '../src/formulas/catalog';
import { EntityCell } from '../src/formulas/entity-cell';
import { FormattedCell, type FormulaError } from '../src/formulas/cells';
import { PriceStream } from '../src/formulas/price-stream';
import { liveCell } from '../src/formulas/live-cell';
import type { MoneyQuote } from '../src/formulas/currency';
import { frozenSession } from './support/frozen-session';

const HOUR = 3_600_000;

const QUOTE: MoneyQuote = {
  id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', rank: 1, currency: 'USD', price: 65000.5, marketCap: null, volume24h: null,
  volume24hBase: null, fullyDilutedValuation: null, high24h: null, low24h: null, change24h: null, change7d: null, change30d: null,
  change3m: null, changeYtd: null, circulatingSupply: null, totalSupply: null, maxSupply: null, isTraded: true, lastUpdated: null, stale: false,
};

test('#1 a stale COIN entity says "(stale)" in its text and its Price, as PRICE does; ids and dates stand', async () => {
  const s = await frozenSession();
  try {
    const host = new CalculationHost({ client: s.client, catalog: CATALOG, settings: { defaultCurrency: 'USD', markStale: true } });
    // COIN answers a 1x1 grid holding the entity.
    const one = async (f: string) => { const r = await host.evaluate(f, ['bitcoin']); return Array.isArray(r) ? r[0][0] : r; };
    const fresh = await one('COIN');
    assert.ok(fresh instanceof EntityCell);
    assert.doesNotMatch(fresh.text, /stale/);
    s.client.setDailyBudget(s.client.meter.creditsToday());
    s.emulator!.clock.advance(HOUR);
    const price = await one('PRICE');
    assert.ok(price instanceof FormattedCell && /stale/.test(price.numberFormat), 'PRICE is marked stale (the setup works)');
    const stale = await one('COIN');
    assert.ok(stale instanceof EntityCell);
    assert.equal(stale.text, `${fresh.text} (stale)`);
    const p = stale.value.properties;
    assert.ok(p.Price.type === 'FormattedNumber' && p.Price.numberFormat.endsWith('" (stale)"'), JSON.stringify(p.Price));
    assert.equal(p.Price.type === 'FormattedNumber' && p.Price.basicValue, fresh.value.properties.Price.type === 'FormattedNumber' && fresh.value.properties.Price.basicValue);
    assert.deepEqual(p.ID, fresh.value.properties.ID);
    assert.deepEqual(p['Last updated'], fresh.value.properties['Last updated']);
    // The last good entity itself is not changed: a fresh answer shows no mark.
    assert.doesNotMatch(fresh.text, /stale/);
  } finally {
    await s.close();
  }
});

test('#3 an answer without isTraded leaves Traded out of the entity (#FIELD!), not TRUE', () => {
  const without = coinEntity({ ...QUOTE, absent: { fields: new Set(['isTraded']), source: 'the markets item' } });
  assert.equal(Object.hasOwn(without.value.properties, 'Traded'), false, JSON.stringify(without.value.properties.Traded));
  const card = JSON.stringify(without.value.layouts?.card?.sections);
  assert.doesNotMatch(card, /Traded/);
  assert.deepEqual(coinEntity({ ...QUOTE }).value.properties.Traded, { type: 'Boolean', basicValue: true });
});

test('#2 a LIVEPRICE poll that fails with the last price standing hands the failure on once, for the error log', async () => {
  const s = await frozenSession();
  try {
    const timers: (() => void)[] = [];
    const stream = new PriceStream({ client: s.client, now: () => s.emulator!.clock.now(), setTimer: (fn) => timers.push(fn), clearTimer: () => undefined, dailyShare: 1e6 });
    const got: { price: number; stale: boolean; failure?: FormulaError }[] = [];
    const off = stream.subscribe({ coin: 'bitcoin', intervalSeconds: 3600, currency: 'USD' }, (price, quote, failure) => got.push({ price, stale: quote.stale, failure }), () => assert.fail('no error expected'));
    await stream.idle();
    assert.equal(got.length, 1);
    assert.equal(got[0].failure, undefined);
    s.client.setDailyBudget(s.client.meter.creditsToday());
    s.client.refreshAll(); // the client holds no quote to serve stale itself: the stream's stand-in
    s.emulator!.clock.advance(HOUR);
    timers.pop()!();
    await stream.idle();
    assert.equal(got.length, 2);
    assert.equal(got[1].stale, true);
    assert.equal(got[1].price, got[0].price);
    assert.ok(got[1].failure, 'the failure behind the stale price is handed on');
    assert.equal(got[1].failure.lastGood, true);
    // The next failing poll: the same stale price, not delivered again, so not logged again.
    s.emulator!.clock.advance(HOUR);
    timers.pop()!();
    await stream.idle();
    assert.equal(got.length, 2);
    off();
  } finally {
    await s.close();
  }
});

test('#2 a LIVEPRICE cell whose poll fails with the last price standing puts the failure in the pane\'s error log, once', async () => {
  const s = await frozenSession();
  try {
    const timers: (() => void)[] = [];
    const stream = new PriceStream({ client: s.client, now: () => s.emulator!.clock.now(), setTimer: (fn) => timers.push(fn), clearTimer: () => undefined, dailyShare: 1e6 });
    const host = { report: (f: string, e: unknown, servedLastGood?: boolean) => s.host.report(f, e, servedLastGood), settings: { markStale: true } };
    const shown: unknown[] = [];
    const off = liveCell(host, stream, { coin: 'bitcoin', intervalSeconds: 3600, currency: 'USD' }, 'USD', (v) => shown.push(v), (e) => shown.push(e));
    await stream.idle();
    const logged = s.host.errors().length;
    s.client.setDailyBudget(s.client.meter.creditsToday());
    s.client.refreshAll();
    s.emulator!.clock.advance(HOUR);
    timers.pop()!();
    await stream.idle();
    assert.equal(s.host.errors().length, logged + 1, 'the failure is in the log');
    assert.match(s.host.errors()[0].message, /budget/i);
    assert.ok(shown.at(-1) instanceof FormattedCell, 'the cell shows the last price, marked stale');
    s.emulator!.clock.advance(HOUR);
    timers.pop()!();
    await stream.idle();
    assert.equal(s.host.errors().length, logged + 1, 'not logged again on each failing poll');
    off();
  } finally {
    await s.close();
  }
});
