/**
 * CRYPTO.TOKENOMICS, VESTING, UNLOCKS, VCPRESSURE, HOLDERS through the formula
 * text → calculation host → client → local API server, as Excel would call them.
 *
 *   node --import tsx --test test/formulas-supply.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonCell } from '../src/cli/calculate';
import type { Session } from '../src/cli/session';
import { fromSerial, toSerial } from '../src/formulas/cells';
import { FROZEN_NOW as NOW } from '../harness/instant';
import { TEST_DIALECT } from './support/dialect';
import { testSession } from './support/frozen-session';
import { failed as failure, formulaChecks, near, numberIn as num } from './support/formula-checks';

const TODAY = Math.floor(toSerial(NOW));
const UNLOCKS_PATH = '/v3/currencies/upcoming-token-unlocks';
const TOKEN_UNLOCKS_PATH = '/v3/token-unlocks/upcoming';

let s: Session;
before(async () => {
  s = await testSession({ emulator: { rpm: 2000 } });
});
after(async () => {
  await s?.close();
});

const { calc, grid: table, one } = formulaChecks(() => s);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** A session whose client gets the service's error `error` (HTTP `status`) for `path`, and the local API server's answers otherwise. */
function sessionFailing(path: string, status: number, error: { code: string; message: string }, client: { maxRetries?: number } = {}): Promise<Session> {
  return testSession({
    emulator: { rpm: 2000 },
    client: {
      fetch: async (input, init) =>
        new URL(String(input)).pathname === path ? new Response(JSON.stringify({ error: { ...error, status } }), { status }) : fetch(input, init),
      ...client,
    },
  });
}
const record = (g: JsonCell[][]) => Object.fromEntries(g.slice(1).map((r) => [r[0] as string, r[1]]));

/** A plan test: a session with another key, closed at once. */
async function withKey<T>(key: string, fn: (t: Session) => Promise<T>): Promise<T> {
  const t = await testSession({ key });
  try {
    return await fn(t);
  } finally {
    await t.close();
  }
}

/** The docs' tokenomics has no untracked figures (the legacy one has). */
const UNTRACKED_REPORTED = TEST_DIALECT !== 'docs';
/** The documented vesting lists (docs, legacy) have no untracked allocations, no end dates, and take no includeUntracked. */
const VESTING_AS_SPEC = TEST_DIALECT === 'spec';

