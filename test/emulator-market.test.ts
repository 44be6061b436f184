/**
 * The synthetic market (src/emulator/market), tested through its handlers (no HTTP):
 * schemas and exact keys, determinism, internal consistency, universe requirements, speed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { ENDPOINTS, type EndpointName } from '../src/api/endpoints';
import { ALTCOIN_SEASON_BANDS, FEAR_GREED_BANDS, HOLDER_BUCKETS, HOLDER_TIERS } from '../src/api/records';
import { InvalidRequestError, NotFoundError, type DataEndpointName, type HandlerResult, type MarketDataSource } from '../src/emulator/contract';
import { createMarket } from '../src/emulator/market/index';
import { checksInPlace, validate } from '../src/api/validate';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 2, 15, 13, 27, 11);
const TODAY = NOW - (NOW % DAY);

let t0 = performance.now();
const market = createMarket();
const createMs = performance.now() - t0;
console.log(`createMarket: ${createMs.toFixed(1)} ms`);

type Q = Record<string, string>;
function call(name: DataEndpointName, query: Q = {}, id?: number, now = NOW, m: MarketDataSource = market): HandlerResult {
  return m.handlers[name]({ id, query, now });
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const data = (name: DataEndpointName, query: Q = {}, id?: number, now = NOW): Any => call(name, query, id, now).data;
const num = (s: string | null): number => Number(s);
const close = (a: number, b: number, rel = 1e-9, abs = 1e-9) => Math.abs(a - b) <= Math.max(abs, rel * Math.max(Math.abs(a), Math.abs(b)));
function assertClose(a: number, b: number, msg: string, rel = 1e-9, abs = 1e-9) {
  assert.ok(close(a, b, rel, abs), `${msg}: ${a} vs ${b}`);
}

/** Every object in `value` has exactly the schema's keys (valibot strips unknown keys, so check them here). */
function assertExactKeys(schema: Any, value: Any, path = '$'): void {
  switch (schema.type) {
    case 'nullable':
    case 'optional':
      if (value === null || value === undefined) return;
      return assertExactKeys(schema.wrapped, value, path);
    case 'array':
      value.forEach((x: Any, i: number) => assertExactKeys(schema.item, x, `${path}[${i}]`));
      return;
    case 'object': {
      const expected = Object.keys(schema.entries).filter((k) => schema.entries[k].type !== 'optional' || k in value).sort();
      assert.deepEqual(Object.keys(value).sort(), expected, `keys of ${path}`);
      for (const k of Object.keys(schema.entries)) if (k in value) assertExactKeys(schema.entries[k], value[k], `${path}.${k}`);
      return;
    }
    default:
      return;
  }
}

function checkShape(name: EndpointName, result: HandlerResult): void {
  const spec = ENDPOINTS[name] as Any;
  v.parse(spec.data, result.data);
  assertExactKeys(spec.data, result.data);
  if (spec.meta) {
    v.parse(spec.meta, result.meta);
    assertExactKeys(spec.meta, result.meta);
  } else if (spec.pageSize) {
    assert.ok(result.meta, `${name} has meta`);
    assert.deepEqual(Object.keys(result.meta!).sort(), ['hasNextPage', 'page', 'pageSize']);
  }
}

// ---------------------------------------------------------------- fixtures
const map: Any[] = data('currencyMap');
const bySlug = new Map<string, Any>(map.map((c) => [c.slug, c]));
const idOf = (slug: string): number => bySlug.get(slug)!.id;
const BTC = idOf('bitcoin');
const ETH = idOf('ethereum');
const PEPE = idOf('pepe');
const USDT = idOf('tether');

function allTraded(now = NOW): Any[] {
  const out: Any[] = [];
  for (let offset = 0; ; offset += 250) {
    const r = call('markets', { offset: String(offset), limit: '250' }, undefined, now);
    out.push(...(r.data as Any[]));
    if (!(r.meta as Any).hasNextPage) return out;
  }
}
const traded = allTraded();
const item = (id: number): Any => traded.find((x) => x.id === id);

/** A traded vesting coin with an upcoming unlock (from the upcoming-unlocks list). */
const unlocks365: Any[] = [];
for (let page = 1; ; page++) {
  const r = call('upcomingUnlocks', { daysAhead: '365', page: String(page) });
  unlocks365.push(...(r.data as Any[]));
  if (!(r.meta as Any).hasNextPage) break;
}
const VESTED = unlocks365[0].id as number;
/** A token with holders data. */
const HOLDER_COIN = traded.find((x) => data('holdersSummary', {}, x.id).holdersCount !== null)!.id as number;
const UNTRADED = map.find((c) => data('profile', {}, c.id).lifecycle === 'funding')!.id as number;

