/**
 * Plan knowledge is a hint, the service the judge (review finding F2):
 * - a path /v3/status lists for the key is asked, whatever the endpoint table's
 *   minimum plan (without a list the table still refuses locally:
 *   test/account-status.test.ts);
 * - a refusal the service gave (403 ENDPOINT_NOT_AVAILABLE, 404 route miss) is
 *   remembered for a while only: Refresh all data, a later /v3/status answer
 *   granting other access (not the same one again) and REFUSAL_MEMORY_MS each
 *   let the endpoint be asked again;
 * - a route miss is repeated in its own words, not as a plan refusal.
 *
 *   npx tsx --test test/plan-hints.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import { REFUSAL_MEMORY_MS } from '../src/client/plan-gate';
import { rejects, rig, type Rig } from './client-harness';

let r: Rig;
before(async () => {
  r = await rig({});
});
after(() => r.close());

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const refusedByPlan = () => json(403, { error: { code: 'ENDPOINT_NOT_AVAILABLE', message: 'Endpoint is not available in your plan', status: 403 } });
const routeMiss = (path: string) => json(404, { error: { code: 'NOT_FOUND', message: `Cannot GET ${path}`, status: 404 } });

/**
 * A Pro key (the emulator serves it everything) whose /v3/status says `plan` and lists
 * `extra` paths beside the plan's own; `answer(path)` may replace any other answer.
 */
function client(o: { plan?: string; extra?: string[] | (() => string[]); answer?: (path: string) => Response | null } = {}) {
  return r.client({
    key: 'demo-pro',
    fetch: async (input, init) => {
      const path = new URL(String(input)).pathname;
      const mine = path === '/v3/status' ? null : o.answer?.(path);
      if (mine) return mine;
      const res = await fetch(input, init);
      if (path !== '/v3/status') return res;
      const s = (await res.json()) as { plan: string; endpoints: string[] };
      if (o.plan) {
        s.plan = o.plan;
        s.endpoints = Object.values(ENDPOINTS).filter((e) => e.plan === 'Sandbox').map((e) => e.path);
      }
      s.endpoints.push(...(typeof o.extra === 'function' ? o.extra() : (o.extra ?? [])));
      return json(200, s);
    },
  });
}

test('a path /v3/status lists is asked though the table puts it above the plan; one it leaves out is not', async () => {
  const c = client({ plan: 'Sandbox', extra: [ENDPOINTS.dominance.path] });
  await c.status();
  const before = r.hits(ENDPOINTS.dominance.path).length;
  const d = await c.get('dominance'); // was: "dominance needs the Basic plan or higher (this key has Sandbox)", never asked
  assert.equal(typeof d.data.btcDominance, 'number');
  assert.equal(r.hits(ENDPOINTS.dominance.path).length, before + 1, 'the service was asked');
  // the table still refuses, without a request, what the list does not name
  const tokenomics = ENDPOINTS.tokenomics.path.replace('{id}', '1');
  const t = r.hits(tokenomics).length;
  const e = await rejects(c.get('tokenomics', { id: 1 }), 'ENDPOINT_NOT_AVAILABLE');
  assert.equal(e.requiredPlan, 'Advanced');
  assert.equal(r.hits(tokenomics).length, t, 'not asked');
});

test('a 403 refusal is remembered, then asked again after Refresh all data, a /v3/status granting other access, or REFUSAL_MEMORY_MS', async () => {
  let refuse = true;
  const path = ENDPOINTS.globalMarket.path;
  let asked = 0;
  let extra: string[] = [];
  const c = client({ answer: (p) => (p === path ? (asked++, refuse ? refusedByPlan() : null) : null), extra: () => extra });
  await c.status();
  const refusedNow = async (times: number) => {
    await rejects(c.get('globalMarket'), 'ENDPOINT_NOT_AVAILABLE');
    assert.equal(asked, times);
    const e = await rejects(c.get('globalMarket'), 'ENDPOINT_NOT_AVAILABLE');
    assert.match(e.message, /refused it for this key/);
    assert.equal(asked, times, 'remembered: not asked again at once');
  };
  await refusedNow(1);
  c.refreshAll();
  await refusedNow(2); // was: refused from memory, not asked
  await c.status({ force: true }); // the same plan and endpoints again (CRYPTO.CREDITS forces one per recalculation)
  await rejects(c.get('globalMarket'), 'ENDPOINT_NOT_AVAILABLE');
  assert.equal(asked, 2, 'an unchanged /v3/status says nothing new: still remembered'); // was: asked again, each recalculation
  extra = ['/v3/a-route-provisioned-later']; // the service's list changed: other access
  await c.status({ force: true });
  await refusedNow(3); // was: refused from memory (the plan's name did not change)
  r.em.clock.advance(REFUSAL_MEMORY_MS - 1_000);
  await rejects(c.get('globalMarket'), 'ENDPOINT_NOT_AVAILABLE');
  assert.equal(asked, 3, 'still remembered just before it expires');
  r.em.clock.advance(1_000);
  refuse = false; // provisioned at last
  const g = await c.get('globalMarket');
  assert.equal(typeof g.data.activeCurrencies, 'number');
  assert.equal(asked, 4, 'asked again once the refusal expired');
});

test('a 404 route miss is repeated in its own words, as a route miss, and passes like a refusal', async () => {
  let missing = true;
  const path = ENDPOINTS.altcoinIndex.path;
  let asked = 0;
  const c = client({ answer: (p) => (p === path ? (asked++, missing ? routeMiss(p) : null) : null) });
  await c.status();
  const first = await rejects(c.get('altcoinIndex'), 'NOT_FOUND');
  assert.match(first.message, /does not serve this route \(Cannot GET \/v3\/global\/altcoin-index\)/);
  const again = await rejects(c.get('altcoinIndex'), 'NOT_FOUND'); // was ENDPOINT_NOT_AVAILABLE "not available in your plan"
  assert.equal(asked, 1, 'remembered: not asked again');
  assert.equal(again.message, first.message);
  assert.equal(again.routeMissing, true, 'still a route miss to the batcher and the formulas (routeUnavailable)');
  assert.equal(again.requiredPlan, undefined);
  missing = false;
  c.refreshAll({ includeReference: true });
  const a = await c.get('altcoinIndex');
  assert.equal(typeof a.data.currentValue, 'number');
  assert.equal(asked, 2);
});