describe('CRYPTO.TOKENOMICS', () => {
  const FIELDS = ['totalSupply', 'maxSupply', 'circulatingSupply', 'circulatingPercent', 'fullyDilutedValuation', 'totalUnlockedAmount',
    'totalUnlockedPercent', 'totalLockedAmount', 'totalLockedPercent', 'untrackedAmount', 'untrackedPercent', 'nextUnlockDate',
    'nextUnlockTokenAmount', 'nextUnlockValue', 'nextUnlockPercentOfMcap', 'nextUnlockPercentOfSupply', 'vestingSourceUrls'];

  test('field/value table: shares add up to 100, amounts to the total supply, next unlock ahead', async () => {
    const g = await table('=CRYPTO.TOKENOMICS("sui")');
    assert.deepEqual(g[0], ['Field', 'Value']);
    assert.deepEqual(g.slice(1).map((r) => r[0]), FIELDS);
    const t = record(g);
    const total = num(t.totalSupply);
    if (UNTRACKED_REPORTED) {
      near(num(t.totalUnlockedPercent) + num(t.totalLockedPercent) + num(t.untrackedPercent), 100, 0.01, 'unlocked+locked+untracked %');
      near(num(t.totalUnlockedAmount) + num(t.totalLockedAmount) + num(t.untrackedAmount), total, total * 1e-6, 'amounts');
    } else {
      // The documented shape has no untracked figures: those two cells say so, the rest read as in every shape.
      for (const f of ['untrackedAmount', 'untrackedPercent']) {
        assert.deepEqual(t[f], { error: '#N/A', message: `The API answered without ${f} (/v3/currencies/{id}/tokenomics)` });
      }
      assert.ok(num(t.totalUnlockedPercent) + num(t.totalLockedPercent) < 100);
    }
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
  const HEADER = ['Allocation', 'Tracked', 'Group dominance %', 'Locked %', 'Unlocked %', 'Tokens', '% of supply', 'Unlock type', 'Next unlock', 'End date',
    'Unlocked tokens', 'Locked tokens', 'Next unlock tokens', 'Next unlock USD'];

  test('tracked allocations: locked + unlocked = 100 each, group dominance sums to 100, agrees with TOKENOMICS', async () => {
    const g = await table('=CRYPTO.VESTING("sui")');
    assert.deepEqual(g[0], HEADER);
    const rows = g.slice(1);
    assert.ok(rows.length >= 3);
    const price = num(await one('=CRYPTO.PRICE("sui")'));
    for (const r of rows) {
      assert.equal(r[1], true);
      assert.equal(typeof r[0], 'string');
      near(num(r[3]) + num(r[4]), 100, 0.001, `${r[0]} locked+unlocked`);
      assert.ok(num(r[5]) > 0);
      assert.ok(['linear', 'nonlinear', 'dynamic'].includes(String(r[7])), `unlock type ${r[7]}`);
      assert.ok(r[8] === '' || num(r[8]) > TODAY, `next unlock ${r[8]}`);
      if (VESTING_AS_SPEC) assert.ok(num(r[9]) > 40_000 && num(r[9]) < 60_000, `end date ${r[9]}`);
      else assert.deepEqual(r[9], { error: '#N/A', message: 'The API answered without endDate (/v3/currencies/{id}/vesting/allocations)' });
      near(num(r[10]) + num(r[11]), num(r[5]), num(r[5]) * 1e-9, `${r[0]} unlocked + locked tokens`);
      near(num(r[11]), (num(r[5]) * num(r[3])) / 100, num(r[5]) * 1e-5, `${r[0]} locked tokens = locked %`);
      if (r[8] === '') assert.deepEqual([r[12], r[13]], ['', '']);
      else near(num(r[13]), num(r[12]) * price, Math.max(1, num(r[13]) * 1e-5), `${r[0]} next unlock USD = tokens x price`);
    }
    near(sum(rows.map((r) => num(r[2]))), 100, 0.01, 'group dominance');
    const t = record(await table('=CRYPTO.TOKENOMICS("sui")'));
    near(sum(rows.map((r) => num(r[11]))), num(t.totalLockedAmount), num(t.totalLockedAmount) * 1e-6, 'locked tokens');
    const nextUnlocks = rows.map((r) => r[8]).filter((x): x is number => typeof x === 'number');
    assert.equal(Math.min(...nextUnlocks), t.nextUnlockDate);
  });

  test('includeUntracked: the untracked allocations where the service has them; a service without them says so', async () => {
    const tracked = (await table('=CRYPTO.VESTING("sui",FALSE,0)'));
    assert.equal(typeof tracked[0][0], 'string', 'no header row');
    if (!VESTING_AS_SPEC) {
      // The documented list takes no query parameters: the service refuses it, and the cell says what it offers.
      const e = failure(await calc('=CRYPTO.VESTING("sui",TRUE,0)'));
      assert.equal(e.error, '#N/A');
      assert.match(e.message, /tracked allocations only .* refused includeUntracked\. Leave includeUntracked empty or FALSE/);
      return;
    }
    const all = await table('=CRYPTO.VESTING("sui",TRUE,0)');
    assert.ok(all.length > tracked.length);
    const untracked = all.filter((r) => r[1] === false);
    assert.equal(untracked.length, all.length - tracked.length);
    for (const r of untracked) {
      assert.deepEqual([r[2], r[3], r[4], r[7], r[8], r[9], r[10], r[11], r[12], r[13]], ['', '', '', '', '', '', '', '', '', '']);
      assert.ok(num(r[5]) > 0);
    }
    near(sum(all.map((r) => num(r[6]))), 100, 0.01, '% of supply');
  });

  test('includeUntracked is not sent unless asked for (the documented list takes no query parameters)', async () => {
    const seen: string[] = [];
    const t = await testSession({
      emulator: { rpm: 2000 },
      client: {
        fetch: async (input, init) => {
          const url = new URL(String(input));
          if (url.pathname.endsWith('/vesting/allocations')) seen.push(url.search);
          return fetch(input, init);
        },
      },
    });
    try {
      await table('=CRYPTO.VESTING("sui")', t);
      await table('=CRYPTO.VESTING("arbitrum",FALSE)', t);
      assert.deepEqual(seen, ['', '']);
    } finally {
      await t.close();
    }
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
  const HEADER = ['Date', 'Coin', 'Symbol', 'Tokens', 'Value USD', '% of market cap', '% of supply', 'Price', 'Market cap', 'Slug', 'Id'];
  type Raw = Record<string, unknown>;
  const requests = (path: string) => s.emulator!.usage('demo-pro').byPath[path]?.requests ?? 0;
  /** The server's own answer, every page of the list of 25, read here without the add-in (whatever the dialect's names). */
  async function serverUnlocks(daysAhead: number): Promise<{ id: number; time: number }[]> {
    const out: { id: number; time: number }[] = [];
    for (let page = 1; ; page++) {
      const r = await fetch(`${s.emulator!.url}${UNLOCKS_PATH}?daysAhead=${daysAhead}&page=${page}`, { headers: { 'X-Api-Key': 'demo-pro' } });
      const b = (await r.json()) as { data: Raw[]; meta: { hasNextPage: boolean } };
      out.push(...b.data.map((u) => ({ id: Number(u.id ?? u.currencyId), time: typeof u.time === 'number' ? u.time : Date.parse(String(u.date)) })));
      if (!b.meta.hasNextPage) return out;
    }
  }
  async function serverSlugs(): Promise<Map<number, string>> {
    const r = await fetch(`${s.emulator!.url}/v3/currencies/map`, { headers: { 'X-Api-Key': 'demo-pro' } });
    return new Map(((await r.json()) as { data: { id: number; slug: string }[] }).data.map((c) => [c.id, c.slug]));
  }

  test('UNLOCKS(30): every unlock of the 30 days, soonest first, with slug and id columns, in two requests of 200', async () => {
    const truth = await serverUnlocks(30);
    const slugs = await serverSlugs();
    assert.ok(truth.length > 200, `the demo data has ${truth.length} unlocks in 30 days: more than one request of 200`);
    const [wide0, narrow0] = [requests(TOKEN_UNLOCKS_PATH), requests(UNLOCKS_PATH)];
    const g = await table('=CRYPTO.UNLOCKS(30)');
    assert.equal(requests(TOKEN_UNLOCKS_PATH) - wide0, Math.ceil(truth.length / 200), 'pages of 200');
    assert.equal(requests(UNLOCKS_PATH), narrow0, 'none of 25');
    assert.deepEqual(g[0], HEADER);
    const rows = g.slice(1);
    assert.equal(rows.length, truth.length, 'every unlock of the window, no note row');
    assert.deepEqual(rows.map((r) => [r[10], fromSerial(num(r[0]))]), truth.map((u) => [u.id, u.time]));
    assert.ok(num(rows[rows.length - 1][0]) >= TODAY + 25, 'the rows reach the end of the window');
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      assert.ok(num(r[0]) > TODAY && num(r[0]) <= TODAY + 30, `date ${r[0]}`);
      if (i > 0) assert.ok(num(r[0]) >= num(rows[i - 1][0]), 'soonest first');
      assert.equal(typeof r[1], 'string');
      for (const k of [3, 4, 5, 6, 7, 8]) num(r[k]);
      // Value is whole dollars from the unrounded price: within rounding of tokens x price.
      near(num(r[4]), num(r[3]) * num(r[7]), Math.max(1, num(r[4]) * 1e-5), 'value = tokens x price');
      assert.equal(r[9], slugs.get(num(r[10])), `slug of ${r[1]}`);
    }
    // A row feeds other formulas: its slug and its id name the same coin.
    const r = rows[0];
    assert.deepEqual(await table(`=CRYPTO.TOKENOMICS("${r[9]}","nextUnlockDate")`), await table(`=CRYPTO.TOKENOMICS(${r[10]},"nextUnlockDate")`));
    assert.deepEqual(await table(`=CRYPTO.TOKENOMICS(${r[10]},"nextUnlockDate")`), [[r[0]]]);
  });

  test('more unlocks than the cap: 1,000 rows and a last row naming the cap and the date reached; count asks for fewer, without a note', async () => {
    const truth = await serverUnlocks(365);
    assert.ok(truth.length > 1000, `${truth.length} unlocks in a year`);
    const g = await table('=CRYPTO.UNLOCKS(365)');
    assert.equal(g.length, 1 + 1000 + 1, 'header, 1,000 unlocks, the note');
    const rows = g.slice(1, -1);
    assert.deepEqual(rows.map((r) => r[10]), truth.slice(0, 1000).map((u) => u.id));
    const note = g[g.length - 1];
    const reached = new Date(truth[999].time).toISOString().slice(0, 10);
    assert.equal(note[0], `More unlocks not shown: capped at 1,000 rows (through ${reached}) of the next 365 days. Use a shorter daysAhead or a minUsdAmount to see the rest.`);
    assert.deepEqual(note.slice(1), Array(HEADER.length - 1).fill(''), 'the other cells empty, no error values');
    const largest = await table('=CRYPTO.UNLOCKS(365,"usdAmount")');
    assert.match(String(largest[largest.length - 1][0]), /capped at 1,000 rows \(the first 1,000 by usdAmount desc\)/);
    const counted = await table('=CRYPTO.UNLOCKS(365,,,,,1000,0)');
    assert.deepEqual(counted, g.slice(1, -1), 'count: exactly the rows asked for');
    const few = await table('=CRYPTO.UNLOCKS(30,,,,,60,0)');
    assert.deepEqual(few, (await table('=CRYPTO.UNLOCKS(30,,,,,,0)')).slice(0, 60));
  });

  test('filtered or sorted by value: the same 200-a-request list with its filters, not pages of 25', async () => {
    const [wide0, narrow0] = [requests(TOKEN_UNLOCKS_PATH), requests(UNLOCKS_PATH)];
    const g = await table('=CRYPTO.UNLOCKS(90,"usdAmount",,,,60,0)');
    assert.equal(requests(TOKEN_UNLOCKS_PATH) - wide0, 1, 'one request of up to 200');
    assert.equal(requests(UNLOCKS_PATH), narrow0, 'none of 25');
    assert.equal(g.length, 60);
    const keys = new Set(g.map((r) => `${r[0]}|${r[1]}`));
    assert.equal(keys.size, 60, 'no row twice');
    for (const r of g) assert.ok(num(r[0]) <= TODAY + 90);
    const week = await table('=CRYPTO.UNLOCKS(7,,,,,1000,0)');
    assert.ok(week.length > 0 && week.length < 1000);
    for (const r of week) assert.ok(num(r[0]) <= TODAY + 7);
    assert.deepEqual(week, await table('=CRYPTO.UNLOCKS(7,,,0,,1000,0)'), 'a minimum of 0 filters nothing');
  });

  test('where the service has no 200-a-request list for the key (a guess), the list of 25 a page answers the same rows', async () => {
    const t = await sessionFailing(TOKEN_UNLOCKS_PATH, 404, { code: 'NOT_FOUND', message: 'Cannot GET /v3/token-unlocks/upcoming' });
    try {
      const g = await table('=CRYPTO.UNLOCKS(30)', t);
      assert.deepEqual(g, await table('=CRYPTO.UNLOCKS(30)'));
      assert.equal(t.emulator!.usage('demo-pro').byPath[UNLOCKS_PATH]?.requests, Math.ceil((g.length - 1) / 25), 'pages of 25');
    } finally {
      await t.close();
    }
  });

  test('a currency map that cannot be read costs the slug cells only: the id column still names each coin', async () => {
    const t = await sessionFailing('/v3/currencies/map', 500, { code: 'INTERNAL_ERROR', message: 'Internal server error' }, { maxRetries: 0 });
    try {
      const g = await table('=CRYPTO.UNLOCKS(7,,,,,5,0)', t);
      const main = await table('=CRYPTO.UNLOCKS(7,,,,,5,0)');
      assert.deepEqual(g.map((r) => r[10]), main.map((r) => r[10]));
      for (const r of g) {
        assert.equal((r[9] as { error: string }).error, '#N/A');
        assert.match((r[9] as { message: string }).message, new RegExp(`^No slug for coin id ${r[10]}`));
      }
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
    // One field the record has none of: #N/A naming the coin (the tokenomics and VC pressure records carry no name).
    const noMax = failure(await calc('=CRYPTO.TOKENOMICS("ethereum","maxSupply")'));
    assert.equal(noMax.error, '#N/A');
    assert.equal(noMax.message, 'Ethereum has no maxSupply');
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
