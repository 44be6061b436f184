/**
 * A list item the service answered without some fields is kept, and costs
 * only the cells that read those fields, as a single record does
 * (partial-records.test.ts): its getters throw MISSING_FIELD naming the field,
 * a quote built from it keeps its price and names the rest in `absent`, and a
 * table spills every row with #N/A in that one cell. What an item is filed
 * under (its id) and a quote's price stay required, and a field of the wrong
 * type still rejects the item. Reading, the client over real HTTP, formulas.
 *
 *   node --import tsx --test test/partial-list-items.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import type { MarketItem } from '../src/api/records';
import { readData } from '../src/api/read-data';
import { unwrap } from '../src/client/transport';
import type { Session } from '../src/cli/session';
import { rig, serverMarket, type Rig } from './client-harness';
import { formulaChecks } from './support/formula-checks';
import { frozenSession } from './support/frozen-session';

const MARKETS = ENDPOINTS.markets.path;

/** A fetch whose answers to `path` have their `data` items changed by `edit` (by index; the rest as the server sent them). */
function rewriting(path: RegExp, edit: (items: Record<string, unknown>[], url: URL) => void): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(String(input));
    if (!path.test(url.pathname) || res.status !== 200) return res;
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    if (Array.isArray(body.data)) edit(body.data, url);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}

/** The field's value, or the error reading it throws. */
function reading(x: unknown, field: string): unknown {
  try {
    return (x as Record<string, unknown>)[field];
  } catch (e) {
    return e;
  }
}

const isMissingField = (e: unknown, field: string, path = MARKETS) =>
  e instanceof Error && (e as { code?: string }).code === 'MISSING_FIELD' && e.message === `The API answered without ${field} (${path})`;

const item = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', rank: 1, categoryId: null,
  images: { icon: 'i', x60: 'x60', x150: 'x150', native: 'n' },
  price: '100', marketCap: null, volume24h: '5000', volume24hBase: '50', fullyDilutedValuation: null, high24h: null, low24h: null,
  percentChange: { h24: 1, d7: 2, d30: 3, m3: 4, ytd: 5 }, circulatingSupply: null, totalSupply: null, maxSupply: null,
  isTraded: true, tags: [], ecosystems: [], lastUpdated: null, ...over,
});
const without = (field: string, over: Record<string, unknown> = {}) => {
  const x = item(over);
  delete x[field];
  return x;
};
const page = (data: unknown[]) => unwrap('markets', { status: { timestamp: 1, usedCredits: 1 }, data }, 200);

describe('reading a list', () => {
  test('an item without a field nothing files it under is kept; reading that field throws MISSING_FIELD naming it and the endpoint', () => {
    const data = page([item(), without('images', { id: 2, slug: 'ether' }), item({ id: 3, slug: 'solana' })]);
    const items = data.data as Record<string, unknown>[];
    assert.deepEqual(items.map((x) => x.id), [1, 2, 3]);
    assert.equal(data.rejected, undefined);
    assert.ok(isMissingField(reading(items[1], 'images'), 'images'), String(reading(items[1], 'images')));
    assert.equal(items[1].price, '100', 'its other fields read');
    assert.deepEqual(items[0].images, item().images, 'the other items whole');
  });

  test('a field of an object left out is guarded at its own path', () => {
    const items = page([item({ percentChange: { h24: 1, d30: 3, m3: 4, ytd: 5 } })]).data as Record<string, Record<string, unknown>>[];
    assert.equal(items[0].percentChange.h24, 1);
    assert.ok(isMissingField(reading(items[0].percentChange, 'd7'), 'percentChange.d7'));
  });

  test('an item of the wrong type is still rejected, with its reason; an item without its id or its price is rejected', () => {
    const r = page([item(), item({ id: 2, images: 'none' }), without('id', { slug: 'no-id' }), without('price', { id: 4, slug: 'no-price' })]);
    assert.deepEqual((r.data as { id: number }[]).map((x) => x.id), [1]);
    assert.deepEqual(
      r.rejected?.map((x) => [x.index, x.id, x.field, x.missing, x.message]),
      [
        [1, 2, 'images', false, 'The API answered images in an unexpected form (expected Object)'],
        [2, null, 'id', true, 'The API answered without id'],
        [3, 4, 'price', true, 'The API answered without price'],
      ],
    );
  });

  test('an item without its id is rejected even when other fields are missing too', () => {
    const x = without('id');
    delete x.images;
    const r = page([x]);
    assert.deepEqual(r.rejected?.map((y) => y.field), ['id']);
  });

  test('a well-formed answer passes as it is; in one with a bad item, the good items are the answer\'s own objects', () => {
    const whole = [item(), item({ id: 2 })];
    const r = readData(ENDPOINTS.markets.data, whole, undefined, undefined, true, ['price']);
    assert.ok(r.ok && r.data === whole && r.incomplete === undefined);
    const mixed = [item(), without('images', { id: 2 })];
    const m = page(mixed).data as unknown[];
    assert.equal(m[0], mixed[0]);
    assert.notEqual(m[1], mixed[1], 'the incomplete item is a copy: the answer stays as it came');
  });
});

