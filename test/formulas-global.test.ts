/**
 * TRENDING, GAINERS, LOSERS, GLOBAL, DERIVATIVES, FEARGREED, ALTSEASON,
 * DOMINANCE and CREDITS, evaluated as formula text through a calculation
 * session against the local API server (frozen clock: the data is the same
 * every run; the client sleeps by advancing that clock).
 *
 *   node --import tsx --test test/formulas-global.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FROZEN_NOW, frozenSession, keyedFrozenSessions } from './support/frozen-session';
import type { JsonCell } from '../src/cli/calculate';
import { col, formulaChecks } from './support/formula-checks';
import { fromSerial, toSerial } from '../src/formulas/cells';
import { TEST_DIALECT } from './support/dialect';
import { TEST_WORKBOOK } from './support/workbook';
import { calculate } from '../src/cli/calculate';
import { loadFunctionMetadata } from '../src/cli/metadata';
import { behindHostile } from './support/behind-hostile';

const NOW = FROZEN_NOW;
const DAY = 86_400_000;
const TODAY = Math.floor(NOW / DAY) * DAY;


const sessions = keyedFrozenSessions();
/** A Pro session behind a hostile server (support/behind-hostile.ts, which closes all it opened), on the emulator's frozen instant. */
const HOSTILE_SESSION = { emulator: { rpm: 2000 }, workbook: TEST_WORKBOOK, key: 'demo-pro', client: { now: () => NOW } };

const { grid, num, failure } = formulaChecks(() => sessions.pro);
const fieldMap = (g: JsonCell[][]) => new Map(g.slice(1).map((r) => [r[0] as string, r[1]]));

const FG_BANDS: [number, string][] = [[25, 'Extreme Fear'], [45, 'Fear'], [55, 'Neutral'], [75, 'Greed'], [100, 'Extreme Greed']];
const ALT_BANDS: [number, string][] = [[25, 'Bitcoin Season'], [74, 'Neutral'], [100, 'Altcoin Season']];
const band = (bands: [number, string][], v: number) => bands.find(([max]) => v <= max)![1];

/** GAINERS'/LOSERS' columns over `period`; TRENDING's first is "Trending #" and its change 24h. */
const moverHeaders = (first: string, period: string) =>
  [first, 'Name', 'Symbol', 'Price', `Change ${period} %`, 'Market cap', 'Volume 24h', 'Category', 'Slug', 'Id'];
const MOVER_HEADERS = moverHeaders('Rank', '24h');
const TRENDING_HEADERS = moverHeaders('Trending #', '24h');

/** Daily chart rows: Date serials one day apart, starting at `from` (ms), ending today. */
function assertDaily(g: JsonCell[][], from: number, to: number): void {
  const dates = col(g, 'Date') as number[];
  assert.ok(dates.length > 0);
  assert.equal(dates[0], toSerial(from), 'first point on the start day');
  dates.forEach((d, i) => i > 0 && assert.equal(d - dates[i - 1], 1, 'one point per day'));
  assert.equal(dates[dates.length - 1], toSerial(to), 'last point on the end day');
}

describe('TRENDING', () => {
  test('a ranked table of coins with numbers where numbers belong', async () => {
    const g = await grid('=CRYPTO.TRENDING()');
    assert.deepEqual(g[0], TRENDING_HEADERS);
    assert.ok(g.length > 5, 'some trending coins');
    assert.deepEqual(col(g, 'Trending #'), g.slice(1).map((_, i) => i + 1), 'places 1..n in order');
    for (const r of g.slice(1)) {
      assert.equal(typeof r[1], 'string');
      assert.ok(typeof r[3] === 'number' && r[3] > 0, 'price');
      assert.ok(typeof r[5] === 'number' || r[5] === '', 'market cap or empty');
      assert.ok(!r.includes(null as unknown as JsonCell), 'no nulls');
    }
    const bare = await grid('=CRYPTO.TRENDING(0)');
    assert.deepEqual(bare, g.slice(1), 'headers=0 drops only the header row');
  });
  test('its price agrees with PRICE', async () => {
    const g = await grid('=CRYPTO.TRENDING()');
    const [, name, , price] = g[1];
    const p = await num(`=CRYPTO.PRICE("${name}")`);
    assert.ok(Math.abs(p - (price as number)) / p < 1e-9, `${name}: ${p} vs ${price}`);
  });
  test('"Trending #" is the place in the list, not the market-cap rank; Slug and Id name the coin for other formulas (review-r3 #4, #13)', async () => {
    const g = await grid('=CRYPTO.TRENDING()');
    const [slug, id] = [col(g, 'Slug'), col(g, 'Id')];
    const ranks = await Promise.all(slug.map((s) => grid(`=CRYPTO.PROFILE("${s}","rank")`)));
    assert.ok(ranks.some(([[r]], i) => r !== i + 1), `market-cap ranks ${ranks.map(([[r]]) => r)} are not the places`);
    for (let i = 0; i < 3; i++) {
      assert.equal(await num(`=CRYPTO.PROFILE("${slug[i]}","id")`), id[i], `${slug[i]}: its id`);
      assert.equal(await num(`=CRYPTO.PRICE(${id[i]})`), g[i + 1][3], `PRICE by the Id column is the row's price`);
    }
  });
});