// ---------------------------------------------------------------- shapes
const SAMPLES: Record<DataEndpointName, [Q, number?][]> = {
  currencyMap: [[{}]],
  categories: [[{}]],
  tags: [[{}]],
  search: [[{ query: 'pepe' }], [{ query: 'zzzzzz' }]],
  currencyList: [[{}], [{ page: '3' }], [{ currencyIds: `${BTC},${UNTRADED},${PEPE}` }]],
  fiatList: [[{}]],
  markets: [[{}], [{ limit: '250', include: 'sparkline7d', convert: 'EUR' }], [{ lifecycle: 'upcoming' }], [{ sortBy: 'change24h', sortOrder: 'desc', category: '17' }]],
  profile: [[{}, BTC], [{ convert: 'EUR' }, PEPE], [{}, UNTRADED], [{}, VESTED]],
  contracts: [[{}, USDT], [{}, BTC]],
  tokenomics: [[{}, BTC], [{}, VESTED], [{}, UNTRADED]],
  performance: [[{}, BTC], [{}, VESTED], [{}, UNTRADED]],
  sparkline: [[{}, BTC], [{}, UNTRADED], [{ interval: '5m', from: String(NOW - DAY) }, ETH], [{ interval: '1d', from: '2025-06-01', sortOrder: 'desc' }, BTC]],
  trending: [[{}]],
  gainersLosers: [[{}], [{ type: 'losers', period: '7d', limit: '100' }]],
  derivatives: [[{}]],
  candles: [[{ from: '2024-01-01' }, BTC], [{ from: '2015-01-01', interval: 'week' }, PEPE], [{ from: '2020-01-01', interval: 'month', limit: '10' }, ETH]],
  ohlcv: [[{ from: String(NOW - 3 * DAY) }, BTC], [{ from: '2020-01-01' }, PEPE]],
  returns: [[{ period: 'monthly' }, BTC], [{ period: 'quarterly' }, PEPE], [{ period: 'yearly' }, ETH]],
  historicalItem: [[{ date: '2024-06-15', currencyIds: `${BTC},${ETH}` }], [{ date: String(NOW), currencyIds: `${PEPE}`, convert: 'EUR' }]],
  holders: [[{}, HOLDER_COIN], [{ page: '10' }, HOLDER_COIN], [{}, BTC]],
  holdersSummary: [[{}, HOLDER_COIN], [{}, BTC]],
  vestingAllocations: [[{}, VESTED], [{ includeUntracked: 'true' }, VESTED], [{}, BTC]],
  vcPressure: [[{}, VESTED]],
  tokenUnlocks: [[{}], [{ offset: '100', limit: '200' }], [{ daysAhead: '365', sortBy: 'percentOfMcap', sortOrder: 'desc', minUsdAmount: '1000', minPercentOfMcap: '0.5' }]],
  upcomingUnlocks: [[{}], [{ page: '2', sortBy: 'usdAmount', sortOrder: 'desc', daysAhead: '365' }], [{ minPercentOfMcap: '1' }]],
  globalMarket: [[{}]],
  fearGreed: [[{}]],
  fearGreedChart: [[{ from: '2025-01-01' }]],
  altcoinIndex: [[{}]],
  altcoinIndexChart: [[{ from: String(NOW - 60 * DAY) }]],
  dominance: [[{}]],
  dominanceChart: [[{ from: String(NOW - 30 * DAY), group: 'eth' }]],
  blockchainMap: [[{}]],
  blockchainList: [[{}]],
  blockchain: [[{}, 1], [{}, 7]],
  tvlChange: [[{}, 2], [{ period: '1y' }, 7]],
  tvlChart: [[{}, 2], [{ from: '2023-01-01' }, 7]],
  personsMap: [[{}]],
};

test('every handler answers with exactly the schema of its endpoint', () => {
  assert.deepEqual(Object.keys(SAMPLES).sort(), Object.keys(market.handlers).sort());
  for (const [name, samples] of Object.entries(SAMPLES) as [DataEndpointName, [Q, number?][]][]) {
    for (const [query, id] of samples) {
      const r = call(name, query, id);
      try {
        checkShape(name, r);
      } catch (e) {
        throw new Error(`${name} ${JSON.stringify(query)} ${id ?? ''}: ${(e as Error).message}`);
      }
      if (ENDPOINTS[name].cost === 'buckets') assert.equal(r.buckets, (r.data as Any[]).length, `${name} buckets`);
    }
  }
});

// The client checks answers in place (src/api/validate.ts) and falls back to valibot:
// on real answers and on every kind of damage to them, both must agree.
const DAMAGE: [string, (parent: Any, key: string | number) => void][] = [
  ['missing', (p, k) => (Array.isArray(p) ? p.splice(Number(k), 1) : delete p[k])],
  ...([null, 1.5, -3, 0, 'x', '12.50', '1e5', '', '2024-13-45', true, {}, []] as unknown[]).map(
    (val): [string, (parent: Any, key: string | number) => void] => [JSON.stringify(val), (p, k) => (p[k] = structuredClone(val))],
  ),
];

