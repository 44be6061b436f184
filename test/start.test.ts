/**
 * `npm start` on a machine without desktop Excel (Linux here; --browser
 * elsewhere): the preview workbook's address comes first, and the dev server
 * serves the preview at its root, an empty sheet at /?template=blank.
 *
 * Windows and macOS (Excel), faked: process.platform set by an --import module,
 * and office-addin-debugging replaced by a stand-in (ADDIN_DEBUGGING_CLI) that
 * does what its lib/start.js does (a dev server left running detached, then
 * "Debugging started." and exit 0) without Excel; its stop ends that dev server.
 * Then npm stop, npm run start:web, and the certificate Excel on the web needs.
 *
 *   node --import tsx --test test/start.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { answers } from '../scripts/dev-url';
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

// ---- Windows / macOS (faked), npm stop, npm run start:web

const scratch = mkdtempSync(path.join(os.tmpdir(), 'start-test-'));
const runs: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An --import module that makes npm start believe it runs on another platform. */
function platformModule(platform: 'darwin' | 'win32'): string {
  const file = path.join(scratch, `${platform}.mjs`);
  writeFileSync(file, `Object.defineProperty(process, 'platform', { value: '${platform}' });\n`);
  return file;
}

/**
 * office-addin-debugging's stand-in: every call is logged; `start` leaves a dev server
 * running detached on --dev-server-port (as lib/start.js's startDetachedProcess does),
 * prints "Debugging started." and exits 0; `stop` ends it by its saved pid, as
 * lib/stop.js does. STUB_FAIL: the sideload fails after the dev server started, as the
 * real one reports it (a message, exit code 0).
 */
const STAND_IN = path.join(scratch, 'office-addin-debugging.mjs');
writeFileSync(
  STAND_IN,
  `import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
const args = process.argv.slice(2);
const dir = process.env.STUB_DIR;
appendFileSync(path.join(dir, 'calls.log'), JSON.stringify(args) + '\\n');
const pidFile = path.join(dir, 'dev-server.pid');
const answers = (port) => new Promise((r) => {
  const s = net.connect({ port, host: 'localhost' });
  s.once('connect', () => { s.destroy(); r(true); });
  s.once('error', () => r(false));
});
if (args[0] === 'start') {
  const port = Number(args[args.indexOf('--dev-server-port') + 1]);
  const server = spawn(process.execPath, ['-e', \`require('node:http').createServer((q, s) => s.end('dev')).listen(\${port}, 'localhost')\`], { detached: true, stdio: 'ignore' });
  server.unref();
  writeFileSync(pidFile, String(server.pid));
  while (!(await answers(port))) await new Promise((r) => setTimeout(r, 100));
  console.log('Sideloading the Office Add-in... (stand-in)');
  if (process.env.STUB_FAIL) {
    console.error('Error: Unable to start debugging.\\nError: Unable to sideload the Office Add-in.');
    process.exit(0);
  }
  console.log('Debugging started.');
} else if (args[0] === 'stop') {
  if (existsSync(pidFile)) {
    try { process.kill(Number(readFileSync(pidFile, 'utf8'))); } catch {}
    unlinkSync(pidFile);
  }
  console.log('Debugging has been stopped.');
}
`,
);

after(async () => {
  for (const run of runs) {
    if (run.exitCode !== null || run.signalCode !== null) continue;
    run.kill('SIGTERM');
    const done = await Promise.race([new Promise((r) => run.once('exit', () => r(true))), sleep(30_000).then(() => false)]);
    if (!done) run.kill('SIGKILL');
  }
  // Stand-in dev servers a failed test left running.
  for (const dir of readdirSync(scratch)) {
    const pidFile = path.join(scratch, dir, 'dev-server.pid');
    if (!existsSync(pidFile)) continue;
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')));
    } catch {
      // Already gone.
    }
  }
  rmSync(scratch, { recursive: true, force: true });
});

type Run = { child: ChildProcess; out: () => string; exit: Promise<number | null> };

/** A script under scripts/ on this Node, with the platform faked if asked for. */
function run(script: 'start' | 'stop', args: string[], env: NodeJS.ProcessEnv, platform?: 'darwin' | 'win32'): Run {
  const imports = platform ? ['--import', platformModule(platform)] : [];
  const child = spawn(process.execPath, [...imports, '--import', 'tsx', `scripts/${script}.ts`, ...args], {
    cwd: root,
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  runs.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out: () => out, exit };
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number, r?: Run): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) assert.fail(`${what}${r ? `:\n${r.out().slice(-3000)}` : ''}`);
    await sleep(200);
  }
}
async function exitCode(r: Run, ms: number): Promise<number | null> {
  const code = await Promise.race([r.exit, sleep(ms).then(() => 'still running' as const)]);
  if (code === 'still running') assert.fail(`still running after ${ms} ms:\n${r.out().slice(-3000)}`);
  return code;
}

