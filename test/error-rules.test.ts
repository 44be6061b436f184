/**
 * One table of error rules (src/client/api-error.ts ERROR_RULES), and every
 * reader agrees with it: the retry loop (over HTTP), the stale fallback of the
 * cache and the formula failure mapping.
 *
 *   node --import tsx --test test/error-rules.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_ERROR_CODES } from '../src/api/endpoints';
import { ApiError, CLIENT_ERROR_CODES, ERROR_RULES, allowsStaleFallback, errorRule } from '../src/client/index';
import { toFormulaError } from '../src/formulas/failure';
import { ENDPOINTS } from '../src/api/endpoints';
import { rejects, rig, type Rig } from './client-harness';

let r: Rig;
before(async () => {
  r = await rig();
});
after(() => r.close());

test('every API and client code has exactly one rule', () => {
  const codes = [...Object.keys(API_ERROR_CODES), ...CLIENT_ERROR_CODES].sort();
  assert.deepEqual(Object.keys(ERROR_RULES).sort(), codes);
});

test('the readers follow the table: retryable, stale fallback, the formula mapping', () => {
  for (const [code, rule] of Object.entries(ERROR_RULES)) {
    const e = new ApiError({ code, message: 'm', status: 400 });
    assert.equal(e.retryable, rule.retry, `${code} retry`);
    assert.equal(allowsStaleFallback(e), rule.lastGood, `${code} lastGood`);
    assert.equal(toFormulaError(e, 'PRICE').transient, rule.lastGood, `${code}: a formula may keep the last good value`);
  }
  // outages the service names in its own words: by status
  assert.equal(errorRule('SERVICE_UNAVAILABLE', 503).retry, true);
  assert.equal(errorRule('SOMETHING_NEW', 418).retry, false);
  assert.equal(new ApiError({ code: 'SERVICE_UNAVAILABLE', message: 'm', status: 503 }).retryable, true);
  // "fix your key" codes are the key's, and never retried
  const fixKey = Object.entries(ERROR_RULES).filter(([, x]) => x.fixKey).map(([c]) => c).sort();
  assert.deepEqual(fixKey, ['API_KEY_INVALID', 'API_KEY_MISSING', 'NO_ACTIVE_SUBSCRIPTION', 'NO_API_KEY']);
  for (const c of fixKey) assert.equal(ERROR_RULES[c].retry, false);
});

test('over HTTP: a credit limit is not retried, and the last good value stands in for it', async () => {
  const c = r.client({ key: 'demo-sandbox', maxRetries: 3 });
  const good = await c.get('globalMarket');
  r.em.clock.advance(61_000);
  r.em.setUsage('demo-sandbox', { dailyUsed: 400 });
  const path = ENDPOINTS.globalMarket.path;
  const before = r.hits(path).length;
  const stale = await c.get('globalMarket');
  assert.equal(stale.stale, true);
  assert.deepEqual(stale.data, good.data);
  assert.equal(r.hits(path).length - before, 1, 'one request, no retry');
  assert.equal(r.hits(path).at(-1)?.code, 'PLAN_LIMIT_EXCEEDED');
  // without a last good value, the error
  await rejects(c.get('trending'), 'PLAN_LIMIT_EXCEEDED');
  // a 500 is retried (the same table)
  r.em.setUsage('demo-sandbox', { dailyUsed: 0 });
  r.em.faults.queue({ kind: '500', times: 2, path: ENDPOINTS.trending.path });
  const before500 = r.hits(ENDPOINTS.trending.path).length;
  await c.get('trending');
  assert.equal(r.hits(ENDPOINTS.trending.path).length - before500, 3, 'two 500s, then the answer');
});