/** Paths to every value in `x` (arrays: their first two items). */
function paths(x: Any, at: (string | number)[] = []): (string | number)[][] {
  if (x === null || typeof x !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(x) ? x.slice(0, 2).map((_, i) => i) : Object.keys(x);
  return keys.flatMap((k) => [[...at, k], ...paths(x[k], [...at, k])]);
}

test('the in-place check agrees with valibot on every sample answer and every kind of damage to it', () => {
  let compared = 0;
  for (const [name, samples] of Object.entries(SAMPLES) as [DataEndpointName, [Q, number?][]][]) {
    const schema = (ENDPOINTS[name] as Any).data;
    assert.ok(checksInPlace(schema), `${name}: its schema is checked in place`);
    for (const [query, id] of samples) {
      // As the client sees it: JSON, and big lists cut to a few items to keep the damage count down.
      let answer = JSON.parse(JSON.stringify(call(name, query, id).data));
      if (Array.isArray(answer)) answer = answer.slice(0, 3);
      const whole = validate(schema, answer);
      assert.ok(whole.success, `${name}: a sample answer passes`);
      assert.equal(whole.output, answer, `${name}: a passing answer is used as it is, not copied`);
      assert.deepEqual(whole.output, v.parse(schema, answer), `${name}: same value as valibot's`);
      for (const path of paths(answer)) {
        for (const [label, damage] of DAMAGE) {
          const bad = structuredClone(answer);
          const parent = path.slice(0, -1).reduce((o: Any, k) => o[k], bad);
          damage(parent, path[path.length - 1]);
          const ours = validate(schema, bad);
          const theirs = v.safeParse(schema, bad);
          compared++;
          assert.equal(ours.success, theirs.success, `${name} ${path.join('.')} ${label}: in place ${ours.success}, valibot ${theirs.success}`);
          if (!ours.success) assert.deepEqual(ours.issues?.map((i) => i.message), theirs.issues?.map((i) => i.message));
        }
      }
    }
  }
  assert.ok(compared > 10_000, `compared ${compared} damaged answers`);
});

test('amounts never use exponent notation, even for tiny prices', () => {
  const pepe = item(PEPE);
  assert.match(pepe.price, /^0\.0000\d+$/);
  assert.ok(num(pepe.price) > 1e-7 && num(pepe.price) < 1e-3, `PEPE price ${pepe.price}`);
  for (const x of traded) for (const k of ['price', 'marketCap', 'volume24h', 'circulatingSupply']) if (x[k] !== null) assert.doesNotMatch(x[k], /e/i);
});

// ---------------------------------------------------------------- determinism
test('deterministic: same seed, same values; a past date does not depend on now', () => {
  const other = createMarket();
  const q = { from: '2023-01-01', to: '2023-03-01' };
  assert.deepEqual(call('candles', q, BTC, NOW, other).data, call('candles', q, BTC).data);
  const later = Date.UTC(2031, 6, 1, 9);
  const early = Date.UTC(2023, 5, 1, 0);
  for (const id of [BTC, ETH, PEPE]) {
    const a = call('candles', { from: '2023-05-01', to: '2023-05-20' }, id, later).data;
    assert.deepEqual(a, call('candles', { from: '2023-05-01', to: '2023-05-20' }, id, early).data);
    assert.deepEqual(a, call('candles', { from: '2023-05-01', to: '2023-05-20' }, id).data);
  }
  const h = { date: '2022-11-09', currencyIds: `${BTC},${ETH}` };
  assert.deepEqual(call('historicalItem', h, undefined, later).data, call('historicalItem', h).data);
  assert.deepEqual(call('fearGreedChart', { from: '2022-01-01', to: '2022-02-01' }, undefined, later).data, call('fearGreedChart', { from: '2022-01-01', to: '2022-02-01' }).data);
  assert.notDeepEqual(call('markets', {}, undefined, NOW, createMarket({ seed: 7 })).data, call('markets', {}).data);
});

// ---------------------------------------------------------------- universe
test('universe: size, lifecycles, types, null symbols, shared symbols, ranks', () => {
  assert.ok(map.length >= 2000, `${map.length} currencies`);
  assert.equal(new Set(map.map((c) => c.id)).size, map.length);
  assert.equal(new Set(map.map((c) => c.slug)).size, map.length);
  assert.equal(BTC, 1);
  assert.ok(map.some((c) => c.symbol === null), 'a null symbol');
  const profiles = map.map((c) => data('profile', {}, c.id));
  const lifecycles = new Set(profiles.map((p) => p.lifecycle));
  for (const l of ['scheduled', 'funding', 'crowdsale', 'traded', 'inactive', 'unknown']) assert.ok(lifecycles.has(l), `lifecycle ${l}`);
  const types = new Set(profiles.map((p) => p.type));
  for (const t of ['coin', 'token', 'etf', 'leveraged-token', 'fiat', 'no-token', 'derivative']) assert.ok(types.has(t), `type ${t}`);
  for (const p of profiles) {
    if (p.lifecycle !== 'traded') {
      assert.equal(p.price, null, `${p.slug} price`);
      assert.equal(p.marketCap, null);
      assert.equal(p.rank, null);
    }
    if (p.type === 'etf') assert.equal(p.rank, null, 'ETFs are unranked');
  }
  assert.ok(profiles.some((p) => p.lifecycle === 'traded' && p.rank === null), 'an unranked traded coin');
  // shared symbols: the well-known coin ranks higher
  const bySymbol = new Map<string, Any[]>();
  for (const p of profiles) if (p.symbol) bySymbol.set(p.symbol, [...(bySymbol.get(p.symbol) ?? []), p]);
  for (const [sym, slug] of [['PEPE', 'pepe'], ['UNI', 'uniswap'], ['LINK', 'chainlink']]) {
    const group = bySymbol.get(sym)!;
    assert.ok(group.length >= 2, `${sym} shared`);
    const best = [...group].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity))[0];
    assert.equal(best.slug, slug, `${sym}: the well-known coin ranks first`);
  }
  const search = data('search', { query: 'PEPE' });
  assert.equal(search[0].slug, 'pepe');
  // ranks 1..N contiguous by market cap over the traded list (ETFs at the end, unranked)
  const ranked = traded.filter((x) => x.rank !== null);
  ranked.forEach((x, i) => assert.equal(x.rank, i + 1));
  for (let i = 1; i < ranked.length; i++) assert.ok(num(ranked[i - 1].marketCap) >= num(ranked[i].marketCap), 'rank order = market cap order');
  assert.equal(item(BTC).rank, 1);
  assert.equal(item(ETH).rank, 2);
  assert.ok(Math.abs(num(item(USDT).price) - 1) < 0.01, 'tether ~ 1');
  assert.ok(num(item(BTC).price) > 10_000, 'bitcoin price level');
});

test('any now from 2021 to 2035 works, bitcoin first', () => {
  for (const now of [Date.UTC(2021, 0, 1), Date.UTC(2028, 5, 30, 23, 59), Date.UTC(2035, 11, 31, 23)]) {
    const r = call('markets', { limit: '20' }, undefined, now);
    checkShape('markets', r);
    assert.equal((r.data as Any[])[0].slug, 'bitcoin');
    checkShape('candles', call('candles', { from: '2015-01-01', interval: 'month' }, ETH, now));
  }
  // a coin listed after now is not traded yet
  assert.equal(data('profile', {}, PEPE, Date.UTC(2022, 0, 1)).lifecycle, 'scheduled');
});

