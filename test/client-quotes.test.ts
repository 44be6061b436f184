/**
 * Coins and quotes over real HTTP against the emulator: resolution (id, slug,
 * symbol, name, prefixes), ambiguous symbols, suggestions, the persisted
 * currency map, and quote batching (many cells → few requests).
 *
 *   node --import tsx --test test/client-quotes.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { ENDPOINTS } from '../src/api/endpoints';
import type { CurrencyMapItem, MarketItem } from '../src/api/records';
import { ApiError, MarketClient, MemoryKeyStore, MemoryKvStore, PERSIST_DELAY_MS, type Quote } from '../src/client/index';
import { startEmulator } from '../src/emulator/server';
import { WALK_PAGE_CAP } from '../src/client/batch-fetch';
import { MAP_MAX_RETRIES } from '../src/client/client-options';
import { SECRETS, consoleOutput, market, rejects, rig, seenErrors, serverData, serverMarket, type Rig } from './client-harness';

const MAP = ENDPOINTS.currencyMap.path;
const MARKETS = ENDPOINTS.markets.path;
const STATUS = ENDPOINTS.status.path;
const PROFILE = '/v3/currencies/';

let r: Rig;
/** The market as the server lists it, read directly (not through the client). */
let coins: CurrencyMapItem[];
let listing: MarketItem[];

const raw = <T>(path: string): Promise<T> => serverData<T>(r, path);

before(async () => {
  r = await rig({ rpm: 10_000 });
  ({ coins, listing } = await serverMarket(r));
  r.log.length = 0;
});
after(async () => {
  await r.close();
});

const count = (path: string, since = 0) => r.log.slice(since).filter((e) => e.url.split('?')[0] === path).length;

