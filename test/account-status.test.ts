/**
 * /v3/status in every documented shape (spec, without `endpoints`, the older
 * creditsTotal/maxRPM one), over real HTTP against the local API server in
 * each dialect: the plan and credits read the same, daily figures only where
 * the service reports them, and plan gating works without `endpoints`.
 *
 *   node --import tsx --test test/account-status.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import { DIALECTS, type Dialect } from '../src/emulator/server';
import { creditsLeftText, planView } from '../src/taskpane/view-model';
import { NOW, rejects, rig, type Rig } from './client-harness';
import { frozenSession } from './support/frozen-session';
import { calculate } from '../src/cli/calculate';

const rigs = {} as Record<Dialect, Rig>;
before(async () => {
  for (const d of DIALECTS) rigs[d] = await rig({ dialect: d });
});
after(async () => {
  await Promise.all(DIALECTS.map((d) => rigs[d]?.close()));
});

describe('status in each dialect', () => {
  for (const d of DIALECTS) {
    test(`${d}: plan, rate and monthly credits as the spec shape says; daily only where reported`, async () => {
      const spec = await rigs.spec.client({ key: 'demo-advanced' }).status();
      const s = await rigs[d].client({ key: 'demo-advanced' }).status();
      assert.equal(s.plan, 'Advanced');
      assert.equal(s.rateLimitPerMinute, 60);
      assert.deepEqual(
        [s.credits.monthlyLimit, s.credits.monthlyUsed, s.credits.monthlyRemaining],
        [spec.credits.monthlyLimit, spec.credits.monthlyUsed, spec.credits.monthlyRemaining],
      );
      assert.equal(s.currentPeriodEnd, spec.currentPeriodEnd);
      if (d === 'legacy') {
        assert.deepEqual([s.credits.dailyLimit, s.credits.dailyUsed, s.credits.dailyRemaining], [null, null, null], 'nothing derived');
      } else {
        assert.equal(s.credits.dailyLimit, spec.credits.dailyLimit);
        assert.equal(typeof s.credits.dailyLimit, 'number');
      }
      assert.equal(s.endpoints === null, d !== 'spec', 'endpoints listed only in the spec shape');
    });
  }

  test('the pane shows monthly credits only when the shape has no daily figures', async () => {
    const legacy = planView(await rigs.legacy.client({ key: 'demo-advanced' }).status(), NOW);
    assert.equal(legacy.daily, null);
    assert.equal(legacy.monthly.limit, 600_000);
    assert.equal(legacy.plan, 'Advanced');
    const docs = planView(await rigs.docs.client({ key: 'demo-advanced' }).status(), NOW);
    assert.ok(docs.daily, 'docs shape reports daily credits');
    assert.equal(docs.daily.limit, 24_000);
    const fmt = (n: number) => String(n);
    assert.match(creditsLeftText(await rigs.legacy.client({ key: 'demo-advanced' }).status(), fmt), /of 600000 credits left this month/);
    assert.match(creditsLeftText(await rigs.docs.client({ key: 'demo-advanced' }).status(), fmt), /of 24000 daily credits left/);
  });

  test('CREDITS reads the legacy shape: monthly figures, empty daily cells in the table, #N/A for a daily field alone', async () => {
    const s = await frozenSession({ emulator: { dialect: 'legacy' } });
    try {
      const out = async (f: string) => {
        const r = await calculate(s.host, f);
        assert.ok('value' in r, `${f}: ${JSON.stringify(r)}`);
        return r.value[0][0];
      };
      assert.equal(await out('=CRYPTO.CREDITS("plan")'), 'Pro');
      assert.equal(await out('=CRYPTO.CREDITS("monthlyLimit")'), 2_000_000);
      // Not reported: #N/A saying so, not an empty text a budget guard (=IF(...<50)) silently reads as large (review-r3 #11).
      for (const f of ['dailyLimit', 'dailyUsed', 'dailyRemaining']) {
        const r = await calculate(s.host, `=CRYPTO.CREDITS("${f}")`);
        assert.deepEqual(r, { error: '#N/A', message: `The service reports no daily credits for this key (monthly figures only), so no ${f}; see monthlyRemaining` });
      }
      const table = await calculate(s.host, '=CRYPTO.CREDITS()');
      assert.ok('value' in table);
      assert.equal(new Map(table.value.map((r) => [r[0], r[1]])).get('dailyRemaining'), '', 'the table keeps a blank beside its label');
      assert.equal(await out('=CRYPTO.CREDITS("rateLimitPerMinute")'), 100);
    } finally {
      await s.close();
    }
  });
});

describe('plan gating without endpoints', () => {
  for (const d of ['docs', 'legacy'] as const) {
    test(`${d}: a Sandbox key's call above its plan fails from the endpoint table, without a request`, async () => {
      const r = rigs[d];
      const c = r.client({ key: 'demo-sandbox' });
      await c.status();
      const before = r.hits(ENDPOINTS.tokenomics.path.replace('{id}', '1')).length;
      const e = await rejects(c.get('tokenomics', { id: 1 }), 'ENDPOINT_NOT_AVAILABLE');
      assert.equal(e.requiredPlan, 'Advanced');
      assert.match(e.message, /Advanced plan or higher.*Sandbox/);
      assert.equal(r.hits(ENDPOINTS.tokenomics.path.replace('{id}', '1')).length, before, 'no request sent');
      // what the plan has still goes through
      const g = await c.get('globalMarket');
      assert.equal(typeof g.data.activeCurrencies, 'number');
    });
  }

  test('a plan name the table does not know is left to the service, and its 403 is learned', async () => {
    const r = rigs.docs;
    let plan = 'Starter';
    const c = r.client({
      key: 'demo-sandbox',
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (!String(input).endsWith('/v3/status')) return res;
        const body = (await res.json()) as Record<string, unknown>;
        return new Response(JSON.stringify({ ...body, plan }), { status: 200 });
      },
    });
    assert.equal((await c.status()).plan, 'Starter');
    const path = ENDPOINTS.performance.path.replace('{id}', '1');
    const first = r.hits(path).length;
    await rejects(c.get('performance', { id: 1 }), 'ENDPOINT_NOT_AVAILABLE');
    assert.equal(r.hits(path).length, first + 1, 'the service was asked once');
    const e = await rejects(c.get('performance', { id: 1 }), 'ENDPOINT_NOT_AVAILABLE');
    assert.match(e.message, /refused it for this key/);
    assert.equal(r.hits(path).length, first + 1, 'and not again');
    c.onKeyChanged();
    await rejects(c.get('performance', { id: 1 }), 'ENDPOINT_NOT_AVAILABLE');
    assert.equal(r.hits(path).length, first + 2, 'a new key is asked afresh');
    // the plan changes (an upgrade): the refusal is forgotten
    plan = 'Starter Plus';
    await c.status({ force: true });
    await rejects(c.get('performance', { id: 1 }), 'ENDPOINT_NOT_AVAILABLE');
    assert.equal(r.hits(path).length, first + 3, 'asked again after the plan changed');
  });
});
