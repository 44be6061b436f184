/**
 * A single record (profile, tokenomics, global, ...) answered without a field
 * the formulas need costs only the cells that read that field: the field
 * alone is #N/A "The API answered without <field> (<endpoint>)", the
 * Field/Value table shows that value cell as #N/A and every other row intact,
 * and the pane's error log names the field and the endpoint. A field of the
 * wrong type still fails the whole record (strict core). A profile converted
 * at the fiat rate (PROFILE in GBP) keeps the same cells: its copy keeps the
 * missing fields' guards. Over real HTTP: the local API server's answers are
 * rewritten in flight.
 *
 *   node --import tsx --test test/partial-records.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import { readData } from '../src/api/read-data';
import type { Profile } from '../src/api/records';
import { guardMissing } from '../src/client/missing-fields';
import { quoteFromProfile } from '../src/client/quote';
import { CellError } from '../src/formulas/cells';
import { convertProfile } from '../src/formulas/currency';
import { QUOTE_FIELDS } from '../src/formulas/quote-fields';
import { calculate, type JsonCell } from '../src/cli/calculate';
import type { Session } from '../src/cli/session';
import { frozenSession } from './support/frozen-session';

/** A fetch that lets `rewrite` change the `data` record of answers whose path matches. */
function rewritingFetch(path: RegExp, rewrite: (data: Record<string, unknown>) => void): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!path.test(new URL(String(input)).pathname) || res.status !== 200) return res;
    const body = (await res.json()) as { data: Record<string, unknown> };
    rewrite(body.data);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}

const PROFILE = /^\/v3\/currencies\/\d+$/;
const GLOBAL = /^\/v3\/global\/market$/;
let good: Session;
let bad: Session;
let wrong: Session;
before(async () => {
  [good, bad, wrong] = await Promise.all([
    frozenSession(),
    frozenSession({
      client: {
        fetch: async (input, init) => {
          const p = new URL(String(input)).pathname;
          const f = PROFILE.test(p)
            ? rewritingFetch(PROFILE, (d) => {
                delete d.pricePercentChange; // a required object: its five fields
                delete d.slug; // a required scalar
              })
            : rewritingFetch(GLOBAL, (d) => {
                delete d.totalMarketCap;
              });
          return f(input, init);
        },
      },
    }),
    frozenSession({ client: { fetch: rewritingFetch(PROFILE, (d) => void (d.slug = 42)) } }),
  ]);
});
after(async () => {
  await Promise.all([good?.close(), bad?.close(), wrong?.close()]);
});

async function value(s: Session, f: string): Promise<JsonCell[][]> {
  const out = await calculate(s.host, f);
  assert.ok('value' in out, `${f}: ${JSON.stringify(out)}`);
  return out.value;
}

const isError = (c: JsonCell): c is { error: string; message: string } => typeof c === 'object' && c !== null && 'error' in c;