describe('resolution', () => {
  test('id, digits, slug, symbol, name, any case, prefixes', async () => {
    const c = r.client();
    const btc = coins.find((x) => x.slug === 'bitcoin')!;
    for (const input of [btc.id, String(btc.id), ' Bitcoin ', 'BITCOIN', 'btc', 'BTC', 'id:' + btc.id, 'slug:bitcoin', 'symbol:btc', 'name:bitcoin']) {
      const ref = await c.resolveCoin(input);
      assert.equal(ref.id, btc.id, `input ${JSON.stringify(input)}`);
    }
    assert.equal(count(MAP), 1, 'the map is fetched once');
    await rejects(c.resolveCoin('slug:BTC'), 'UNKNOWN_COIN'); // BTC is a symbol, not a slug
  });

  test('unknown coin: UNKNOWN_COIN naming the input and the closest suggestions', async () => {
    const c = r.client();
    const e = await rejects(c.resolveCoin('bitcoinn'), 'UNKNOWN_COIN');
    assert.match(e.message, /^Unknown coin "bitcoinn"\. Did you mean bitcoin \(BTC\)/);
    assert.equal(e.suggestions?.[0].slug, 'bitcoin');
    assert.ok((e.suggestions?.length ?? 0) <= 3);
    const e2 = await rejects(c.resolveCoin('etherium'), 'UNKNOWN_COIN');
    assert.equal(e2.suggestions?.[0].slug, 'ethereum');
    const e3 = await rejects(c.resolveCoin(99_999_999), 'UNKNOWN_COIN');
    assert.match(e3.message, /99999999/);
    const all = await Promise.all(['eth', 'nope-coin-zz', 2].map((i) => c.resolveCoin(i).catch((e: unknown) => e)));
    assert.equal((all[0] as { slug: string }).slug, 'ethereum');
    assert.ok(all[1] instanceof ApiError && all[1].code === 'UNKNOWN_COIN');
    seenErrors.push(all[1] as ApiError);
  });

  test('unknown coin: the coin the user most likely meant is suggested first (review F8), ranks known or not', async () => {
    const cases: [string, string, RegExp][] = [
      ['bitcon', 'bitcoin', /Did you mean bitcoin \(BTC\)/],
      ['bitocin', 'bitcoin', /Did you mean bitcoin \(BTC\)/],
      ['solano', 'solana', /Did you mean solana \(SOL\)/],
      ['etherium', 'ethereum', /Did you mean ethereum \(ETH\)/],
    ];
    const cold = r.client(); // no rank known yet: nearness alone
    const warm = r.client();
    await warm.quote('bitcoin'); // reads the first page of the markets list: the top coins' ranks
    for (const c of [cold, warm]) {
      for (const [input, first, message] of cases) {
        const e = await rejects(c.resolveCoin(input), 'UNKNOWN_COIN');
        assert.equal(e.suggestions?.[0]?.slug, first, `${input}: ${e.message}`);
        assert.match(e.message, message);
        assert.ok((e.suggestions?.length ?? 0) <= 3);
      }
    }
  });

  test('an ambiguous symbol resolves to the higher-ranked coin and is recorded', async () => {
    // find every symbol the map holds more than once, and the expected winner from the listing
    const bySymbol = new Map<string, CurrencyMapItem[]>();
    for (const x of coins) if (x.symbol) bySymbol.set(x.symbol.toUpperCase(), [...(bySymbol.get(x.symbol.toUpperCase()) ?? []), x]);
    const dups = [...bySymbol].filter(([, xs]) => xs.length > 1);
    assert.ok(dups.length >= 2, 'the market has colliding symbols');
    const rankOf = new Map(listing.map((m) => [m.id, m.rank]));
    // A server whose map lists coins in reverse order: "first in the map" would now pick the worse coin.
    const base = await market();
    const reversed = await rig({
      rpm: 10_000,
      market: { handlers: { ...base.handlers, currencyMap: (q) => { const res = base.handlers.currencyMap(q); return { ...res, data: [...(res.data as unknown[])].reverse() }; } } },
    });
    try {
    const c = reversed.client();
    for (const [symbol, xs] of dups) {
      const best = [...xs].sort((a, b) => (rankOf.get(a.id) ?? Infinity) - (rankOf.get(b.id) ?? Infinity) || a.id - b.id)[0];
      const worst = xs.find((x) => x.id !== best.id)!;
      const got = await c.resolveCoin(symbol);
      assert.equal(got.id, best.id, `${symbol}: expected ${best.slug} (rank ${rankOf.get(best.id)}), not ${worst.slug} (rank ${rankOf.get(worst.id)})`);
      const amb = c.ambiguities.find((a) => a.input.toLowerCase() === symbol.toLowerCase());
      assert.ok(amb, `${symbol} recorded`);
      assert.equal(amb.chosen.id, best.id);
      assert.ok(amb.alternatives.some((a) => a.id === worst.id));
      assert.equal(amb.at, reversed.em.clock.now());
    }
    const pepe = await c.resolveCoin('PEPE');
    assert.equal(pepe.slug, 'pepe');
    assert.equal((await c.resolveCoin('symbol:pepe')).slug, 'pepe');
    assert.equal((await c.resolveCoin('pepe-classic')).slug, 'pepe-classic', 'a slug still names exactly one coin');
    assert.equal((await c.quote('PEPE')).slug, 'pepe', 'the quote is for the real PEPE');
    } finally {
      await reversed.close();
    }
  });

  test('the currency map persists: a second client on the same storage spends nothing on it', async () => {
    const storage = new MemoryKvStore();
    const since = r.log.length;
    const a = r.client({ storage });
    await a.resolveCoin('ethereum');
    assert.equal((await a.resolveCoin('UNI')).slug, 'uniswap'); // ambiguous: reads markets page 1, learns ranks
    assert.equal(count(MAP, since), 1);
    assert.equal(count(MARKETS, since), 1);
    await new Promise((res) => setTimeout(res, PERSIST_DELAY_MS + 20)); // let the map and the rank book save
    const b = r.client({ storage });
    assert.equal((await b.resolveCoin('ETH')).slug, 'ethereum');
    assert.equal((await b.resolveCoin('solana')).slug, 'solana');
    assert.equal((await b.resolveCoin('UNI')).slug, 'uniswap');
    assert.equal(count(MAP, since), 1, 'same day, same storage: no second map request');
    assert.equal(count(MARKETS, since), 1, 'learned ranks persisted with the map: no markets request to settle UNI');
    for (const k of storage.keys()) for (const s of SECRETS) assert.ok(!(await storage.get(k))!.includes(s));
    assert.equal(b.meter.snapshot().byEndpoint.currencyMap, undefined);
    // a day later the map is fetched again
    r.em.clock.advance(24 * 3_600_000 + 1);
    const c = r.client({ storage });
    await c.resolveCoin('bitcoin');
    assert.equal(count(MAP, since), 2);
    // refreshAll keeps the persisted map unless includeReference
    c.refreshAll();
    await c.resolveCoin('dogecoin');
    assert.equal(count(MAP, since), 2);
    c.refreshAll({ includeReference: true });
    await c.resolveCoin('dogecoin');
    assert.equal(count(MAP, since), 3);
  });
});