describe('GAINERS and LOSERS', () => {
  test('count rows, sorted by change, gainers above losers', async () => {
    const up = await grid('=CRYPTO.GAINERS("24h",7)');
    const down = await grid('=CRYPTO.LOSERS(,7)');
    assert.deepEqual(up[0], MOVER_HEADERS);
    assert.equal(up.length, 8);
    assert.equal(down.length, 8);
    const cu = col(up, 'Change 24h %') as number[];
    const cd = col(down, 'Change 24h %') as number[];
    assert.deepEqual([...cu].sort((a, b) => b - a), cu, 'gainers: largest first');
    assert.deepEqual([...cd].sort((a, b) => a - b), cd, 'losers: smallest first');
    assert.ok(cu.every((x) => x > 0) && cd.every((x) => x < 0));
    assert.ok(Math.min(...cu) > Math.max(...cd));
  });
  test('the change is the period asked for: 24h agrees with QUOTE, 7d with QUOTE percentChange.d7', async () => {
    const d1 = await grid('=CRYPTO.GAINERS(,3,0)');
    const d7 = await grid('=CRYPTO.GAINERS("7d",3,0)');
    const q1 = await grid(`=CRYPTO.QUOTE("${d1[0][1]}","percentChange.h24",,0)`);
    const q7 = await grid(`=CRYPTO.QUOTE("${d7[0][1]}","percentChange.d7",,0)`);
    assert.ok(Math.abs((q1[0][1] as number) - (d1[0][4] as number)) < 1e-3, `24h ${q1[0][1]} vs ${d1[0][4]}`);
    assert.ok(Math.abs((q7[0][1] as number) - (d7[0][4] as number)) < 1e-3, `7d ${q7[0][1]} vs ${d7[0][4]}`);
    assert.notDeepEqual(d1.map((r) => r[1]), d7.map((r) => r[1]), '7d leaders differ from 24h leaders');
  });
  test('the change header names its period; Rank is the market-cap rank; Slug and Id come last (review-r3 #4, #13)', async () => {
    assert.deepEqual((await grid('=CRYPTO.LOSERS("7d",2)'))[0], moverHeaders('Rank', '7d'));
    assert.deepEqual((await grid('=CRYPTO.GAINERS("monthly",2)'))[0], moverHeaders('Rank', '30d'));
    const g = await grid('=CRYPTO.GAINERS(,3)');
    for (const r of g.slice(1)) {
      const [rank, , , price, , , , , slug, id] = r;
      assert.equal(await num(`=CRYPTO.PROFILE("${slug}","rank")`), rank, `${slug}: Rank is its market-cap rank`);
      assert.equal(await num(`=CRYPTO.PROFILE("${slug}","id")`), id, `${slug}: its id`);
      assert.ok(Math.abs((await num(`=CRYPTO.PRICE(${id})`)) - (price as number)) / (price as number) < 1e-9, `${slug}: PRICE by id`);
    }
  });
  test('bad period or count: #VALUE! naming what is allowed', async () => {
    const p = await failure('=CRYPTO.GAINERS("1h")');
    assert.equal(p.error, '#VALUE!');
    assert.match(p.message, /"24h".*"7d".*"30d"/);
    const c = await failure('=CRYPTO.LOSERS("7d",101)');
    assert.equal(c.error, '#VALUE!');
    assert.match(c.message, /count must be a whole number from 1 to 100/);
  });
  test('the help says which coins they rank and that their money is USD (review-r3 #14)', async () => {
    const meta = await loadFunctionMetadata();
    for (const id of ['GAINERS', 'LOSERS']) {
      const d = meta.find((f) => f.id === id)!.description;
      assert.match(d, /as the service lists them: its own choice of coins .* not the whole market; MARKETS\(n,"change24h"/, id);
      assert.match(d, /in USD/, id);
    }
  });
  test('Sandbox key: #N/A naming the Basic plan', async () => {
    const e = await failure('=CRYPTO.GAINERS()', sessions.sandbox);
    assert.equal(e.error, '#N/A');
    assert.match(e.message, /GAINERS needs the Basic plan/);
  });
});

describe('GLOBAL and DERIVATIVES', () => {
  test('one field is a number; no field is the whole Field/Value table, same values', async () => {
    const g = await grid('=CRYPTO.GLOBAL()');
    assert.deepEqual(g[0], ['Field', 'Value']);
    const f = fieldMap(g);
    assert.deepEqual([...f.keys()], [
      'totalMarketCap', 'totalVolume24h', 'btcMarketCap', 'ethMarketCap', 'activeCurrencies', 'activeTickers', 'activeExchanges',
      'marketCapChangePercent24h',
    ]);
    for (const v of f.values()) assert.equal(typeof v, 'number');
    assert.equal(await num('=CRYPTO.GLOBAL("totalMarketCap")'), f.get('totalMarketCap'));
    assert.equal(await num('=CRYPTO.GLOBAL("ACTIVEEXCHANGES")'), f.get('activeExchanges'), 'field names are case-insensitive');
    assert.ok((f.get('btcMarketCap') as number) < (f.get('totalMarketCap') as number));
    assert.ok((f.get('ethMarketCap') as number) < (f.get('btcMarketCap') as number));
  });
  test('btcMarketCap / totalMarketCap x 100 is DOMINANCE("btc"), and eth likewise', async () => {
    const total = await num('=CRYPTO.GLOBAL("totalMarketCap")');
    const btc = await num('=CRYPTO.GLOBAL("btcMarketCap")');
    const eth = await num('=CRYPTO.GLOBAL("ethMarketCap")');
    assert.ok(Math.abs((btc / total) * 100 - (await num('=CRYPTO.DOMINANCE()'))) <= 0.011);
    assert.ok(Math.abs((eth / total) * 100 - (await num('=CRYPTO.DOMINANCE("ETH")'))) <= 0.011);
  });
  test('unknown field: #VALUE! listing the fields', async () => {
    const e = await failure('=CRYPTO.GLOBAL("marketCap")');
    assert.equal(e.error, '#VALUE!');
    assert.match(e.message, /totalMarketCap, totalVolume24h/);
  });
  test('DERIVATIVES: shares add up to 100; Advanced plan', async () => {
    const g = await grid('=CRYPTO.DERIVATIVES()');
    const f = fieldMap(g);
    assert.equal(f.size, 5);
    assert.ok(Math.abs((f.get('perpetualShare') as number) + (f.get('futuresShare') as number) - 100) < 0.011);
    assert.ok((await num('=CRYPTO.DERIVATIVES("totalOpenInterest")')) > 0);
    const e = await failure('=CRYPTO.DERIVATIVES()', sessions.sandbox);
    assert.match(e.message, /needs the Advanced plan/);
  });
  test('no key: #N/A saying where to add one', async () => {
    const e = await failure('=CRYPTO.GLOBAL("totalMarketCap")', sessions.nokey);
    assert.equal(e.error, '#N/A');
    assert.match(e.message, /No API key.*add your key/);
  });
});

describe('argument-position slips (review-r3 #8)', () => {
  /** The #VALUE! of `formula`: its message. */
  const slip = async (formula: string) => {
    const e = await failure(formula);
    assert.equal(e.error, '#VALUE!', formula);
    return e.message;
  };
  test('a value another parameter takes: the message keeps its "must be" and gives the formula written that way', async () => {
    // period has a custom enum, so it is typed string: the 10 arrives as "10", and is written back as the number typed.
    assert.equal(await slip('=CRYPTO.GAINERS(10)'), 'period must be "24h" (default), "7d" or "30d"; got "10"; count is the 2nd argument: =CRYPTO.GAINERS(,10)');
    assert.match(await slip('=CRYPTO.LOSERS(10,"7d")'), /; count is the 2nd argument: =CRYPTO\.LOSERS\("7d",10\)$/, 'swapped, nothing typed is lost');
    assert.match(await slip('=CRYPTO.GAINERS("7d",TRUE)'), /^count must be .*; headers is the 3rd argument: =CRYPTO\.GAINERS\("7d",,TRUE\)$/);
    assert.match(await slip('=CRYPTO.LOSERS(,,"30d")'), /^headers must be .*; period is the 1st argument: =CRYPTO\.LOSERS\("30d"\)$/);
    assert.match(await slip('=CRYPTO.FEARGREED("classification")'), /^start must be .*; field is the 4th argument: =CRYPTO\.FEARGREED\(,,,"classification"\)$/);
    assert.match(await slip('=CRYPTO.ALTSEASON("all")'), /; field is the 4th argument: =CRYPTO\.ALTSEASON\(,,,"all"\)$/);
    assert.match(await slip('=CRYPTO.FEARGREED(,,,"30D")'), /^field must be one of: .*; start is the 1st argument: =CRYPTO\.FEARGREED\("30D"\)$/);
    assert.match(await slip('=CRYPTO.DOMINANCE("30D")'), /^asset must be .*; start is the 2nd argument: =CRYPTO\.DOMINANCE\(,"30D"\)$/);
    assert.match(await slip('=CRYPTO.DOMINANCE(,"eth")'), /^start must be .*; asset is the 1st argument: =CRYPTO\.DOMINANCE\("eth"\)$/);
    assert.match(await slip('=CRYPTO.DOMINANCE("30D","1Y")'), /; start is the 2nd argument$/, 'start is taken: where it goes, not a formula that drops a value');
    // The rewritten formulas work.
    assert.equal((await grid('=CRYPTO.GAINERS(,10)')).length, 11);
    assert.equal(typeof (await grid('=CRYPTO.FEARGREED(,,,"classification")'))[0][0], 'string');
    assert.ok((await grid('=CRYPTO.DOMINANCE(,"30D")')).length > 30);
  });
  test('TRENDING takes no period; a year typed as a number is a year as text; a value no parameter takes keeps the plain message', async () => {
    assert.equal(await slip('=CRYPTO.TRENDING("7d")'),
      'headers must be TRUE/FALSE or 1/0; got "7d"; TRENDING takes no period (its change is over 24h); GAINERS and LOSERS take one: =CRYPTO.GAINERS("7d")');
    assert.match(await slip('=CRYPTO.FEARGREED(2025)'), /^start must be a date from 1970 on; got 1905-07-17; for the year 2025, give it as text: "2025"$/);
    assert.equal(await slip('=CRYPTO.GAINERS("1h")'), 'period must be "24h" (default), "7d" or "30d"; got "1h"');
    assert.equal(await slip('=CRYPTO.TRENDING("x")'), 'headers must be TRUE/FALSE or 1/0; got "x"');
  });
  test('GLOBAL("all") and DERIVATIVES("all") are the Field/Value table, as FEARGREED\'s, ALTSEASON\'s and DOMINANCE\'s "all"', async () => {
    assert.deepEqual(await grid('=CRYPTO.GLOBAL("all")'), await grid('=CRYPTO.GLOBAL()'));
    assert.deepEqual(await grid('=CRYPTO.DERIVATIVES("ALL")'), await grid('=CRYPTO.DERIVATIVES()'));
  });
});

describe('a service that refuses a guessed parameter name (review-r3 #19)', () => {
  test('GAINERS sends limit only past the default list; DOMINANCE of another asset than BTC says the chart takes none, as #N/A', async () => {
    // The live answer to an unknown query parameter (api-notes: 400 VALIDATION_ERROR "property X should not exist").
    const REFUSE: Record<string, string> = { '/v3/currencies/gainers-losers': 'limit', '/v3/global/dominance/chart': 'group' };
    const b = await behindHostile((r) => {
      const u = new URL(r.url, 'http://x');
      const p = REFUSE[u.pathname];
      return p && u.searchParams.has(p)
        ? { status: 400, body: JSON.stringify({ error: { code: 'VALIDATION_ERROR', message: `property ${p} should not exist`, status: 400 } }) }
        : null;
    }, HOSTILE_SESSION);
    const { hostile: h, session: t } = b;
    try {
      // A count up to the default is the default list, cut here: the same rows the emulator gives for limit=n.
      const ten = await grid('=CRYPTO.GAINERS(,10)', t);
      assert.equal(ten.length, 11);
      assert.deepEqual(ten, await grid('=CRYPTO.GAINERS(,10)'), 'the same rows as where limit is taken');
      assert.equal((await grid('=CRYPTO.LOSERS("7d",5,0)', t)).length, 5);
      assert.ok(!h.seen.some((r) => /[?&]limit=/.test(r.url)), `no limit sent: ${h.seen.map((r) => r.url).join(' ')}`);
      const more = await failure('=CRYPTO.GAINERS(,50)', t);
      assert.deepEqual(more, { error: '#N/A', message: 'This service lists its top 20 gainers only (it refused a longer list); ask for 20 or fewer' });
      // Where the service takes limit, 50 is 50.
      assert.equal((await grid('=CRYPTO.GAINERS(,50,0)')).length, 50);

      const eth = await failure('=CRYPTO.DOMINANCE("eth","3D")', t);
      assert.deepEqual(eth, {
        error: '#N/A',
        message: 'This service\'s dominance chart does not take an asset (it refused the group parameter), so it has no ETH dominance history; ' +
          'Bitcoin\'s history and the current snapshot, =CRYPTO.DOMINANCE("all"), work',
      });
      assert.match((await failure('=CRYPTO.DOMINANCE("usdt")', t)).message, /no USDT dominance reading;/);
      // Refused once this session: not asked again (refused-guesses.ts), the same answer.
      const asked = (re: RegExp) => h.seen.filter((r) => re.test(r.url)).length;
      const groups = asked(/dominance\/chart\?.*group=/);
      assert.deepEqual(await failure('=CRYPTO.DOMINANCE("eth","7D")', t), { ...eth, message: eth.message });
      assert.equal(asked(/dominance\/chart\?.*group=/), groups, 'no chart asked with group again');
      const limits = asked(/[?&]limit=/);
      assert.deepEqual(await failure('=CRYPTO.GAINERS("7d",40)', t), { error: '#N/A', message: 'This service lists its top 20 gainers only (it refused a longer list); ask for 20 or fewer' });
      assert.equal(asked(/[?&]limit=/), limits, 'no list asked with limit again');
      assert.equal((await grid('=CRYPTO.DOMINANCE("btc","3D",,0)', t)).length, 4, 'BTC sends no group');
      assert.equal(await num('=CRYPTO.DOMINANCE("eth")', t), await num('=CRYPTO.DOMINANCE("eth")'), 'the current ETH value is the snapshot\'s');
    } finally {
      await b.close();
    }
  });
});

describe('a movers list shorter by default than the guess (endpoints.ts: default 20, a guess)', () => {
  test('asked again with limit; a service that refuses limit says how many it gives, never a silently shorter table', async () => {
    let refuseLimit = false;
    const b = await behindHostile(async (r, upstream) => {
      const u = new URL(r.url, 'http://x');
      if (u.pathname !== '/v3/currencies/gainers-losers') return null;
      if (u.searchParams.has('limit')) {
        return refuseLimit ? { status: 400, body: JSON.stringify({ error: { code: 'VALIDATION_ERROR', message: 'property limit should not exist', status: 400 } }) } : null;
      }
      const a = await upstream();
      const body = JSON.parse(a.text) as { data: unknown[] };
      return { status: a.status, body: JSON.stringify({ ...body, data: body.data.slice(0, 10) }) }; // a default list of 10
    }, HOSTILE_SESSION);
    const { hostile: h, session: t } = b;
    try {
      assert.equal((await grid('=CRYPTO.GAINERS(,15,0)', t)).length, 15, 'the default list of 10, then limit=15');
      assert.ok(h.seen.some((r) => /[?&]limit=15\b/.test(r.url)));
      assert.equal((await grid('=CRYPTO.GAINERS(,8,0)', t)).length, 8, 'within the default list: no second request needed');
      refuseLimit = true;
      assert.deepEqual(await failure('=CRYPTO.LOSERS(,15)', t), {
        error: '#N/A', message: 'This service lists its top 10 losers only (it refused a longer list); ask for 10 or fewer',
      });
      assert.match((await failure('=CRYPTO.LOSERS("7d",50)', t)).message, /its top 10 losers only/);
      assert.equal((await grid('=CRYPTO.LOSERS(,10,0)', t)).length, 10);
    } finally {
      await b.close();
    }
  });
});

describe('DOMINANCE("usdt") right after midnight (review-r3 #15)', () => {
  test('a chart without today\'s point yet: the current USDT reading is yesterday\'s, not #N/A', async () => {
    // The service has not published today's point (whether it has one at 00:01 is undocumented).
    const b = await behindHostile(async (r, upstream) => {
      if (!r.url.startsWith('/v3/global/dominance/chart')) return null;
      const u = await upstream();
      const body = JSON.parse(u.text) as { data: { time: number }[] };
      return { status: u.status, body: JSON.stringify({ ...body, data: body.data.filter((p) => p.time < TODAY) }) };
    }, HOSTILE_SESSION);
    const t = b.session;
    try {
      const yesterday = (await grid('=CRYPTO.DOMINANCE("usdt","1D",,0)')).at(-2)!;
      assert.equal(yesterday[0], toSerial(TODAY - DAY));
      assert.equal(await num('=CRYPTO.DOMINANCE("usdt")', t), yesterday[1]);
    } finally {
      await b.close();
    }
  });
});

describe('USD money in a workbook whose default currency is not USD (review-r3 #1)', () => {
  test('GAINERS, LOSERS, TRENDING, ALTSEASON and BLOCKCHAINS head their money columns "(USD)"; GLOBAL, DERIVATIVES and BLOCKCHAIN label those fields so; the numbers stay the USD ones', async () => {
    const eur = await frozenSession({ settings: { defaultCurrency: 'EUR' } });
    try {
      const money = new Set(['Price', 'Market cap', 'Volume 24h']);
      for (const f of ['=CRYPTO.GAINERS(,3)', '=CRYPTO.LOSERS(,3)', '=CRYPTO.TRENDING()']) {
        const [inEur, inUsd] = [await grid(f, eur), await grid(f)];
        const plain = f.includes('TRENDING') ? TRENDING_HEADERS : MOVER_HEADERS;
        assert.deepEqual(inEur[0], plain.map((h) => (money.has(h) ? `${h} (USD)` : h)), f);
        assert.deepEqual(inUsd[0], plain, `${f}: plain in a USD workbook`);
        assert.deepEqual(inEur.slice(1), inUsd.slice(1), `${f}: the same USD numbers`);
      }
      assert.equal((await grid('=CRYPTO.ALTSEASON("3D")', eur))[0][3], 'Altcoins market cap (USD)');
      assert.equal((await grid('=CRYPTO.BLOCKCHAINS()', eur))[0][4], 'Market cap (USD)');

      const global = await grid('=CRYPTO.GLOBAL()', eur);
      assert.deepEqual(global.slice(1).map((r) => r[0]), [
        'totalMarketCap (USD)', 'totalVolume24h (USD)', 'btcMarketCap (USD)', 'ethMarketCap (USD)', 'activeCurrencies', 'activeTickers', 'activeExchanges',
        'marketCapChangePercent24h',
      ]);
      const plain = await grid('=CRYPTO.GLOBAL()');
      assert.deepEqual(global.map((r) => r[1]), plain.map((r) => r[1]), 'the same numbers: USD');
      assert.equal(plain[1][0], 'totalMarketCap', 'plain in a USD workbook');
      // The one-field form keeps the plain name, and takes the label copied from the table (=GLOBAL(A2)).
      const total = await num('=CRYPTO.GLOBAL("totalMarketCap")', eur);
      assert.equal(total, plain[1][1]);
      assert.equal(await num('=CRYPTO.GLOBAL("totalMarketCap (USD)")', eur), total);
      assert.deepEqual((await grid('=CRYPTO.DERIVATIVES()', eur)).slice(1).map((r) => r[0]), [
        'totalOpenInterest (USD)', 'totalVolume24h (USD)', 'perpetualShare', 'futuresShare', 'activeDerivativesExchangesCount',
      ]);
      const chain = new Map((await grid('=CRYPTO.BLOCKCHAIN("ethereum")', eur)).map((r) => [r[0], r[1]]));
      assert.ok(chain.has('marketCap (USD)') && chain.has('volume24h (USD)') && chain.has('marketCapDominance'), [...chain.keys()].join());
      assert.equal(await num('=CRYPTO.BLOCKCHAIN("ethereum","marketCap")', eur), chain.get('marketCap (USD)'));
      // Why: the same workbook's PROFILE market cap is EUR.
      assert.notEqual(await num('=CRYPTO.PROFILE("bitcoin","marketCap")', eur), await num('=CRYPTO.GLOBAL("btcMarketCap")', eur));
    } finally {
      await eur.close();
    }
  });
});

describe('the one-field form of a Field/Value function', () => {
  test('a value the subject has none of is #N/A naming both, as DATA says it; the table keeps the blank (review-r3 #17)', async () => {
    // Tether has no max supply: DATA has always said so; PROFILE's one field said "" (which compares above every number).
    assert.deepEqual(await failure('=CRYPTO.PROFILE("tether","maxSupply")'), { error: '#N/A', message: 'Tether has no maxSupply' });
    assert.deepEqual(await failure('=CRYPTO.DATA("tether","maxSupply")'), { error: '#N/A', message: 'Tether has no maxSupply' });
    const profile = fieldMap(await grid('=CRYPTO.PROFILE("tether")'));
    assert.equal(profile.get('maxSupply'), '', 'a blank beside its label in the table');
    // A value that is there is still the value.
    assert.equal(typeof (await num('=CRYPTO.PROFILE("bitcoin","maxSupply")')), 'number');
  });
});

describe('FEARGREED, ALTSEASON, DOMINANCE', () => {
  test('FEARGREED(): the current value; a range: daily rows classified by their band, ending with the current value', async () => {
    const now = await num('=CRYPTO.FEARGREED()');
    assert.ok(Number.isInteger(now) && now >= 0 && now <= 100);
    const g = await grid('=CRYPTO.FEARGREED("30D")');
    assert.deepEqual(g[0], ['Date', 'Value', 'Classification']);
    assertDaily(g, TODAY - 30 * DAY, TODAY);
    for (const [, v, c] of g.slice(1)) assert.equal(c, band(FG_BANDS, v as number), `value ${v}`);
    assert.equal(g[g.length - 1][1], now, "today's point is the current value");
    assert.ok(new Set(g.slice(1).map((r) => r[1])).size > 1, 'values move');
  });
  test('a closed period stops at its last day; end before start is #VALUE!', async () => {
    const g = await grid('=CRYPTO.FEARGREED("2025-02",,0)');
    assert.equal(g.length, 28, 'February 2025: 28 rows, no header');
    assert.equal(fromSerial(g[0][0] as number), Date.UTC(2025, 1, 1));
    assert.equal(fromSerial(g[27][0] as number), Date.UTC(2025, 1, 28));
    const e = await failure('=CRYPTO.FEARGREED("2026-03-10","2026-03-01")');
    assert.equal(e.error, '#VALUE!');
    assert.match(e.message, /end must be after start/);
    const bad = await failure('=CRYPTO.FEARGREED("last week")');
    assert.equal(bad.error, '#VALUE!');
    assert.match(bad.message, /start must be a date/);
  });
  test('FEARGREED: current value on Sandbox, history needs Basic', async () => {
    assert.equal(await num('=CRYPTO.FEARGREED()', sessions.sandbox), await num('=CRYPTO.FEARGREED()'));
    const e = await failure('=CRYPTO.FEARGREED("7D")', sessions.sandbox);
    assert.equal(e.error, '#N/A');
    assert.match(e.message, /FEARGREED's history \(with dates\) needs the Basic plan/);
  });
  test('ALTSEASON: current value and a quarter, classified by band', async () => {
    const now = await num('=CRYPTO.ALTSEASON()');
    assert.ok(now >= 0 && now <= 100);
    const g = await grid('=CRYPTO.ALTSEASON("2025Q1")');
    assert.deepEqual(g[0], ['Date', 'Value', 'Classification', 'Altcoins market cap']);
    assertDaily(g, Date.UTC(2025, 0, 1), Date.UTC(2025, 2, 31));
    for (const [, v, c, cap] of g.slice(1)) {
      assert.equal(c, band(ALT_BANDS, v as number));
      assert.ok(typeof cap === 'number' && cap > 0);
    }
    const week = await grid('=CRYPTO.ALTSEASON("7D")');
    assert.equal(week[week.length - 1][1], now);
  });
  test('DOMINANCE: the snapshot\'s BTC, ETH and others add up to 100; USDT from the chart; each chart ends at the current value', async () => {
    const [btc, eth, others, usdt] = await Promise.all(['btc', 'eth', 'others', 'usdt'].map((a) => num(`=CRYPTO.DOMINANCE("${a}")`)));
    assert.ok(Math.abs(btc + eth + others - 100) < 0.02, `sum ${[btc, eth, others]}`);
    assert.ok(usdt > 0 && usdt < others, 'USDT is one of the others');
    const g = await grid('=CRYPTO.DOMINANCE("btc","14D")');
    assert.deepEqual(g[0], ['Date', 'Dominance %']);
    assertDaily(g, TODAY - 14 * DAY, TODAY);
    assert.equal(g[g.length - 1][1], btc);
    for (const [a, now] of [['eth', eth], ['usdt', usdt], ['others', others]] as const) {
      assert.equal((await grid(`=CRYPTO.DOMINANCE("${a}","3D")`)).at(-1)![1], now, `${a} chart ends at the current value`);
    }
    const all = fieldMap(await grid('=CRYPTO.DOMINANCE("all")'));
    // The 24 h changes are relative (percent of the share's own value), and named so (review-r3 #3).
    assert.deepEqual([...all.keys()], ['btc', 'btcChange24hPercent', 'eth', 'ethChange24hPercent', 'others']);
    assert.deepEqual([all.get('btc'), all.get('eth'), all.get('others')], [btc, eth, others]);
    const yesterday = (await grid('=CRYPTO.DOMINANCE("btc","1D",,0)')).at(-2)![1] as number;
    const relative = all.get('btcChange24hPercent') as number;
    assert.ok(Math.abs(relative - (btc / yesterday - 1) * 100) < 0.01, 'BTC 24 h change, relative');
    assert.ok(Math.abs(relative - (btc - yesterday)) > 0.01, `not the points ${btc - yesterday} (${relative})`);
    const e = await failure('=CRYPTO.DOMINANCE("doge")');
    assert.equal(e.error, '#VALUE!');
    assert.match(e.message, /"btc".*"eth".*"usdt".*"others".*"all"/);
    const r = await failure('=CRYPTO.DOMINANCE("all","7D")');
    assert.equal(r.error, '#VALUE!');
  });
  test('FEARGREED and ALTSEASON: classification and the snapshot\'s fields of the current reading', async () => {
    const fg = await num('=CRYPTO.FEARGREED()');
    assert.deepEqual(await grid('=CRYPTO.FEARGREED(,,,"classification")'), [[band(FG_BANDS, fg)]]);
    assert.deepEqual(fieldMap(await grid('=CRYPTO.FEARGREED(,,,"all")')), new Map<string, JsonCell>([['value', fg], ['classification', band(FG_BANDS, fg)]]));
    const alt = fieldMap(await grid('=CRYPTO.ALTSEASON(,,,"all")'));
    const now = await num('=CRYPTO.ALTSEASON()');
    assert.equal(alt.get('value'), now);
    assert.equal(alt.get('classification'), band(ALT_BANDS, now));
    const year = await grid('=CRYPTO.ALTSEASON("365D",,0)');
    const values = year.map((r) => r[1] as number);
    assert.equal(alt.get('yearlyHigh'), Math.max(...values));
    assert.equal(alt.get('yearlyLow'), Math.min(...values));
    assert.equal(alt.get('yearlyHighDate'), year.find((r) => r[1] === alt.get('yearlyHigh'))![0], 'the first day at the high, as an Excel date');
    assert.deepEqual([alt.get('yesterday'), alt.get('lastWeek'), alt.get('lastMonth')], [values.at(-2), values.at(-8), values.at(-31)]);
    assert.equal(await num('=CRYPTO.ALTSEASON(,,,"lastWeek")'), values.at(-8));
    const bad = await failure('=CRYPTO.ALTSEASON(,,,"tomorrow")');
    assert.equal(bad.error, '#VALUE!');
    assert.match(bad.message, /yearlyHigh/);
    const ranged = await failure('=CRYPTO.FEARGREED("7D",,,"classification")');
    assert.equal(ranged.error, '#VALUE!');
  });
});

describe('CREDITS', () => {
  // The legacy /v3/status reports monthly figures only: its daily cells are empty, and the
  // monthly ones (which grow by the same credits) carry the accounting.
  const legacy = TEST_DIALECT === 'legacy';
  const used = legacy ? 'monthlyUsed' : 'dailyUsed';
  test('the account figures are the server\'s; the used credits grow by exactly what formulas spent', async () => {
    const before = await grid('=CRYPTO.CREDITS()');
    const f0 = fieldMap(before);
    const u0 = sessions.pro.emulator!.usage('demo-pro');
    assert.equal(f0.get('plan'), 'Pro');
    if (legacy) {
      assert.deepEqual([f0.get('dailyUsed'), f0.get('dailyLimit'), f0.get('dailyRemaining')], ['', '', ''], 'not reported: empty, not derived');
    } else {
      assert.equal(f0.get('dailyUsed'), u0.dailyUsed);
      assert.equal(f0.get('dailyLimit'), 80_000);
      assert.equal(f0.get('dailyRemaining'), 80_000 - u0.dailyUsed);
    }
    assert.equal(f0.get('monthlyUsed'), u0.monthlyUsed);
    assert.equal(f0.get('monthlyLimit'), 2_000_000);
    assert.equal(f0.get('periodEnd'), toSerial(Date.parse(u0.currentPeriodEnd)));
    assert.equal(f0.get('workbookCredits'), sessions.pro.client.meter.snapshot().credits);
    assert.equal(f0.get('workbookCredits'), u0.dailyUsed, 'this session is the key\'s only user');

    const meter0 = sessions.pro.client.meter.snapshot().credits;
    await grid('=CRYPTO.LOSERS("30d",4)');
    await grid('=CRYPTO.FEARGREED("2024")'); // 366 daily points: 1 + 3 credits
    await grid('=CRYPTO.FEARGREED("2024")'); // cached: free
    const spent = sessions.pro.client.meter.snapshot().credits - meter0;
    assert.equal(spent, 1 + 4);
    const now = await num(`=CRYPTO.CREDITS("${used}")`);
    assert.equal(now - (f0.get(used) as number), spent);
    assert.equal(now, sessions.pro.emulator!.usage('demo-pro')[used]);
    assert.equal(await num('=CRYPTO.CREDITS("workbookCredits")'), sessions.pro.client.meter.snapshot().credits);
  });
  test('CREDITS itself is free and never cached', async () => {
    const a = sessions.pro.emulator!.usage('demo-pro');
    await num(`=CRYPTO.CREDITS("${used}")`);
    await num(`=CRYPTO.CREDITS("${used}")`);
    const b = sessions.pro.emulator!.usage('demo-pro');
    assert.equal(b.dailyUsed, a.dailyUsed);
    assert.equal(b.byPath['/v3/status'].requests - a.byPath['/v3/status'].requests, 2, 'two status reads');
  });
  test('CREDITS is volatile (it kept the figures of when it was typed), and the cells of one recalculation read /v3/status once (review-r3 #5)', async () => {
    const meta = (await loadFunctionMetadata()).find((f) => f.id === 'CREDITS');
    assert.equal(meta?.options?.volatile, true, 'functions.json marks CREDITS volatile');
    const reads = () => sessions.pro.emulator!.usage('demo-pro').byPath['/v3/status'].requests;
    const before = reads();
    // Excel calls a recalculation's cells together: three CREDITS cells at once.
    const outs = await Promise.all([`=CRYPTO.CREDITS("${used}")`, '=CRYPTO.CREDITS()', '=CRYPTO.CREDITS("plan")'].map((f) => calculate(sessions.pro.host, f)));
    assert.ok(outs.every((o) => 'value' in o), JSON.stringify(outs));
    assert.equal(reads() - before, 1, 'one /v3/status for the recalculation');
    await num('=CRYPTO.CREDITS("monthlyUsed")');
    assert.equal(reads() - before, 2, 'the next recalculation asks again');
  });
  test('Sandbox figures; bad field; no key', async () => {
    assert.equal(await num('=CRYPTO.CREDITS("rateLimitPerMinute")', sessions.sandbox), 10);
    const g = await grid('=CRYPTO.CREDITS("plan")', sessions.sandbox);
    assert.deepEqual(g, [['Sandbox']]);
    const e = await failure('=CRYPTO.CREDITS("credits")');
    assert.equal(e.error, '#VALUE!');
    assert.match(e.message, /dailyUsed/);
    const k = await failure('=CRYPTO.CREDITS()', sessions.nokey);
    assert.equal(k.error, '#N/A');
    assert.match(k.message, /No API key/);
  });
});
