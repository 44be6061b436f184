/**
 * An unreadable list item (an id, rank or time of the wrong type: read-data rule 4) is a #N/A row
 * at its place in every list formula, never a row gone without a word, and it holds its place: in
 * a count of movers, in the paging decision, and in UNLOCKS' cap (review 2026-11-27, lists #1-#3).
 * Over real HTTP against the emulator, one answer's item rewritten on its way to the client.
 *
 *   node --import tsx --test test/list-rejected-items.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Session } from '../src/cli/session';
import { calculate, type JsonCell } from '../src/cli/calculate';
import { frozenSession } from './support/frozen-session';

/** A fetch whose answers to `path` have their `data` items changed by `edit`; every request's path and query is noted in `seen`. */
function rewriting(path: RegExp, edit: (items: Record<string, unknown>[], url: URL) => void, seen: string[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(String(input));
    seen.push(url.pathname + url.search);
    if (!path.test(url.pathname) || res.status !== 200) return res;
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    if (Array.isArray(body.data)) edit(body.data, url);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}

const LISTS = /^\/v3\/(currencies\/trending|currencies\/gainers-losers|blockchains\/list|persons\/map|blockchains\/\d+\/tvl\/chart|global\/(fear-greed|altcoin-index|dominance)\/chart|currencies\/markets|token-unlocks\/upcoming)$/;

/** The second item unreadable (the newest dominance point; the fourth market and unlock of the first page). */
function spoil(items: Record<string, unknown>[], url: URL): void {
  const first = (url.searchParams.get('offset') ?? '0') === '0';
  if (url.pathname === '/v3/currencies/markets') {
    if (first && items.length > 3) items[3].id = 'x';
  } else if (url.pathname === '/v3/token-unlocks/upcoming') {
    if (first && items.length > 3) Object.assign(items[3], { id: 'x', currencyId: 'x' });
  } else if (url.pathname === '/v3/global/dominance/chart') {
    if (items.length > 1) items[items.length - 1].time = 'x';
  } else if (/chart$/.test(url.pathname)) {
    if (items.length > 2) items[1].time = 'x';
  } else if (items.length > 1) items[1].id = 'x';
}

const seen: string[] = [];
let good: Session;
let bad: Session;
before(async () => {
  [good, bad] = await Promise.all([frozenSession(), frozenSession({ client: { fetch: rewriting(LISTS, spoil, seen) } })]);
});
after(async () => {
  await Promise.all([good?.close(), bad?.close()]);
});

async function grid(s: Session, f: string): Promise<JsonCell[][]> {
  const o = await calculate(s.host, f);
  assert.ok('value' in o, `${f}: ${JSON.stringify(o).slice(0, 300)}`);
  return o.value;
}

const isNA = (c: JsonCell) => typeof c === 'object' && c !== null && 'error' in c && c.error === '#N/A';
const unreadableRow = (r: JsonCell[]) => r.every(isNA);

describe('an unreadable item is its #N/A row, not a row gone (lists #1)', () => {
  for (const [f, at] of [
    ['=CRYPTO.TRENDING()', 2],
    ['=CRYPTO.GAINERS("24h",6)', 2],
    ['=CRYPTO.BLOCKCHAINS()', 2],
    ['=CRYPTO.TVL("ethereum")', 2],
    ['=CRYPTO.FEARGREED("30D")', 2],
    ['=CRYPTO.ALTSEASON("30D")', 2],
    ['=CRYPTO.DOMINANCE("btc","30D")', -1],
    // After the names, since its own may not read.
    ['=CRYPTO.PERSONS()', -1],
  ] as const) {
    test(`${f}: as many rows as the answer's items, the unreadable one #N/A at its place, the others as read`, async () => {
      const want = await grid(good, f);
      const got = await grid(bad, f);
      assert.equal(got.length, want.length, `${f}: ${want.length} rows became ${got.length}`);
      const row = at < 0 ? got.length + at : at;
      assert.ok(unreadableRow(got[row]), `${f}: row ${row} is ${JSON.stringify(got[row])}`);
      assert.equal(got.filter(unreadableRow).length, 1);
      const rest = got.filter((r) => !unreadableRow(r)).map((r) => JSON.stringify(r));
      const wanted = new Set(want.map((r) => JSON.stringify(r)));
      assert.deepEqual(rest.filter((r) => !wanted.has(r)), [], `${f}: rows not in the good table`);
    });
  }

  test('GAINERS("24h",6): the unreadable mover holds its place; the next coin does not fill it', async () => {
    const ids = (g: JsonCell[][]) => g.slice(1).map((r) => (isNA(r[r.length - 1]) ? '#N/A' : r[r.length - 1]));
    const want = ids(await grid(good, '=CRYPTO.GAINERS("24h",6)'));
    assert.deepEqual(ids(await grid(bad, '=CRYPTO.GAINERS("24h",6)')), [want[0], '#N/A', ...want.slice(2)]);
  });

  test('GAINERS("24h",20): 20 places from the default list, not asked again with a limit (the unreadable mover is counted)', async () => {
    seen.length = 0;
    const got = await grid(bad, '=CRYPTO.GAINERS("24h",20)');
    assert.equal(got.length, 21);
    assert.equal(got.filter(unreadableRow).length, 1);
    assert.deepEqual(seen.filter((u) => u.startsWith('/v3/currencies/gainers-losers') && u.includes('limit=')), []);
  });

  test('DOMINANCE("usdt"): an unreadable newest point is #N/A saying so, not the point before it as the current reading', async () => {
    const o = await calculate(bad.host, '=CRYPTO.DOMINANCE("usdt")');
    assert.ok('error' in o, JSON.stringify(o));
    assert.equal(o.error, '#N/A');
    assert.match(o.message, /newest USDT dominance point may be the one that could not be read/);
    const ok = await calculate(good.host, '=CRYPTO.DOMINANCE("usdt")');
    assert.ok('value' in ok && typeof ok.value[0][0] === 'number', JSON.stringify(ok));
  });
});

describe('an unreadable item holds its place in a paged list (lists #2, #3)', () => {
  test('MARKETS(250) with an unreadable item on its only page: one request, 250 places', async () => {
    seen.length = 0;
    const got = await grid(bad, '=CRYPTO.MARKETS(250)');
    assert.equal(got.length, 251);
    assert.equal(got.filter(unreadableRow).length, 1);
    assert.deepEqual(seen.filter((u) => u.startsWith('/v3/currencies/markets')), ['/v3/currencies/markets?limit=250']);
  });
});

test('UNLOCKS(365) over more unlocks than the cap, one unreadable: 1,000 places and the cap note, not the one past the cap as data (lists #3)', async () => {
  const want = await grid(good, '=CRYPTO.UNLOCKS(365)');
  const got = await grid(bad, '=CRYPTO.UNLOCKS(365)');
  assert.match(String(want.at(-1)![0]), /^More unlocks not shown: capped at 1,000 rows/, 'the window holds more than the cap');
  assert.equal(got.length, want.length);
  assert.equal(got.at(-1)![0], want.at(-1)![0]);
  assert.ok(unreadableRow(got[4]), JSON.stringify(got[4]));
  assert.equal(got.filter(unreadableRow).length, 1);
});

describe('MARKETS from the list of currencies (no markets list for the key) whose pages repeat each other (lists #4)', () => {
  let s: Session;
  before(async () => {
    let first: unknown[] = [];
    // The markets route refused; page 2 of the list repeats page 1's first 3 coins however often it is asked.
    const fetching: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      if (url.pathname === '/v3/currencies/markets') {
        const refusal = { error: { code: 'ENDPOINT_NOT_AVAILABLE', message: 'Not available on your plan' } };
        return new Response(JSON.stringify(refusal), { status: 403, headers: { 'Content-Type': 'application/json' } });
      }
      const res = await fetch(input, init);
      if (url.pathname !== '/v3/currencies/list' || res.status !== 200 || url.searchParams.has('currencyIds')) return res;
      const body = (await res.json()) as { data: unknown[] };
      const page = url.searchParams.get('page') ?? '1';
      if (page === '1') first = body.data;
      if (page === '2' && first.length > 3) body.data = [...first.slice(0, 3), ...body.data.slice(0, -3)];
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    s = await frozenSession({ key: 'demo-sandbox', client: { fetch: fetching } });
  });
  after(() => s?.close());

  test('MARKETS(200): the last row says the list moved and coins may be missing, not that the list ends', async () => {
    const g = await grid(s, '=CRYPTO.MARKETS(200,,,,,,,,,"id,rank,name")');
    const ids = g.slice(1, -1).map((r) => r[0]);
    assert.equal(ids.length, 197);
    assert.equal(new Set(ids).size, 197, 'each coin once');
    const last = g.at(-1)![0] as { error: string; message: string };
    assert.equal(last.error, '#N/A');
    assert.match(last.message, /^The list of currencies moved while its pages were read, and again when read once more: 3 coins on two pages are shown once, and as many coins may be missing/);
    assert.doesNotMatch(last.message, /ends after/);
  });
});
