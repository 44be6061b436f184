/**
 * npm start: the add-in on the built-in demo data.
 *
 * Always starts the local API server (demo keys, synthetic market). Then:
 * - Windows / macOS: office-addin-debugging starts the HTTPS dev server (on its
 *   own, detached), sideloads the manifest into desktop Excel and exits; npm
 *   start stays, and the local API server with it, until Ctrl+C or npm stop.
 * - Linux (no Excel), or --browser: the dev server over HTTP; its root is the
 *   preview workbook (src/preview: the built functions.js in cells, the task
 *   pane beside them), printed first, then the task pane alone and the help.
 * - --web (npm run start:web): the HTTPS dev server for Excel on the web, with
 *   nothing sideloaded; it prints how to upload the manifest.
 *
 * Office.js: in Excel (desktop or web) the build loads it from Microsoft's CDN; the
 * browser-only preview uses the npm copy (ADDIN_OFFICE_JS=local). The ports come
 * from DEV_SERVER_PORT and EMULATOR_PORT (package.json config otherwise); a
 * port in use is said in one line naming the variable to set. The manifest Excel
 * gets names the dev server's port (scripts/dev-url.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEMO_KEYS, DIALECTS, isDialect, startEmulator } from '../src/emulator/server';
import { DEFAULT_DEV_PORT, answers, withDevPort } from './dev-url';
import { EXCEL_PLATFORMS, officeAddinDebugging, ROOT, stopDebugging } from './office-debugging';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  config: { emulator_port: number };
};
const emulatorPort = Number(process.env.EMULATOR_PORT || pkg.config.emulator_port);
const devPort = Number(process.env.DEV_SERVER_PORT || DEFAULT_DEV_PORT);
type Mode = 'excel' | 'browser' | 'web';
const mode: Mode = process.argv.includes('--web')
  ? 'web'
  : process.argv.includes('--browser') || !EXCEL_PLATFORMS.includes(process.platform)
    ? 'browser'
    : 'excel';

/** Whether something already listens on the port (on any of localhost's addresses). */
function inUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'EADDRINUSE' || e.code === 'EACCES'));
    s.listen(port, () => s.close(() => resolve(false)));
  });
}
for (const [port, variable, what] of [[devPort, 'DEV_SERVER_PORT', 'the dev server'], [emulatorPort, 'EMULATOR_PORT', 'the local API server']] as const) {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`${variable} must be a port number from 1 to 65535; got "${process.env[variable]}".`);
    process.exit(1);
  }
  if (await inUse(port)) {
    console.error(`Port ${port} (${what}) is in use. Stop what uses it, or set ${variable} to a free port, e.g. ${variable}=${port + 1} npm start`);
    process.exit(1);
  }
}

if (mode === 'browser') console.log(`Preview of the add-in (not Excel): http://localhost:${devPort}/   (ready once webpack has compiled)`);

// `npm start -- --dialect docs`: the local API server answers in another documented shape.
const dialectAt = process.argv.indexOf('--dialect');
const dialect = dialectAt >= 0 ? process.argv[dialectAt + 1] ?? '' : 'spec';
if (!isDialect(dialect)) {
  console.error(`--dialect must be one of ${DIALECTS.join(', ')}, got "${dialect}"`);
  process.exit(2);
}

/**
 * Excel on the web loads the add-in only over HTTPS it trusts: office-addin-dev-certs
 * makes and installs a development CA (sudo on Linux, a prompt on Windows and macOS).
 * Done here in the foreground, where a password can be asked for: webpack runs
 * detached, without a terminal (office-addin-debugging's start.js installs them
 * before its detached dev server for the same reason). A failure is one line.
 */
async function devCertificateReady(): Promise<boolean> {
  if (process.env.DEV_HTTPS === 'false') return true;
  const certs = await import('office-addin-dev-certs');
  try {
    await certs.ensureCertificatesAreInstalled();
    return true;
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).trim().split('\n')[0];
    console.error(`Excel on the web needs a trusted development certificate, and it could not be installed (${why}). Run npx office-addin-dev-certs install (it uses sudo to trust the certificate), then npm run start:web again.`);
    return false;
  }
}
if (mode === 'web' && !(await devCertificateReady())) process.exit(1);