describe('quotes', () => {
  test('500 quote calls for the top 300 by slug/symbol/id → 1 map + 2 markets pages + 1 status', async () => {
    r.em.clock.advance(3_600_000); // fresh start: nothing cached server- or client-side matters
    const c = r.client();
    const since = r.log.length;
    const top = listing.slice(0, 300);
    const inputs: (string | number)[] = [];
    for (let i = 0; i < 500; i++) {
      const m = top[i % 300];
      inputs.push(i % 3 === 0 ? m.slug : i % 3 === 1 && m.symbol ? m.symbol.toLowerCase() : m.id);
    }
    const t0 = performance.now();
    const quotes = await Promise.all(inputs.map((x, i) => c.quote(x, { caller: `Sheet1!A${i + 1}` })));
    const ms = performance.now() - t0;
    assert.equal(count(MAP, since), 1);
    assert.equal(count(MARKETS, since), 2);
    assert.equal(count(STATUS, since), 1);
    assert.equal(r.log.length - since, 4, r.log.slice(since).map((e) => e.url).join(', '));
    assert.equal(c.meter.snapshot().requests, 4);
    // compare with the server's own listing at the same instant
    const requests = r.log.length - since;
    const now0 = await raw<MarketItem[]>(`${MARKETS}?limit=250`);
    const now1 = await raw<MarketItem[]>(`${MARKETS}?limit=250&offset=250`);
    const truth = new Map([...now0, ...now1].map((m) => [m.id, m]));
    quotes.forEach((q, i) => {
      const m = truth.get(top[i % 300].id)!;
      assert.equal(q.id, m.id);
      assert.equal(q.price, Number(m.price));
      assert.equal(q.marketCap, m.marketCap === null ? null : Number(m.marketCap));
      assert.equal(q.change24h, m.percentChange.h24);
      assert.equal(q.rank, m.rank);
      assert.equal(q.currency, 'USD');
      assert.equal(q.stale, false);
    });
    const meter = c.meter.snapshot();
    assert.equal(meter.credits, 3);
    console.log(`# 500 quotes (top 300): ${requests} HTTP requests, ${meter.credits} credits, ${ms.toFixed(0)} ms`);
    // a later cell for any coin of those pages costs nothing
    const before = r.log.length;
    const q = await c.quote(listing[420].slug);
    assert.equal(q.price, Number(truth.get(listing[420].id)!.price));
    assert.equal(q.id, listing[420].id);
    assert.equal(r.log.length, before);
  });

  test('known ranks fetch exactly their pages, concurrently; EUR uses its own pages', async () => {
    const c = r.client();
    await c.quote(listing[0].id); // learns page 1
    const since = r.log.length;
    r.em.clock.advance(61_000); // quotes expire; ranks stay known
    const far = [listing[0], listing[260], listing[1100]];
    // teach the pages of the far coins without quoting them
    await c.get('markets', { query: { limit: 250, offset: 250 } });
    await c.get('markets', { query: { limit: 250, offset: 1000 } });
    r.em.clock.advance(61_000);
    const mark = r.log.length;
    const qs = await Promise.all(far.map((m) => c.quote(m.slug)));
    const urls = r.log.slice(mark).map((e) => e.url).sort();
    assert.deepEqual(urls, [`${MARKETS}?limit=250`, `${MARKETS}?limit=250&offset=1000`, `${MARKETS}?limit=250&offset=250`]);
    assert.deepEqual(qs.map((q) => q.id), far.map((m) => m.id));
    const eur = await Promise.all(far.map((m) => c.quote(m.id, { currency: 'EUR' })));
    assert.ok(eur.every((q) => q.currency === 'EUR'));
    assert.ok(r.log.slice(mark).filter((e) => e.url.includes('convert=EUR')).length === 3);
    assert.ok(eur[0].price !== qs[0].price, 'EUR price differs from USD');
    assert.ok(since >= 0);
  });

  test('coins outside the listing walk the pages once, then go straight to their profile', async () => {
    const listed = new Set(listing.map((m) => m.id));
    const unlisted = coins.filter((x) => !listed.has(x.id)).slice(0, 3);
    assert.equal(unlisted.length, 3);
    const c = r.client();
    const since = r.log.length;
    const qs: Quote[] = await Promise.all(unlisted.map((x) => c.quote(x.id)));
    const pages = count(MARKETS, since);
    assert.ok(pages >= 2 && pages <= WALK_PAGE_CAP, `walked ${pages} pages`);
    assert.equal(r.log.slice(since).filter((e) => /^\/v3\/currencies\/\d+(\?|$)/.test(e.url)).length, 3, 'one profile each');
    assert.ok(qs.every((q) => q.isTraded === false ? q.price === null : true));
    r.em.clock.advance(61_000);
    const mark = r.log.length;
    await Promise.all(unlisted.map((x) => c.quote(x.id)));
    assert.equal(count(MARKETS, mark), 0, 'remembered as unlisted: no walk');
    assert.equal(r.log.slice(mark).filter((e) => e.url.startsWith(PROFILE)).length, 3);
  });

  test('a failed batch settles every waiting caller', async () => {
    const c = r.client({ maxRetries: 1 });
    await c.status();
    r.em.faults.queue({ kind: '500', times: MAP_MAX_RETRIES + 1, path: MARKETS }); // a markets page's every try (client.ts SHARED)
    await c.resolveCoin('bitcoin'); // map loaded
    const results = await Promise.allSettled(listing.slice(0, 40).map((m) => c.quote(m.id)));
    assert.ok(results.every((x) => x.status === 'rejected'), 'all rejected, none left pending');
    for (const x of results) {
      const e = (x as PromiseRejectedResult).reason as ApiError;
      assert.equal(e.code, 'INTERNAL_ERROR');
      seenErrors.push(e);
    }
  });
});

