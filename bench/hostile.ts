/**
 * npm run hostile
 *
 * The hostile-server table of docs/reliability.md: runs the scenarios of
 * test/hostile-answers.test.ts (a hostile server in front of the local API
 * server, over real HTTP: harness/hostile-server.ts) and prints one row per
 * scenario with what the user gets and whether it held.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', 'test/hostile-answers.test.ts'], { cwd: root, encoding: 'utf8' });
const rows = [...run.stdout.matchAll(/^(ok|not ok) \d+ - (\d+)\. (.+)$/gm)].map((m) => `| ${m[2]} | ${m[3].replace(/\\#/g, '#').replace(/\|/g, '\\|')} | ${m[1] === 'ok' ? 'holds' : '**fails**'} |`);
console.log('| # | scenario: what the server does, what the user gets | result |');
console.log('|---|---|---|');
for (const r of rows) console.log(r);
if (rows.length === 0 || run.status !== 0) {
  console.error(run.stderr || run.stdout.slice(-2000));
  process.exit(1);
}