// ---------------------------------------------------------------- candles
const dailyBtc: Any[] = data('candles', { from: '2024-01-01' }, BTC);

function checkAggregate(period: 'week' | 'month', candles: Any[], daily: Any[]) {
  for (const c of candles) {
    const end = period === 'week' ? c.time + 7 * DAY : Date.UTC(new Date(c.time).getUTCFullYear(), new Date(c.time).getUTCMonth() + 1, 1);
    const days = daily.filter((d) => d.time >= c.time && d.time < end);
    if (!days.length) continue;
    assert.equal(c.open, days[0].open);
    assert.equal(c.close, days[days.length - 1].close);
    assert.equal(num(c.high), Math.max(...days.map((d) => num(d.high))));
    assert.equal(num(c.low), Math.min(...days.map((d) => num(d.low))));
    assert.equal(c.circulatingSupply, days[days.length - 1].circulatingSupply);
    assertClose(num(c.volume), days.reduce((a, d) => a + num(d.volume), 0), `${period} volume`, 1e-9, 0.01 * days.length);
    assertClose(num(c.avg), (num(c.open) + num(c.high) + num(c.low) + num(c.close)) / 4, 'avg', 1e-8);
    assertClose(c.priceChangePercent, ((num(c.close) - num(c.open)) / num(c.open)) * 100, 'priceChangePercent', 1e-6, 1e-3);
  }
}

test('daily candles: continuous, last one is the incomplete current candle', () => {
  assert.equal(dailyBtc[0].time, Date.UTC(2024, 0, 1));
  for (let i = 1; i < dailyBtc.length; i++) {
    assert.equal(dailyBtc[i].time - dailyBtc[i - 1].time, DAY);
    assert.equal(dailyBtc[i].open, dailyBtc[i - 1].close, 'open = previous close');
    assertClose(dailyBtc[i].volumeChangePercent, (num(dailyBtc[i].volume) / num(dailyBtc[i - 1].volume) - 1) * 100, 'volume change', 1e-6, 1e-3);
    assert.ok(num(dailyBtc[i].high) >= Math.max(num(dailyBtc[i].open), num(dailyBtc[i].close)));
    assert.ok(num(dailyBtc[i].low) <= Math.min(num(dailyBtc[i].open), num(dailyBtc[i].close)));
  }
  const last = dailyBtc[dailyBtc.length - 1];
  assert.equal(last.time, TODAY);
  assert.equal(last.close, item(BTC).price, 'current candle close = current price');
  assert.notEqual(dailyBtc[0].volumeChangePercent, null, 'previous candle in time is used even when not returned');
  const first = data('candles', { from: '2010-01-01', limit: '3' }, BTC);
  assert.equal(first[0].time, Date.UTC(2015, 0, 1));
  assert.equal(first[0].volumeChangePercent, null, 'the very first candle has no previous one');
  assert.equal(data('candles', { from: '2024-01-01', limit: '5' }, BTC).length, 5);
});

test('weekly and monthly candles aggregate the daily ones exactly', () => {
  const weekly = data('candles', { from: '2024-01-01', interval: 'week' }, BTC);
  for (const w of weekly) assert.equal(new Date(w.time).getUTCDay(), 1, 'weeks start on Monday');
  checkAggregate('week', weekly, dailyBtc);
  const monthly = data('candles', { from: '2024-01-01', interval: 'month' }, BTC);
  for (const mth of monthly) assert.equal(new Date(mth.time).getUTCDate(), 1);
  checkAggregate('month', monthly, dailyBtc);
  assert.equal(monthly[monthly.length - 1].close, item(BTC).price);
  for (let i = 1; i < monthly.length; i++) {
    assertClose(monthly[i].circulatingSupplyChangePercent, (num(monthly[i].circulatingSupply) / num(monthly[i - 1].circulatingSupply) - 1) * 100, 'supply change', 1e-6, 1e-3);
  }
});

test('periodic returns equal the monthly candles', () => {
  for (const id of [BTC, PEPE]) {
    const returns = data('returns', { period: 'monthly' }, id);
    const monthly = data('candles', { from: '2010-01-01', interval: 'month' }, id);
    assert.equal(returns.length, monthly.length);
    returns.forEach((r: Any, i: number) => {
      assert.equal(r.date, new Date(monthly[i].time).toISOString());
      assert.equal(r.closingPrice, monthly[i].close);
      assert.equal(r.pricePercentChange, monthly[i].priceChangePercent);
    });
    const yearly = data('returns', { period: 'yearly' }, id);
    assert.equal(yearly[yearly.length - 1].closingPrice, item(id).price, 'incomplete period closes at the current price');
    const quarterly = data('returns', { period: 'quarterly' }, id);
    const q0 = quarterly.findIndex((q: Any) => q.date === '2024-01-01T00:00:00.000Z');
    if (q0 >= 0) assert.equal(quarterly[q0].closingPrice, returns.find((r: Any) => r.date === '2024-03-01T00:00:00.000Z').closingPrice);
  }
});

