/**
 * CRYPTO.SEARCH on every plan (review-r3 #6), over real HTTP against the local
 * API server: a key without the search endpoint (demo-sandbox; a Pro key the
 * service refuses) is answered from the currency map the client keeps, with no
 * search request and no credit beyond the map's; a cut answer (demo-pro at the
 * search's cap, or more map matches than the cap) ends with a row saying so.
 *
 *   node --import tsx --test test/search-fallback.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ENDPOINTS } from '../src/api/endpoints';
import type { JsonCell } from '../src/cli/calculate';
import type { Session } from '../src/cli/session';
import type { ResponseLogEntry } from '../src/emulator/server';
import { SEARCH_CAP } from '../src/formulas/search';
import { behindHostile } from './support/behind-hostile';
import { formulaChecks } from './support/formula-checks';
import { testSession } from './support/frozen-session';

interface MapItem { id: number; slug: string; symbol: string | null; name: string }

let pro: Session;
const { grid, failure } = formulaChecks(() => pro);
let coins: MapItem[];

/** A Sandbox session whose every answer from the local API server is logged (path, credits). */
async function sandbox(): Promise<{ s: Session; log: ResponseLogEntry[] }> {
  const log: ResponseLogEntry[] = [];
  const s = await testSession({ key: 'demo-sandbox', emulator: { onResponse: (e) => log.push(e) } });
  return { s, log };
}
const asked = (log: readonly ResponseLogEntry[], path: string) => log.filter((e) => e.url.split('?')[0] === path).length;
const credits = (log: readonly ResponseLogEntry[]) => log.reduce((n, e) => n + e.credits, 0);
/** The coin rows of a SEARCH table (its rows with an id: not the header, not a last note row). */
const coinRows = (g: JsonCell[][]) => g.filter((r) => typeof r[4] === 'number');
const noteOf = (g: JsonCell[][]) => (typeof g.at(-1)![4] === 'number' ? null : String(g.at(-1)![0]));

before(async () => {
  pro = await testSession();
  const res = await fetch(`${pro.emulator!.url}${ENDPOINTS.currencyMap.path}`, { headers: { 'X-Api-Key': 'demo-pro' } });
  coins = ((await res.json()) as { data: MapItem[] }).data;
});
after(() => pro.close());

