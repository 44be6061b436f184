/**
 * CRYPTO.MARKETS (and UNLOCKS, joined the same way) as a finance user reads
 * it, through the calculation host against the local API server over real HTTP:
 * - more than one page of the list is one moment's list: each coin once, none
 *   missing, though PRICE cells cached the first page half a minute earlier and
 *   the market re-ranked in between (review-r3 #12); when the pages still
 *   disagree after one more read, the last row says so (UNLOCKS' too);
 * - a coin the service marks not traded (lifecycle "upcoming") has no price,
 *   volume or change: blank in MARKETS and QUOTE, #N/A "not traded" in PRICE,
 *   never the service's 0 placeholders (review-r3 #2).
 *
 *   node --import tsx --test test/markets-pages.test.ts
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { JsonCell } from '../src/cli/calculate';
import type { Session } from '../src/cli/session';
import { ENDPOINTS } from '../src/api/endpoints';
import type { MarketItem } from '../src/api/records';
import { FROZEN_NOW, testSession } from './support/frozen-session';
import { col, failed, formulaChecks } from './support/formula-checks';

const MARKETS = ENDPOINTS.markets.path;
/** 20 s before the hour the local server's market re-ranks on (test/list-pages.test.ts checks a coin crosses page 1/2 then). */
const BEFORE_HOUR = FROZEN_NOW - 20_000;
const TOP500 = '=CRYPTO.MARKETS(500,,,,,,,,,"id,rank,name")';

const sessions: Session[] = [];
after(() => Promise.all(sessions.map((s) => s.close())));
async function session(opts: Parameters<typeof testSession>[0] = {}, now = FROZEN_NOW): Promise<Session> {
  const s = await testSession(opts, now);
  sessions.push(s);
  return s;
}

let current: Session;
const { calc, grid, one } = formulaChecks(() => current);

async function serverList<T = MarketItem>(s: Session, query: string): Promise<T[]> {
  const res = await fetch(`${s.emulator!.url}${MARKETS}?${query}`, { headers: { 'X-Api-Key': 'demo-pro' } });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: T[] }).data;
}
const repeats = (ids: readonly JsonCell[]) => ids.filter((x, i) => ids.indexOf(x) !== i);

/** A fetch that answers as the server does, each markets answer whose URL `which` picks changed by `change`. */
function rewritingMarkets(which: (u: URL) => boolean, change: (data: MarketItem[]) => MarketItem[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const u = new URL(String(input));
    if (u.pathname !== MARKETS || !which(u) || res.status !== 200) return res;
    const body = (await res.json()) as { data: MarketItem[] };
    return new Response(JSON.stringify({ ...body, data: change(body.data) }), { status: 200, headers: res.headers });
  };
}

describe('MARKETS over more than one page (review-r3 #12)', () => {
  test('after PRICE cells cached the first page 30 s before the market moved: each coin once, the top 500 of now', async () => {
    current = await session({}, BEFORE_HOUR);
    for (const coin of ['bitcoin', 'ethereum', 'solana']) assert.equal(typeof (await one(`=CRYPTO.PRICE("${coin}")`)), 'number');
    current.emulator!.clock.advance(30_000);
    const g = await grid(TOP500);
    const ids = col(g, 'Id');
    assert.equal(ids.length, 500);
    assert.deepEqual(repeats(ids), [], 'no coin twice (a SUM of the market caps would count it twice)');
    const now = [...(await serverList(current, 'limit=250')), ...(await serverList(current, 'limit=250&offset=250'))];
    assert.deepEqual(ids, now.map((m) => m.id), 'the list as it is now: none missing');
    assert.deepEqual(col(g, 'Rank'), now.map((m) => m.rank));
  });

  test('a list that still moves when read again: each coin once, and the last row says coins may be missing', async () => {
    let boundary: MarketItem | undefined;
    // The second page repeats the first page's last coin however often it is asked.
    const fetch = rewritingMarkets((u) => u.searchParams.get('offset') === '250', (d) => (boundary ? [boundary, ...d.slice(0, -1)] : d));
    current = await session({ client: { fetch } }, FROZEN_NOW + 7_200_000);
    boundary = (await serverList(current, 'limit=250'))[249];
    const g = await grid(TOP500);
    const body = g.slice(1);
    const ids = body.slice(0, -1).map((r) => r[0]);
    assert.equal(ids.length, 499);
    assert.deepEqual(repeats(ids), []);
    assert.equal(ids[249], boundary.id);
    const note = body[body.length - 1];
    for (const cell of note) {
      assert.equal((cell as { error?: string }).error, '#N/A');
      assert.match((cell as { message: string }).message, /^The markets list moved while its pages were read, and again when read once more: 1 coin on two pages is shown once, and as many coins may be missing; recalculate to read it again \(place 251 of the list\)$/);
    }
  });
});