test('hourly candles aggregate to the daily candle; sparkline and 24h figures agree', () => {
  const yesterday = TODAY - DAY;
  const hours = data('ohlcv', { from: String(yesterday), to: String(yesterday + 23 * HOUR) }, BTC);
  assert.equal(hours.length, 24);
  const day = dailyBtc.find((d) => d.time === yesterday);
  assert.equal(hours[0].open, day.open);
  assert.equal(hours[23].close, day.close);
  assert.equal(Math.max(...hours.map((h: Any) => num(h.high))), num(day.high));
  assert.equal(Math.min(...hours.map((h: Any) => num(h.low))), num(day.low));
  assert.equal(hours[23].volume, day.volume, 'last hour rolling 24h volume = the day volume');
  // only the last 30 days
  const all = data('ohlcv', { from: '2020-01-01' }, BTC);
  assert.equal(all.length, 720);
  assert.equal(all[all.length - 1].time, NOW - (NOW % HOUR));
  const last25 = all.slice(-25);
  const m = item(BTC);
  assert.equal(last25[24].close, m.price);
  assertClose(m.percentChange.h24, (num(m.price) / num(last25[0].close) - 1) * 100, 'h24 vs hourly series', 1e-6, 2e-4);
  assert.equal(num(m.high24h), Math.max(...last25.slice(1).map((h: Any) => num(h.high))));
  assert.equal(num(m.low24h), Math.min(...last25.slice(1).map((h: Any) => num(h.low))));
  assert.equal(m.volume24h, last25[24].volume);
  const week = all.slice(-168);
  assertClose(m.percentChange.d7, (num(m.price) / num(all[all.length - 169].close) - 1) * 100, 'd7', 1e-6, 2e-4);
  const spark = data('sparkline', {}, BTC);
  assert.equal(spark.length, 168);
  spark.forEach((p: Any, i: number) => {
    assert.equal(p.time, week[i].time);
    assert.equal(p.price, week[i].close);
    assert.equal(p.volume, week[i].volume);
  });
  const withSpark = data('markets', { limit: '3', include: 'sparkline7d' });
  assert.equal(withSpark[0].sparkline7d.length, 7);
  assert.equal(withSpark[0].sparkline7d[6], withSpark[0].price);
  assert.equal(withSpark[0].sparkline7d[5], dailyBtc[dailyBtc.length - 2].close);
});

test('historical item = the daily candle of that date; EUR uses one rate', () => {
  const [btc, eth] = data('historicalItem', { date: '2024-06-15T10:00:00Z', currencyIds: `${BTC},${ETH}` });
  const day = dailyBtc.find((d) => d.time === Date.UTC(2024, 5, 15));
  assert.equal(btc.price, day.close);
  assert.equal(btc.volume24h, day.volume);
  assert.equal(btc.circulatingSupply, day.circulatingSupply);
  assert.equal(btc.storedTime, Date.UTC(2024, 5, 15, 23, 59, 59, 999));
  assertClose(num(btc.marketCap), num(btc.price) * num(btc.circulatingSupply), 'marketCap', 1e-8);
  assertClose(num(btc.volume24hBase), num(btc.volume24h) / num(btc.price), 'volume24hBase', 1e-8);
  const [btcEur, ethEur] = data('historicalItem', { date: '2024-06-15', currencyIds: `${BTC},${ETH}`, convert: 'EUR' });
  const rate = num(btcEur.price) / num(btc.price);
  assert.ok(rate > 0.75 && rate < 1.1, `EUR rate ${rate}`);
  assertClose(num(ethEur.price) / num(eth.price), rate, 'same rate for all coins', 1e-8);
  const [now] = data('historicalItem', { date: String(NOW), currencyIds: `${BTC}` });
  assert.equal(now.price, item(BTC).price);
  assert.throws(() => call('historicalItem', { date: '2024-06-15', currencyIds: `${BTC},999999` }), NotFoundError);
  assert.throws(() => call('historicalItem', { date: '2020-06-15', currencyIds: `${PEPE}` }), NotFoundError);
});

test('performance: ATH/ATL are the extremes of the daily candles', () => {
  for (const id of [BTC, PEPE, VESTED]) {
    const all = data('candles', { from: '2010-01-01' }, id);
    const perf = data('performance', {}, id);
    const maxHigh = Math.max(...all.map((c: Any) => num(c.high)));
    const minLow = Math.min(...all.map((c: Any) => num(c.low)));
    assert.equal(num(perf.athPriceUsd), maxHigh);
    assert.equal(num(perf.atlPriceUsd), minLow);
    assert.equal(perf.athDate, new Date(all.find((c: Any) => num(c.high) === maxHigh).time).toISOString());
    const price = num(data('profile', {}, id).price);
    assertClose(perf.fromAthPercent, (price / maxHigh - 1) * 100, 'fromAth', 1e-6, 0.006);
    assert.ok(perf.fromAthPercent <= 0 && perf.fromAtlPercent >= 0);
  }
});

