/**
 * CRYPTO.TOKENOMICS, VESTING, UNLOCKS, VCPRESSURE, HOLDERS through the formula
 * text → calculation host → client → local API server, as Excel would call them.
 *
 *   node --import tsx --test test/formulas-supply.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonCell } from '../src/cli/calculate';
import { openSession, type Session } from '../src/cli/session';
import { toSerial } from '../src/formulas/cells';
import { FROZEN_ISO as NOW_ISO, FROZEN_NOW as NOW } from '../harness/instant';
import { TEST_DIALECT } from './support/dialect';
import { TEST_WORKBOOK } from './support/workbook';
import { failed as failure, formulaChecks, near, numberIn as num } from './support/formula-checks';

const TODAY = Math.floor(toSerial(NOW));
const UNLOCKS_PATH = '/v3/currencies/upcoming-token-unlocks';
const TOKEN_UNLOCKS_PATH = '/v3/token-unlocks/upcoming';

let s: Session;
before(async () => {
  s = await openSession({ workbook: TEST_WORKBOOK, emulator: { now: NOW_ISO, rpm: 2000, dialect: TEST_DIALECT } });
});
after(async () => {
  await s?.close();
});

const { calc, grid: table } = formulaChecks(() => s);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const record = (g: JsonCell[][]) => Object.fromEntries(g.slice(1).map((r) => [r[0] as string, r[1]]));

/** A plan test: a session with another key, closed at once. */
async function withKey<T>(key: string, fn: (t: Session) => Promise<T>): Promise<T> {
  const t = await openSession({ workbook: TEST_WORKBOOK, key, emulator: { now: NOW_ISO, dialect: TEST_DIALECT } });
  try {
    return await fn(t);
  } finally {
    await t.close();
  }
}

