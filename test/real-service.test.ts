/**
 * Issue #21: a free key works against the real service. The live Sandbox
 * /v3/status lists 20 paths and not /v3/currencies/markets, which the key is
 * served all the same (the provider's saved live answers; api-notes "Round
 * two"): the plan's list is a hint, and PRICE, QUOTE and MARKETS must not be
 * refused by it. Played by the hostile server in front of the local API
 * server, over real HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ENDPOINTS } from '../src/api/endpoints';
import { calculate } from '../src/cli/calculate';
import { openSession, type Session } from '../src/cli/session';
import { startEmulator, type Emulator } from '../src/emulator/server';
import { startHostileServer, type HostileServer } from '../harness/hostile-server';

let em: Emulator;
let hostile: HostileServer;
let s: Session;

/** A Sandbox list as the live one is made: Sandbox routes, without markets, status and ping. */
const LIVE_SANDBOX_PATHS = Object.values(ENDPOINTS)
  .filter((e) => e.plan === 'Sandbox')
  .map((e) => e.path)
  .filter((p) => !['/v3/currencies/markets', '/v3/status', '/v3/ping'].includes(p));

before(async () => {
  em = await startEmulator({ rpm: 5000 });
  hostile = await startHostileServer(em.url);
  hostile.play(async (r, up) => {
    if (r.url.split('?')[0] !== '/v3/status') return null;
    const real = JSON.parse((await up()).text) as { data?: { endpoints?: string[] }; endpoints?: string[] };
    (real.data ?? real).endpoints = LIVE_SANDBOX_PATHS; // enveloped or not, as the dialect answers
    return { status: 200, body: JSON.stringify(real), headers: { 'content-type': 'application/json' } };
  });
  s = await openSession({ apiUrl: hostile.url, key: 'demo-sandbox' });
});

after(async () => {
  await s?.close();
  await hostile?.close();
  await em?.close();
});

test('a Sandbox key whose /v3/status lists no markets route gets PRICE, QUOTE and MARKETS(20)', async () => {
  assert.ok(!LIVE_SANDBOX_PATHS.includes('/v3/currencies/markets') && LIVE_SANDBOX_PATHS.length > 10);
  // The plan first, as a workbook that opened the pane has it: every request below is judged by it.
  const plan = await s.client.status({});
  assert.deepEqual(plan.endpoints, LIVE_SANDBOX_PATHS, 'the live-shaped list was read');
  const price = await calculate(s.host, '=CRYPTO.PRICE("bitcoin")');
  assert.ok('value' in price && typeof price.value[0][0] === 'number', `PRICE: ${JSON.stringify(price)}`);
  const quote = await calculate(s.host, '=CRYPTO.QUOTE("ethereum","price,marketCap")');
  assert.ok('value' in quote && quote.value.flat().filter((c) => typeof c === 'number').length >= 2, `QUOTE: ${JSON.stringify(quote).slice(0, 300)}`);
  const markets = await calculate(s.host, '=CRYPTO.MARKETS(20,"marketCap","desc")');
  assert.ok('value' in markets && markets.value.length >= 20, `MARKETS: ${JSON.stringify(markets).slice(0, 300)}`);
});

test('the endpoint table still refuses locally what the plan cannot have (no request), with the plan named', async () => {
  const before = hostile.seen.length;
  const ohlcv = await calculate(s.host, '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-05")');
  assert.ok('error' in ohlcv, JSON.stringify(ohlcv));
  assert.match(ohlcv.message, /needs the Advanced plan or higher/);
  assert.equal(hostile.seen.filter((r) => r.url.includes('/ohlcv')).length, 0, 'not sent');
  assert.ok(hostile.seen.length - before <= 1);
});

