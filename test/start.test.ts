/**
 * `npm start` on a machine without desktop Excel (Linux here; --browser
 * elsewhere): the preview workbook's address comes first, and the dev server
 * serves the preview at its root, an empty sheet at /?template=blank.
 *
 *   node --import tsx --test test/start.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './support/ports';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let child: ChildProcess | null = null;

after(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
  }
});

test('npm start prints the preview first and serves it at the root, /?template=blank too', { timeout: 180_000 }, async () => {
  const [devPort, emulatorPort] = [await freePort(), await freePort()];
  child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--browser'], {
    cwd: root,
    env: { ...process.env, DEV_SERVER_PORT: String(devPort), EMULATOR_PORT: String(emulatorPort), NO_UPDATE_NOTIFIER: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', () => {});
  const end = Date.now() + 150_000;
  while (!out.includes('Press Ctrl+C to stop.')) {
    if (child.exitCode !== null) assert.fail(`npm start exited (${child.exitCode}):\n${out.slice(-2000)}`);
    if (Date.now() > end) assert.fail(`npm start did not get ready:\n${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const firstLine = out.split('\n')[0];
  assert.equal(firstLine.includes(`Preview of the add-in (not Excel): http://localhost:${devPort}/`), true, firstLine);
  const firstUrl = /http:\/\/localhost:\d+\/\S*/.exec(out)![0];
  assert.equal(firstUrl, `http://localhost:${devPort}/`);

  for (const url of [`http://localhost:${devPort}/`, `http://localhost:${devPort}/?template=blank`]) {
    const res = await fetch(url);
    assert.equal(res.status, 200, url);
    const html = await res.text();
    assert.match(html, /Preview of the add-in, not Excel/);
    assert.match(html, /<label for="formula">Formula<\/label>/);
    assert.match(html, /preview\.js/);
  }
  const pane = await fetch(`http://localhost:${devPort}/preview-pane.html`);
  assert.match(await pane.text(), /<script src="preview-host\.js"><\/script>/, 'the pane page loads the preview host where Office.js would be');
  // /help without its slash would resolve the index's links one level up: the dev server adds the slash.
  const help = await fetch(`http://localhost:${devPort}/help`, { redirect: 'manual' });
  assert.equal(help.status, 301);
  assert.equal(help.headers.get('location'), '/help/');
  const status = await fetch(`http://localhost:${devPort}/v3/status`, { headers: { 'X-Api-Key': 'demo-pro' } });
  assert.notEqual(status.status, 502, 'the dev server proxies /v3 to the local API server');

  // Ctrl+C (SIGTERM here) stops the dev server too, not only npm start.
  child.kill('SIGTERM');
  await new Promise((r) => child!.once('exit', r));
  const stopBy = Date.now() + 15_000;
  for (;;) {
    const up = await fetch(`http://localhost:${devPort}/`).then(() => true, () => false);
    if (!up) break;
    assert.ok(Date.now() < stopBy, 'the dev server still answers after npm start stopped');
    await new Promise((r) => setTimeout(r, 300));
  }
});

test('a port in use: npm start says which variable to set, in one line, no stack trace', { timeout: 60_000 }, async () => {
  const busy = net.createServer();
  await new Promise<void>((r) => busy.listen(0, () => r()));
  const port = (busy.address() as net.AddressInfo).port;
  try {
    const run = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--browser'], {
      cwd: root,
      env: { ...process.env, DEV_SERVER_PORT: String(port), EMULATOR_PORT: String(await freePort()), NO_UPDATE_NOTIFIER: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    run.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    run.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((r) => run.once('exit', r));
    assert.equal(code, 1, out);
    assert.equal(out.trim(), `Port ${port} (the dev server) is in use. Stop what uses it, or set DEV_SERVER_PORT to a free port, e.g. DEV_SERVER_PORT=${port + 1} npm start`);
  } finally {
    busy.close();
  }
});