describe('a single record answered without a field the formulas need', () => {
  test('a field the answer has still reads: PROFILE(coin,"id") and (coin,"price")', async () => {
    for (const field of ['id', 'price', 'name', 'marketCap']) {
      const want = await value(good, `=CRYPTO.PROFILE("bitcoin","${field}")`);
      assert.ok(!isError(want[0][0]), `${field} is a value on the good answer`);
      assert.deepEqual(await value(bad, `=CRYPTO.PROFILE("bitcoin","${field}")`), want, field);
    }
  });

  test('the missing field alone is #N/A naming it and the endpoint', async () => {
    for (const [field, missing] of [['slug', 'slug'], ['pricePercentChange.h24', 'pricePercentChange'], ['pricePercentChange.d7', 'pricePercentChange']]) {
      const out = await calculate(bad.host, `=CRYPTO.PROFILE("bitcoin","${field}")`);
      assert.ok('error' in out, `${field}: ${JSON.stringify(out)}`);
      assert.equal(out.error, '#N/A');
      assert.equal(out.message, `The API answered without ${missing} (${ENDPOINTS.profile.path})`);
    }
  });

  test('the Field/Value table: those value cells are #N/A, every other row intact', async () => {
    const want = await value(good, '=CRYPTO.PROFILE("bitcoin")');
    const got = await value(bad, '=CRYPTO.PROFILE("bitcoin")');
    assert.equal(got.length, want.length);
    let errors = 0;
    for (let r = 0; r < want.length; r++) {
      const name = want[r][0] as string;
      assert.equal(got[r][0], name, 'field names unchanged');
      if (name === 'slug' || name.startsWith('pricePercentChange.')) {
        const cell = got[r][1];
        assert.ok(isError(cell), `${name}: ${JSON.stringify(cell)}`);
        assert.equal(cell.error, '#N/A');
        assert.match(cell.message, new RegExp(`^The API answered without ${name === 'slug' ? 'slug' : 'pricePercentChange'} \\(/v3/currencies/\\{id\\}\\)$`));
        errors++;
      } else {
        assert.deepEqual(got[r], want[r], name);
      }
    }
    assert.equal(errors, 6);
  });

  test('GLOBAL: the whole table keeps every row but totalMarketCap', async () => {
    const want = await value(good, '=CRYPTO.GLOBAL()');
    const got = await value(bad, '=CRYPTO.GLOBAL()');
    assert.equal(got.length, want.length);
    for (let r = 0; r < want.length; r++) {
      if (want[r][0] === 'totalMarketCap') {
        const cell = got[r][1];
        assert.ok(isError(cell) && cell.message === `The API answered without totalMarketCap (${ENDPOINTS.globalMarket.path})`, JSON.stringify(cell));
      } else {
        assert.deepEqual(got[r], want[r], String(want[r][0]));
      }
    }
    const one = await calculate(bad.host, '=CRYPTO.GLOBAL("totalMarketCap")');
    assert.ok('error' in one && one.error === '#N/A', JSON.stringify(one));
  });

  test("the pane's error log names the field and the endpoint", () => {
    const logged = bad.host.errors().filter((e) => /without (slug|pricePercentChange|totalMarketCap)/.test(e.message));
    assert.ok(logged.some((e) => e.code === 'MISSING_FIELD' && e.message.includes(ENDPOINTS.profile.path)), JSON.stringify(logged));
    assert.ok(logged.some((e) => e.formula === 'PROFILE' && e.code === '#N/A'), JSON.stringify(logged));
  });

  test('a field of the wrong type still fails the whole record', async () => {
    const out = await calculate(wrong.host, '=CRYPTO.PROFILE("bitcoin","id")');
    assert.ok('error' in out, JSON.stringify(out));
    assert.match(out.message, /slug/);
  });
});

describe('reading a single record', () => {
  const profile = { id: 1, name: 'X', type: 'coin', lifecycle: 'traded', tags: [], links: [] };
  const nulls = ['symbol', 'rank', 'category', 'imageUrl', 'description', 'listingDate', 'price', 'volume24h', 'marketCap', 'volMcapRatio', 'volatility', 'high24hUsd', 'low24hUsd', 'fullyDilutedValuation', 'circulatingPercent', 'circulatingSupply', 'totalSupply', 'maxSupply'];
  test('the valid answer passes the strict check as it is, with no missing list', () => {
    const full = { ...profile, ...Object.fromEntries(nulls.map((k) => [k, null])), slug: 'x', pricePercentChange: { h24: 1, d7: null, d30: null, m3: null, ytd: null } };
    const r = readData(ENDPOINTS.profile.data, full, undefined, undefined, true);
    if (!(r.ok && r.data === full)) assert.fail(JSON.stringify(r));
    assert.equal(r.missing, undefined);
  });

  test('missing fields only: read, with their paths; with a wrong type, or without `partial`: not read', () => {
    const r = readData(ENDPOINTS.profile.data, profile, undefined, undefined, true);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.missing?.sort(), ['pricePercentChange', 'slug']);
    assert.equal((r.data as { symbol: unknown }).symbol, null, 'a missing nullable field is null');
    assert.equal(readData(ENDPOINTS.profile.data, { ...profile, id: 'one' }, undefined, undefined, true).ok, false);
    assert.equal(readData(ENDPOINTS.profile.data, profile).ok, false);
  });

  test('a quote from a profile without its price changes: the price reads, the changes are #N/A naming the field', () => {
    const full: Record<string, unknown> = { ...profile, ...Object.fromEntries(nulls.map((k) => [k, null])), slug: 'x', price: '12.5', pricePercentChange: { h24: 1, d7: 2, d30: 3, m3: 4, ytd: 5 } };
    delete full.pricePercentChange;
    const r = readData(ENDPOINTS.profile.data, full, undefined, undefined, true);
    if (!r.ok || !r.missing) return assert.fail(JSON.stringify(r));
    const q = quoteFromProfile(guardMissing(r.data as Record<string, unknown>, r.missing, 'profile', ENDPOINTS.profile.path) as Profile, 'USD', Date.now());
    assert.equal(q.price, 12.5);
    assert.equal(q.change7d, null);
    assert.deepEqual([...(q.absent?.fields ?? [])].sort(), ['percentChange.d30', 'percentChange.d7', 'percentChange.h24', 'percentChange.m3', 'percentChange.ytd']);
    const cell = QUOTE_FIELDS['percentChange.d7'].cell(q);
    assert.ok(cell instanceof CellError && /^No percentChange\.d7 in this coin's profile/.test(cell.message), String(cell));
    assert.equal(QUOTE_FIELDS.price.cell(q), 12.5);
  });
});

