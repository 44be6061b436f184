/**
 * The formula CLI as users run it: one JSON object on stdout, non-zero exit
 * only for a formula that cannot be parsed.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');

function cli(...args: string[]): Promise<{ code: number; out: unknown; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/formula.ts', ...args], { cwd: root }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      let out: unknown = null;
      try {
        out = JSON.parse(stdout);
      } catch {
        out = stdout;
      }
      resolve({ code, out, stderr });
    });
  });
}

test('a formula prints {"value": [[...]]}, always 2-D', async () => {
  const r = await cli('=CRYPTO.PRICE("bitcoin")');
  assert.equal(r.code, 0, r.stderr);
  const v = (r.out as { value: unknown[][] }).value;
  assert.equal(v.length, 1);
  assert.equal(v[0].length, 1);
  assert.equal(typeof v[0][0], 'number');
  assert.ok((v[0][0] as number) > 1000, 'a bitcoin-like price');
});

test('a formula-level error is {"error","message"} with exit 0', async () => {
  const r = await cli('=CRYPTO.PRICE("bitcoin","GBP")');
  assert.equal(r.code, 0);
  assert.deepEqual(Object.keys(r.out as object).sort(), ['error', 'message']);
  assert.equal((r.out as { error: string }).error, '#VALUE!');
});

test('--key "" means no key: #N/A saying where to add one', async () => {
  const r = await cli('--key', '', '=CRYPTO.PRICE("bitcoin")');
  assert.equal(r.code, 0);
  assert.equal((r.out as { error: string }).error, '#N/A');
  assert.match((r.out as { message: string }).message, /key/);
});

test('a key is never echoed back, even a wrong one', async () => {
  const secret = 'sk-live-7f3a9c1e55d2';
  const r = await cli('--key', secret, '=CRYPTO.PRICE("bitcoin")');
  assert.equal(r.code, 0);
  assert.equal((r.out as { error: string }).error, '#N/A');
  assert.ok(!JSON.stringify(r.out).includes(secret));
  assert.ok(!r.stderr.includes(secret));
});

test('a formula that cannot be parsed exits non-zero', async () => {
  const r = await cli('=CRYPTO.PRICE("bitcoin"');
  assert.notEqual(r.code, 0);
});

test('an unknown function is #NAME? and exit 0', async () => {
  const r = await cli('=CRYPTO.NOPE(1)');
  assert.equal(r.code, 0);
  assert.equal((r.out as { error: string }).error, '#NAME?');
});