const emulator = await startEmulator({ port: emulatorPort, latency: 30, dialect });
console.log(`Local API server (demo data, ${dialect} dialect): ${emulator.url}/v3`);
console.log(`Demo keys: ${Object.entries(DEMO_KEYS).map(([k, p]) => `${k} (${p ?? 'no subscription'})`).join(', ')}`);

const env = { ...process.env, EMULATOR_PORT: String(emulatorPort), DEV_SERVER_PORT: String(devPort) };
/** The dev server npm start runs itself (--browser, --web); in Excel office-addin-debugging runs it. */
let devServer: ChildProcess | undefined;
/** `office-addin-debugging start`, while it sideloads. */
let debugging: ChildProcess | undefined;
let stopping: Promise<never> | undefined;

/** Stops everything npm start started, once, and exits with the code. */
function shutdown(code: number): Promise<never> {
  stopping ??= (async () => {
    if (debugging && debugging.exitCode === null && debugging.signalCode === null) debugging.kill('SIGTERM');
    if (devServer) killTree(devServer);
    // Removes the sideloaded add-in and stops the dev server office-addin-debugging left running.
    if (mode === 'excel') await Promise.race([stopDebugging(), new Promise((r) => setTimeout(r, 30_000))]);
    await emulator.close();
    process.exit(code);
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(0));

/** The dev server has its own process group (POSIX), so stopping reaches all of it; on Windows the child is webpack itself. */
function killTree(child: ChildProcess): void {
  if (process.platform !== 'win32' && child.pid) {
    try {
      process.kill(-child.pid, 'SIGTERM');
      return;
    } catch {
      // Already gone, or no group: the child alone.
    }
  }
  child.kill('SIGTERM');
}

/**
 * The manifest Excel gets, naming the dev server's port (the served copy's rule,
 * scripts/dev-url.ts), at one path in the OS temp dir, rewritten in place each run:
 * macOS sideloading hard-links the file into Excel's wef folder and keeps a link
 * already there (office-addin-dev-settings registerAddIn, fs-extra ensureLinkSync),
 * which then reads the new port too.
 */
function writeDevManifest(port: number): string {
  const dir = path.join(os.tmpdir(), 'crypto-excel-addin');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'manifest.xml');
  writeFileSync(file, withDevPort(readFileSync(path.join(ROOT, 'manifest.xml'), 'utf8'), port));
  return file;
}

/** webpack serve, run by this Node (not npx: npx.cmd cannot be spawned without a shell on Windows, scripts/office-debugging.ts). */
function startWebpack(extraEnv: Record<string, string>, onCompiled: () => void): ChildProcess {
  const cli = createRequire(import.meta.url).resolve('webpack-cli/bin/cli.js');
  const child = spawn(process.execPath, [cli, 'serve', '--mode', 'development'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...env, ...extraEnv },
    detached: process.platform !== 'win32',
  });
  let announced = false;
  child.stdout!.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && /compiled/i.test(chunk.toString())) {
      announced = true;
      onCompiled();
    }
  });
  child.once('error', (e) => {
    console.error(`webpack could not start: ${e.message}`);
    void shutdown(1);
  });
  child.once('exit', (code) => void shutdown(code ?? 1));
  return child;
}

function browserBanner(): void {
  console.log(`\nPreview of the add-in (not Excel): http://localhost:${devPort}/`);
  console.log('  A workbook running the built functions.js beside the task pane, on the demo data, with the demo key demo-pro saved.');
  console.log(`  Templates: ?template=portfolio, history, dashboard, unlocks; an empty sheet: http://localhost:${devPort}/?template=blank`);
  const excelHere = EXCEL_PLATFORMS.includes(process.platform);
  console.log(excelHere ? '\nThe add-in\'s own pages are served for a browser too:' : `\nExcel cannot be sideloaded on ${process.platform}. The add-in's own pages are served for a browser too:`);
  console.log(`  Task pane:  http://localhost:${devPort}/taskpane.html   (paste demo-pro as the API key)`);
  console.log(`  Help:       http://localhost:${devPort}/help/index.html`);
  console.log(`  Formulas:   npm run -s formula -- '=CRYPTO.PRICE("bitcoin")'`);
  if (!excelHere) console.log('  Excel on the web: npm run start:web');
  console.log('Press Ctrl+C to stop.');
}

