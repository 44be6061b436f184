/**
 * npm start: the add-in on the built-in demo data.
 *
 * Always starts the local API server (demo keys, synthetic market). Then:
 * - Windows / macOS: office-addin-debugging starts the HTTPS dev server and
 *   sideloads manifest.xml into desktop Excel.
 * - Linux (no Excel), or --browser: the dev server over HTTP; its root is the
 *   preview workbook (src/preview: the built functions.js in cells, the task
 *   pane beside them), printed first, then the task pane alone and the help.
 *
 * Office.js: sideloaded into Excel the build loads it from Microsoft's CDN; the
 * browser-only preview uses the npm copy (ADDIN_OFFICE_JS=local). The ports come
 * from DEV_SERVER_PORT and EMULATOR_PORT (package.json config otherwise); a
 * port in use is said in one line naming the variable to set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { DEMO_KEYS, DIALECTS, isDialect, startEmulator } from '../src/emulator/server';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  config: { dev_server_port: number; emulator_port: number };
};
const emulatorPort = Number(process.env.EMULATOR_PORT || pkg.config.emulator_port);
const devPort = Number(process.env.DEV_SERVER_PORT || pkg.config.dev_server_port);
const browserOnly = process.argv.includes('--browser') || !['win32', 'darwin'].includes(process.platform);

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

if (browserOnly) console.log(`Preview of the add-in (not Excel): http://localhost:${devPort}/   (ready once webpack has compiled)`);

// `npm start -- --dialect docs`: the local API server answers in another documented shape.
const dialectAt = process.argv.indexOf('--dialect');
const dialect = dialectAt >= 0 ? process.argv[dialectAt + 1] ?? '' : 'spec';
if (!isDialect(dialect)) {
  console.error(`--dialect must be one of ${DIALECTS.join(', ')}, got "${dialect}"`);
  process.exit(2);
}

const emulator = await startEmulator({ port: emulatorPort, latency: 30, dialect });
console.log(`Local API server (demo data, ${dialect} dialect): ${emulator.url}/v3`);
console.log(`Demo keys: ${Object.entries(DEMO_KEYS).map(([k, p]) => `${k} (${p ?? 'no subscription'})`).join(', ')}`);

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const env = { ...process.env, EMULATOR_PORT: String(emulatorPort), DEV_SERVER_PORT: String(devPort) };
let child: ChildProcess;
if (browserOnly) {
  // Its own process group (POSIX), so stopping reaches webpack itself and not only npx (which does not pass SIGTERM on).
  child = spawn(npx, ['webpack', 'serve', '--mode', 'development'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...env, DEV_HTTPS: 'false', ADDIN_OFFICE_JS: 'local' },
    detached: process.platform !== 'win32',
  });
  let announced = false;
  child.stdout!.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && /compiled/i.test(chunk.toString())) {
      announced = true;
      console.log(`\nPreview of the add-in (not Excel): http://localhost:${devPort}/`);
      console.log('  A workbook running the built functions.js beside the task pane, on the demo data, with the demo key demo-pro saved.');
      console.log(`  Templates: ?template=portfolio, history, dashboard, unlocks; an empty sheet: http://localhost:${devPort}/?template=blank`);
      console.log(`\nExcel cannot be sideloaded on ${process.platform}. The add-in's own pages are served for a browser too:`);
      console.log(`  Task pane:  http://localhost:${devPort}/taskpane.html   (paste demo-pro as the API key)`);
      console.log(`  Help:       http://localhost:${devPort}/help/index.html`);
      console.log(`  Formulas:   npm run -s formula -- '=CRYPTO.PRICE("bitcoin")'`);
      console.log('Press Ctrl+C to stop.');
    }
  });
} else {
  child = spawn(
    npx,
    ['office-addin-debugging', 'start', 'manifest.xml', 'desktop', '--app', 'excel', '--dev-server', 'npm run dev-server', '--dev-server-port', String(devPort)],
    { stdio: 'inherit', env },
  );
}

const stop = async () => {
  if (browserOnly && process.platform !== 'win32' && child.pid) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  } else child.kill('SIGTERM');
  await emulator.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', async (code) => {
  await emulator.close();
  process.exit(code ?? 0);
});
