/**
 * What each plan gives, as the support page, the first run and
 * docs/publishing.md's notes for validators say it (src/pages/plans.ts), is
 * what the API allows: each formula's first example on every demo plan key,
 * through the same calculation host as Excel.
 *
 *   node --import tsx --test test/plans.test.ts
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { loadExamples } from '../scripts/formula-table';
import type { Plan } from '../src/api/endpoints';
import { calculate } from '../src/cli/calculate';
import type { Session } from '../src/cli/session';
import { CATALOG } from '../src/formulas/catalog';
import { PLAN_FORMULAS, PLAN_LINES } from '../src/pages/plans';
import { testSession } from './support/frozen-session';

const PLANS: Plan[] = ['Sandbox', 'Basic', 'Advanced', 'Pro'];
const listed: [formula: string, plan: Plan][] = [
  ...PLAN_FORMULAS.Sandbox.formulas.map((f): [string, Plan] => [f, 'Sandbox']),
  ...PLAN_FORMULAS.paid.flatMap((p) => p.formulas.map((f): [string, Plan] => [f, p.plan])),
];
const sessions = new Map<Plan, Session>();

before(async () => {
  for (const plan of PLANS) sessions.set(plan, await testSession({ key: `demo-${plan.toLowerCase()}`, emulator: { rpm: 5000 } }));
});
after(async () => {
  for (const s of sessions.values()) await s.close();
});

test('every formula is listed under exactly one plan', () => {
  assert.deepEqual(listed.map(([f]) => f).sort(), Object.keys(CATALOG).sort());
});

test("each formula works from the plan it is listed under, and below it says which plan it needs", async () => {
  const examples = loadExamples();
  const wrong: string[] = [];
  for (const [formula, needs] of listed) {
    const example = examples[formula][0].formula;
    for (const plan of PLANS) {
      const out = await calculate(sessions.get(plan)!.host, example);
      const cellError = 'value' in out ? out.value.flat().find((c): c is { error: string; message: string } => typeof c === 'object' && c !== null) : out;
      const works = !cellError;
      const allowed = PLANS.indexOf(plan) >= PLANS.indexOf(needs);
      if (allowed && !works) wrong.push(`${example} on ${plan}: ${cellError.error} ${cellError.message}`);
      if (!allowed && (works || !cellError.message.includes(needs))) {
        wrong.push(`${example} on ${plan}: ${works ? 'works' : `"${cellError.message}"`}, expected an error naming the ${needs} plan`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

test("the validators' notes list the Sandbox formulas, and what each paid plan adds", () => {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../docs/publishing.md'), 'utf8').replace(/\s+/g, ' ');
  const names = (s: string | undefined) => new Set((s ?? '').match(/\b[A-Z]{3,}\b/g)?.filter((w) => w in CATALOG));
  const sandbox = /On the Sandbox plan these formulas work: (.*?)\. Try:/.exec(doc)?.[1];
  assert.deepEqual(names(sandbox), new Set(PLAN_FORMULAS.Sandbox.formulas));
  for (const p of PLAN_FORMULAS.paid) {
    const adds = new RegExp(`${p.plan} adds (.*?)[;.]`).exec(doc)?.[1];
    assert.deepEqual(names(adds), new Set(p.formulas), p.plan);
  }
});

test('the first run, the ribbon button, GetStarted and the manifest description say the same: the value, the free Sandbox plan, what paid plans add', () => {
  const manifest = readFileSync(path.resolve(import.meta.dirname, '../manifest.xml'), 'utf8');
  const text = (re: RegExp) => (re.exec(manifest)?.[1] ?? '').replace(/&quot;/g, '"');
  const texts = {
    description: text(/<Description DefaultValue="([^"]*)"/),
    getStarted: text(/<bt:String id="GetStarted.Description" DefaultValue="([^"]*)"/),
    tooltip: text(/<bt:String id="TaskpaneButton.Tooltip" DefaultValue="([^"]*)"/),
  };
  const paid = PLAN_FORMULAS.paid.map((p) => p.plan);
  const claim = `Sandbox is free; ${paid.slice(0, -1).join(', ')} and ${paid.at(-1)} add history, tokenomics and unlocks`;
  for (const [name, t] of Object.entries(texts)) {
    assert.match(t, /CryptoRank/, name);
    assert.ok(t.includes(claim), `${name}: "${t}" says "${claim}"`);
  }
  assert.match(texts.description, /=CRYPTO\.PRICE/);
  assert.match(texts.getStarted, /=CRYPTO\.PRICE\("bitcoin"\)/);
  // The pane's lines: Sandbox free, then each paid plan; together they cover the claim.
  assert.deepEqual(PLAN_LINES.map((l) => [l.plan, l.note]), [['Sandbox', 'free'], ...paid.map((p) => [p, 'adds'])]);
  for (const word of ['history', 'tokenomics', 'unlocks']) assert.ok(PLAN_LINES.some((l) => l.note === 'adds' && l.text.includes(word)), word);
});
