/**
 * The formula test suite under every dialect of the local API server: the
 * formula test files (test/formulas-*.test.ts) run as they are, in a child
 * process whose TEST_DIALECT makes their server answer in the docs and the
 * legacy shapes (their own run under `npm test` is the spec dialect). Their
 * assertions are values cross-checked against the synthetic market, so passing
 * under each dialect means the same values from each shape.
 *
 *   node --import tsx --test test/dialect-matrix.test.ts
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../src/emulator/server';

const dir = import.meta.dirname;
const files = readdirSync(dir).filter((f) => /^formulas-.*\.test\.ts$/.test(f)).sort();

test('the formula test files exist', () => {
  assert.ok(files.length >= 5, files.join(', '));
});

for (const dialect of DIALECTS.filter((d) => d !== 'spec')) {
  test(`the formula test suite passes under --dialect ${dialect}`, () => {
    // Without NODE_TEST_CONTEXT: the child reports for itself, not to this runner.
    const { NODE_TEST_CONTEXT: _own, ...env } = process.env;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...files.map((f) => path.join(dir, f))], {
      cwd: path.resolve(dir, '..'),
      env: { ...env, TEST_DIALECT: dialect },
      encoding: 'utf8',
      timeout: 480_000,
    });
    const out = `${run.stdout}\n${run.stderr}`;
    const count = (k: string) => Number(new RegExp(`^# ${k} (\\d+)`, 'm').exec(out)?.[1] ?? NaN);
    const failing = out.split('\n').filter((l) => /^\s*not ok /.test(l));
    assert.deepEqual(failing, [], `under ${dialect}:\n${failing.join('\n')}`);
    assert.equal(run.status, 0, out.slice(-3000));
    assert.ok(count('pass') > 50, `ran the suite (${count('pass')} passed)`);
    assert.equal(count('fail'), 0);
    console.log(`# ${dialect}: ${count('pass')} formula tests passed`);
  });
}
