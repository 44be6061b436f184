/**
 * The examples users read (help pages, README) are real: every formula has
 * one, each evaluates on the local API server, and the README's table is the
 * generated one.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { formulaTable, loadExamples } from '../scripts/formula-table';
import { calculate } from '../src/cli/calculate';
import { loadFunctionMetadata } from '../src/cli/metadata';
import { openSession, type Session } from '../src/cli/session';

let s: Session;
before(async () => {
  s = await openSession({ emulator: { rpm: 5000 } });
});
after(() => s.close());

test('every formula has at least one example, and every example names a real formula', async () => {
  const ids = new Set((await loadFunctionMetadata()).map((f) => f.id));
  const examples = loadExamples();
  for (const id of ids) assert.ok(examples[id]?.length, `${id} has an example`);
  for (const [id, list] of Object.entries(examples)) {
    assert.ok(ids.has(id), `examples for unknown formula ${id}`);
    for (const e of list) assert.match(e.formula, new RegExp(`^=CRYPTO\\.${id}\\(`), e.formula);
  }
});

test('every example evaluates to a value with no error cells (demo-pro key)', async () => {
  const failures: string[] = [];
  for (const list of Object.values(loadExamples())) {
    for (const e of list) {
      const out = await calculate(s.host, e.formula);
      if (!('value' in out)) failures.push(`${e.formula} → ${out.error} ${out.message}`);
      else if (out.value.flat().some((c) => typeof c === 'object' && c !== null)) failures.push(`${e.formula} → has error cells`);
    }
  }
  assert.deepEqual(failures, []);
});

test("the README's formula table is the generated one", async () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');
  assert.ok(readme.includes(await formulaTable()), 'README.md is out of date: paste `node --import tsx scripts/formula-table.ts`');
});
