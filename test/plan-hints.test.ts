/**
 * Plan knowledge is a hint, the service the judge (review finding F2):
 * - a path /v3/status lists for the key is asked, whatever the endpoint table's
 *   minimum plan (without a list the table still refuses locally:
 *   test/account-status.test.ts).
 *
 *   npx tsx --test test/plan-hints.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../src/api/endpoints';
import { rejects, rig, type Rig } from './client-harness';

let r: Rig;
before(async () => {
  r = await rig({});
});
after(() => r.close());

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A Pro key (the emulator serves it everything) whose /v3/status says `plan` and lists
 * `extra` paths beside the plan's own; `answer(path)` may replace any other answer.
 */
function client(o: { plan?: string; extra?: string[]; answer?: (path: string) => Response | null } = {}) {
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
      s.endpoints.push(...(o.extra ?? []));
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