// ---------------------------------------------------------------- lists
test('markets list: paging, sorting, filters, meta, EUR', () => {
  const r = call('markets', { offset: '500', limit: '100' });
  assert.deepEqual(r.meta, { page: 6, pageSize: 100, hasNextPage: true });
  const lastPage = call('markets', { offset: String(traded.length - 10), limit: '100' });
  assert.equal((lastPage.meta as Any).hasNextPage, false);
  assert.equal((lastPage.data as Any[]).length, 10);
  const byVol = data('markets', { sortBy: 'volume24h', sortOrder: 'desc', limit: '50' });
  for (let i = 1; i < byVol.length; i++) assert.ok(num(byVol[i - 1].volume24h) >= num(byVol[i].volume24h));
  const byCh = data('markets', { sortBy: 'change24h', limit: '50' });
  for (let i = 1; i < byCh.length; i++) assert.ok(byCh[i - 1].percentChange.h24 <= byCh[i].percentChange.h24);
  const memes = data('markets', { category: '17', limit: '250' });
  assert.ok(memes.length > 0 && memes.every((x: Any) => x.categoryId === 17));
  const tagged = data('markets', { tag: String(memes[0].tags[0]?.id ?? 130), limit: '250' });
  assert.ok(tagged.every((x: Any) => x.tags.some((t: Any) => t.id === (memes[0].tags[0]?.id ?? 130))));
  const eco = data('markets', { ecosystem: '502', limit: '250' });
  assert.ok(eco.length > 0 && eco.every((x: Any) => x.ecosystems.some((e: Any) => e.id === 502)));
  const upcoming = data('markets', { lifecycle: 'upcoming', limit: '250' });
  assert.ok(upcoming.length > 0 && upcoming.every((x: Any) => !x.isTraded));
  const eur = data('markets', { convert: 'EUR', limit: '5' });
  const usd = traded.slice(0, 5);
  const rate = num(eur[0].price) / num(usd[0].price);
  eur.forEach((x: Any, i: number) => assertClose(num(x.marketCap) / num(usd[i].marketCap), rate, 'EUR market cap', 1e-6));
  for (const x of traded.slice(0, 300)) assertClose(num(x.marketCap), num(x.price) * num(x.circulatingSupply), `${x.slug} marketCap`, 1e-6);
  const list = call('currencyList', { page: '2' });
  assert.deepEqual(list.meta, { page: 2, pageSize: 100, hasNextPage: true });
  assert.equal((list.data as Any[])[0].rank, 101);
  assert.throws(() => call('currencyList', { currencyIds: '1,999999' }), NotFoundError);
});

test('fiat list: USD per unit, EUR at the rate convert=EUR uses that day; ISO codes, positive prices', () => {
  const list = data('fiatList');
  const codes = list.map((f: Any) => f.symbol);
  assert.equal(new Set(codes).size, codes.length, 'one item per code');
  for (const f of list) {
    assert.match(f.symbol, /^[A-Z]{3}$/);
    assert.ok(num(f.price) > 0, `${f.symbol} price`);
  }
  assert.equal(list.find((f: Any) => f.symbol === 'USD').price, '1');
  const usdPerEur = num(list.find((f: Any) => f.symbol === 'EUR').price);
  const eur = data('markets', { convert: 'EUR', limit: '5' });
  // A USD price divided by the list's USD-per-euro is the API's own EUR price (both rounded to 10+ digits).
  eur.forEach((x: Any, i: number) => assertClose(num(traded[i].price) / usdPerEur, num(x.price), `${x.slug} in EUR`, 1e-8));
  // The rate is the day's: the same all day, another the next day.
  assert.deepEqual(data('fiatList', {}, undefined, TODAY + 1), list);
  assert.notDeepEqual(data('fiatList', {}, undefined, TODAY + DAY + 1), list);
});

test('gainers/losers and trending agree with the markets list', () => {
  for (const [period, key] of [['24h', 'h24'], ['7d', 'd7'], ['30d', 'd30']]) {
    const gainers = data('gainersLosers', { period, limit: '30' });
    assert.equal(gainers.length, 30);
    for (let i = 0; i < gainers.length; i++) {
      assert.equal(gainers[i].pricePercentChange, item(gainers[i].id).percentChange[key]);
      assert.ok(gainers[i].pricePercentChange > 0);
      if (i) assert.ok(gainers[i - 1].pricePercentChange >= gainers[i].pricePercentChange);
    }
    const losers = data('gainersLosers', { period, type: 'losers' });
    assert.equal(losers.length, 20, 'default limit 20');
    for (let i = 1; i < losers.length; i++) assert.ok(losers[i - 1].pricePercentChange <= losers[i].pricePercentChange && losers[i].pricePercentChange < 0);
  }
  const tr = data('trending');
  assert.equal(tr.length, 20);
  tr.forEach((x: Any, i: number) => {
    assert.equal(x.rank, i + 1);
    assert.equal(x.price, item(x.id).price);
  });
});

