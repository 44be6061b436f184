/**
 * PRICE, QUOTE, MARKETS, SEARCH, PROFILE, CONTRACTS through the calculation
 * host, against the local API server over real HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculate, type JsonCell } from '../src/cli/calculate';
import type { Session } from '../src/cli/session';
import { frozenSession, testSession } from './support/frozen-session';
import { formulaChecks, valueOf } from './support/formula-checks';

let s: Session;
const { calc } = formulaChecks(() => s);
const grid = valueOf;
const cellError = (c: JsonCell) => (typeof c === 'object' && c !== null && 'error' in c ? c : null);
const markets = async (query: string) => {
  const res = await fetch(`${s.emulator!.url}/v3/currencies/markets?${query}`, { headers: { 'X-Api-Key': 'demo-pro' } });
  return ((await res.json()) as { data: { id: number; slug: string; symbol: string | null; name: string; price: string; rank: number; marketCap: string | null }[] }).data;
};

before(async () => {
  s = await testSession();
});
after(() => s.close());

describe('PRICE', () => {
  test('by slug, symbol, id and name, all the same number as the markets list', async () => {
    const [btc] = await markets('limit=1');
    const want = Number(btc.price);
    for (const f of ['"bitcoin"', '"BTC"', '"btc"', String(btc.id), '"Bitcoin"']) {
      const v = grid(await calc(`=CRYPTO.PRICE(${f})`));
      assert.equal(v[0][0], want, f);
    }
  });

  test('EUR differs from USD and is positive', async () => {
    const usd = grid(await calc('=CRYPTO.PRICE("ethereum")'))[0][0] as number;
    const eur = grid(await calc('=CRYPTO.PRICE("ethereum","eur")'))[0][0] as number;
    assert.ok(eur > 0 && usd > 0);
    assert.notEqual(eur, usd);
  });

  test('an unknown coin is #N/A naming it and the closest match', async () => {
    const o = await calc('=CRYPTO.PRICE("bitcoinn")');
    assert.ok('error' in o);
    assert.equal(o.error, '#N/A');
    assert.match(o.message, /bitcoinn/);
    assert.match(o.message, /bitcoin/i);
    // the obvious coin first, not after obscure ones whose symbols begin the input (review F8)
    for (const [input, first] of [['bitcon', 'bitcoin (BTC)'], ['bitocin', 'bitcoin (BTC)'], ['solano', 'solana (SOL)'], ['etherium', 'ethereum (ETH)']]) {
      const e = await calc(`=CRYPTO.PRICE("${input}")`);
      assert.ok('error' in e && e.error === '#N/A', input);
      assert.ok(e.message.startsWith(`Unknown coin "${input}". Did you mean ${first}`), e.message);
    }
  });

  test('an unknown currency is #VALUE! naming the codes the fiat list has; a non-code names the form', async () => {
    const o = await calc('=CRYPTO.PRICE("bitcoin","XYZ")');
    assert.ok('error' in o);
    assert.equal(o.error, '#VALUE!');
    assert.match(o.message, /USD, EUR, .*GBP.*; got "XYZ"/);
    const n = await calc('=CRYPTO.PRICE("bitcoin","pounds")');
    assert.ok('error' in n);
    assert.equal(n.error, '#VALUE!');
    assert.match(n.message, /three-letter currency code/);
  });
});

describe('QUOTE', () => {
  test('a range of coins by a list of fields spills a grid with headers; a bad coin fails only its row', async () => {
    const top = await markets('limit=3');
    const v = grid(await calc(`=CRYPTO.QUOTE({"${top[0].slug}";"${top[1].slug}";"nosuchcoin";"${top[2].slug}"},"price,marketCap,rank")`));
    assert.deepEqual(v[0], ['Coin', 'Price', 'Market cap', 'Rank']);
    assert.equal(v.length, 5);
    assert.equal(v[1][1], Number(top[0].price));
    assert.equal(v[2][3], top[1].rank);
    assert.equal(cellError(v[3][1])?.error, '#N/A');
    assert.match(cellError(v[3][1])!.message, /nosuchcoin/);
    assert.equal(v[4][2], Number(top[2].marketCap));
  });

  test('a blank in the range keeps its row, as empty cells, so the answer lines up with the range', async () => {
    const v = grid(await calc('=CRYPTO.QUOTE({"bitcoin";"";"zz-nope-zz"},"price")'));
    assert.equal(v.length, 4);
    assert.equal(v[1][0], 'bitcoin');
    assert.equal(typeof v[1][1], 'number');
    assert.deepEqual(v[2], ['', '']);
    assert.equal(v[3][0], 'zz-nope-zz');
    assert.equal(cellError(v[3][1])?.error, '#N/A');
    const none = await calc('=CRYPTO.QUOTE({"";""},"price")');
    assert.ok('error' in none && none.error === '#VALUE!' && /coins is required/.test(none.message));
  });

  test('PRICE(-1) and PRICE(1.5) say a coin id is a positive whole number and show what they got; PRICE(0) that a coin is required', async () => {
    for (const [arg, got] of [['-1', '-1'], ['1.5', '1.5']]) {
      const o = await calc(`=CRYPTO.PRICE(${arg})`);
      assert.ok('error' in o, arg);
      assert.equal(o.error, '#VALUE!');
      assert.equal(o.message, `coin as a number is a coin id, a positive whole number; got ${got}`);
    }
    // Older desktop builds pass a blank cell as 0: no coin is 0, so it reads as a blank (src/formulas/args.ts).
    const zero = await calc('=CRYPTO.PRICE(0)');
    assert.ok('error' in zero && zero.error === '#VALUE!' && /^coin is required/.test(zero.message), JSON.stringify(zero));
  });

  test('fields accept spec names (percentChange.h24) and aliases; an unknown field is #VALUE! listing them', async () => {
    const a = grid(await calc('=CRYPTO.QUOTE("ETH","percentChange.h24",,0)'));
    const b = grid(await calc('=CRYPTO.QUOTE("ETH","change24h",,0)'));
    assert.equal(a.length, 1);
    assert.equal(typeof a[0][1], 'number');
    assert.deepEqual(a, b);
    const bad = await calc('=CRYPTO.QUOTE("ETH","colour")');
    assert.ok('error' in bad);
    assert.equal(bad.error, '#VALUE!');
    assert.match(bad.message, /marketCap/);
  });
});

describe('MARKETS', () => {
  test('any count: 300 rows need two pages of 250 and come back in rank order with fixed columns', async () => {
    const v = grid(await calc('=CRYPTO.MARKETS(300)'));
    assert.equal(v.length, 301);
    assert.equal(v[0][0], 'Rank');
    assert.equal(v[0].length, 16);
    const ranks = v.slice(1).map((r) => r[0] as number);
    assert.deepEqual(ranks, Array.from({ length: 300 }, (_, i) => i + 1));
    assert.ok(v.every((r) => r.length === 16));
  });

  test('sorting by volume24h is descending by default; a bad sort is #VALUE!', async () => {
    const v = grid(await calc('=CRYPTO.MARKETS(20,"volume24h",,,,,,,0)'));
    const vols = v.map((r) => r[10] as number);
    assert.deepEqual(vols, [...vols].sort((x, y) => y - x));
    const bad = await calc('=CRYPTO.MARKETS(20,"price")');
    assert.ok('error' in bad);
    assert.match(bad.message, /marketCap/);
  });

  test('a category given by name filters the list', async () => {
    const cats = (await (await fetch(`${s.emulator!.url}/v3/currencies/categories`, { headers: { 'X-Api-Key': 'demo-pro' } })).json()) as { data: { id: number; name: string }[] };
    const cat = cats.data[0];
    const byName = grid(await calc(`=CRYPTO.MARKETS(50,,,"${cat.name}")`));
    const byId = grid(await calc(`=CRYPTO.MARKETS(50,,,${cat.id})`));
    assert.deepEqual(byName, byId);
    assert.ok(byName.length < 51, 'filtered to fewer than the unfiltered 50');
  });
});

describe('SEARCH, PROFILE, CONTRACTS', () => {
  test('SEARCH finds Solana by part of its name', async () => {
    const v = grid(await calc('=CRYPTO.SEARCH("sol")'));
    assert.deepEqual(v[0], ['Rank', 'Name', 'Symbol', 'Slug', 'Id']);
    assert.ok(v.some((r) => r[3] === 'solana'));
  });

  test('PROFILE one field, and all fields as a table', async () => {
    const [btc] = await markets('limit=1');
    assert.deepEqual(grid(await calc('=CRYPTO.PROFILE("bitcoin","id")')), [[btc.id]]);
    const all = grid(await calc('=CRYPTO.PROFILE("bitcoin")'));
    assert.deepEqual(all[0], ['Field', 'Value']);
    const get = (k: string) => all.find((r) => r[0] === k)?.[1];
    assert.equal(get('slug'), 'bitcoin');
    assert.equal(get('lifecycle'), 'traded');
    assert.equal(typeof get('listingDate'), 'number', 'dates are Excel serial numbers');
    const bad = await calc('=CRYPTO.PROFILE("bitcoin","colour")');
    assert.ok('error' in bad && bad.error === '#VALUE!' && /lifecycle/.test(bad.message));
  });

  test('CONTRACTS lists a token contract with an explorer link; a plan without the endpoint says which plan is needed', async () => {
    const v = grid(await calc('=CRYPTO.CONTRACTS("usd-coin")'));
    assert.deepEqual(v[0], ['Blockchain', 'Blockchain slug', 'Address', 'Decimals', 'Explorer']);
    assert.ok(v.length > 1);
    assert.ok(String(v[1][4]).endsWith(String(v[1][2])));
    const sandbox = await testSession({ key: 'demo-sandbox' });
    try {
      const o = await calc('=CRYPTO.CONTRACTS("usd-coin")', sandbox);
      assert.ok('error' in o);
      assert.equal(o.error, '#N/A');
      assert.match(o.message, /Basic plan/);
    } finally {
      await sandbox.close();
    }
  });
});

describe('warm recalculation', () => {
  test('answers from memory without requests, but never past the live freshness: a new hour brings a new price', async () => {
    const t = await frozenSession();
    try {
      const first = grid(await calc('=CRYPTO.PRICE("solana")', t))[0][0];
      const requests = t.emulator!.stats().requests;
      assert.deepEqual(grid(await calc('=CRYPTO.PRICE("solana")', t)), [[first]]);
      assert.equal(t.emulator!.stats().requests, requests, 'warm: no request');
      t.emulator!.clock.advance(2 * 3_600_000);
      const later = grid(await calc('=CRYPTO.PRICE("solana")', t))[0][0];
      assert.ok(t.emulator!.stats().requests > requests, 'expired: fetched again');
      assert.notEqual(later, first, 'the market moved in two hours');
    } finally {
      await t.close();
    }
  });
});

describe('keys and failures', () => {
  test('no key: #N/A saying where to add one, and no request is sent', async () => {
    const none = await testSession({ key: null });
    try {
      const o = await calc('=CRYPTO.PRICE("bitcoin")', none);
      assert.ok('error' in o);
      assert.equal(o.error, '#N/A');
      assert.match(o.message, /add your key/);
      assert.equal(none.emulator!.stats().requests, 0);
    } finally {
      await none.close();
    }
  });

  test('an outage keeps the last good value; value preview spends nothing', async () => {
    const t = await testSession({ client: { maxRetries: 0 } });
    try {
      const first = grid(await calc('=CRYPTO.PRICE("solana")', t))[0][0];
      t.client.refreshAll();
      t.emulator!.faults.queue({ kind: '500', times: 10 });
      const again = await calc('=CRYPTO.PRICE("solana")', t);
      assert.deepEqual(again, { value: [[first]] });
      assert.ok(t.host.errors().some((e) => /last good value/.test(e.message)));
      const before = t.emulator!.stats().requests;
      const preview = await calculate(t.host, '=CRYPTO.PRICE("cardano")', { preview: true });
      assert.ok('error' in preview && /Press Enter/.test(preview.message));
      assert.equal(t.emulator!.stats().requests, before);
    } finally {
      await t.close();
    }
  });
});