describe('CRYPTO.TOKENOMICS', () => {
  const FIELDS = ['totalSupply', 'maxSupply', 'circulatingSupply', 'circulatingPercent', 'fullyDilutedValuation', 'totalUnlockedAmount',
    'totalUnlockedPercent', 'totalLockedAmount', 'totalLockedPercent', 'untrackedAmount', 'untrackedPercent', 'nextUnlockDate',
    'nextUnlockTokenAmount', 'nextUnlockValue', 'nextUnlockPercentOfMcap', 'nextUnlockPercentOfSupply', 'vestingSourceUrls'];

  test('field/value table: shares add up to 100, amounts to the total supply, next unlock ahead', async () => {
    const g = await table('=CRYPTO.TOKENOMICS("sui")');
    assert.deepEqual(g[0], ['Field', 'Value']);
    assert.deepEqual(g.slice(1).map((r) => r[0]), FIELDS);
    const t = record(g);
    near(num(t.totalUnlockedPercent) + num(t.totalLockedPercent) + num(t.untrackedPercent), 100, 0.01, 'unlocked+locked+untracked %');
    const total = num(t.totalSupply);
    near(num(t.totalUnlockedAmount) + num(t.totalLockedAmount) + num(t.untrackedAmount), total, total * 1e-6, 'amounts');
    near(num(t.circulatingPercent), (num(t.circulatingSupply) / total) * 100, 0.001, 'circulating %');
    assert.ok(num(t.nextUnlockDate) > TODAY && num(t.nextUnlockDate) < TODAY + 400, `next unlock ${t.nextUnlockDate}`);
    near(num(t.nextUnlockPercentOfSupply), (num(t.nextUnlockTokenAmount) / total) * 100, 0.001, 'next unlock % of supply');
    assert.match(String(t.vestingSourceUrls), /^https:\/\//);
  });

  test('one field is that field\'s value; a coin without vesting has empty cells, not zeros', async () => {
    const t = record(await table('=CRYPTO.TOKENOMICS("arbitrum")'));
    assert.deepEqual(await table('=CRYPTO.TOKENOMICS("arbitrum","nextUnlockDate")'), [[t.nextUnlockDate]]);
    assert.deepEqual(await table('=CRYPTO.TOKENOMICS("ARB","totallockedpercent")'), [[t.totalLockedPercent]]);
    const btc = record(await table('=CRYPTO.TOKENOMICS("bitcoin")'));
    assert.ok(num(btc.circulatingSupply) > 1.9e7);
    assert.equal(btc.totalLockedPercent, '');
    assert.equal(btc.nextUnlockDate, '');
  });

  test('bad field → #VALUE! listing fields; unknown coin → #N/A naming it; Basic plan → #N/A naming Advanced', async () => {
    const f = failure(await calc('=CRYPTO.TOKENOMICS("sui","lockedPercent")'));
    assert.equal(f.error, '#VALUE!');
    assert.match(f.message, /totalLockedPercent/);
    const c = failure(await calc('=CRYPTO.TOKENOMICS("notacoinxyz")'));
    assert.equal(c.error, '#N/A');
    assert.match(c.message, /notacoinxyz/);
    const p = await withKey('demo-basic', async (t) => failure(await calc('=CRYPTO.TOKENOMICS("sui")', t)));
    assert.equal(p.error, '#N/A');
    assert.match(p.message, /Advanced/);
  });
});

describe('CRYPTO.VESTING', () => {
  const HEADER = ['Allocation', 'Tracked', 'Group dominance %', 'Locked %', 'Unlocked %', 'Tokens', '% of supply', 'Unlock type', 'Next unlock', 'End date'];

  test('tracked allocations: locked + unlocked = 100 each, group dominance sums to 100, agrees with TOKENOMICS', async () => {
    const g = await table('=CRYPTO.VESTING("sui")');
    assert.deepEqual(g[0], HEADER);
    const rows = g.slice(1);
    assert.ok(rows.length >= 3);
    for (const r of rows) {
      assert.equal(r[1], true);
      assert.equal(typeof r[0], 'string');
      near(num(r[3]) + num(r[4]), 100, 0.001, `${r[0]} locked+unlocked`);
      assert.ok(num(r[5]) > 0);
      assert.ok(r[8] === '' || num(r[8]) > TODAY, `next unlock ${r[8]}`);
      assert.ok(num(r[9]) > 40_000 && num(r[9]) < 60_000, `end date ${r[9]}`);
    }
    near(sum(rows.map((r) => num(r[2]))), 100, 0.01, 'group dominance');
    const t = record(await table('=CRYPTO.TOKENOMICS("sui")'));
    const lockedTokens = sum(rows.map((r) => (num(r[5]) * num(r[3])) / 100));
    near(lockedTokens, num(t.totalLockedAmount), num(t.totalLockedAmount) * 1e-4, 'locked tokens');
    const nextUnlocks = rows.map((r) => r[8]).filter((x): x is number => typeof x === 'number');
    assert.equal(Math.min(...nextUnlocks), t.nextUnlockDate);
  });

  test('includeUntracked adds the untracked allocations with empty schedule cells; shares of supply sum to 100', async () => {
    const tracked = (await table('=CRYPTO.VESTING("sui",FALSE,0)'));
    const all = await table('=CRYPTO.VESTING("sui",TRUE,0)');
    assert.equal(typeof tracked[0][0], 'string', 'no header row');
    assert.ok(all.length > tracked.length);
    const untracked = all.filter((r) => r[1] === false);
    assert.equal(untracked.length, all.length - tracked.length);
    for (const r of untracked) {
      assert.deepEqual([r[2], r[3], r[4], r[7], r[8], r[9]], ['', '', '', '', '', '']);
      assert.ok(num(r[5]) > 0);
    }
    near(sum(all.map((r) => num(r[6]))), 100, 0.01, '% of supply');
  });

  test('a coin without vesting: #N/A saying so, with or without headers; Advanced plan → #N/A naming Pro', async () => {
    for (const f of ['=CRYPTO.VESTING("bitcoin")', '=CRYPTO.VESTING("bitcoin",,0)']) {
      const e = failure(await calc(f));
      assert.equal(e.error, '#N/A');
      assert.match(e.message, /Bitcoin has no vesting data/);
    }
    const p = await withKey('demo-advanced', async (t) => failure(await calc('=CRYPTO.VESTING("sui")', t)));
    assert.equal(p.error, '#N/A');
    assert.match(p.message, /Pro/);
  });
});

describe('CRYPTO.UNLOCKS', () => {
  const HEADER = ['Date', 'Coin', 'Symbol', 'Tokens', 'Value USD', '% of market cap', '% of supply', 'Price', 'Market cap'];

  test('default: the next 25 unlocks in 30 days, soonest first', async () => {
    const g = await table('=CRYPTO.UNLOCKS()');
    assert.deepEqual(g[0], HEADER);
    const rows = g.slice(1);
    assert.equal(rows.length, 25);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      assert.ok(num(r[0]) > TODAY && num(r[0]) <= TODAY + 30, `date ${r[0]}`);
      if (i > 0) assert.ok(num(r[0]) >= num(rows[i - 1][0]), 'soonest first');
      assert.equal(typeof r[1], 'string');
      for (const k of [3, 4, 5, 6, 7, 8]) num(r[k]);
      // Value is whole dollars from the unrounded price: within rounding of tokens x price.
      near(num(r[4]), num(r[3]) * num(r[7]), Math.max(1, num(r[4]) * 1e-5), 'value = tokens x price');
    }
  });

  test('count beyond a page fetches as many pages of 25 as needed, no more (filtered or sorted by value)', async () => {
    const before = s.emulator!.usage('demo-pro').byPath[UNLOCKS_PATH]?.requests ?? 0;
    const g = await table('=CRYPTO.UNLOCKS(90,"usdAmount",,,,60,0)');
    const after = s.emulator!.usage('demo-pro').byPath[UNLOCKS_PATH]?.requests ?? 0;
    assert.equal(g.length, 60);
    assert.equal(after - before, 3, 'three pages of 25');
    const keys = new Set(g.map((r) => `${r[0]}|${r[1]}`));
    assert.equal(keys.size, 60, 'no row twice');
    for (const r of g) assert.ok(num(r[0]) <= TODAY + 90);
  });

  test('soonest first without filters: the 200-a-request list, the same rows for fewer credits', async () => {
    const usage = () => s.emulator!.usage('demo-pro').byPath;
    const u0 = usage();
    const cheap = await table('=CRYPTO.UNLOCKS(90,,,,,60,0)');
    const u1 = usage();
    assert.equal((u1[TOKEN_UNLOCKS_PATH]?.requests ?? 0) - (u0[TOKEN_UNLOCKS_PATH]?.requests ?? 0), 1, 'one request of up to 200');
    assert.equal(u1[UNLOCKS_PATH]?.requests ?? 0, u0[UNLOCKS_PATH]?.requests ?? 0, 'none of 25');
    // minUsdAmount 0 filters nothing but keeps the 25-a-page list: the same rows, three requests
    const paged = await table('=CRYPTO.UNLOCKS(90,,,0,,60,0)');
    assert.equal((usage()[UNLOCKS_PATH]?.requests ?? 0) - (u1[UNLOCKS_PATH]?.requests ?? 0), 3);
    assert.deepEqual(cheap, paged);
    // the window holds: nothing after daysAhead, even when fewer unlocks than count
    const week = await table('=CRYPTO.UNLOCKS(7,,,,,1000,0)');
    assert.ok(week.length > 0 && week.length < 1000);
    for (const r of week) assert.ok(num(r[0]) <= TODAY + 7);
    assert.deepEqual(week, await table('=CRYPTO.UNLOCKS(7,,,0,,1000,0)'));
  });

  test('where the service has no 200-a-request list for the key (a guess), the list of 25 a page answers', async () => {
    const t = await openSession({
      workbook: TEST_WORKBOOK,
      emulator: { now: NOW_ISO, rpm: 2000, dialect: TEST_DIALECT },
      client: {
        fetch: async (input, init) =>
          new URL(String(input)).pathname === TOKEN_UNLOCKS_PATH
            ? new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Cannot GET /v3/token-unlocks/upcoming', status: 404 } }), { status: 404 })
            : fetch(input, init),
      },
    });
    try {
      const g = await table('=CRYPTO.UNLOCKS(90,,,,,60,0)', t);
      assert.deepEqual(g, await table('=CRYPTO.UNLOCKS(90,,,0,,60,0)'));
      assert.equal(t.emulator!.usage('demo-pro').byPath[UNLOCKS_PATH]?.requests, 3, 'three pages of 25');
    } finally {
      await t.close();
    }
  });

  test('sorting and filters: by USD value, largest first, at least $1M; by % of market cap', async () => {
    const g = (await table('=CRYPTO.UNLOCKS(90,"usdAmount",,1000000,,30,0)'));
    assert.ok(g.length > 0);
    for (let i = 0; i < g.length; i++) {
      assert.ok(num(g[i][4]) >= 1_000_000);
      if (i > 0) assert.ok(num(g[i][4]) <= num(g[i - 1][4]), 'largest first');
    }
    const asc = await table('=CRYPTO.UNLOCKS(90,"usdAmount","asc",1000000,,5,0)');
    for (let i = 1; i < asc.length; i++) assert.ok(num(asc[i][4]) >= num(asc[i - 1][4]));
    const pct = await table('=CRYPTO.UNLOCKS(60,"percentOfMcap",,,5,10,0)');
    for (let i = 0; i < pct.length; i++) {
      assert.ok(num(pct[i][5]) >= 5);
      if (i > 0) assert.ok(num(pct[i][5]) <= num(pct[i - 1][5]));
    }
  });

  test('a fractional % of market cap threshold filters (0.5 keeps rows the threshold 1 drops); out of range is #VALUE!', async () => {
    const half = await table('=CRYPTO.UNLOCKS(90,"percentOfMcap",,,0.5,1000,0)');
    const one = await table('=CRYPTO.UNLOCKS(90,"percentOfMcap",,,1,1000,0)');
    for (const r of half) assert.ok(num(r[5]) >= 0.5);
    assert.ok(half.some((r) => num(r[5]) < 1), 'some unlock between 0.5% and 1% of market cap');
    assert.equal(half.filter((r) => num(r[5]) >= 1).length, one.length);
    const bad = failure(await calc('=CRYPTO.UNLOCKS(90,,,,150)'));
    assert.equal(bad.error, '#VALUE!');
    assert.match(bad.message, /from 0 to 100/);
  });

  test('a coin\'s next unlock in TOKENOMICS is in the list, with the same tokens', async () => {
    const t = record(await table('=CRYPTO.TOKENOMICS("arbitrum")'));
    const days = num(t.nextUnlockDate) - TODAY;
    const min = Math.floor(num(t.nextUnlockValue));
    const g = await table(`=CRYPTO.UNLOCKS(${days},"usdAmount","desc",${min},,100,0)`);
    const row = g.find((r) => r[1] === 'Arbitrum');
    assert.ok(row, 'Arbitrum is listed');
    assert.equal(row[0], t.nextUnlockDate);
    near(num(row[3]), num(t.nextUnlockTokenAmount), 1e-3, 'tokens');
    assert.equal(row[2], 'ARB');
  });

  test('bad arguments are #VALUE! naming what is allowed', async () => {
    const sort = failure(await calc('=CRYPTO.UNLOCKS(30,"size")'));
    assert.equal(sort.error, '#VALUE!');
    for (const w of ['date', 'usdAmount', 'percentOfMcap']) assert.ok(sort.message.includes(w), sort.message);
    const days = failure(await calc('=CRYPTO.UNLOCKS(400)'));
    assert.equal(days.error, '#VALUE!');
    assert.match(days.message, /365/);
    const order = failure(await calc('=CRYPTO.UNLOCKS(30,,"up")'));
    assert.equal(order.error, '#VALUE!');
    assert.match(order.message, /"asc" or "desc"/);
  });
});

