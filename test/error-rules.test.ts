/**
 * One table of error rules (src/client/error-rules.ts ERROR_RULES), and every
 * reader agrees with it: the retry loop (over HTTP), the stale fallback of the
 * cache, the formula failure mapping (Excel error, words, last good value) and
 * QUOTE's rows (scope).
 *
 *   node --import tsx --test test/error-rules.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { API_ERROR_CODES } from '../src/api/endpoints';
import { ApiError, CLIENT_ERROR_CODES, ERROR_RULES, FORMULA_ERROR_CODES, errorRule, hasCode, type ErrorCode } from '../src/client/index';
import { allowsLastGood, isDepthLimit } from '../src/client/api-error';
import { CELL_WORDS, PLAN_FORMS, codeForStatus } from '../src/client/error-rules';
import { formulaError, invalidValue } from '../src/formulas/cells';
import { scopeOf, toFormulaError } from '../src/formulas/failure';
import { currentErrors, errorWords } from '../src/taskpane/error-words';
import { ENDPOINTS, PLANS } from '../src/api/endpoints';
import { rejects, rig, type Rig } from './client-harness';
import { calculate } from '../src/cli/calculate';
import { startHostileServer } from '../harness/hostile-server';
import { behindHostile } from './support/behind-hostile';

let r: Rig;
before(async () => {
  r = await rig();
});
after(() => r.close());

const RULES = Object.entries(ERROR_RULES) as [ErrorCode, (typeof ERROR_RULES)[ErrorCode]][];

test('every API, client and formula code has exactly one rule', () => {
  const codes = [...Object.keys(API_ERROR_CODES), ...CLIENT_ERROR_CODES, ...FORMULA_ERROR_CODES].sort();
  assert.deepEqual(Object.keys(ERROR_RULES).sort(), codes);
});

test('the readers follow the table: retryable, stale fallback, the formula mapping', () => {
  for (const [code, rule] of RULES) {
    const e = new ApiError({ code, message: 'm', status: 400 });
    assert.equal(e.retryable, rule.retry, `${code} retry`);
    assert.equal(allowsLastGood(e), rule.lastGood, `${code} lastGood`);
    const f = toFormulaError(e, 'PRICE');
    assert.equal(f.lastGood, rule.lastGood, `${code}: a formula may keep the last good value`);
    assert.equal(f.code, rule.cell, `${code}: its Excel error`);
    assert.equal(f.apiCode, code, `${code}: logged under its own code`);
    assert.equal(scopeOf(f), rule.scope, `${code}: scope`);
  }
  // outages the service names in its own words: by status
  assert.equal(errorRule('SERVICE_UNAVAILABLE', 503).retry, true);
  assert.equal(errorRule('SOMETHING_NEW', 418).retry, false);
  assert.equal(new ApiError({ code: 'SERVICE_UNAVAILABLE', message: 'm', status: 503 }).retryable, true);
  // "fix your key" codes are the key's, and never retried
  const fixKey = RULES.filter(([, x]) => x.fixKey).map(([c]) => c).sort();
  assert.deepEqual(fixKey, ['API_KEY_INVALID', 'API_KEY_MISSING', 'NO_ACTIVE_SUBSCRIPTION', 'NO_API_KEY']);
  for (const c of fixKey) assert.equal(ERROR_RULES[c].retry, false);
  // the pacer's rules read the `pacer` column: the rate limit is the service's 429, a failure that never
  // reached the service has no HTTP status of its own; both are retried
  const pacer = (p: string) => RULES.filter(([, x]) => x.pacer === p).map(([c]) => c);
  assert.deepEqual(pacer('rate-limit'), Object.entries(API_ERROR_CODES).filter(([, c]) => c.status === 429).map(([c]) => c));
  for (const c of pacer('unreached')) assert.ok(!Object.hasOwn(API_ERROR_CODES, c) && ERROR_RULES[c].retry, c);
  for (const c of pacer('rate-limit')) assert.ok(ERROR_RULES[c].retry && ERROR_RULES[c].retryAfter, c);
});

test('every code has its words in the pane, and what makes it go; a cell error without a code has words by its Excel error', () => {
  for (const [code, rule] of RULES) {
    assert.ok(rule.words.trim() !== '' && rule.words !== 'Error', `${code}: words of its own`);
    assert.equal(errorWords(code), rule.words, `${code}: the pane reads the row`);
    assert.ok(rule.gone === null || ['key', 'day', 'success'].includes(rule.gone), `${code}: gone`);
  }
  assert.equal(errorWords('#N/A'), CELL_WORDS['#N/A']);
  assert.equal(errorWords('#VALUE!'), CELL_WORDS['#VALUE!']);
  assert.equal(errorWords('SOMETHING_NEW'), 'Error');
  // the pane drops an entry by its row's `gone`
  const day = Date.UTC(2026, 2, 15);
  const at = (code: string) => ({ time: day + 10, formula: 'PRICE', code, message: 'm' });
  const ctx = { keySavedAt: day + 20, now: day + 100, lastSuccess: () => day + 30 };
  const kept = currentErrors(RULES.map(([code]) => at(code)), ctx).map((e) => e.code);
  assert.deepEqual(kept.sort(), RULES.filter(([, r]) => r.gone === null || r.gone === 'day').map(([c]) => c).sort());
});

test('a formula\'s own error reads its row: Excel error, last good value, scope; a bad argument is INVALID_ARGUMENT\'s #VALUE!', () => {
  for (const [code, rule] of RULES) {
    const f = formulaError(code, 'm');
    assert.deepEqual([f.code, f.lastGood, f.apiCode, scopeOf(f), f.message], [rule.cell, rule.lastGood, code, rule.scope, 'm'], code);
  }
  const bad = invalidValue('x must be a number');
  assert.deepEqual([bad.code, bad.apiCode, bad.lastGood], ['#VALUE!', 'INVALID_ARGUMENT', false]);
  // the rows the review found bypassed: an answer without a field, a plan's limit keep the last good value
  assert.equal(formulaError('MISSING_FIELD', 'm').lastGood, true);
  assert.equal(formulaError('PLAN_LIMIT_EXCEEDED', 'm').lastGood, true);
  // a service code we do not know is logged as the code its status means, and follows that row
  const unknown = toFormulaError(new ApiError({ code: 'SERVICE_UNAVAILABLE', message: 'm', status: 503 }), 'PRICE');
  assert.deepEqual([unknown.apiCode, unknown.lastGood, scopeOf(unknown)], ['INTERNAL_ERROR', true, 'call']);
  assert.equal(toFormulaError(new ApiError({ code: 'SOMETHING_NEW', message: 'm', status: 418 }), 'PRICE').apiCode, undefined);
});

test('the words: each code says its own thing in a cell, and "needs the plan" is worded once', () => {
  const say = (code: string, extra: Partial<ApiError> = {}) => toFormulaError(Object.assign(new ApiError({ code, message: 'the detail.' }), extra), 'TVL').message;
  assert.equal(say('ENDPOINT_NOT_AVAILABLE', { requiredPlan: 'Basic' }), 'CRYPTO.TVL needs the Basic plan or higher; see your plan in the Crypto Data pane');
  assert.equal(say('NO_API_KEY'), say('API_KEY_MISSING'));
  assert.match(say('NO_API_KEY'), /^No API key: .*add your key$/);
  assert.match(say('RATE_LIMIT_EXCEEDED'), /^Rate limit reached \(the detail\); the next recalculation retries$/);
  assert.match(say('INTERNAL_ERROR'), /^Market data unavailable \(INTERNAL_ERROR\): the detail; the next recalculation retries$/);
  assert.equal(say('NOT_FOUND'), 'No data: the detail.');
  assert.equal(say('ABORTED'), 'Canceled');
  assert.equal(say('UNKNOWN_COIN'), 'the detail.');
  // A formula's own codes: the same table decides the Excel error and the last good value.
  assert.equal(formulaError('INVALID_ARGUMENT', 'x').code, '#VALUE!');
  assert.equal(formulaError('DEADLINE', 'x').lastGood, true);
  assert.equal(toFormulaError(new TypeError('boom'), 'PRICE').message, 'PRICE: unexpected error: boom');
  assert.equal(toFormulaError(new TypeError('boom'), 'PRICE').apiCode, 'UNEXPECTED');
});

test('a plan refusal of one part of a formula names that part and the form that works, not the formula (review-r3 #9)', () => {
  const say = (formula: string, extra: Partial<ApiError>) => toFormulaError(Object.assign(new ApiError({ code: 'ENDPOINT_NOT_AVAILABLE', message: 'm', status: 403 }), extra), formula).message;
  assert.equal(
    say('FEARGREED', { endpoint: 'fearGreedChart', requiredPlan: 'Basic' }),
    "CRYPTO.FEARGREED's history (with dates) needs the Basic plan or higher; the current reading (no dates) works on every plan; see your plan in the Crypto Data pane",
  );
  // refused though the key's plan has it (no plan named): still the part
  assert.equal(
    say('ALTSEASON', { endpoint: 'altcoinIndexChart' }),
    "CRYPTO.ALTSEASON's history (with dates) is not available in your plan; the current reading (no dates) works on every plan; see your plan in the Crypto Data pane",
  );
  // an endpoint that is the whole formula: the formula, as before
  assert.equal(say('TVL', { endpoint: 'tvlChart', requiredPlan: 'Basic' }), 'CRYPTO.TVL needs the Basic plan or higher; see your plan in the Crypto Data pane');
  // each part's other form is on a lower plan than the part (else the sentence would be false)
  for (const [name, form] of Object.entries(PLAN_FORMS)) {
    assert.ok(PLANS.indexOf(ENDPOINTS[form!.lower].plan) < PLANS.indexOf(ENDPOINTS[name as keyof typeof ENDPOINTS].plan), name);
  }
});

test("a bare status is classified by the table's byStatus marks; unknown and prototype names are not codes", () => {
  assert.equal(codeForStatus(401), 'API_KEY_INVALID');
  assert.equal(codeForStatus(404), 'NOT_FOUND');
  assert.equal(codeForStatus(429), 'RATE_LIMIT_EXCEEDED');
  assert.equal(codeForStatus(503), 'INTERNAL_ERROR');
  assert.equal(codeForStatus(403), null, 'a 403 may be any of three codes');
  assert.equal(codeForStatus(400), null);
  assert.equal(codeForStatus(502), 'INTERNAL_ERROR', 'any other 5xx is the outage row of 500');
  // A new code marked for its own status is what that bare status means, a 5xx included: the status's
  // row comes before "any 5xx is 500" (review-arch F1: a MAINTENANCE 503 row was read as INTERNAL_ERROR).
  const withMaintenance = { ...API_ERROR_CODES, MAINTENANCE: { status: 503, message: 'Service under maintenance', byStatus: true } };
  assert.equal(codeForStatus(503, withMaintenance), 'MAINTENANCE');
  assert.equal(codeForStatus(502, withMaintenance), 'INTERNAL_ERROR');
  assert.equal(codeForStatus(500, withMaintenance), 'INTERNAL_ERROR');
  for (const name of ['constructor', '__proto__', 'toString']) {
    assert.equal(errorRule(name, 500), ERROR_RULES.INTERNAL_ERROR, `${name} on a 500 is an outage`);
    assert.equal(errorRule(name, 418).retry, false);
  }
  assert.equal(errorRule('SOMETHING_NEW', 401), ERROR_RULES.API_KEY_INVALID);
  // the one guard
  const e = new ApiError({ code: 'NOT_FOUND', message: 'm' });
  assert.equal(hasCode(e, 'NOT_FOUND'), true);
  assert.equal(hasCode(e, 'VALIDATION_ERROR', 'NOT_FOUND'), true);
  assert.equal(hasCode(e, 'VALIDATION_ERROR'), false);
  assert.equal(hasCode({ code: 'NOT_FOUND', message: 'm' }, 'NOT_FOUND'), false, 'only the client\'s errors');
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
  // without a last good value, the error: a credit limit, by the service's words, not a depth limit
  const credits = await rejects(c.get('trending'), 'PLAN_LIMIT_EXCEEDED');
  assert.deepEqual([credits.creditLimit, isDepthLimit(credits)], [true, false]);
  // a 500 is retried (the same table)
  r.em.setUsage('demo-sandbox', { dailyUsed: 0 });
  r.em.faults.queue({ kind: '500', times: 2, path: ENDPOINTS.trending.path });
  const before500 = r.hits(ENDPOINTS.trending.path).length;
  await c.get('trending');
  assert.equal(r.hits(ENDPOINTS.trending.path).length - before500, 3, 'two 500s, then the answer');
});

test('over HTTP: a range deeper than the plan is a depth limit, not a credit limit', async () => {
  const c = r.client({ key: 'demo-advanced' });
  const e = await rejects(c.get('sparkline', { id: 1, query: { from: '2000-01-01T00:00:00.000Z' } }), 'PLAN_LIMIT_EXCEEDED');
  assert.equal(isDepthLimit(e), true, e.message);
  assert.equal(e.creditLimit, undefined);
});

test('over HTTP: cells built from the live error words read well, and the key stays out of them', async () => {
  // The live bodies (api-notes, "Round two"): 403 "Endpoint is not available in your plan", which does not name
  // a plan; 404 "Cannot GET " + path and query for a route the service does not have. Here the service refuses
  // an endpoint the table gives every plan, and lacks the global market's route (the 404 echoing the key, as a
  // hostile proxy might: serverText scrubs it).
  const json = { 'content-type': 'application/json' };
  const h = await behindHostile((req) => {
    const path = req.url.split('?')[0];
    if (path === ENDPOINTS.trending.path) {
      return { status: 403, headers: json, body: JSON.stringify({ error: { code: 'ENDPOINT_NOT_AVAILABLE', message: 'Endpoint is not available in your plan', status: 403 } }) };
    }
    if (path === ENDPOINTS.globalMarket.path) {
      return { status: 404, headers: json, body: JSON.stringify({ error: { code: 'NOT_FOUND', message: `Cannot GET ${req.url}?k=${req.key}`, status: 404 } }) };
    }
    return null;
  }, { upstream: r.em, key: 'demo-sandbox' });
  try {
    for (let i = 0; i < 2; i++) {
      // the service's refusal, then the refusal learned for the session: the same words, no plan named that the key has
      const out = await calculate(h.session.host, '=CRYPTO.TRENDING()');
      assert.ok('error' in out, JSON.stringify(out));
      assert.equal(out.error, '#N/A');
      assert.equal(out.message, 'CRYPTO.TRENDING is not available in your plan; see your plan in the Crypto Data pane');
    }
    assert.equal(h.hostile.seen.filter((x) => x.url.startsWith(ENDPOINTS.trending.path)).length, 1, 'learned: asked once');
    const g = await calculate(h.session.host, '=CRYPTO.GLOBAL("totalMarketCap")');
    assert.ok('error' in g, JSON.stringify(g));
    assert.equal(g.error, '#N/A');
    assert.equal(g.message, 'No data: globalMarket: the service does not serve this route (Cannot GET /v3/global/market?k=***).');
    // The 404's words say the route is missing: the error carries that fact, and the session does not ask again.
    const again = await calculate(h.session.host, '=CRYPTO.GLOBAL("totalMarketCap")');
    assert.ok('error' in again && again.error === '#N/A', JSON.stringify(again));
    assert.equal(h.hostile.seen.filter((x) => x.url.startsWith(ENDPOINTS.globalMarket.path)).length, 1, 'learned: asked once');
  } finally {
    await h.close();
  }
});

test("over HTTP: Retry-After is read by the answer's row (the rate limit, an outage), not by two statuses", async () => {
  // review-arch F1: transport read the header for 429 and 503 only, so a 502 outage's (or a new code's) was dropped.
  const h = await startHostileServer(r.em.url);
  const answers: Record<string, { status: number; code: string }> = {
    [ENDPOINTS.trending.path]: { status: 502, code: 'BAD_GATEWAY' },
    [ENDPOINTS.globalMarket.path]: { status: 429, code: 'RATE_LIMIT_EXCEEDED' },
    [ENDPOINTS.fearGreed.path]: { status: 400, code: 'VALIDATION_ERROR' },
  };
  h.play((req) => {
    const a = answers[req.url.split('?')[0]];
    if (!a) return null;
    const body = JSON.stringify({ error: { code: a.code, message: 'not now', status: a.status } });
    return { status: a.status, headers: { 'content-type': 'application/json', 'retry-after': '7' }, body };
  });
  try {
    const c = r.client({ baseUrl: h.url, maxRetries: 0 });
    const outage = await rejects(c.get('trending'), 'INTERNAL_ERROR');
    assert.equal(ERROR_RULES.INTERNAL_ERROR.retryAfter, true);
    assert.equal(outage.retryAfterMs, 7_000, 'a 502 is the outage row, and the row reads Retry-After');
    assert.equal((await rejects(c.get('globalMarket'), 'RATE_LIMIT_EXCEEDED')).retryAfterMs, 7_000);
    assert.equal(ERROR_RULES.VALIDATION_ERROR.retryAfter, false);
    assert.equal((await rejects(c.get('fearGreed'), 'VALIDATION_ERROR')).retryAfterMs, undefined, 'a row that is not retried ignores the header');
  } finally {
    await h.close();
  }
});