describe('PROFILE converted at the fiat rate (a currency the API does not price) from a record without some fields', () => {
  /**
   * Fields the service left out, copied as they came into a converted profile and guarded (not nullable). The
   * money fields it converts are all nullable: left out, they are null (read-data.ts rule 2), an empty cell in
   * any currency; a guarded one is convertProfile's last test.
   */
  const left = ['slug', 'tags'];
  let whole: Session;
  let lacking: Session;
  before(async () => {
    [whole, lacking] = await Promise.all([
      frozenSession(),
      frozenSession({ client: { fetch: rewritingFetch(PROFILE, (d) => left.forEach((k) => delete d[k])) } }),
    ]);
  });
  after(async () => {
    await Promise.all([whole?.close(), lacking?.close()]);
  });

  const withoutIt = (name: string) => `The API answered without ${name} (${ENDPOINTS.profile.path})`;

  /** `got` as the whole answer's `want`, except the value cells of `missing`: #N/A naming their field. */
  function eachMissingCostsItsCell(got: JsonCell[][], want: JsonCell[][], missing: readonly string[]): void {
    assert.equal(got.length, want.length);
    for (const name of missing) assert.ok(want.some((row) => row[0] === name && !isError(row[1]) && row[1] !== ''), `${name} has a value on the whole answer`);
    for (let r = 0; r < want.length; r++) {
      const name = want[r][0] as string;
      if (!missing.includes(name)) {
        assert.deepEqual(got[r], want[r], name);
        continue;
      }
      const cell = got[r][1];
      assert.ok(isError(cell), `${name}: ${JSON.stringify(cell)}`);
      assert.equal(cell.error, '#N/A');
      assert.equal(cell.message, withoutIt(name));
    }
  }

  for (const currency of ['USD', 'GBP']) {
    test(`in ${currency}: every value of the Field/Value table but the missing fields', each #N/A naming it`, async () => {
      const f = `=CRYPTO.PROFILE("bitcoin",,"${currency}")`;
      eachMissingCostsItsCell(await value(lacking, f), await value(whole, f), left);
    });
  }

  test('in GBP: a missing field asked alone is #N/A naming it; the converted price is as on the whole answer', async () => {
    for (const name of left) {
      const out = await calculate(lacking.host, `=CRYPTO.PROFILE("bitcoin","${name}","GBP")`);
      assert.ok('error' in out && out.error === '#N/A', `${name}: ${JSON.stringify(out)}`);
      assert.equal(out.message, withoutIt(name));
    }
    assert.deepEqual(await value(lacking, '=CRYPTO.PROFILE("bitcoin","price","GBP")'), await value(whole, '=CRYPTO.PROFILE("bitcoin","price","GBP")'));
  });

  test('convertProfile: a guarded field stays guarded, converted (marketCap) or copied (tags); the rest converted or copied', async () => {
    const { data } = await whole.client.get('profile', { id: 1 });
    const guarded = guardMissing({ ...data }, ['marketCap', 'tags'], 'profile', ENDPOINTS.profile.path) as Profile;
    const p = convertProfile(guarded, { code: 'GBP', name: 'Pound Sterling', usdPerUnit: 2 });
    for (const name of ['marketCap', 'tags'] as const) {
      assert.throws(() => p[name], (e: Error & { code?: string }) => e.code === 'MISSING_FIELD' && e.message === withoutIt(name), name);
    }
    assert.equal(p.price, String(Number(data.price) / 2));
    assert.equal(p.volume24h, String(Number(data.volume24h) / 2));
    assert.equal(p.description, data.description);
    assert.deepEqual(p.pricePercentChange, data.pricePercentChange);
  });
});