// ---------------------------------------------------------------- supply
test('tokenomics, allocations, unlocks and VC pressure agree', () => {
  const t = data('tokenomics', {}, VESTED);
  assertClose(t.totalUnlockedPercent + t.totalLockedPercent + t.untrackedPercent, 100, 'unlocked+locked+untracked', 0, 0.001);
  assertClose(num(t.totalUnlockedAmount) + num(t.totalLockedAmount) + num(t.untrackedAmount), num(t.totalSupply), 'amounts', 1e-9);
  assertClose(num(t.circulatingSupply), num(t.totalUnlockedAmount) + num(t.untrackedAmount), 'circulating = unlocked + untracked', 1e-9);
  const first = unlocks365.filter((u) => u.id === VESTED).sort((a, b) => a.time - b.time)[0];
  assert.equal(t.nextUnlockDate, new Date(first.time).toISOString());
  assert.equal(t.nextUnlockTokenAmount, first.unlockTokens);
  assert.equal(t.nextUnlockValue, first.unlockValue);
  assert.equal(t.nextUnlockPercentOfMcap, first.percentOfMcap);
  assert.equal(t.nextUnlockPercentOfSupply, first.percentOfSupply);
  const price = num(item(VESTED).price);
  assert.equal(num(first.unlockValue), Math.round(num(first.unlockTokens) * price));
  for (const u of unlocks365) {
    assert.ok(u.time > TODAY && u.time <= TODAY + 365 * DAY && u.time % DAY === 0);
    assert.match(u.unlockValue, /^\d+$/);
  }
  for (let i = 1; i < unlocks365.length; i++) assert.ok(unlocks365[i - 1].time <= unlocks365[i].time);
  // The 200-a-request list: the same unlocks, window and filters [doc].
  const wide = data('tokenUnlocks', { daysAhead: '365', offset: '0', limit: '200' });
  assert.deepEqual(wide, unlocks365.slice(0, 200));
  const page = call('upcomingUnlocks', { daysAhead: '365', page: '2' });
  assert.deepEqual(page.meta, { page: 2, pageSize: 25, hasNextPage: unlocks365.length > 50 });
  const big = data('upcomingUnlocks', { daysAhead: '365', minUsdAmount: '1000000', sortBy: 'usdAmount', sortOrder: 'desc' });
  for (let i = 0; i < big.length; i++) {
    assert.ok(num(big[i].unlockValue) >= 1e6);
    if (i) assert.ok(num(big[i - 1].unlockValue) >= num(big[i].unlockValue));
  }
  assert.deepEqual(data('tokenUnlocks', { daysAhead: '365', minUsdAmount: '1000000', sortBy: 'usdAmount', sortOrder: 'desc', limit: '25' }), big);
  const allocs = data('vestingAllocations', { includeUntracked: 'true' }, VESTED);
  const tracked = data('vestingAllocations', {}, VESTED);
  assert.ok(allocs.some((a: Any) => !a.isTracked) && tracked.every((a: Any) => a.isTracked));
  assertClose(allocs.reduce((s: number, a: Any) => s + num(a.totalAmount), 0), num(t.totalSupply), 'allocations sum to total', 1e-9);
  assertClose(tracked.reduce((s: number, a: Any) => s + a.groupDominance, 0), 100, 'groupDominance', 0, 0.01);
  assertClose(tracked.reduce((s: number, a: Any) => s + num(a.lockedAmount), 0), num(t.totalLockedAmount), 'locked amounts', 1e-9);
  for (const a of tracked) {
    assertClose(num(a.unlockedAmount) + num(a.lockedAmount), num(a.totalAmount), `${a.allocationName} unlocked + locked`, 1e-9);
    assert.ok(['linear', 'nonlinear', 'dynamic'].includes(a.vestingType), a.vestingType);
    if (a.nextUnlockTokenAmount !== null) assert.equal(num(a.nextUnlockUsdAmount), Math.round(num(a.nextUnlockTokenAmount) * price));
  }
  const next = tracked.map((a: Any) => a.nextUnlockDate).filter(Boolean).sort()[0];
  assert.equal(next, t.nextUnlockDate);
  const vc = data('vcPressure', {}, VESTED);
  assert.ok(['low', 'moderate', 'high', 'very-high'].includes(vc.dumpPressure));
  assert.equal(vc.circulatingSupply, t.circulatingSupply);
  assert.equal(vc.priceChangePercent24h, item(VESTED).percentChange.h24);
  const none = data('tokenomics', {}, BTC);
  assert.deepEqual(none.vestingSourceUrls, []);
  assert.equal(none.nextUnlockDate, null);
  assert.deepEqual(data('vestingAllocations', {}, BTC), []);
  assert.throws(() => call('vcPressure', {}, BTC), NotFoundError);
  assert.throws(() => call('tokenomics', {}, 999999), NotFoundError);
});

test('holders: buckets sum to 100, top100Share = top-100 holders, tiers in order', () => {
  const s = data('holdersSummary', {}, HOLDER_COIN);
  assert.deepEqual(s.concentration.map((b: Any) => b.bucket), [...HOLDER_BUCKETS]);
  assertClose(s.concentration.reduce((a: number, b: Any) => a + b.percentOfSupply, 0), 100, 'buckets sum', 0, 1e-9);
  assertClose(s.concentration.slice(0, 5).reduce((a: number, b: Any) => a + b.percentOfSupply, 0), s.top100Share, 'top100Share', 0, 1e-9);
  const page1 = call('holders', {}, HOLDER_COIN);
  const holders = page1.data as Any[];
  assert.equal(holders.length, 100);
  assertClose(holders.reduce((a, h) => a + h.percentOfSupply, 0), s.top100Share, 'top-100 holders', 0, 1e-9);
  holders.forEach((h, i) => {
    assert.equal(h.rank, i + 1);
    if (i) assert.ok(holders[i - 1].percentOfSupply >= h.percentOfSupply);
  });
  assert.equal((page1.meta as Any).blockchainId, s.blockchainId);
  assert.deepEqual(s.tierDistribution.map((t: Any) => t.tier), [...HOLDER_TIERS]);
  assertClose(s.tierDistribution.reduce((a: number, t: Any) => a + t.holdersCount, 0), s.holdersCount, 'tier counts', 0, 0);
  assertClose(s.walletsShare + s.contractsShare, 100, 'wallets + contracts', 0, 1e-9);
  const none = data('holdersSummary', {}, BTC);
  assert.deepEqual([none.concentration, none.tierDistribution, none.holdersCount, none.top100Share], [[], [], null, null]);
});

