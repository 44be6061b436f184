/**
 * The task pane's pure parts: masking, formatting, messages, view models, the
 * refresh estimate, the settings form, the throttle. No DOM, no browser.
 *
 *   node --import tsx --test test/taskpane-model.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, type AccountStatus, type Ambiguity, type MeterSnapshot } from '../src/client';
import { formatInt, formatRelative, maskKey, nextUtcMidnight } from '../src/taskpane/format';
import { keyCheckOutcome, refreshDoneMessage, statusErrorMessage } from '../src/taskpane/messages';
import { policyAllowsConnect } from '../src/taskpane/content-policy';
import { FRESHNESS_MIN, hostNeedingConsent, parseSettingsForm, toFormValues } from '../src/taskpane/settings-form';
import { normalizeSettings, type AddinSettings } from '../src/office/settings';
import { throttle } from '../src/taskpane/throttle';
import {
  CONFIRM_ABOVE_CREDITS,
  ambiguityRows,
  errorRows,
  estimateRefresh,
  gauge,
  planView,
  creditsLeftText,
  creditsRemaining,
  cellRefreshEstimate,
  spendSignature,
  usageView,
} from '../src/taskpane/view-model';

const BASE = 'https://api.cryptorank.io';

function snapshot(p: Partial<MeterSnapshot> = {}): MeterSnapshot {
  return { requests: 0, credits: 0, cacheHits: 0, sharedCalls: 0, byEndpoint: {}, byCaller: {}, plan: null, since: 1000, ...p };
}

describe('maskKey', () => {
  test('never shows the whole key, nor more than a quarter or 4 characters of it', () => {
    for (const key of ['demo-pro', 'demo-sandbox', 'demo-advanced', 'a'.repeat(64) + 'WXYZ', 'abc', 'x']) {
      const m = maskKey(key);
      assert.ok(!m.includes(key), `${key} -> ${m}`);
      const shown = m.replace(/•/g, '');
      assert.ok(shown.length <= Math.min(4, key.length / 4), `${key} -> ${m}`);
      assert.ok(key.endsWith(shown));
    }
    assert.equal(maskKey('0123456789abcdefWXYZ'), '••••••••WXYZ');
    assert.equal(maskKey('demo-pro'), '••••••••ro');
    assert.equal(maskKey(''), '');
    assert.equal(maskKey(null), '');
  });
  test('the mask does not reveal the length', () => {
    assert.equal(maskKey('k'.repeat(40)).length, maskKey('k'.repeat(400)).length);
  });
});

describe('format', () => {
  test('integers with grouping', () => {
    assert.equal(formatInt(2_000_000, 'en-US'), '2,000,000');
    assert.equal(formatInt(Number.NaN, 'en-US'), '–');
  });
  test('relative times', () => {
    assert.equal(formatRelative(5 * 3_600_000, 0), 'in 5 h');
    assert.equal(formatRelative(3 * 86_400_000, 0), 'in 3 days');
    assert.equal(formatRelative(12 * 60_000, 0), 'in 12 min');
    assert.equal(formatRelative(10_000, 0), 'now');
    assert.equal(formatRelative(0, 2 * 3_600_000), '2 h ago');
  });
  test('next UTC midnight', () => {
    assert.equal(nextUtcMidnight(Date.parse('2026-03-15T12:00:00Z')), Date.parse('2026-03-16T00:00:00Z'));
  });
});

describe('messages', () => {
  const err = (code: string) => ({ error: new ApiError({ code, message: `m-${code}` }) });
  test('each key-check outcome has its own message, and only a rejected key is not saved', () => {
    const ok = keyCheckOutcome({ plan: 'Pro', rateLimitPerMinute: 100 }, BASE);
    const invalid = keyCheckOutcome(err('API_KEY_INVALID'), BASE);
    const inactive = keyCheckOutcome(err('NO_ACTIVE_SUBSCRIPTION'), BASE);
    const network = keyCheckOutcome(err('NETWORK_ERROR'), BASE);
    const timeout = keyCheckOutcome(err('TIMEOUT'), BASE);
    assert.deepEqual([ok.kind, invalid.kind, inactive.kind, network.kind, timeout.kind], ['ok', 'invalid', 'inactive', 'outage', 'outage']);
    assert.match(ok.text, /Pro plan, 100 requests per minute/);
    assert.match(invalid.text, /^Invalid API key/);
    assert.match(inactive.text, /^No active subscription/);
    assert.match(network.text, /^Network failure.*api\.cryptorank\.io/);
    assert.equal(new Set([ok.text, invalid.text, inactive.text, network.text]).size, 4);
    assert.deepEqual([ok.save, invalid.save, inactive.save, network.save], [true, false, true, true]);
    assert.equal(ok.tone, 'success');
    assert.equal(invalid.tone, 'error');
  });
  test('a plan name the add-in does not know is not quoted (the server\'s text could be anything, the key included)', () => {
    const o = keyCheckOutcome({ plan: 'sk-echoed-key <b>Gold</b>', rateLimitPerMinute: 30 }, BASE);
    assert.equal(o.kind, 'ok');
    assert.doesNotMatch(o.text, /sk-echoed|Gold/);
    assert.match(o.text, /a plan this add-in does not know by name, 30 requests per minute/);
  });
  test('unknown failures say their code', () => {
    const o = keyCheckOutcome(err('VALIDATION_ERROR'), BASE);
    assert.equal(o.kind, 'other');
    assert.match(o.text, /^The key could not be checked \(VALIDATION_ERROR\): m-VALIDATION_ERROR/);
  });
  test('an outage is said as one by its row\'s columns, whatever its code: the service\'s 500, a 5xx code we do not know', () => {
    // review-arch F1: INTERNAL_ERROR fell to "The key could not be checked (INTERNAL_ERROR)", the unknown-failure sentence.
    const internal = keyCheckOutcome(err('INTERNAL_ERROR'), BASE);
    const unknown503 = keyCheckOutcome({ error: new ApiError({ code: 'SERVICE_UNAVAILABLE', message: 'down', status: 503 }) }, BASE);
    for (const o of [internal, unknown503]) {
      assert.deepEqual([o.kind, o.tone, o.save], ['outage', 'warning', true]);
      assert.match(o.text, /^CryptoRank unavailable \((INTERNAL_ERROR|SERVICE_UNAVAILABLE)\): the key could not be checked with api\.cryptorank\.io\..*saved but not verified/);
    }
    assert.match(statusErrorMessage(new ApiError({ code: 'SERVICE_UNAVAILABLE', message: '', status: 502 }), BASE).text, /^CryptoRank unavailable \(SERVICE_UNAVAILABLE\): .*update when it answers/);
    // the rate limit has its own sentence in both places
    assert.equal(keyCheckOutcome(err('RATE_LIMIT_EXCEEDED'), BASE).kind, 'rate-limit');
    assert.match(statusErrorMessage(new ApiError({ code: 'RATE_LIMIT_EXCEEDED', message: '' }), BASE).text, /^Too many requests/);
    // no key yet is news, not an error; a rejected key is
    assert.equal(statusErrorMessage(new ApiError({ code: 'NO_API_KEY', message: '' }), BASE).tone, 'info');
    assert.equal(statusErrorMessage(new ApiError({ code: 'NO_ACTIVE_SUBSCRIPTION', message: '' }), BASE).tone, 'error');
  });
  test('status errors', () => {
    assert.match(statusErrorMessage(new ApiError({ code: 'API_KEY_INVALID', message: '' }), BASE).text, /Invalid API key/);
    assert.match(statusErrorMessage(new ApiError({ code: 'NETWORK_ERROR', message: '' }), 'http://127.0.0.1:9').text, /127\.0\.0\.1:9/);
  });
  test('only the client\'s errors are read by code: anything else that failed is UNEXPECTED, said with its words', () => {
    const odd = Object.assign(new Error('storage failed'), { code: 'API_KEY_INVALID' });
    const o = keyCheckOutcome({ error: odd }, BASE);
    assert.deepEqual([o.kind, o.save], ['other', true]);
    assert.match(o.text, /\(UNEXPECTED\): storage failed/);
    assert.match(statusErrorMessage({ code: 'NO_API_KEY', message: 'x' }, BASE).text, /^Could not read the plan \(UNEXPECTED\): x/);
  });
  test('refresh outside Excel says nothing was recalculated', () => {
    assert.match(refreshDoneMessage('workbook', false).text, /Not running inside Excel/);
    assert.match(refreshDoneMessage('workbook', true).text, /workbook/);
    assert.match(refreshDoneMessage('sheet', true).text, /active sheet/);
    assert.equal(refreshDoneMessage('sheet', true, new Error('boom')).tone, 'error');
  });
});

describe('view models', () => {
  const status: AccountStatus = {
    plan: 'Basic',
    rateLimitPerMinute: 30,
    credits: { dailyLimit: 4000, dailyUsed: 3500, dailyRemaining: 500, monthlyLimit: 100000, monthlyUsed: 100000, monthlyRemaining: 0 },
    currentPeriodStart: '2026-03-01T00:00:00.000Z',
    currentPeriodEnd: '2026-04-01T00:00:00.000Z',
    endpoints: [],
  };
  test('plan view carries the figures and the reset times', () => {
    const v = planView(status, Date.parse('2026-03-15T12:00:00Z'));
    assert.equal(v.plan, 'Basic');
    assert.equal(v.rateLimitPerMinute, 30);
    assert.ok(v.daily);
    assert.deepEqual([v.daily.used, v.daily.limit, v.daily.remaining], [3500, 4000, 500]);
    assert.equal(v.daily.fraction, 0.875);
    assert.equal(v.daily.level, 'warn');
    assert.equal(v.monthly.level, 'full');
    assert.equal(v.dailyResetAt, Date.parse('2026-03-16T00:00:00Z'));
    assert.equal(v.monthlyResetAt, Date.parse('2026-04-01T00:00:00Z'));
  });
  test('without daily figures (an older /v3/status): no daily gauge, nothing derived; the monthly ones stand in', () => {
    const monthlyOnly: AccountStatus = {
      ...status,
      credits: { dailyLimit: null, dailyUsed: null, dailyRemaining: null, monthlyLimit: 100000, monthlyUsed: 40000, monthlyRemaining: 60000 },
      endpoints: null,
    };
    const v = planView(monthlyOnly, Date.parse('2026-03-15T12:00:00Z'));
    assert.equal(v.daily, null);
    assert.deepEqual([v.monthly.used, v.monthly.limit, v.monthly.remaining], [40000, 100000, 60000]);
    assert.equal(creditsRemaining(monthlyOnly), 60000);
    assert.equal(creditsRemaining(status), 500, 'daily where reported');
    assert.equal(creditsRemaining(null), null);
    assert.equal(creditsLeftText(monthlyOnly, String), ' You have 60000 of 100000 credits left this month.');
    assert.equal(creditsLeftText(status, String), ' You have 500 of 4000 daily credits left.');
  });
  test('gauge clamps', () => {
    assert.equal(gauge(10, 0, 0).fraction, 1);
    assert.equal(gauge(0, 0, 0).fraction, 0);
    assert.equal(gauge(50, 40, -10).fraction, 1);
    assert.equal(gauge(1, 100, 99).level, 'ok');
  });
  test('usage by formula, biggest spender first, non-formula requests named', () => {
    const v = usageView(
      snapshot({
        requests: 6,
        credits: 5,
        cacheHits: 7,
        byCaller: { PRICE: { requests: 2, credits: 1 }, QUOTE: { requests: 3, credits: 4 }, client: { requests: 1, credits: 0 } },
      }),
    );
    assert.deepEqual(
      v.rows.map((r) => [r.label, r.requests, r.credits]),
      [
        ['CRYPTO.QUOTE', 3, 4],
        ['CRYPTO.PRICE', 2, 1],
        ['Add-in (plan check, coin list)', 1, 0],
      ],
    );
    assert.equal(v.cacheHits, 7);
  });
  test('ambiguities: newest first, one per input, alternatives without the chosen coin', () => {
    const coin = (id: number, name: string, symbol = 'X') => ({ id, slug: name.toLowerCase(), symbol, name });
    const list: Ambiguity[] = [
      { input: 'UNI', chosen: coin(1, 'Uniswap', 'UNI'), alternatives: [coin(1, 'Uniswap', 'UNI'), coin(2, 'Unicorn', 'UNI')], at: 1 },
      { input: 'uni', chosen: coin(1, 'Uniswap', 'UNI'), alternatives: [coin(2, 'Unicorn', 'UNI')], at: 3 },
      { input: 'ABC', chosen: coin(3, 'Abc', 'ABC'), alternatives: [1, 2, 4, 5, 6].map((i) => coin(10 + i, `Alt${i}`)), at: 2 },
    ];
    const rows = ambiguityRows(list);
    assert.deepEqual(rows.map((r) => r.input), ['uni', 'ABC']);
    assert.equal(rows[0].chosen, 'Uniswap (UNI), id 1');
    assert.equal(rows[0].alternatives, 'Unicorn (UNI)');
    assert.match(rows[1].alternatives, /and 2 more$/);
  });
  test('error rows keep the host order (newest first) and are capped', () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ time: 100 - i, formula: 'PRICE', code: 'X', message: `e${i}` }));
    const rows = errorRows(entries, 20);
    assert.equal(rows.length, 20);
    assert.equal(rows[0].message, 'e0');
    assert.equal(rows[0].formula, 'CRYPTO.PRICE');
  });
});

describe('refresh estimate', () => {
  test('first time: what the workbook spent since it opened', () => {
    const e = estimateRefresh(snapshot({ credits: 12 }), null);
    assert.equal(e.credits, 12);
    assert.equal(e.confirm, true);
    assert.match(e.basis, /since the workbook opened/);
  });
  test('after a refresh: what was spent since then', () => {
    const e = estimateRefresh(snapshot({ credits: 15 }), { since: 1000, credits: 12 });
    assert.equal(e.credits, 3);
    assert.equal(e.confirm, false);
    assert.match(e.basis, /since the last refresh/);
  });
  test('a mark from another meter (settings rebuilt the client) is ignored', () => {
    assert.equal(estimateRefresh(snapshot({ credits: 4, since: 2000 }), { since: 1000, credits: 12 }).credits, 4);
  });
  test('confirm above the threshold, or when it would exceed what is left today', () => {
    assert.equal(estimateRefresh(snapshot({ credits: CONFIRM_ABOVE_CREDITS }), null).confirm, false);
    assert.equal(estimateRefresh(snapshot({ credits: CONFIRM_ABOVE_CREDITS + 1 }), null).confirm, true);
    assert.equal(estimateRefresh(snapshot({ credits: 3 }), null, 2).confirm, true);
  });
  test('a saved last-refresh spend of 0 (or not a positive number) is unmeasured: the estimate counts the formulas and asks', () => {
    // A 0 saved by an older version, or by a refresh answered from the cache, said a refresh of 40 formulas was free.
    for (const last of [0, -3, Number.NaN, Number.POSITIVE_INFINITY]) {
      const e = cellRefreshEstimate(snapshot(), 40, last);
      assert.equal(e.credits, 40, `saved ${last}`);
      assert.equal(e.confirm, true, `saved ${last}`);
      assert.match(e.basis, /one credit a CRYPTO formula/);
    }
    assert.equal(cellRefreshEstimate(snapshot(), 40, 7).credits, 7, 'a measured spend is still used');
  });
  test('spend signature ignores cache hits and status reads', () => {
    const a = snapshot({ credits: 2, requests: 3, byEndpoint: { status: { requests: 1, credits: 0 } } });
    assert.equal(spendSignature(a), spendSignature({ ...a, cacheHits: 9 }));
    assert.equal(spendSignature(a), spendSignature({ ...a, requests: 4, byEndpoint: { status: { requests: 2, credits: 0 } } }));
    assert.notEqual(spendSignature(a), spendSignature({ ...a, credits: 3 }));
  });
});

describe('settings form', () => {
  const good = { defaultCurrency: 'EUR', liveFreshnessSeconds: '120', dailyCreditBudget: '500', apiBaseUrl: 'https://api.cryptorank.io/v3/' };
  test('valid values', () => {
    const r = parseSettingsForm(good, BASE);
    assert.ok(r.ok);
    assert.deepEqual(r.settings, { defaultCurrency: 'EUR', liveFreshnessSeconds: 120, dailyCreditBudget: 500, apiBaseUrl: BASE });
  });
  test('empty budget is no budget; empty base is the default', () => {
    const r = parseSettingsForm({ ...good, dailyCreditBudget: ' ', apiBaseUrl: '' }, BASE);
    assert.ok(r.ok);
    assert.equal(r.settings.dailyCreditBudget, null);
    assert.equal(r.settings.apiBaseUrl, BASE);
  });
  test('bad values get a message each', () => {
    const r = parseSettingsForm({ defaultCurrency: 'GBP', liveFreshnessSeconds: '5', dailyCreditBudget: '-1', apiBaseUrl: 'http://example.com' }, BASE);
    assert.ok(!r.ok);
    assert.deepEqual(Object.keys(r.errors).sort(), ['apiBaseUrl', 'dailyCreditBudget', 'defaultCurrency', 'liveFreshnessSeconds']);
    assert.ok(!parseSettingsForm({ ...good, liveFreshnessSeconds: '1.5' }, BASE).ok);
    assert.ok(!parseSettingsForm({ ...good, apiBaseUrl: 'https://user:pw@x.io' }, BASE).ok);
  });
  test('http only for localhost', () => {
    const r = parseSettingsForm({ ...good, apiBaseUrl: 'http://127.0.0.1:4010' }, BASE);
    assert.ok(r.ok);
    assert.equal(r.settings.apiBaseUrl, 'http://127.0.0.1:4010');
  });
  test('one set of rules: whatever is stored is brought within what the form accepts', () => {
    const stored = [
      { defaultCurrency: 'eur', liveFreshnessSeconds: 5, dailyCreditBudget: 2.7, apiBaseUrl: 'ftp://localhost:4010' },
      { defaultCurrency: 'GBP', liveFreshnessSeconds: 99_999, dailyCreditBudget: -3, apiBaseUrl: 'https://user:pw@api.example.com' },
      { defaultCurrency: 'USD', liveFreshnessSeconds: 90.4, dailyCreditBudget: '', apiBaseUrl: 'https://api.cryptorank.io/v3/' },
      { defaultCurrency: 'EUR', liveFreshnessSeconds: 'x', dailyCreditBudget: null, apiBaseUrl: 'https://api.example.com/?k=1' },
    ] as unknown as AddinSettings[];
    for (const raw of stored) {
      const s = normalizeSettings(raw);
      const r = parseSettingsForm(toFormValues(s), BASE);
      assert.ok(r.ok, `${JSON.stringify(raw)} → ${JSON.stringify(s)}: ${JSON.stringify(!r.ok && r.errors)}`);
      assert.deepEqual(r.settings, s, 'the form reads back what was stored');
      assert.deepEqual(normalizeSettings(s), s, 'within the rules, nothing changes');
    }
    assert.equal(normalizeSettings(stored[0]).defaultCurrency, 'EUR');
    assert.equal(normalizeSettings(stored[0]).liveFreshnessSeconds, FRESHNESS_MIN);
    assert.equal(normalizeSettings(stored[2]).apiBaseUrl, 'https://api.cryptorank.io', 'the same /v3 the form strips');
    assert.equal(normalizeSettings(stored[2]).dailyCreditBudget, null);
  });
  test('round trip through the form values', () => {
    const s = { defaultCurrency: 'USD' as const, liveFreshnessSeconds: 60, dailyCreditBudget: null, apiBaseUrl: BASE };
    const r = parseSettingsForm(toFormValues(s), BASE);
    assert.ok(r.ok);
    assert.deepEqual(r.settings, s);
  });
});

describe('throttle', () => {
  test('at most once per interval, and once after the last call', () => {
    let now = 0;
    const timers: { at: number; cb: () => void }[] = [];
    const clock = {
      now: () => now,
      setTimeout: (cb: () => void, ms: number) => {
        const t = { at: now + ms, cb };
        timers.push(t);
        return t;
      },
      clearTimeout: (h: unknown) => {
        const i = timers.indexOf(h as (typeof timers)[number]);
        if (i >= 0) timers.splice(i, 1);
      },
    };
    const advance = (ms: number) => {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const t = timers[0];
        if (!t || t.at > end) break;
        timers.shift();
        now = t.at;
        t.cb();
      }
      now = end;
    };
    let runs = 0;
    const t = throttle(() => runs++, 2000, clock);
    t();
    advance(0);
    assert.equal(runs, 1);
    for (let i = 0; i < 10; i++) {
      t();
      advance(100);
    }
    assert.equal(runs, 1, 'no second run within the interval');
    advance(2000);
    assert.equal(runs, 2, 'the trailing call runs');
    t();
    t.cancel();
    advance(5000);
    assert.equal(runs, 2);
  });
});

test('a new API host needs the user\'s consent; the page\'s policy says whether it can be reached', () => {
  const def = 'https://api.cryptorank.io';
  assert.equal(hostNeedingConsent('https://api.example.test', def, def), 'api.example.test');
  assert.equal(hostNeedingConsent('https://api.example.test/v3x', 'https://api.example.test', def), null, 'the address already in use');
  assert.equal(hostNeedingConsent(def, 'https://api.example.test', def), null, 'back to the default');
  const policy = "default-src 'self'; connect-src 'self' https://api.cryptorank.io https://*.office.com; script-src 'self'";
  const self = 'https://addin.example.com';
  assert.equal(policyAllowsConnect(policy, 'https://api.cryptorank.io', self), true);
  assert.equal(policyAllowsConnect(policy, 'https://api.example.test', self), false);
  assert.equal(policyAllowsConnect(policy, 'https://addin.example.com', self), true, "'self'");
  assert.equal(policyAllowsConnect(policy, 'https://outlook.office.com', self), true, 'a wildcard host');
  assert.equal(policyAllowsConnect(policy, 'http://api.cryptorank.io', self), false, 'another scheme');
  assert.equal(policyAllowsConnect("default-src 'self' https:", 'https://api.example.test', self), true, 'default-src when no connect-src; a scheme source');
  assert.equal(policyAllowsConnect(null, 'https://api.example.test', self), null, 'no policy (the development build)');
});
