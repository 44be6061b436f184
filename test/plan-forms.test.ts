/**
 * A formula that works on a plan but has a form that needs a higher one (FEARGREED: the
 * current reading on Sandbox, the history on Basic) names the part refused, and the form
 * that works, not the whole formula (review-r3 #9). Every formula's examples run on the key
 * of the plan it is listed under (src/pages/plans.ts); any plan refusal there is such a part,
 * so an endpoint missing from PLAN_FORMS (src/client/error-rules.ts) fails here.
 *
 *   node --import tsx --test test/plan-forms.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadExamples } from '../scripts/formula-table';
import type { Plan } from '../src/api/endpoints';
import { calculate } from '../src/cli/calculate';
import type { Session } from '../src/cli/session';
import { PLAN_FORMULAS } from '../src/pages/plans';
import { testSession } from './support/frozen-session';

const listed: [formula: string, plan: Plan][] = [
  ...PLAN_FORMULAS.Sandbox.formulas.map((f): [string, Plan] => [f, 'Sandbox']),
  ...PLAN_FORMULAS.paid.flatMap((p) => p.formulas.map((f): [string, Plan] => [f, p.plan])),
];
const sessions = new Map<Plan, Session>();

before(async () => {
  for (const plan of new Set(listed.map(([, p]) => p))) sessions.set(plan, await testSession({ key: `demo-${plan.toLowerCase()}`, emulator: { rpm: 5000 } }));
});
after(async () => {
  for (const s of sessions.values()) await s.close();
});

/** The words of a plan refusal (planNeeded): "… needs the Basic plan or higher", "… is not available in your plan". */
const PLAN_REFUSAL = /needs the \w+ plan or higher|is not available in your plan/;

test("on its own plan's key, a formula's refused part is named with the form that works, never the whole formula", async () => {
  const examples = loadExamples();
  const refusals: string[] = [];
  const wrong: string[] = [];
  for (const [formula, plan] of listed) {
    for (const { formula: text } of examples[formula] ?? []) {
      const out = await calculate(sessions.get(plan)!.host, text);
      const cells = 'value' in out ? out.value.flat() : [out];
      for (const c of cells) {
        if (typeof c !== 'object' || c === null || !('message' in c) || !PLAN_REFUSAL.test(c.message)) continue;
        refusals.push(`${text} on ${plan}: ${c.message}`);
        if (!c.message.startsWith(`CRYPTO.${formula}'s `) || !/; .* works on /.test(c.message)) wrong.push(`${text} on ${plan}: "${c.message}"`);
      }
    }
  }
  assert.deepEqual(wrong, []);
  // The check has something to check: the index histories on Sandbox.
  assert.ok(refusals.some((r) => r.startsWith('=CRYPTO.FEARGREED(')), refusals.join('\n'));
  assert.ok(refusals.some((r) => r.startsWith('=CRYPTO.ALTSEASON(')), refusals.join('\n'));
});

test('FEARGREED and ALTSEASON with dates on Sandbox: the history needs Basic, the current reading works on every plan', async () => {
  const sandbox = sessions.get('Sandbox')!.host;
  for (const [f, reading] of [['FEARGREED', 'value'], ['ALTSEASON', 'value']] as const) {
    const now = await calculate(sandbox, `=CRYPTO.${f}(,,,"${reading}")`);
    assert.ok('value' in now && typeof now.value[0][0] === 'number', `${f}() works on Sandbox: ${JSON.stringify(now)}`);
    const out = await calculate(sandbox, `=CRYPTO.${f}("30D")`);
    assert.deepEqual(out, {
      error: '#N/A',
      message: `CRYPTO.${f}'s history (with dates) needs the Basic plan or higher; the current reading (no dates) works on every plan; see your plan in the Crypto Data pane`,
    });
  }
  // A formula with no lower-plan form is named whole, as before.
  assert.deepEqual(await calculate(sandbox, '=CRYPTO.DOMINANCE()'), { error: '#N/A', message: 'CRYPTO.DOMINANCE needs the Basic plan or higher; see your plan in the Crypto Data pane' });
});