describe('CRYPTO.VCPRESSURE', () => {
  const FIELDS = ['dumpPressure', 'dominance', 'profit', 'nextUnlockDate', 'unlocked30d', 'circulatingSupply', 'priceChangePercent24h',
    'investorsCount', 'investors', 'unlock.date', 'unlock.tokenAmount', 'unlock.usdAmount', 'unlock.percentOfSupply'];

  test('field/value table: pressure level, investors, and the next VC unlock', async () => {
    const g = await table('=CRYPTO.VCPRESSURE("arbitrum")');
    assert.deepEqual(g[0], ['Field', 'Value']);
    assert.deepEqual(g.slice(1).map((r) => r[0]), FIELDS);
    const v = record(g);
    assert.ok(['low', 'moderate', 'high', 'very-high'].includes(String(v.dumpPressure)));
    assert.ok(num(v.dominance) > 0 && num(v.dominance) <= 100);
    assert.equal(num(v.investorsCount), String(v.investors).split(', ').length);
    assert.equal(v['unlock.date'], v.nextUnlockDate);
    assert.ok(num(v.nextUnlockDate) > TODAY);
    assert.ok(num(v['unlock.tokenAmount']) > 0);
    const supply = record(await table('=CRYPTO.TOKENOMICS("arbitrum")'));
    assert.equal(v.circulatingSupply, supply.circulatingSupply);
  });

  test('one field; a coin without investors is #N/A naming it; a bad field is #VALUE!', async () => {
    const v = record(await table('=CRYPTO.VCPRESSURE("arbitrum")'));
    assert.deepEqual(await table('=CRYPTO.VCPRESSURE("arbitrum","dumpPressure")'), [[v.dumpPressure]]);
    assert.deepEqual(await table('=CRYPTO.VCPRESSURE("arbitrum","unlock.usdAmount")'), [[v['unlock.usdAmount']]]);
    const none = failure(await calc('=CRYPTO.VCPRESSURE("bitcoin")'));
    assert.equal(none.error, '#N/A');
    assert.match(none.message, /Bitcoin/);
    const bad = failure(await calc('=CRYPTO.VCPRESSURE("arbitrum","pressure")'));
    assert.equal(bad.error, '#VALUE!');
    assert.match(bad.message, /dumpPressure/);
  });
});

