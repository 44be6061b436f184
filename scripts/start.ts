/**
 * npm start: the add-in on the built-in demo data.
 *
 * Always starts the local API server (demo keys, synthetic market). Then:
 * - Windows / macOS: office-addin-debugging starts the HTTPS dev server and
 *   sideloads manifest.xml into desktop Excel.
 * - Linux (no Excel), or --browser: the dev server over HTTP, and where to
 *   point a browser to use the task pane on the demo data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DEMO_KEYS, DIALECTS, isDialect, startEmulator } from '../src/emulator/server';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  config: { dev_server_port: number; emulator_port: number };
};
const emulatorPort = Number(process.env.EMULATOR_PORT || pkg.config.emulator_port);
const devPort = Number(process.env.DEV_SERVER_PORT || pkg.config.dev_server_port);
const browserOnly = process.argv.includes('--browser') || !['win32', 'darwin'].includes(process.platform);

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
  child = spawn(npx, ['webpack', 'serve', '--mode', 'development'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...env, DEV_HTTPS: 'false' } });
  let announced = false;
  child.stdout!.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && /compiled/i.test(chunk.toString())) {
      announced = true;
      console.log(`\nExcel cannot be sideloaded on ${process.platform}. The add-in is served for a browser:`);
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
  child.kill('SIGTERM');
  await emulator.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', async (code) => {
  await emulator.close();
  process.exit(code ?? 0);
});