describe('a cold start: the first markets page beside the map', () => {
  // Real latency, long enough that requests sent together are all out before any answer is back. Round trips
  // are read on the client's side, from when it asked and when it had the answer: the API server here shares
  // the test's thread and builds its answers one after another, so when a request reached it says how busy
  // the machine was, not when the client asked (a loaded CI machine spread 7 pages over 750 ms that way).
  const LATENCY = 300;
  /** A request as the client saw it: when it was handed to fetch, and when its answer was handed back. */
  interface Seen { url: string; asked: number; got: number }
  /** Every request of the group was asked before any of the group's answers was back: one round trip. */
  const together = (group: readonly Seen[]) => Math.max(...group.map((x) => x.asked)) < Math.min(...group.map((x) => x.got));
  /**
   * fetch with the answers to `path` handed over `lagMs` late (the other answers as they come), noting in
   * `asked` each URL (path and query) as it is handed to fetch, and when; and in `seen` each answered one.
   */
  function lagging(path: string | null, lagMs: number, asked?: { url: string; at: number }[], seen?: Seen[]): typeof fetch {
    return async (input, init) => {
      const u = new URL(String(input));
      const at = performance.now();
      asked?.push({ url: u.pathname + u.search, at });
      const res = await fetch(input, init);
      if (u.pathname === path) await new Promise((r) => setTimeout(r, lagMs));
      seen?.push({ url: u.pathname + u.search, asked: at, got: performance.now() });
      return res;
    };
  }

  /** Inputs, or how to read them from the server the fill runs against (its clock orders the list). */
  type Inputs = readonly (string | number)[] | ((origin: string) => Promise<readonly (string | number)[]>);

  async function coldFill(given: Inputs, o: { withoutRoutes?: ['markets']; key?: string; mapLagMs?: number } = {}) {
    const seen: Seen[] = [];
    const em = await startEmulator({ market: await market(), latency: LATENCY, withoutRoutes: o.withoutRoutes });
    try {
      const inputs = typeof given === 'function' ? await given(em.url) : given;
      // The map's answer handed over late, when asked: the first page has then always arrived before the batch forms.
      const c = new MarketClient({ baseUrl: em.url, keyStore: new MemoryKeyStore(o.key ?? 'demo-pro'), storage: new MemoryKvStore(), fetch: lagging(o.mapLagMs ? MAP : null, o.mapLagMs ?? 0, undefined, seen) });
      const quotes = await Promise.all(inputs.map((x) => c.quote(x)));
      return { quotes, seen, credits: c.meter.snapshot().credits, path: (u: string) => u.split('?')[0] };
    } finally {
      await em.close();
    }
  }

  test('quotes of coins typed as text: page 1 goes with the map, every other page one round trip later; credits unchanged', async () => {
    // Every listed coin: the walk after the map needs the other pages at once, not a further step for the last.
    const { quotes, seen, credits } = await coldFill(listing.map((m) => m.slug), { mapLagMs: 100 });
    assert.equal(quotes.length, listing.length);
    const pages = Math.ceil(listing.length / 250);
    const map = seen.find((x) => x.url.startsWith(MAP))!;
    const first = seen.find((x) => x.url === `${MARKETS}?limit=250`)!;
    assert.ok(together([map, first]), 'the first page was asked with the map, before its answer');
    const rest = seen.filter((x) => x.url.startsWith(MARKETS) && x !== first);
    assert.equal(rest.length, pages - 1, seen.map((x) => x.url).join(', '));
    assert.ok(rest.every((x) => x.asked >= map.got), 'the other pages wait for the map (their coins are known from it)');
    assert.ok(together(rest), 'the other pages in one round trip: the walk goes on from the second page at once');
    assert.equal(credits, 1 + pages, 'the map and each page once, as without the probe: the first page is not asked twice');
  });

  test('quotes of coins given by id: the pages that many ids fill go with the map, not a round trip later; credits unchanged', async () => {
    // Each id is a different coin without the map: N of them take the first ceil(N / 250) pages of the walk anyway.
    // The map handed over well after /v3/status, whose answer (a Pro key's rate) lets the pages past the first go.
    const { quotes, seen, credits } = await coldFill(listing.map((m) => m.id), { mapLagMs: 400 });
    assert.deepEqual(quotes.map((q) => q.id), listing.map((m) => m.id));
    const pages = Math.ceil(listing.length / 250);
    const map = seen.find((x) => x.url.startsWith(MAP))!;
    const all = seen.filter((x) => x.url.startsWith(MARKETS));
    assert.equal(all.length, pages, seen.map((x) => x.url).join(', '));
    assert.ok(all.every((x) => x.asked < map.got), 'every page asked before the map was in');
    assert.equal(credits, 1 + pages, 'the map and each page once');
  });

  test('quotes of coins given by id: the first page and the map are read only once the pages sent ahead of them are written', async () => {
    // When Node's fetch wrote each request to its socket (undici's diagnostics channel), and when each answer's
    // body was first read. The three first answers come back together; the first page and the map are handed
    // over as the pages past the first are asked: reading them then would hold the event loop turns those pages'
    // new connections need (cold-start.ts).
    const written = new Map<string, number>();
    const onHeaders = (m: unknown) => void written.set((m as { request: { path: string } }).request.path, performance.now());
    const bodyRead = new Map<string, number>();
    let aheadAsked!: () => void;
    const ahead = new Promise<void>((r) => (aheadAsked = r));
    // /v3/status handed over once the first page and the map are in too, as when the three come back together.
    const arrived: string[] = [];
    let bothIn!: () => void;
    const both = new Promise<void>((r) => (bothIn = r));
    const watching: typeof fetch = async (input, init) => {
      const u = new URL(String(input));
      const url = u.pathname + u.search;
      if (url.includes('offset=250')) aheadAsked();
      const res = await fetch(input, init);
      if (url === MAP || url === `${MARKETS}?limit=250`) {
        arrived.push(url);
        if (arrived.length === 2) bothIn();
        await ahead;
      } else if (url === STATUS) await both;
      const source = res.body!.getReader();
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(ctl) {
            if (!bodyRead.has(url)) bodyRead.set(url, performance.now());
            const { done, value } = await source.read();
            if (done) ctl.close();
            else ctl.enqueue(value);
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { status: res.status, headers: res.headers });
    };
    diagnostics.subscribe('undici:client:sendHeaders', onHeaders);
    const em = await startEmulator({ market: await market(), latency: LATENCY });
    try {
      const c = new MarketClient({ baseUrl: em.url, keyStore: new MemoryKeyStore('demo-pro'), storage: new MemoryKvStore(), fetch: watching });
      const quotes = await Promise.all(listing.map((m) => c.quote(m.id)));
      assert.deepEqual(quotes.map((q) => q.id), listing.map((m) => m.id));
      const pages = [...written].filter(([u]) => u.startsWith(`${MARKETS}?`) && u.includes('offset='));
      assert.equal(pages.length, Math.ceil(listing.length / 250) - 1, pages.map(([u]) => u).join(', '));
      const lastWritten = Math.max(...pages.map(([, at]) => at));
      for (const url of [MAP, `${MARKETS}?limit=250`]) {
        const at = bodyRead.get(url);
        assert.ok(at !== undefined && at > lastWritten, `${url} read ${((at ?? NaN) - lastWritten).toFixed(1)} ms after the last page ahead was written`);
      }
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', onHeaders);
      await em.close();
    }
  });

  test("a Sandbox key's ids: no page past the first before the map (10 requests a minute, and a live one has no markets list)", async () => {
    for (const withoutRoutes of [undefined, ['markets'] as ['markets']]) {
      const { seen } = await coldFill(listing.slice(0, 600).map((m) => m.id), { key: 'demo-sandbox', mapLagMs: 400, withoutRoutes });
      const map = seen.find((x) => x.url.startsWith(MAP))!;
      const early = seen.filter((x) => x.url.startsWith(MARKETS) && x.url !== `${MARKETS}?limit=250` && x.asked < map.got);
      assert.deepEqual(early.map((x) => x.url), [], `${withoutRoutes ? 'no markets route' : 'Sandbox'}: ${seen.map((x) => x.url).join(', ')}`);
      if (withoutRoutes) assert.equal(seen.filter((x) => x.url.startsWith(MARKETS)).length, 1, 'one 404 learns there is no markets list');
    }
  });

  test('one coin left after the page read beside the map costs its profile, not a page more as well', async () => {
    // 249 coins of the first page, and one from the list's end: the first page beside the map, then one coin missing.
    // Read from the fill's own server: its clock, not the rig's frozen one, orders the list.
    let deep = NaN;
    const inputs = async (origin: string) => {
      const page = async (offset: number) => {
        const res = await fetch(`${origin}${MARKETS}?limit=250&offset=${offset}`, { headers: { 'X-Api-Key': 'demo-pro' } });
        return ((await res.json()) as { data: MarketItem[] }).data;
      };
      const last = (await page(Math.floor((listing.length - 1) / 250) * 250)).at(-1)!;
      deep = last.id;
      return [...(await page(0)).slice(0, 249).map((m) => m.slug), last.slug];
    };
    const { quotes, seen, credits } = await coldFill(inputs, { mapLagMs: 100 });
    assert.equal(quotes.at(-1)?.id, deep);
    const pages = seen.filter((x) => x.url.startsWith(MARKETS)).map((x) => x.url);
    assert.deepEqual(pages, [`${MARKETS}?limit=250`], 'no second page for one coin');
    assert.equal(credits, 3, 'the map, the first page and one profile: as a walk without the page beside the map');
  });

  test("the quotes' batch leaves as the map arrives, before the cells waiting on the map hear of it", async () => {
    // URL → when Node's fetch wrote the request to its socket (undici's diagnostics channel): asked is not sent.
    const written = new Map<string, number>();
    const onHeaders = (m: unknown) => {
      const r = (m as { request: { path: string } }).request;
      written.set(r.path, performance.now());
    };
    diagnostics.subscribe('undici:client:sendHeaders', onHeaders);
    const em = await startEmulator({ market: await market(), latency: 50 });
    try {
      const asked: { url: string; at: number }[] = [];
      // The map handed over late (as in coldFill): the first page, asked beside it, is always back by then.
      const c = new MarketClient({ baseUrl: em.url, keyStore: new MemoryKeyStore('demo-pro'), storage: new MemoryKvStore(), fetch: lagging(MAP, 100, asked) });
      const slugs = listing.map((m) => m.slug);
      const quotes = Promise.all(slugs.map((x) => c.quote(x)));
      // A cell of the same coin, resolving only: it hears of the map when every waiting cell does.
      const heard = c.resolveCoin(slugs[slugs.length - 1]).then(() => performance.now());
      await quotes;
      const second = asked.find((a) => a.url === `${MARKETS}?limit=250&offset=250`)?.at;
      assert.ok(second !== undefined, asked.map((a) => a.url).join(', '));
      assert.ok(second < (await heard), `page 2 asked ${(second - (await heard)).toFixed(1)} ms after the cells heard of the map: it should leave before them, not after them and a quiet moment`);
      // In Node a new connection needs turns of the event loop before its request is written, which waking cells would hold.
      const pages = [...written].filter(([u]) => u.startsWith(`${MARKETS}?`) && u.includes('offset='));
      assert.equal(pages.length, Math.ceil(listing.length / 250) - 1, pages.map(([u]) => u).join(', '));
      for (const [u, at] of pages) assert.ok(at < (await heard), `${u} written ${(at - (await heard)).toFixed(1)} ms after the cells heard of the map`);
      assert.equal(c.meter.snapshot().credits, 1 + Math.ceil(listing.length / 250), 'the map and each page once');
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', onHeaders);
      await em.close();
    }
  });

  test('a batch sent as the map arrives waits for the first page still on its way: a key without the markets list asks no further page', async () => {
    const em = await startEmulator({ market: await market(), latency: LATENCY, withoutRoutes: ['markets'] });
    try {
      const asked: { url: string; at: number }[] = [];
      // The markets route's refusal handed over late: the map is in first, and the batch goes before the 404 is known.
      const c = new MarketClient({ baseUrl: em.url, keyStore: new MemoryKeyStore('demo-sandbox'), storage: new MemoryKvStore(), fetch: lagging(MARKETS, 100, asked) });
      const quotes = await Promise.all(listing.slice(0, 300).map((m) => c.quote(m.slug)));
      assert.ok(quotes.every((q) => typeof q.price === 'number'));
      const markets = asked.filter((a) => a.url.split('?')[0] === MARKETS).map((a) => a.url);
      assert.deepEqual(markets, [`${MARKETS}?limit=250`], 'the first page only: the refusal it brought says the others would be refused too');
    } finally {
      await em.close();
    }
  });

  test('without the markets route, the 404 is learned beside the map and the list of currencies follows at once', async () => {
    const { quotes, seen } = await coldFill(listing.slice(0, 30).map((m) => m.slug), { withoutRoutes: ['markets'], key: 'demo-sandbox' });
    assert.ok(quotes.every((q) => typeof q.price === 'number'));
    const tried = seen.filter((x) => x.url.startsWith(MARKETS));
    assert.equal(tried.length, 1, 'the route is tried once');
    const map = seen.find((x) => x.url.startsWith(MAP))!;
    assert.ok(together([map, tried[0]]), 'the markets route was tried with the map, before its answer');
    const lists = seen.filter((x) => x.url.startsWith('/v3/currencies/list'));
    assert.ok(lists.length > 0 && together(lists), seen.map((x) => x.url).join(', '));
    assert.equal(seen.length, 2 + 1 + lists.length, 'status, map, the one try, the lists: nothing else');
  });

  test('no quote waiting on the map, no markets page: a coin resolved for its history costs the map alone', async () => {
    const em = await startEmulator({ market: await market() });
    try {
      const c = new MarketClient({ baseUrl: em.url, keyStore: new MemoryKeyStore('demo-pro'), storage: new MemoryKvStore() });
      await Promise.all([c.resolveCoin('bitcoin'), c.resolveCoin('ethereum')]);
      const u = em.usage('demo-pro');
      assert.equal(u.byPath[MAP]?.requests, 1);
      assert.equal(u.byPath[MARKETS], undefined);
    } finally {
      await em.close();
    }
  });
});

describe('the key stays secret', () => {
  test('not in errors, console, meter', () => {
    for (const e of seenErrors) for (const s of SECRETS) assert.ok(!JSON.stringify(e).includes(s) && !e.message.includes(s));
    for (const line of consoleOutput) for (const s of SECRETS) assert.ok(!line.includes(s));
  });
});