describe('SEARCH without the search endpoint (demo-sandbox)', () => {
  test('answers from the currency map: the map\'s own rows, each matching the query, no search request, one credit (the map)', async () => {
    const { s, log } = await sandbox();
    try {
      const g = await grid('=CRYPTO.SEARCH("sol")', s);
      assert.deepEqual(g[0], ['Rank', 'Name', 'Symbol', 'Slug', 'Id']);
      const rows = coinRows(g);
      assert.ok(rows.length > 1, JSON.stringify(g).slice(0, 300));
      assert.deepEqual(rows[0].slice(1), ['Solana', 'SOL', 'solana', 6], 'the coin whose symbol is the query first');
      const byId = new Map(coins.map((c) => [c.id, c]));
      for (const [, name, symbol, slug, id] of rows) {
        const c = byId.get(id as number);
        assert.ok(c, `id ${id} is in the map`);
        assert.deepEqual([name, symbol === '' ? null : symbol, slug], [c.name, c.symbol, c.slug], `row of ${id} is the map's`);
        assert.ok([c.name, c.slug, c.symbol ?? ''].some((t) => t.toLowerCase().includes('sol')), `${c.slug} matches "sol"`);
      }
      assert.equal(asked(log, ENDPOINTS.search.path), 0, 'the plan gate knew: no search request');
      assert.equal(asked(log, ENDPOINTS.currencyMap.path), 1);
      assert.equal(credits(log), 1, 'the map\'s credit only');
      // Again, and another query: the map is kept, nothing more is spent.
      const before = log.length;
      await grid('=CRYPTO.SEARCH("bitcoin")', s);
      assert.equal(credits(log.slice(before)), 0);
      assert.equal(asked(log.slice(before), ENDPOINTS.currencyMap.path), 0);
    } finally {
      await s.close();
    }
  });

  test('the same coins as the search finds on Pro, ranks as far as the client learned them; a blank rank not known is said in a last row', async () => {
    const { s, log } = await sandbox();
    try {
      const cold = await grid('=CRYPTO.SEARCH("solana")', s);
      const proRows = coinRows(await grid('=CRYPTO.SEARCH("solana")'));
      const ids = (rows: JsonCell[][]) => rows.map((r) => r[4]).sort();
      assert.deepEqual(ids(coinRows(cold)), ids(proRows), 'the same coins');
      assert.ok(coinRows(cold).every((r) => r[0] === ''), 'cold: no rank is known');
      assert.match(noteOf(cold) ?? '', /^Rank is blank where not known yet: the coin search needs the Basic plan or higher, so these rows come from the currency map/);
      // A PRICE cell reads the first page of the markets list: the ranks on it are learned, and shown.
      await grid('=CRYPTO.PRICE("bitcoin")', s);
      const spent = credits(log);
      const warm = coinRows(await grid('=CRYPTO.SEARCH("solana")', s));
      const solana = proRows.find((r) => r[3] === 'solana')!;
      assert.equal(warm.find((r) => r[3] === 'solana')![0], solana[0], 'Solana\'s rank, as the search gives it');
      assert.equal(credits(log), spent, 'ranks cost nothing more');
    } finally {
      await s.close();
    }
  });

  test('more matches than the cap: the best 50, then a row giving how many matched', async () => {
    const { s } = await sandbox();
    try {
      const g = await grid('=CRYPTO.SEARCH("a",0)', s);
      const rows = coinRows(g);
      assert.equal(rows.length, SEARCH_CAP);
      assert.equal(g.length, SEARCH_CAP + 1, 'no header, one note row');
      // The builder's match rules (formulas/coin-search.ts): symbol begins with it, or slug or name holds it.
      const matching = coins.filter((c) => (c.symbol ?? '').toLowerCase().startsWith('a') || c.slug.toLowerCase().includes('a') || c.name.toLowerCase().includes('a')).length;
      assert.ok(matching > SEARCH_CAP);
      assert.match(noteOf(g)!, new RegExp(`^${SEARCH_CAP} of ${matching.toLocaleString('en-US')} matches shown, best first\\. Type more of the name to narrow it\\.`));
      assert.ok(g.at(-1)!.slice(1).every((c) => c === ''), 'the note is in the first cell only');
    } finally {
      await s.close();
    }
  });

  test('nothing matching is one #N/A cell naming the query, as on Pro', async () => {
    const { s } = await sandbox();
    try {
      const g = await grid('=CRYPTO.SEARCH("zzqxw")', s);
      assert.deepEqual(g, [[{ error: '#N/A', message: 'Nothing found for "zzqxw"' }]]);
      assert.deepEqual(g, await grid('=CRYPTO.SEARCH("zzqxw")'));
    } finally {
      await s.close();
    }
  });
});