describe('UNLOCKS over more than one page (review-r3 #12)', () => {
  test('a list still moving when read again: each unlock once, and a last row (text: sums still work) says some may be missing', async () => {
    const PATH = ENDPOINTS.tokenUnlocks.path;
    let firstLast: unknown;
    // The second page of 200 repeats the first page's last unlock however often it is asked.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const res = await globalThis.fetch(input, init);
      const u = new URL(String(input));
      if (u.pathname !== PATH || res.status !== 200) return res;
      const body = (await res.json()) as { data: unknown[] };
      const offset = u.searchParams.get('offset');
      if (offset === null) firstLast = body.data[body.data.length - 1];
      const data = offset === '200' ? [firstLast, ...body.data.slice(0, -1)] : body.data;
      return new Response(JSON.stringify({ ...body, data }), { status: 200, headers: res.headers });
    };
    current = await session({ client: { fetch } });
    const g = await grid('=CRYPTO.UNLOCKS(365,,,,,300)');
    const body = g.slice(1);
    const note = body[body.length - 1];
    assert.equal(note[0], 'The unlock list moved while its pages were read, and again when read once more: 1 unlock on two pages is shown once, and as many may be missing (from row 201); recalculate to read it again.');
    assert.ok(note.slice(1).every((c) => c === ''));
    const rows = body.slice(0, -1);
    assert.equal(rows.length, 300, 'the count asked: the list went on');
    const keys = rows.map((r) => `${r[r.length - 1]}@${r[0]}`);
    assert.equal(new Set(keys).size, keys.length, 'no unlock twice (coin and day)');
  });
});

describe('coins not traded (review-r3 #2)', () => {
  const FIELDS = '"name,slug,price,isTraded,volume24h,percentChange.h24,marketCap,fullyDilutedValuation,lastUpdated"';

  test('MARKETS "upcoming": no price, volume, change or market cap, where the service sends 0s; PRICE and QUOTE agree', async () => {
    current = await session();
    const raw = await serverList(current, 'lifecycle=upcoming&limit=3');
    assert.ok(raw.length === 3 && raw.every((m) => m.isTraded === false), 'upcoming coins, marked not traded');
    assert.ok(raw.some((m) => Number(m.price) === 0 && m.percentChange.h24 === 0), 'the service sends placeholders (else this proves nothing)');
    const g = await grid(`=CRYPTO.MARKETS(3,,,,,,"upcoming",,,${FIELDS})`);
    assert.deepEqual(col(g, 'Slug'), raw.map((m) => m.slug));
    assert.deepEqual(col(g, 'Traded'), [false, false, false]);
    for (const h of ['Price', 'Volume 24h', 'Change 24h %', 'Market cap', 'FDV', 'Last updated']) assert.deepEqual(col(g, h), ['', '', ''], h);
    const slug = raw[0].slug;
    const price = failed(await calc(`=CRYPTO.PRICE("${slug}")`));
    assert.equal(price.error, '#N/A');
    assert.match(price.message, /not traded/);
    assert.deepEqual(await grid(`=CRYPTO.QUOTE("${slug}","price,isTraded,volume24h")`), [['Coin', 'Price', 'Traded', 'Volume 24h'], [slug, '', false, '']]);
  });

  test('a coin the traded list marks not traded: PRICE is #N/A "not traded" from the markets page, not its 0 or last price', async () => {
    const untraded = (d: MarketItem[]) => d.map((m) => (m.slug === 'ethereum' ? { ...m, isTraded: false } : m));
    current = await session({ client: { fetch: rewritingMarkets((u) => !u.searchParams.has('lifecycle'), untraded) } });
    const eth = failed(await calc('=CRYPTO.PRICE("ethereum")'));
    assert.equal(eth.error, '#N/A');
    assert.equal(eth.message, 'Ethereum has no market price (not traded)');
    const data = failed(await calc('=CRYPTO.DATA("ethereum","volume24h")'));
    assert.match(data.message, /not traded/);
    assert.deepEqual((await grid('=CRYPTO.QUOTE("ethereum","price,isTraded,circulatingSupply")'))[1].slice(1, 3), ['', false]);
    const g = await grid('=CRYPTO.MARKETS(3,,,,,,,,,"slug,price,isTraded,circulatingSupply")');
    const row = g.find((r) => r[0] === 'ethereum')!;
    assert.deepEqual(row.slice(1, 3), ['', false]);
    assert.equal(typeof row[3], 'number', 'the supply is no market field: it stays');
    assert.equal(typeof g.find((r) => r[0] === 'bitcoin')![1], 'number', 'a traded coin keeps its price');
  });
});
