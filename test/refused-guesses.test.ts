/**
 * A guessed parameter (endpoints.ts) refused for its VALUE, over real HTTP: the live service's
 * class-validator wording names the parameter for a bad value too ("limit must not be greater than
 * 50"), which is that cell's failure only. The refusal of the NAME ("property limit should not
 * exist") is what holds for the session (refused-guesses.ts; formulas-global.test.ts and
 * search-fallback.test.ts test that). Review 2026-11-27: one refused value was remembered as the
 * name's, and every later GAINERS past 20, DOMINANCE of another asset or SEARCH skipped a request
 * the service takes.
 *
 *   node --import tsx --test test/refused-guesses.test.ts
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENDPOINTS } from '../src/api/endpoints';
import type { SeenRequest } from '../harness/hostile-server';
import { behindHostile } from './support/behind-hostile';
import { formulaChecks } from './support/formula-checks';
import { FROZEN_NOW } from './support/frozen-session';
import { TEST_WORKBOOK } from './support/workbook';

const { grid, calc } = formulaChecks(() => assert.fail('each check names its session'));
const SESSION = { emulator: { rpm: 2000 }, workbook: TEST_WORKBOOK, key: 'demo-pro', client: { now: () => FROZEN_NOW } };
const json = { 'content-type': 'application/json' };
/** The live service's 400 for a bad value, in its words. */
const refuse = (message: string) => ({ status: 400, headers: json, body: JSON.stringify({ error: { code: 'VALIDATION_ERROR', message, status: 400 } }) });
const on = (path: string) => (r: SeenRequest) => new URL(r.url, 'http://x').pathname === path;
const param = (r: SeenRequest, name: string) => new URL(r.url, 'http://x').searchParams.get(name);

test('GAINERS: a count past the service\'s own limit is refused for that cell; a count it takes is still asked with limit', async () => {
  const b = await behindHostile((r) => {
    const limit = on(ENDPOINTS.gainersLosers.path)(r) ? param(r, 'limit') : null;
    return limit !== null && Number(limit) > 50 ? refuse('limit must not be greater than 50') : null;
  }, SESSION);
  try {
    const refused = await calc('=CRYPTO.GAINERS(,80,0)', b.session);
    assert.ok('error' in refused, 'refused: 80 is past the service\'s 50');
    // The count is the user's to change: #VALUE! in the service's words, not "this service lists its top 20 only".
    assert.equal(refused.error, '#VALUE!', JSON.stringify(refused));
    assert.match(refused.message, /count 80: the service refused it \(.*limit must not be greater than 50.*\); ask for fewer/);
    const g = await grid('=CRYPTO.GAINERS(,30,0)', b.session);
    assert.equal(g.length, 30);
    assert.ok(b.hostile.seen.some((r) => param(r, 'limit') === '30'), 'asked with limit=30');
  } finally {
    await b.close();
  }
});

test('DOMINANCE: one asset refused as a group value leaves the group parameter to the next asset', async () => {
  const b = await behindHostile((r) => (on(ENDPOINTS.dominanceChart.path)(r) && param(r, 'group') === 'eth'
    ? refuse('group must be one of the following values: btc, usdt, others')
    : null), SESSION);
  try {
    const refused = await calc('=CRYPTO.DOMINANCE("eth","3D")', b.session);
    assert.ok('error' in refused);
    // The asset is the user's to change: the service's words list the ones it takes.
    assert.equal(refused.error, '#VALUE!', JSON.stringify(refused));
    assert.match(refused.message, /ETH: the service's dominance chart refused it \(.*group must be one of the following values: btc, usdt, others.*\)/);
    const g = await grid('=CRYPTO.DOMINANCE("usdt","3D",,0)', b.session);
    assert.equal(g.length, 4, JSON.stringify(g));
    assert.ok(b.hostile.seen.some((r) => param(r, 'group') === 'usdt'), 'asked with group=usdt');
  } finally {
    await b.close();
  }
});

test('SEARCH: a query refused for its length leaves the search to the next, longer query', async () => {
  const b = await behindHostile((r) => (on(ENDPOINTS.search.path)(r) && (param(r, 'query') ?? '').length < 2
    ? refuse('query must be longer than or equal to 2 characters')
    : null), SESSION);
  const searches = () => b.hostile.seen.filter(on(ENDPOINTS.search.path)).length;
  try {
    await calc('=CRYPTO.SEARCH("s")', b.session);
    assert.equal(searches(), 1);
    const g = await grid('=CRYPTO.SEARCH("solana",0)', b.session);
    assert.equal(searches(), 2, 'the search is asked');
    assert.ok(g.some((row) => row[3] === 'solana' && typeof row[0] === 'number'), `ranked, from the search: ${JSON.stringify(g).slice(0, 200)}`);
  } finally {
    await b.close();
  }
});
