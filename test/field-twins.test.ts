/**
 * One figure, two names (review-r3 #7): PROFILE takes QUOTE's spelling of a
 * figure and QUOTE, DATA and MARKETS take PROFILE's, each giving the same
 * value as under its own name; the lists their errors give stay their own;
 * names a plain object inherits are no field. Over real HTTP against the
 * local API server (demo-pro).
 *
 *   node --import tsx --test test/field-twins.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Session } from '../src/cli/session';
import { FIELD_TWINS } from '../src/formulas/quote-fields';
import { formulaChecks } from './support/formula-checks';
import { testSession } from './support/frozen-session';

let s: Session;
const { grid, one, failure } = formulaChecks(() => s);

before(async () => {
  s = await testSession();
});
after(() => s.close());

/** The names an error lists ("field must be one of: a, b; got …"). */
const listed = (message: string) => (/(?:one of|from): (.*?); got /.exec(message)?.[1] ?? '').split(', ');

describe('each formula takes the other\'s spelling', () => {
  test('PROFILE: QUOTE\'s names and short aliases give what PROFILE\'s own name gives, and what DATA gives', async () => {
    assert.ok(FIELD_TWINS.length >= 7);
    for (const t of FIELD_TWINS) {
      const own = await one(`=CRYPTO.PROFILE("bitcoin","${t.profile}")`);
      assert.equal(typeof own, 'number', t.profile);
      assert.equal(await one(`=CRYPTO.PROFILE("bitcoin","${t.quote}")`), own, `PROFILE ${t.quote}`);
      assert.equal(await one(`=CRYPTO.PROFILE("bitcoin","${t.quote.toUpperCase()}")`), own, 'any case');
      assert.equal(await one(`=CRYPTO.DATA("bitcoin","${t.quote}")`), own, `DATA ${t.quote}: the same figure`);
    }
    for (const [alias, name] of [['change24h', 'pricePercentChange.h24'], ['ytd', 'pricePercentChange.ytd'], ['fdv', 'fullyDilutedValuation']]) {
      assert.equal(await one(`=CRYPTO.PROFILE("ethereum","${alias}")`), await one(`=CRYPTO.PROFILE("ethereum","${name}")`), alias);
    }
  });

  test('DATA, QUOTE and MARKETS: PROFILE\'s names give what QUOTE\'s give, under the same header (USD-named ones marked USD)', async () => {
    for (const t of FIELD_TWINS) {
      assert.equal(await one(`=CRYPTO.DATA("solana","${t.profile}")`), await one(`=CRYPTO.DATA("solana","${t.quote}")`), `DATA ${t.profile}`);
    }
    const q = await grid('=CRYPTO.QUOTE("solana","percentChange.d7,pricePercentChange.d7,high24h,high24hUsd")');
    assert.deepEqual(q[0], ['Coin', 'Change 7d %', 'Change 7d %', 'High 24h', 'High 24h (USD)']);
    assert.equal(q[1][1], q[1][2]);
    assert.equal(q[1][3], q[1][4]);
    const m = await grid('=CRYPTO.MARKETS(3,,,,,,,,,"slug,pricePercentChange.ytd,percentChange.ytd,low24hUsd,low24h")');
    assert.equal(m.length, 4);
    for (const row of m.slice(1)) {
      assert.equal(typeof row[1], 'number');
      assert.equal(row[1], row[2], `${row[0]} ytd`);
      assert.equal(row[3], row[4], `${row[0]} low`);
    }
  });

  test('a USD-named figure in another currency is refused, naming what to ask instead, not given in the wrong currency', async () => {
    const p = await failure('=CRYPTO.PROFILE("bitcoin","high24h","EUR")');
    assert.equal(p.error, '#VALUE!');
    assert.equal(p.message, 'field high24h is PROFILE\'s high24hUsd, in USD only; for EUR use =CRYPTO.DATA(coin,"high24h","EUR")');
    const d = await failure('=CRYPTO.DATA("bitcoin","low24hUsd","EUR")');
    assert.equal(d.error, '#N/A');
    assert.match(d.message, /low24hUsd is in USD and this quote is in EUR: ask low24h for the EUR figure/);
    // The percent changes are one figure in any currency on both sides.
    assert.equal(await one('=CRYPTO.PROFILE("bitcoin","percentChange.d7","EUR")'), await one('=CRYPTO.PROFILE("bitcoin","pricePercentChange.d7","EUR")'));
    assert.equal(typeof (await one('=CRYPTO.DATA("bitcoin","pricePercentChange.d7","EUR")')), 'number');
  });
});

describe('the lists errors give, and names that are no field', () => {
  test('each error still lists its own names only', async () => {
    const profile = listed((await failure('=CRYPTO.PROFILE("bitcoin","colour")')).message);
    const data = listed((await failure('=CRYPTO.DATA("bitcoin","colour")')).message);
    const quote = listed((await failure('=CRYPTO.QUOTE("bitcoin","price,colour")')).message);
    assert.ok(profile.includes('pricePercentChange.h24') && profile.includes('high24hUsd') && profile.includes('lifecycle'), profile.join());
    assert.ok(data.includes('percentChange.h24') && data.includes('high24h') && data.includes('lastUpdated'), data.join());
    assert.deepEqual(quote, data);
    for (const t of FIELD_TWINS) {
      assert.ok(!profile.includes(t.quote), `PROFILE's list names ${t.quote}`);
      assert.ok(!data.includes(t.profile), `DATA's list names ${t.profile}`);
    }
  });

  test('names every object inherits are #VALUE!, not a crash or an inherited value', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      for (const f of [`=CRYPTO.PROFILE("bitcoin","${name}")`, `=CRYPTO.DATA("bitcoin","${name}")`, `=CRYPTO.QUOTE("bitcoin","${name}")`, `=CRYPTO.MARKETS(2,,,,,,,,,"${name}")`]) {
        const e = await failure(f);
        assert.equal(e.error, '#VALUE!', f);
        assert.match(e.message, new RegExp(`got "${name}"`), f);
      }
    }
  });
});