describe('CRYPTO.HOLDERS', () => {
  test('top: the 100 largest holders, ranked, largest first', async () => {
    const g = await table('=CRYPTO.HOLDERS("chainlink")');
    assert.deepEqual(g[0], ['Rank', 'Address', 'Label', 'Contract', 'Amount', '% of supply', 'Value USD']);
    const rows = g.slice(1);
    assert.equal(rows.length, 100);
    rows.forEach((r, i) => {
      assert.equal(r[0], i + 1);
      assert.match(String(r[1]), /^0x[0-9a-f]{40}$/);
      assert.equal(typeof r[2], 'string');
      assert.equal(typeof r[3], 'boolean');
      if (i > 0) assert.ok(num(r[4]) <= num(rows[i - 1][4]), 'largest first');
      near(num(r[6]) / num(r[4]), num(rows[0][6]) / num(rows[0][4]), (num(rows[0][6]) / num(rows[0][4])) * 1e-4, 'one price');
    });
    assert.deepEqual(await table('=CRYPTO.HOLDERS("chainlink","top",0)'), rows);
  });

  test('concentration: six buckets in fixed order summing to 100, top1_5 = the five largest holders', async () => {
    const g = await table('=CRYPTO.HOLDERS("chainlink","concentration")');
    assert.deepEqual(g[0], ['Bucket', 'Amount', '% of supply', 'Value USD']);
    assert.deepEqual(g.slice(1).map((r) => r[0]), ['top1_5', 'top6_10', 'top11_25', 'top26_50', 'top51_100', 'outside100']);
    near(sum(g.slice(1).map((r) => num(r[2]))), 100, 0.01, 'concentration');
    const top = (await table('=CRYPTO.HOLDERS("chainlink",,0)'));
    near(num(g[1][1]), sum(top.slice(0, 5).map((r) => num(r[4]))), num(g[1][1]) * 1e-6, 'top1_5 amount');
    const summary = record(await table('=CRYPTO.HOLDERS("chainlink","summary")'));
    near(num(summary.top100Share), 100 - num(g[6][2]), 0.01, 'top100Share');
  });

  test('tiers: whale to shrimp, holder shares sum to 100 and counts to the holder count', async () => {
    const g = await table('=CRYPTO.HOLDERS("uniswap","tiers")');
    assert.deepEqual(g[0], ['Tier', 'Holders', '% of holders']);
    assert.deepEqual(g.slice(1).map((r) => r[0]), ['whale', 'shark', 'dolphin', 'fish', 'octopus', 'crab', 'shrimp']);
    near(sum(g.slice(1).map((r) => num(r[2]))), 100, 0.1, 'tier shares');
    const summary = record(await table('=CRYPTO.HOLDERS("uniswap","summary")'));
    assert.equal(sum(g.slice(1).map((r) => num(r[1]))), summary.holdersCount);
  });

  test('summary: field/value, wallets + contracts = 100, snapshot date a serial date', async () => {
    const g = await table('=CRYPTO.HOLDERS("pepe","summary")');
    assert.deepEqual(g[0], ['Field', 'Value']);
    assert.deepEqual(g.slice(1).map((r) => r[0]), ['holdersCount', 'totalSupply', 'top100Share', 'walletsShare', 'contractsShare', 'snapshotDate', 'blockchainId']);
    const v = record(g);
    assert.ok(Number.isInteger(num(v.holdersCount)) && num(v.holdersCount) > 100);
    near(num(v.walletsShare) + num(v.contractsShare), 100, 0.01, 'wallets+contracts');
    assert.ok(num(v.snapshotDate) > TODAY - 7 && num(v.snapshotDate) <= TODAY + 1, `snapshot ${v.snapshotDate}`);
    const noHeaders = await table('=CRYPTO.HOLDERS("pepe","summary",0)');
    assert.deepEqual(noHeaders, g.slice(1));
  });

  test('a bad view is #VALUE! naming the four; a native coin without holders data is #N/A saying so in every view', async () => {
    const e = failure(await calc('=CRYPTO.HOLDERS("chainlink","whales")'));
    assert.equal(e.error, '#VALUE!');
    for (const w of ['"top"', '"concentration"', '"tiers"', '"summary"']) assert.ok(e.message.includes(w), e.message);
    for (const view of ['top', 'concentration', 'tiers', 'summary']) {
      for (const coin of ['bitcoin', 'ethereum']) {
        const n = failure(await calc(`=CRYPTO.HOLDERS("${coin}","${view}")`));
        assert.equal(n.error, '#N/A', `${coin} ${view}`);
        assert.match(n.message, /No holders data for \w+: the API has none for native coins/);
      }
    }
    const p = await withKey('demo-basic', async (t) => failure(await calc('=CRYPTO.HOLDERS("chainlink")', t)));
    assert.equal(p.error, '#N/A');
    assert.match(p.message, /Advanced/);
  });
});