async function apiStatus(emulatorPort: number): Promise<number> {
  return (await fetch(`http://127.0.0.1:${emulatorPort}/v3/status`, { headers: { 'X-Api-Key': 'demo-pro' } })).status;
}

/** A scratch directory for one run: the stand-in's log and pid file, and the OS temp dir npm start writes its manifest to. */
async function excelSetup(name: string) {
  const dir = path.join(scratch, name);
  mkdirSync(dir);
  const [devPort, emulatorPort] = [await freePort(), await freePort()];
  const env = {
    DEV_SERVER_PORT: String(devPort),
    EMULATOR_PORT: String(emulatorPort),
    ADDIN_DEBUGGING_CLI: STAND_IN,
    STUB_DIR: dir,
    // os.tmpdir(): TMPDIR on POSIX, TEMP on Windows.
    TMPDIR: dir,
    TEMP: dir,
    TMP: dir,
  };
  const calls = (): string[][] => (existsSync(path.join(dir, 'calls.log')) ? readFileSync(path.join(dir, 'calls.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]) : []);
  return { dir, devPort, emulatorPort, env, calls };
}

test('Windows/macOS: npm start keeps the local API server after office-addin-debugging sideloads and exits; Ctrl+C stops it and runs office-addin-debugging stop', { timeout: 120_000 }, async () => {
  const x = await excelSetup('excel');
  const start = run('start', [], x.env, 'darwin');
  await until('npm start got ready', () => start.out().includes('Press Ctrl+C to stop'), 60_000, start);
  assert.match(start.out(), /Debugging started\./);
  assert.match(start.out(), /npm start -- --browser/, 'the banner names the preview for a machine without desktop Excel');
  assert.deepEqual(x.calls().map((c) => c[0]), ['start'], 'office-addin-debugging start ran and has exited');

  // Longer than a check of the dev server: npm start stays, and the local API server with it.
  await sleep(5000);
  assert.equal(start.child.exitCode, null, `npm start exited:\n${start.out()}`);
  assert.equal(await apiStatus(x.emulatorPort), 200, 'the local API server answers with a demo key');

  // The manifest sideloaded names the dev server's port (DEV_SERVER_PORT), not the root manifest's 3000.
  const manifest = x.calls()[0][1];
  const xml = readFileSync(path.resolve(root, manifest), 'utf8');
  assert.match(xml, new RegExp(`https://localhost:${x.devPort}/`), manifest);
  assert.doesNotMatch(xml, /https:\/\/localhost:3000\//);
  assert.equal(path.dirname(path.dirname(manifest)), x.dir, 'written to the OS temp dir');

  start.child.kill('SIGTERM');
  assert.equal(await exitCode(start, 40_000), 0, start.out());
  assert.deepEqual(x.calls().at(-1), ['stop', 'manifest.xml'], 'stopping runs office-addin-debugging stop (as npm stop does)');
  assert.equal(await answers(x.emulatorPort), false, 'the local API server stopped');
  await until('the dev server office-addin-debugging left running stopped', async () => !(await answers(x.devPort)), 10_000);
});

test('Windows/macOS: npm stop ends the dev server, and npm start, seeing it gone, stops the local API server', { timeout: 120_000 }, async () => {
  const x = await excelSetup('npm-stop');
  const start = run('start', [], x.env, 'darwin');
  await until('npm start got ready', () => start.out().includes('Press Ctrl+C to stop'), 60_000, start);
  const stop = run('stop', [], x.env, 'darwin');
  assert.equal(await exitCode(stop, 30_000), 0, stop.out());
  assert.deepEqual(x.calls()[1], ['stop', 'manifest.xml']);
  assert.equal(await exitCode(start, 20_000), 0, start.out());
  assert.match(start.out(), /dev server on port \d+ has stopped/);
  assert.equal(await answers(x.emulatorPort), false, 'the local API server stopped');
});

test('Windows/macOS: office-addin-debugging failing stops npm start with an error, the local API server too', { timeout: 120_000 }, async () => {
  const x = await excelSetup('excel-fails');
  const start = run('start', [], { ...x.env, STUB_FAIL: '1' }, 'darwin');
  assert.equal(await exitCode(start, 60_000), 1, start.out());
  assert.match(start.out(), /Unable to start debugging/);
  assert.match(start.out(), /ended without "Debugging started\."/);
  assert.deepEqual(x.calls().at(-1), ['stop', 'manifest.xml'], 'whatever it started is cleaned up');
  assert.equal(await answers(x.emulatorPort), false);
  await until('the dev server office-addin-debugging left running stopped', async () => !(await answers(x.devPort)), 10_000);
});

test('Windows: office-addin-debugging runs on this Node, not through npx.cmd (spawn EINVAL since CVE-2024-27980)', { timeout: 120_000 }, async () => {
  const x = await excelSetup('windows');
  const start = run('start', [], x.env, 'win32');
  await until('npm start got ready', () => start.out().includes('Press Ctrl+C to stop'), 60_000, start);
  assert.equal(await apiStatus(x.emulatorPort), 200);
  start.child.kill('SIGTERM');
  assert.equal(await exitCode(start, 40_000), 0, start.out());
  assert.deepEqual(x.calls().map((c) => c[0]), ['start', 'stop']);
});

test('npm stop on Linux says Ctrl+C stops the preview, not "Platform not supported"', { skip: process.platform !== 'linux' && 'Linux only', timeout: 60_000 }, async () => {
  const dir = path.join(scratch, 'linux-stop');
  mkdirSync(dir);
  const stop = spawn('npm', ['run', '-s', 'stop'], {
    cwd: root,
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1', ADDIN_DEBUGGING_CLI: STAND_IN, STUB_DIR: dir, TMPDIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  runs.push(stop);
  let out = '';
  stop.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  stop.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  assert.equal(await new Promise((r) => stop.once('exit', r)), 0, out);
  assert.match(out, /Ctrl\+C/);
  assert.doesNotMatch(out, /Platform not supported|Debugging has been stopped/);
  assert.equal(existsSync(path.join(dir, 'calls.log')), false, 'office-addin-debugging is not run');
});

test('npm run start:web: the local API server and the dev server for Excel on the web, with the steps to upload the manifest', { timeout: 240_000 }, async () => {
  const dir = path.join(scratch, 'web');
  mkdirSync(dir);
  const [devPort, emulatorPort] = [await freePort(), await freePort()];
  // DEV_HTTPS=false: no certificate here (installing one takes sudo).
  const web = run('start', ['--web'], { DEV_HTTPS: 'false', DEV_SERVER_PORT: String(devPort), EMULATOR_PORT: String(emulatorPort), TMPDIR: dir });
  await until('start:web got ready', () => web.out().includes('Press Ctrl+C to stop.'), 200_000, web);
  assert.equal(await apiStatus(emulatorPort), 200, 'the local API server answers');
  const proxied = await fetch(`http://localhost:${devPort}/v3/status`, { headers: { 'X-Api-Key': 'demo-pro' } });
  assert.equal(proxied.status, 200, 'the dev server answers /v3 from the local API server');
  const pane = await (await fetch(`http://localhost:${devPort}/taskpane.html`)).text();
  assert.match(pane, /https:\/\/appsforoffice\.microsoft\.com\/lib\/1\/hosted\/office\.js/, 'Excel on the web gets Office.js from the CDN');
  assert.match(web.out(), /Upload My Add-in/);
  assert.match(web.out(), /demo-pro/);
  // Not the default port: the manifest to upload is a copy naming this one.
  const manifest = path.join(dir, 'crypto-excel-addin', 'manifest.xml');
  assert.ok(web.out().includes(manifest), web.out().slice(-1500));
  assert.match(readFileSync(manifest, 'utf8'), new RegExp(`https://localhost:${devPort}/`));

  web.child.kill('SIGTERM');
  assert.equal(await exitCode(web, 30_000), 0, web.out().slice(-2000));
  await until('the dev server stopped', async () => !(await answers(devPort)), 15_000);
  assert.equal(await answers(emulatorPort), false);
});

test('npm run start:web without a trusted certificate (Linux, sudo refused): one line saying what to run, nothing started', { skip: process.platform !== 'linux' && 'installs with sudo only on Linux', timeout: 120_000 }, async () => {
  const dir = path.join(scratch, 'web-cert');
  const bin = path.join(dir, 'bin');
  mkdirSync(path.join(dir, 'home'), { recursive: true });
  mkdirSync(bin);
  // A sudo that refuses, so nothing is installed on this machine; certificates go to a scratch home.
  writeFileSync(path.join(bin, 'sudo'), '#!/bin/sh\necho "sudo: a password is required" >&2\nexit 1\n', { mode: 0o755 });
  const [devPort, emulatorPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = { HOME: path.join(dir, 'home'), PATH: `${bin}${path.delimiter}${process.env.PATH}`, DEV_SERVER_PORT: String(devPort), EMULATOR_PORT: String(emulatorPort), TMPDIR: dir };
  const web = run('start', ['--web'], { ...env, DEV_HTTPS: 'true' });
  let stderr = '';
  web.child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  assert.equal(await exitCode(web, 100_000), 1, web.out());
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0], /^Excel on the web needs a trusted development certificate.*npx office-addin-dev-certs install.*sudo/);
  assert.doesNotMatch(web.out(), /^\s+at /m, 'no stack trace');
  assert.equal(await answers(emulatorPort), false, 'the local API server was not started');
});