describe('quotes from a markets page with items missing fields (over HTTP)', () => {
  let r: Rig;
  let listing: MarketItem[];
  before(async () => {
    r = await rig({ rpm: 10_000 });
    ({ listing } = await serverMarket(r));
  });
  after(async () => {
    await r?.close();
  });

  test('PRICE of a coin whose item lacks images, or volume24hBase, is its price; the quote names the field absent; a coin without a price is its own error', async () => {
    const [noImages, noBase, noPrice, plain] = [listing[0], listing[3], listing[5], listing[8]];
    const c = r.client({
      fetch: rewriting(/^\/v3\/currencies\/markets$/, (items) => {
        for (const x of items) {
          if (x.id === noImages.id) delete x.images;
          if (x.id === noBase.id) delete x.volume24hBase;
          if (x.id === noPrice.id) delete x.price;
        }
      }),
    });
    const [a, b, p, d] = await Promise.allSettled([noImages, noBase, noPrice, plain].map((m) => c.quote(m.slug)));
    assert.ok(a.status === 'fulfilled' && b.status === 'fulfilled' && d.status === 'fulfilled', JSON.stringify([a, b, d]));
    assert.equal(a.value.price, Number(noImages.price));
    assert.deepEqual([...(a.value.absent?.fields ?? [])], ['imageUrl']);
    assert.match(a.value.absent!.source, /markets list \(\/v3\/currencies\/markets\)/);
    assert.equal(a.value.volume24hBase, Number(noImages.volume24hBase));
    assert.equal(b.value.price, Number(noBase.price));
    assert.equal(b.value.volume24hBase, null);
    assert.deepEqual([...(b.value.absent?.fields ?? [])], ['volume24hBase']);
    assert.equal(d.value.price, Number(plain.price));
    assert.equal(d.value.absent, undefined);
    assert.ok(p.status === 'rejected' && (p.reason as { code?: string }).code === 'MISSING_FIELD', JSON.stringify(p));
    assert.match((p.reason as Error).message, /^The API answered without price \(/);
  });

  test('from the list of currencies (a key without the markets list): an item without volume24h still gives the price', async () => {
    const noMarkets = await rig({ rpm: 10_000, withoutRoutes: ['markets'] });
    try {
      const coin = listing[2];
      const c = noMarkets.client({
        key: 'demo-sandbox',
        fetch: rewriting(/^\/v3\/currencies\/list$/, (items) => {
          for (const x of items) if (x.id === coin.id) delete x.volume24h;
        }),
      });
      const q = await c.quote(coin.slug);
      assert.equal(q.price, Number(coin.price));
      assert.equal(q.volume24h, null);
      assert.ok(q.absent?.fields.has('volume24h'), JSON.stringify([...(q.absent?.fields ?? [])]));
      assert.ok(q.absent?.fields.has('maxSupply'), 'what the list never carries is still named');
    } finally {
      await noMarkets.close();
    }
  });
});

describe('table formulas over a list with an item missing a shown field', () => {
  let good: Session;
  let bad: Session;
  before(async () => {
    [good, bad] = await Promise.all([
      frozenSession(),
      frozenSession({
        client: {
          fetch: rewriting(/^\/v3\/(currencies\/markets|currencies\/gainers-losers|currencies\/\d+\/historical)$/, (items, url) => {
            if (url.pathname === MARKETS) {
              if ((url.searchParams.get('offset') ?? '0') === '0') delete items[4].volume24h;
            } else if (url.pathname.endsWith('/historical')) {
              if (items.length > 3) delete items[2].close;
            } else if (items.length > 1) delete items[1].price;
          }),
        },
      }),
    ]);
  });
  after(async () => {
    await Promise.all([good?.close(), bad?.close()]);
  });

  const { grid } = formulaChecks(() => good);

  /** Every cell as on the good answer, except `[row, col]`: #N/A whose message matches `message`. */
  async function oneCellMissing(f: string, header: string, row: number, message: RegExp): Promise<void> {
    const want = await grid(f);
    const got = await grid(f, bad);
    const col = want[0].indexOf(header);
    assert.ok(col >= 0, `${header} in ${JSON.stringify(want[0])}`);
    assert.equal(got.length, want.length, 'every row spills');
    for (let r = 0; r < want.length; r++) {
      for (let c = 0; c < want[r].length; c++) {
        if (r === row && c === col) {
          const cell = got[r][c] as { error?: string; message?: string };
          assert.equal(cell.error, '#N/A', JSON.stringify(cell));
          assert.match(cell.message ?? '', message);
        } else assert.deepEqual(got[r][c], want[r][c], `${f} [${r}, ${c}]`);
      }
    }
  }

  test('MARKETS: the coin without volume24h shows its row, #N/A in that cell only', async () => {
    await oneCellMissing('=CRYPTO.MARKETS(12)', 'Volume 24h', 5, /^No volume24h in this coin's item in the markets list \(\/v3\/currencies\/markets\)/);
  });

  test('GAINERS: the mover without a price shows its row, #N/A in that cell only', async () => {
    await oneCellMissing('=CRYPTO.GAINERS("24h",6)', 'Price', 2, /^The API answered without price \(\/v3\/currencies\/gainers-losers\)$/);
  });

  test('OHLCV: the candle without a close shows its row, #N/A in that cell only', async () => {
    await oneCellMissing('=CRYPTO.OHLCV("solana","2024-01-01","2024-01-10")', 'Close', 3, /^The API answered without close \(\/v3\/currencies\/\{id\}\/historical\)$/);
  });
});
