/**
 * The formula test suite with blank cells as older desktop builds pass them:
 * the formula test files (test/formulas-*.test.ts) run as they are, in a child
 * process whose TEST_BLANKS=zero makes their sessions pass each omitted
 * argument as the 0 a blank cell gives there (office-js#4702, #5262, #1951;
 * src/cli/workbook-host.ts). Their own run under `npm test` passes blanks as
 * null, as Excel on the web does: passing both ways means a blank cell means
 * the same on every build.
 *
 *   node --import tsx --test test/blanks-matrix.test.ts
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const dir = import.meta.dirname;
const files = readdirSync(dir).filter((f) => /^formulas-.*\.test\.ts$/.test(f)).sort();

test('the formula test suite passes with blank cells passed as 0 (older desktop builds)', () => {
  assert.ok(files.length >= 5, files.join(', '));
  // Without NODE_TEST_CONTEXT: the child reports for itself, not to this runner.
  const { NODE_TEST_CONTEXT: _own, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...files.map((f) => path.join(dir, f))], {
    cwd: path.resolve(dir, '..'),
    env: { ...env, TEST_BLANKS: 'zero' },
    encoding: 'utf8',
    timeout: 480_000,
  });
  const out = `${run.stdout}\n${run.stderr}`;
  const count = (k: string) => Number(new RegExp(`^# ${k} (\\d+)`, 'm').exec(out)?.[1] ?? NaN);
  const failing = out.split('\n').filter((l) => /^\s*not ok /.test(l));
  assert.deepEqual(failing, [], failing.join('\n'));
  assert.equal(run.status, 0, out.slice(-3000));
  assert.ok(count('pass') > 50, `ran the suite (${count('pass')} passed)`);
  assert.equal(count('fail'), 0);
  console.log(`# blanks as 0: ${count('pass')} formula tests passed`);
});