function webBanner(manifest: string): void {
  const scheme = process.env.DEV_HTTPS === 'false' ? 'http' : 'https';
  console.log(`\nExcel on the web: the add-in is served at ${scheme}://localhost:${devPort}/, its demo data from the local API server.`);
  if (scheme === 'http') console.log('  DEV_HTTPS=false: served over HTTP, which Excel on the web does not load (for tests).');
  console.log('  1. Open a workbook in Excel on the web: Home > Add-ins > More Add-ins > My Add-ins > Upload My Add-in,');
  console.log(`     and upload ${manifest}.`);
  console.log('  2. Home > Crypto Data opens the pane: paste the demo key demo-pro and Save.');
  console.log('  3. In a cell: =CRYPTO.PRICE("bitcoin")');
  console.log('Press Ctrl+C to stop.');
}

function excelBanner(): void {
  console.log('\nThe add-in is sideloaded into desktop Excel. In Excel: Home > Crypto Data, paste the demo key demo-pro and Save;');
  console.log('  then in a cell: =CRYPTO.PRICE("bitcoin"). The local API server keeps running here for it.');
  console.log('Press Ctrl+C to stop (or npm stop in another terminal): the dev server and the sideloaded add-in go too.');
}

/**
 * office-addin-debugging leaves its dev server running on its own and exits; npm stop
 * ends that dev server (by the pid its start saved). With it gone nothing reaches the
 * local API server: stop too. The port is watched, not a pid file of our own: nothing
 * to go stale, nothing to kill by mistake.
 */
function watchDevServer(): void {
  let misses = 0;
  setInterval(async () => {
    misses = (await answers(devPort)) ? 0 : misses + 1;
    if (misses === 2) {
      console.log(`\nThe dev server on port ${devPort} has stopped (npm stop?): stopping the local API server too.`);
      void shutdown(0);
    }
  }, 2000);
}

/** office-addin-debugging exits 0 even when it failed (it logs "Unable to start debugging"): "Debugging started." is its success. */
async function afterSideload(code: number | null, signal: NodeJS.Signals | null, started: boolean): Promise<void> {
  if (stopping || signal === 'SIGINT' || signal === 'SIGTERM') return void shutdown(0);
  if (code !== 0 || !started) {
    console.error(`\noffice-addin-debugging ended without "Debugging started." (exit code ${code}); its message above says why. Stopping.`);
    return void shutdown(code || 1);
  }
  // It logs a dev server that did not start, then sideloads anyway.
  if (!(await answers(devPort))) {
    console.error(`\nNothing answers on port ${devPort}, where the dev server should be (see office-addin-debugging's messages above): stopping.`);
    return void shutdown(1);
  }
  excelBanner();
  watchDevServer();
}

function sideload(): void {
  const manifest = writeDevManifest(devPort);
  console.log(`Sideloading into desktop Excel: ${manifest} (the add-in at https://localhost:${devPort}/).`);
  console.log('No desktop Excel? Ctrl+C, then npm start -- --browser (a preview in the browser) or npm run start:web (Excel on the web).');
  const args = ['start', manifest, 'desktop', '--app', 'excel', '--dev-server', 'npm run dev-server', '--dev-server-port', String(devPort)];
  const child = officeAddinDebugging(args, { stdio: ['inherit', 'pipe', 'inherit'], env });
  debugging = child;
  let said = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    said += chunk.toString();
  });
  child.once('error', (e) => {
    console.error(`office-addin-debugging could not run: ${e.message}`);
    void shutdown(1);
  });
  child.once('exit', (code, signal) => void afterSideload(code, signal, said.includes('Debugging started.')));
}

if (mode === 'browser') devServer = startWebpack({ DEV_HTTPS: 'false', ADDIN_OFFICE_JS: 'local' }, browserBanner);
else if (mode === 'web') {
  // The root manifest names the default port; another port gets its own copy.
  const manifest = devPort === DEFAULT_DEV_PORT ? 'manifest.xml (in this folder)' : writeDevManifest(devPort);
  devServer = startWebpack({}, () => webBanner(manifest));
} else sideload();
