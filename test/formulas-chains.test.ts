/**
 * BLOCKCHAINS, BLOCKCHAIN, TVL, TVLCHANGE and PERSONS, evaluated as formula
 * text through a calculation session against the local API server (frozen
 * clock; the client sleeps by advancing it).
 *
 *   node --import tsx --test test/formulas-chains.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FROZEN_NOW, keyedFrozenSessions } from './support/frozen-session';
import { col, formulaChecks } from './support/formula-checks';
import { toSerial } from '../src/formulas/cells';

const NOW = FROZEN_NOW;
const DAY = 86_400_000;
const TODAY = Math.floor(NOW / DAY) * DAY;


const sessions = keyedFrozenSessions();

const { grid, num, failure, one } = formulaChecks(() => sessions.pro);

describe('BLOCKCHAINS and BLOCKCHAIN', () => {
  test('the list: one row per chain, dominance shares add up to 100', async () => {
    const g = await grid('=CRYPTO.BLOCKCHAINS()');
    assert.deepEqual(g[0], ['Name', 'Slug', 'Symbol', 'Id', 'Market cap', 'Dominance %', 'Native coin id', 'Explorer']);
    assert.ok(g.length > 10);
    const ids = col(g, 'Id') as number[];
    assert.equal(new Set(ids).size, ids.length, 'no chain twice');
    const dom = col(g, 'Dominance %').filter((x): x is number => typeof x === 'number');
    assert.ok(Math.abs(dom.reduce((a, b) => a + b, 0) - 100) < 0.2, 'shares add up to 100');
    for (const r of g.slice(1)) assert.ok(typeof r[4] === 'number' || r[4] === '', 'market cap a number or empty');
    assert.deepEqual(await grid('=CRYPTO.BLOCKCHAINS(0)'), g.slice(1));
  });
  test('Explorer is the explorer\'s home page, not the address prefix the service gives; BLOCKCHAIN\'s explorerUrl keeps the prefix (review-r3 #16)', async () => {
    const g = await grid('=CRYPTO.BLOCKCHAINS()');
    const homes = col(g, 'Explorer').filter((x) => x !== '') as string[];
    assert.ok(homes.length > 10);
    for (const h of homes) assert.equal(new URL(h).origin, h, `${h}: an origin, no path`);
    const eth = g.find((r) => r[1] === 'ethereum')!;
    assert.equal(eth[7], 'https://etherscan.io');
    const prefix = await one('=CRYPTO.BLOCKCHAIN("ethereum","explorerUrl")');
    assert.equal(prefix, 'https://etherscan.io/token/', 'the prefix CONTRACTS appends an address to');
  });
  test('one chain by slug, name or id: the same record, agreeing with the list', async () => {
    const list = await grid('=CRYPTO.BLOCKCHAINS()');
    const eth = list.find((r) => r[1] === 'ethereum');
    assert.ok(eth, 'ethereum listed');
    const t = await grid('=CRYPTO.BLOCKCHAIN("ethereum")');
    assert.deepEqual(t[0], ['Field', 'Value']);
    assert.deepEqual(await grid('=CRYPTO.BLOCKCHAIN("ethereum","all")'), t, '"all" is the table, as GLOBAL\'s (review-r3 #8)');
    const f = new Map(t.slice(1).map((r) => [r[0], r[1]]));
    assert.equal(f.get('id'), eth[3]);
    assert.equal(f.get('marketCap'), eth[4]);
    assert.equal(f.get('marketCapDominance'), eth[5]);
    assert.ok((f.get('gainers') as number) + (f.get('losers') as number) > 0);
    assert.equal(await num(`=CRYPTO.BLOCKCHAIN(${eth[3]},"id")`), eth[3], 'by id');
    assert.equal(await num('=CRYPTO.BLOCKCHAIN("ETHEREUM","marketCap")'), eth[4], 'by name, any case');
    assert.equal(await one('=CRYPTO.BLOCKCHAIN("BNB Chain","slug")'), 'bnb-chain');
    // A value the chain has none of, asked alone: #N/A naming the chain and the field, not an empty text that
    // compares above every number (review-r3 #17); in the table, a blank beside its label.
    const none = await failure('=CRYPTO.BLOCKCHAIN("base","symbol")');
    assert.deepEqual(none, { error: '#N/A', message: 'Base has no symbol' });
    assert.equal(new Map((await grid('=CRYPTO.BLOCKCHAIN("base")')).map((r) => [r[0], r[1]])).get('symbol'), '', 'a blank in the table, not 0');
  });
  test('unknown chain: #N/A naming it and the closest names; bad field: #VALUE!', async () => {
    const e = await failure('=CRYPTO.BLOCKCHAIN("etherium")');
    assert.equal(e.error, '#N/A');
    assert.match(e.message, /Unknown blockchain "etherium"; closest: Ethereum/);
    const id = await failure('=CRYPTO.BLOCKCHAIN(999999)');
    assert.equal(id.error, '#N/A');
    assert.match(id.message, /Unknown blockchain 999999/);
    // logged under a code of the one table (NOT_FOUND, as an unknown category), so the pane has words for it
    const logged = sessions.pro.host.errors().find((x) => /Unknown blockchain 999999/.test(x.message));
    assert.equal(logged?.code, 'NOT_FOUND');
    const arb = await failure('=CRYPTO.TVL("arbitrun")');
    assert.match(arb.message, /closest: Arbitrum/);
    // a swap of two letters is one edit: Litecoin first, not Bitcoin (two edits either way by plain Levenshtein)
    const ltc = await failure('=CRYPTO.BLOCKCHAIN("litceoin")');
    assert.match(ltc.message, /closest: Litecoin, /);
    const fld = await failure('=CRYPTO.BLOCKCHAIN("ethereum","tvl")');
    assert.equal(fld.error, '#VALUE!');
    assert.match(fld.message, /marketCap/);
  });
  test('Sandbox may read blockchains; no key: #N/A saying where to add one', async () => {
    assert.ok((await num('=CRYPTO.BLOCKCHAIN("solana","marketCap")', sessions.sandbox)) > 0);
    const e = await failure('=CRYPTO.BLOCKCHAINS()', sessions.nokey);
    assert.equal(e.error, '#N/A');
    assert.match(e.message, /No API key.*add your key/);
  });
});

describe('TVL and TVLCHANGE', () => {
  test('TVL: daily rows, chain TVL below the total; default is the last 30 days', async () => {
    const g = await grid('=CRYPTO.TVL("ethereum","90D")');
    assert.deepEqual(g[0], ['Date', 'TVL', 'Total TVL']);
    const dates = col(g, 'Date') as number[];
    assert.equal(dates[0], toSerial(TODAY - 90 * DAY));
    assert.equal(dates[dates.length - 1], toSerial(TODAY));
    dates.forEach((d, i) => i > 0 && assert.equal(d - dates[i - 1], 1));
    for (const [, tvl, total] of g.slice(1)) assert.ok((tvl as number) > 0 && (tvl as number) < (total as number));
    const dflt = await grid('=CRYPTO.TVL("ethereum",,,0)');
    assert.equal(dflt.length, 31);
    assert.deepEqual(dflt, g.slice(-31), 'the same points as the longer range');
  });
  test('TVLCHANGE agrees with the TVL series for every period', async () => {
    const g = await grid('=CRYPTO.TVL("solana","1Y",,0)');
    const tvlAt = (daysAgo: number) => g[g.length - 1 - daysAgo][1] as number;
    const last = tvlAt(0);
    for (const [p, d] of [['1d', 1], ['7d', 7], ['30d', 30], ['90d', 90]] as const) {
      const ch = await num(`=CRYPTO.TVLCHANGE("solana","${p}")`);
      assert.ok(Math.abs(ch - (last / tvlAt(d) - 1) * 100) < 1e-3, `${p}: ${ch} vs series`);
    }
    assert.equal(await num('=CRYPTO.TVLCHANGE("solana")'), await num('=CRYPTO.TVLCHANGE("solana","1d")'), 'default 1d');
  });
  test('bad period: #VALUE! listing the periods; Sandbox: #N/A naming Basic', async () => {
    const e = await failure('=CRYPTO.TVLCHANGE("solana","2w")');
    assert.equal(e.error, '#VALUE!');
    assert.match(e.message, /"1d".*"7d".*"30d".*"90d".*"1y"/);
    const p = await failure('=CRYPTO.TVL("solana")', sessions.sandbox);
    assert.equal(p.error, '#N/A');
    assert.match(p.message, /TVL needs the Basic plan/);
    const c = await failure('=CRYPTO.TVLCHANGE("solana")', sessions.sandbox);
    assert.match(c.message, /TVLCHANGE needs the Basic plan/);
  });
  test('end before start is #VALUE!', async () => {
    const e = await failure('=CRYPTO.TVL("solana","2026-03-10","2026-03-01")');
    assert.equal(e.error, '#VALUE!');
  });
  test('a value in the wrong place: the #VALUE! says where it goes and writes the formula that way (misplaced-args.ts)', async () => {
    const slip = async (f: string) => {
      const e = await failure(f);
      assert.equal(e.error, '#VALUE!', f);
      return e.message;
    };
    // Serial 1 is a day in 1900, no start: the headers' 1 where start goes.
    assert.match(await slip('=CRYPTO.TVL("ethereum",1)'), /^start must be a date from 1970 on; .*; headers is the 4th argument: =CRYPTO\.TVL\("ethereum",,,1\)$/);
    assert.match(await slip('=CRYPTO.TVL("ethereum",FALSE)'), /^start must be .*; got FALSE; headers is the 4th argument: =CRYPTO\.TVL\("ethereum",,,FALSE\)$/);
    assert.match(await slip('=CRYPTO.TVL("ethereum","90D",FALSE)'), /^end must be .*; headers is the 4th argument: =CRYPTO\.TVL\("ethereum","90D",,FALSE\)$/);
    assert.match(await slip('=CRYPTO.TVL("ethereum",,,"90D")'), /^headers must be TRUE\/FALSE or 1\/0; got "90D"; start is the 2nd argument: =CRYPTO\.TVL\("ethereum","90D"\)$/);
    // A start that does not read is not sent to chain (any text may name one), nor is a blank cell's 0 misplaced.
    assert.match(await slip('=CRYPTO.TVL("ethereum","3 months")'), /^start must be .*; got "3 months"$/);
    assert.equal((await grid('=CRYPTO.TVL("ethereum",0,0,0)')).length, 31, 'blank cells: the default range, no header row');
    // The rewritten formula works: the same table as the range written in its place.
    assert.deepEqual(await grid('=CRYPTO.TVL("ethereum",,,FALSE)'), (await grid('=CRYPTO.TVL("ethereum")')).slice(1));
  });
});

describe('PERSONS', () => {
  test('everyone, by name; a query filters by name or slug, case-insensitively', async () => {
    const all = await grid('=CRYPTO.PERSONS()');
    assert.deepEqual(all[0], ['Name', 'Slug', 'Id']);
    assert.ok(all.length > 10);
    const names = col(all, 'Name') as string[];
    assert.deepEqual([...names].sort((a, b) => a.localeCompare(b)), names);
    const someone = all[5];
    const part = String(someone[0]).split(' ')[0].slice(0, 4).toUpperCase();
    const hits = await grid(`=CRYPTO.PERSONS("${part}")`);
    const expected = all.slice(1).filter((r) => String(r[0]).toLowerCase().includes(part.toLowerCase()) || String(r[1]).includes(part.toLowerCase()));
    assert.deepEqual(hits.slice(1), expected);
    assert.ok(hits.some((r) => r[2] === someone[2]));
    assert.ok(hits.length < all.length);
  });
  test('a value in the wrong place: the #VALUE! says where it goes and writes the formula that way (misplaced-args.ts)', async () => {
    const slip = async (f: string) => {
      const e = await failure(f);
      assert.equal(e.error, '#VALUE!', f);
      return e.message;
    };
    // No name is TRUE/FALSE: PERSONS(FALSE) was a search for "false", #N/A "No person matches".
    assert.equal(await slip('=CRYPTO.PERSONS(FALSE)'), 'query must be part of a name or slug, e.g. "vitalik"; got FALSE; headers is the 2nd argument: =CRYPTO.PERSONS(,FALSE)');
    assert.equal(await slip('=CRYPTO.PERSONS(,"vitalik")'), 'headers must be TRUE/FALSE or 1/0; got "vitalik"; query is the 1st argument: =CRYPTO.PERSONS("vitalik")');
    assert.match(await slip('=CRYPTO.PERSONS(FALSE,"vitalik")'), /; headers is the 2nd argument: =CRYPTO\.PERSONS\("vitalik",FALSE\)$/, 'swapped, nothing typed is lost');
    // A blank cell's 0 is no query, and no misplaced value.
    assert.deepEqual(await grid('=CRYPTO.PERSONS(0,0)'), (await grid('=CRYPTO.PERSONS()')).slice(1));
    assert.equal(await slip('=CRYPTO.PERSONS(0,"x")'), 'headers must be TRUE/FALSE or 1/0; got "x"; query is the 1st argument: =CRYPTO.PERSONS("x")');
  });
  test('no match: #N/A naming the query, headers or not (a header row alone would read as an answer)', async () => {
    for (const f of ['=CRYPTO.PERSONS("zzqx")', '=CRYPTO.PERSONS("zzqx",0)']) {
      assert.deepEqual(await grid(f), [[{ error: '#N/A', message: 'No person matches "zzqx"' }]], f);
    }
  });
});
