/**
 * ISO date text with a time and no offset is the UTC day it names, whatever the machine's time zone
 * (span-args.ts; review 2026-11-27 #4: Date.parse read "2024-03-15T00:30" in the machine's zone, so
 * the same workbook gave 2024-03-14 in Berlin and "2024-03-15T23:30" gave 2024-03-16 in New York).
 * Read in child processes with a forced TZ, so the check does not depend on this machine's zone.
 *
 *   node --import tsx --test test/span-args-iso.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');
const spanArgs = pathToFileURL(path.join(root, 'src/formulas/span-args.ts')).href;

const TEXTS = [
  '2024-03-15T00:30', '2024-03-15 00:30', '2024-03-15T23:30', '2024-03-15 23:30:59', '2024-03-15T23:59:59.999',
  // An explicit offset or Z is as given: these are other UTC days.
  '2024-03-15T01:00+05:00', '2024-03-15T22:00-05:00', '2024-03-15T00:30Z',
];
const UTC_DAY: Record<string, string> = { '2024-03-15T01:00+05:00': '2024-03-14', '2024-03-15T22:00-05:00': '2024-03-16' };

/** What dateArg makes of each text in a process whose zone is `tz`, and that zone's offset in March 2024 (minutes). */
function readIn(tz: string): Promise<{ offset: number; days: Record<string, string> }> {
  const code = `
    const { dateArg } = await import(${JSON.stringify(spanArgs)});
    const now = Date.UTC(2026, 2, 1);
    const days = Object.fromEntries(${JSON.stringify(TEXTS)}.map((t) => [t, new Date(dateArg(t, 'date', now, '1900')).toISOString().slice(0, 10)]));
    console.log(JSON.stringify({ offset: new Date(Date.UTC(2024, 2, 15)).getTimezoneOffset(), days }));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', code], { cwd: root, env: { ...process.env, TZ: tz } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${tz}: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

test('a date-time without an offset is that UTC day in New York, Berlin and UTC alike; an offset is as given', async () => {
  const zones = ['America/New_York', 'Europe/Berlin', 'UTC'];
  const read = await Promise.all(zones.map(readIn));
  // The zones are in force in the children (else the check proves nothing): New York behind UTC, Berlin ahead.
  assert.deepEqual(read.map((r) => Math.sign(r.offset)), [1, -1, 0]);
  const expected = Object.fromEntries(TEXTS.map((t) => [t, UTC_DAY[t] ?? '2024-03-15']));
  for (const [i, r] of read.entries()) assert.deepEqual(r.days, expected, zones[i]);
});
