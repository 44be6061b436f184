/**
 * The formula CLI and a workbook's ways (issue #27's done-when): a 0 where an
 * older desktop build passes a blank cell, dates as serials or as formatted
 * numbers, and the 1904 date system.
 *
 *   node --import tsx --test test/workbook-cli.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');
type Out = { value: unknown[][] } | { error: string; message: string };

function cli(...args: string[]): Promise<Out> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/formula.ts', ...args], { cwd: root, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && !stdout) reject(new Error(stderr));
      else resolve(JSON.parse(stdout) as Out);
    });
  });
}
const value = (o: Out) => {
  assert.ok('value' in o, JSON.stringify(o));
  return o.value;
};

test('QUOTE over coins with a 0 (a blank cell on an older desktop build): the coins\' rows and a blank row for the 0', async () => {
  const g = value(await cli('=CRYPTO.QUOTE({"bitcoin";0;"ethereum"},"price",,0)'));
  assert.equal(g.length, 3);
  assert.equal(g[0][0], 'bitcoin');
  assert.equal(typeof g[0][1], 'number');
  assert.deepEqual(g[1], ['', '']);
  assert.equal(g[2][0], 'ethereum');
  assert.equal(typeof g[2][1], 'number');
});

test('OHLCV with an end of 0 answers as with the end omitted', async () => {
  const [zero, omitted] = await Promise.all([
    cli('=CRYPTO.OHLCV("bitcoin","2024-01-01",0,"monthly")'),
    cli('=CRYPTO.OHLCV("bitcoin","2024-01-01",,"monthly")'),
  ]);
  assert.ok(value(zero).length > 12);
  assert.deepEqual(zero, omitted);
});

test('dates print as serials; --formats as the FormattedNumber a 1.4 client gets; --date-system 1904 1,462 days less, read and written', async () => {
  const f = '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-02","daily",0,"date","close")';
  const [plain, formatted] = await Promise.all([cli(f), cli('--formats', f)]);
  assert.deepEqual(value(plain).map((r) => r[0]), [45292, 45293]);
  assert.deepEqual(value(formatted)[0][0], { type: 'FormattedNumber', basicValue: 45292, numberFormat: 'yyyy-mm-dd' });
  assert.deepEqual(value(formatted).map((r) => r[1]), value(plain).map((r) => r[1]));
  const in1904 = await cli('--date-system', '1904', '=CRYPTO.OHLCV("bitcoin",43830,43831,"daily",0,"date","close")');
  assert.deepEqual(value(in1904).map((r) => r[0]), [43830, 43831]);
  assert.deepEqual(value(in1904).map((r) => r[1]), value(plain).map((r) => r[1]), 'the same days');
});

test('--blanks zero passes omitted arguments as 0 and the answers stay those of blanks as null', async () => {
  const f = '=CRYPTO.MARKETS(5,,,,,,,,0)';
  const [zero, web] = await Promise.all([cli('--blanks', 'zero', f), cli(f)]);
  assert.equal(value(web).length, 5);
  assert.deepEqual(zero, web);
});