// ---------------------------------------------------------------- global
test('global market, dominance and indices agree with the coins', () => {
  const g = data('globalMarket');
  const ranked = traded.filter((x) => x.rank !== null);
  assertClose(num(g.totalMarketCap), ranked.reduce((a, x) => a + num(x.marketCap), 0), 'total = sum of ranked coins', 1e-9, 0.01 * ranked.length);
  assert.equal(g.btcMarketCap, item(BTC).marketCap);
  assert.equal(g.ethMarketCap, item(ETH).marketCap);
  const snapshot = data('dominance');
  const share = (id: number) => Math.round((num(item(id).marketCap) / num(g.totalMarketCap)) * 10000) / 100;
  assert.equal(snapshot.btcDominance, share(BTC));
  assert.equal(snapshot.ethDominance, share(ETH));
  assertClose(snapshot.othersDominance, 100 - snapshot.btcDominance - snapshot.ethDominance, 'others', 0, 0.0051);
  const chart = (group: string, from = NOW - 10 * DAY) => data('dominanceChart', { group, from: String(from), to: String(NOW + 10 * DAY) });
  const btc = chart('btc');
  assert.equal(btc.length, 11, 'to is clamped to now');
  assert.equal(btc[10].dominance, snapshot.btcDominance);
  assert.equal(btc[10].time, TODAY);
  assert.equal(chart('usdt').at(-1).dominance, share(USDT));
  assert.equal(chart('others').at(-1).dominance, snapshot.othersDominance);
  const yesterday = btc[9].dominance;
  assertClose(snapshot.btcDominanceChangePercent24h, (snapshot.btcDominance / yesterday - 1) * 100, '24 h change of BTC dominance', 0, 0.0051);
  for (const p of data('fearGreedChart', { from: '2024-01-01' })) {
    assert.ok(Number.isInteger(p.value) && p.value >= 0 && p.value <= 100);
    const band = p.value <= 25 ? 'Extreme Fear' : p.value <= 45 ? 'Fear' : p.value <= 55 ? 'Neutral' : p.value <= 75 ? 'Greed' : 'Extreme Greed';
    assert.equal(p.classification, band);
    assert.equal(p.time % DAY, 0);
  }
  assert.ok(FEAR_GREED_BANDS.length === 5 && ALTCOIN_SEASON_BANDS.length === 3);
  const alt = data('altcoinIndexChart', { from: String(NOW - 200 * DAY) });
  for (const p of alt) {
    assert.ok(Number.isInteger(p.value));
    assert.equal(p.classification, p.value <= 25 ? 'Bitcoin Season' : p.value <= 74 ? 'Neutral' : 'Altcoin Season');
  }
  const altNow = data('altcoinIndex');
  assert.deepEqual([altNow.currentValue, altNow.classification], [alt.at(-1).value, alt.at(-1).classification]);
  assert.deepEqual([altNow.yesterdayValue, altNow.lastWeekValue, altNow.lastMonthValue], [alt.at(-2).value, alt.at(-8).value, alt.at(-31).value]);
  const year = data('altcoinIndexChart', { from: String(NOW - 364 * DAY) });
  const high = Math.max(...year.map((p: Any) => p.value));
  const low = Math.min(...year.map((p: Any) => p.value));
  assert.deepEqual([altNow.yearlyHighValue, altNow.yearlyLowValue], [high, low]);
  assert.equal(Date.parse(altNow.yearlyHighDate), year.find((p: Any) => p.value === high).time, 'the first day at the high');
  const fg = data('fearGreedChart', { from: String(NOW) }).at(-1);
  assert.deepEqual(data('fearGreed'), { currentValue: fg.value, classification: fg.classification });
  assert.throws(() => call('fearGreedChart', { from: '2025-02-01', to: '2025-01-01' }), InvalidRequestError);
  const d = data('derivatives');
  assertClose(d.perpetualShare + d.futuresShare, 100, 'derivative shares', 0, 1e-9);
});

test('blockchains: market cap = sum of their home coins; TVL change agrees with the chart', () => {
  const list = data('blockchainList');
  assert.ok(list.length >= 20);
  const home = new Map<number, number>();
  const nativeOf = new Map<number, number>(list.filter((c: Any) => c.nativeCurrencyId !== null).map((c: Any) => [c.nativeCurrencyId, c.id]));
  for (const x of traded) {
    if (x.rank === null) continue;
    const chain = nativeOf.get(x.id) ?? data('contracts', {}, x.id)[0]?.blockchainId;
    if (chain !== undefined) home.set(chain, (home.get(chain) ?? 0) + num(x.marketCap));
  }
  for (const c of list) assertClose(num(c.marketCap), home.get(c.id) ?? 0, `${c.slug} market cap`, 1e-9, 0.01 * traded.length);
  assertClose(list.reduce((a: number, c: Any) => a + c.marketCapDominance, 0), 100, 'dominance over chains', 0, 0.2);
  assert.equal(list[0].slug, 'bitcoin');
  const eth = data('blockchain', {}, 2);
  assert.equal(eth.marketCap, list.find((c: Any) => c.id === 2).marketCap);
  assert.throws(() => call('blockchain', {}, 9999), NotFoundError);
  const chart = data('tvlChart', { from: String(NOW - 40 * DAY) }, 2);
  assert.equal(chart.length, 41);
  const last = chart.at(-1);
  for (const [period, back] of [['1d', 1], ['7d', 7], ['30d', 30]] as [string, number][]) {
    const ch = data('tvlChange', { period }, 2).tvlChange;
    assertClose(ch, (num(last.tvl) / num(chart.at(-1 - back).tvl) - 1) * 100, `tvl change ${period}`, 1e-6, 1e-4);
  }
  const other = data('tvlChart', { from: String(NOW - 40 * DAY) }, 7);
  assertClose(num(last.totalTvl), num(other.at(-1).totalTvl), 'totalTvl is the same for every chain', 0, 0);
  assert.equal(data('tvlChart', {}, 2).length, 31, 'default from = 30 days before to');
});

// ---------------------------------------------------------------- speed
test('a 250-item markets page takes well under 20 ms', () => {
  for (let i = 0; i < 3; i++) call('markets', { limit: '250', offset: String(i * 250) });
  const N = 20;
  t0 = performance.now();
  for (let i = 0; i < N; i++) call('markets', { limit: '250', offset: String((i % 6) * 250), sortBy: i % 2 ? 'marketCap' : 'rank' });
  const mean = (performance.now() - t0) / N;
  console.log(`markets page of 250: ${mean.toFixed(2)} ms mean over ${N} calls; createMarket ${createMs.toFixed(0)} ms; heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
  assert.ok(mean < 20, `mean ${mean} ms`);
});