for (const [what, answer] of [
  ['answers 404 in the live wording', { status: 404, body: JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Cannot GET /v3/currencies/markets?limit=250', status: 404 } }) }],
  ['is refused (403 ENDPOINT_NOT_AVAILABLE)', { status: 403, body: JSON.stringify({ error: { code: 'ENDPOINT_NOT_AVAILABLE', message: 'Not available on your plan' } }) }],
] as const) {
  test(`when the markets route ${what}, PRICE and QUOTE come from /v3/currencies/list, 100 coins a request`, async () => {
    const h = await startHostileServer(em.url);
    h.play((r) => (r.url.split('?')[0] === '/v3/currencies/markets' ? { ...answer, headers: { 'content-type': 'application/json' } } : null));
    const t = await openSession({ apiUrl: h.url, key: 'demo-sandbox' });
    try {
      // By id and by slug: one request all the same.
      const [btc, eth, sol] = await Promise.all(['1', '"ethereum"', '"solana"'].map((c) => calculate(t.host, `=CRYPTO.PRICE(${c})`)));
      for (const out of [btc, eth, sol]) assert.ok('value' in out && typeof out.value[0][0] === 'number' && out.value[0][0] > 0, `PRICE: ${JSON.stringify(out)}`);
      // The same figure the markets list gives (the local API server's one market).
      const direct = await calculate(s.host, '=CRYPTO.PRICE("bitcoin")');
      assert.ok('value' in direct && 'value' in btc);
      assert.ok(Math.abs((direct.value[0][0] as number) / (btc.value[0][0] as number) - 1) < 1e-9, 'the same price');
      const lists = h.seen.filter((r) => r.url.startsWith('/v3/currencies/list'));
      assert.equal(lists.length, 1, `one list request for the three coins: ${lists.map((r) => r.url).join(' ')}`);
      assert.match(lists[0].url, /currencyIds=/);
      const markets = h.seen.filter((r) => r.url.startsWith('/v3/currencies/markets')).length;
      // Later cells do not ask the markets route again.
      const quote = await calculate(t.host, '=CRYPTO.QUOTE("cardano","price,marketCap,percentChange.d7")');
      assert.ok('value' in quote, JSON.stringify(quote));
      const cells = quote.value.flat();
      assert.ok(cells.some((c) => typeof c === 'number'), `price and market cap: ${JSON.stringify(quote.value)}`);
      const d7 = cells.at(-1) as { error?: string; message?: string };
      assert.equal(d7.error, '#N/A', `a field the list does not carry is #N/A, not empty: ${JSON.stringify(d7)}`);
      assert.match(d7.message ?? '', /No percentChange\.d7 in the list of currencies/);
      assert.equal(h.seen.filter((r) => r.url.startsWith('/v3/currencies/markets')).length, markets, 'the markets route is not asked again');

      // An ambiguous symbol is settled by the candidates' ranks from the list of currencies.
      const listsBefore = h.seen.filter((r) => r.url.startsWith('/v3/currencies/list')).length;
      assert.equal((await t.client.resolveCoin('UNI')).slug, 'uniswap');
      const rankAsk = h.seen.filter((r) => r.url.startsWith('/v3/currencies/list')).slice(listsBefore);
      assert.equal(rankAsk.length, 1, 'one request for every candidate');
      assert.match(rankAsk[0].url, /currencyIds=\d+%2C\d+/);

      // MARKETS: the top 20 by rank from the list of currencies; the markets route is not asked again.
      const top = await calculate(t.host, '=CRYPTO.MARKETS(20,,,,,,,,FALSE,"rank,slug,price,percentChange.d7")');
      assert.ok('value' in top, JSON.stringify(top).slice(0, 300));
      assert.equal(top.value.length, 20);
      assert.deepEqual(top.value.map((r) => r[0]), Array.from({ length: 20 }, (_, i) => i + 1), 'by rank');
      assert.ok(top.value.every((r) => typeof r[2] === 'number' && r[2] > 0), 'prices');
      assert.ok(top.value.every((r) => (r[3] as { error?: string }).error === '#N/A'), 'the 7-day change the list lacks, named');
      const byMarkets = await calculate(s.host, '=CRYPTO.MARKETS(20,,,,,,,,FALSE,"slug")');
      assert.ok('value' in byMarkets);
      assert.deepEqual(top.value.map((r) => r[1]), byMarkets.value.map((r) => r[0]), 'the same coins, in the same order, as the markets list gives');
      assert.equal(h.seen.filter((r) => r.url.startsWith('/v3/currencies/markets')).length, markets, 'the markets route is not asked again');
      // What the list cannot do is said, naming it.
      const sorted = await calculate(t.host, '=CRYPTO.MARKETS(20,"volume24h")');
      assert.ok('error' in sorted && sorted.error === '#N/A', JSON.stringify(sorted));
      assert.match(sorted.message, /by rank only, without sortBy: leave it out/);
      // Past the end of the list (a Sandbox key sees the top 100 [doc]; the local server's list is longer): a row says so.
      const many = await calculate(t.host, '=CRYPTO.MARKETS(5000,,,,,,,,FALSE,"slug")');
      assert.ok('value' in many, JSON.stringify(many).slice(0, 200));
      const last = many.value.at(-1)![0] as { error?: string; message?: string };
      assert.ok(many.value.length < 5000, `the local server lists fewer coins: ${many.value.length} rows`);
      assert.match(last.message ?? '', /ends after \d+ coins \(rows \d+ to 5000\)/);
    } finally {
      await t.close();
      await h.close();
    }
  });
}

test('a refusal of an endpoint the key\'s plan has by the table names no plan to upgrade to', async () => {
  const h = await startHostileServer(em.url);
  h.play((r) =>
    r.url.split('?')[0] === '/v3/global/dominance'
      ? { status: 403, body: JSON.stringify({ error: { code: 'ENDPOINT_NOT_AVAILABLE', message: 'Endpoint is not available in your plan', status: 403 } }), headers: { 'content-type': 'application/json' } }
      : null,
  );
  const t = await openSession({ apiUrl: h.url, key: 'demo-pro' });
  try {
    assert.equal((await t.client.status({})).plan, 'Pro', 'the plan is known first');
    const out = await calculate(t.host, '=CRYPTO.DOMINANCE("btc")');
    assert.ok('error' in out && out.error === '#N/A', JSON.stringify(out));
    assert.match(out.message, /not available in your plan/);
    assert.doesNotMatch(out.message, /needs the Basic plan/, 'a Pro key is not told to take Basic');
  } finally {
    await t.close();
    await h.close();
  }
});