describe('SEARCH with the search endpoint (demo-pro)', () => {
  test('an answer of exactly the cap ends with a row saying more may match; a shorter one has no such row', async () => {
    const g = await grid('=CRYPTO.SEARCH("a")');
    assert.equal(coinRows(g).length, SEARCH_CAP);
    assert.equal(g.length, SEARCH_CAP + 2, 'header, 50 coins, the note');
    assert.equal(noteOf(g), `${SEARCH_CAP} matches shown, the most the search answers: more coins may match "a". Type more of the name to narrow it.`);
    const few = await grid('=CRYPTO.SEARCH("solana")');
    assert.equal(noteOf(few), null);
    assert.ok(coinRows(few).length < SEARCH_CAP);
  });

  test('the service refusing the search (403, or a 400 refusing the guessed query parameter) is answered from the map; another failure is not', async () => {
    const json = { 'content-type': 'application/json' };
    const refusals = [
      { status: 403, code: 'ENDPOINT_NOT_AVAILABLE', message: 'Endpoint is not available in your plan', why: 'the coin search is not available in your plan' },
      { status: 400, code: 'VALIDATION_ERROR', message: 'property query should not exist', why: 'the service refused the coin search\'s query parameter' },
    ];
    for (const r of refusals) {
      const h = await behindHostile((req) => (req.url.startsWith(ENDPOINTS.search.path)
        ? { status: r.status, headers: json, body: JSON.stringify({ error: { code: r.code, message: r.message, status: r.status } }) }
        : null), { key: 'demo-pro' });
      try {
        const g = await grid('=CRYPTO.SEARCH("solana")', h.session);
        assert.deepEqual(coinRows(g).map((x) => x[3]).sort(), coinRows(await grid('=CRYPTO.SEARCH("solana")')).map((x) => x[3]).sort(), r.code);
        assert.ok(noteOf(g)?.includes(`Rank is blank where not known yet: ${r.why}`), `${r.code}: ${noteOf(g)}`);
        assert.equal(h.hostile.seen.filter((x) => x.url.startsWith(ENDPOINTS.search.path)).length, 1, 'asked once');
      } finally {
        await h.close();
      }
    }
    const broken = await behindHostile((req) => (req.url.startsWith(ENDPOINTS.search.path)
      ? { status: 400, headers: json, body: JSON.stringify({ error: { code: 'VALIDATION_ERROR', message: 'property limit should not exist', status: 400 } }) }
      : null), { key: 'demo-pro' });
    try {
      const out = await failure('=CRYPTO.SEARCH("solana")', broken.session);
      assert.match(out.message, /limit/, 'a refusal of something else is not hidden behind the map');
    } finally {
      await broken.close();
    }
  });

  test('a refusal of the guessed query name holds for the session: the next SEARCH cell is answered from the map without asking the search again', async () => {
    const json = { 'content-type': 'application/json' };
    const refuse = (param: string) => (req: { url: string }) => (req.url.startsWith(ENDPOINTS.search.path)
      ? { status: 400, headers: json, body: JSON.stringify({ error: { code: 'VALIDATION_ERROR', message: `property ${param} should not exist`, status: 400 } }) }
      : null);
    const searches = (h: { hostile: { seen: readonly { url: string }[] } }) => h.hostile.seen.filter((x) => x.url.startsWith(ENDPOINTS.search.path)).length;
    const h = await behindHostile(refuse('query'), { key: 'demo-pro' });
    try {
      const first = await grid('=CRYPTO.SEARCH("solana")', h.session);
      assert.equal(searches(h), 1);
      // Another query (no cached or shared answer): the map, at once, with the same note.
      const second = await grid('=CRYPTO.SEARCH("bitcoin",0)', h.session);
      assert.equal(searches(h), 1, 'the search is not asked again');
      assert.ok(coinRows(second).some((r) => r[3] === 'bitcoin'), JSON.stringify(second).slice(0, 200));
      assert.equal(noteOf(second), noteOf(first), 'the same reason given');
      assert.match(noteOf(second) ?? '', /the service refused the coin search's query parameter/);
    } finally {
      await h.close();
    }
    // Another session knows nothing of it (per session, not per process): it asks.
    const next = await behindHostile(refuse('query'), { key: 'demo-pro' });
    try {
      await grid('=CRYPTO.SEARCH("bitcoin",0)', next.session);
      assert.equal(searches(next), 1);
    } finally {
      await next.close();
    }
    // A refusal of another name is the formula's failure, as before: not remembered, asked each time.
    const other = await behindHostile(refuse('limit'), { key: 'demo-pro' });
    try {
      for (const q of ['solana', 'bitcoin']) assert.match((await failure(`=CRYPTO.SEARCH("${q}")`, other.session)).message, /limit/);
      assert.equal(searches(other), 2);
    } finally {
      await other.close();
    }
  });
});
