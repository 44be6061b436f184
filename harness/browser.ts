/**
 * The browser for the UI tests, found in this order:
 *   1. TEST_BROWSER: the path of a Chrome, Chromium or Edge executable;
 *   2. a Chrome, Chromium or Edge already installed in its usual place;
 *   3. on Linux x64, the Chromium that npm delivers (@sparticuz/chromium, a
 *      devDependency), unpacked on first use.
 * Where none is found the tests fail with one line saying how to point them at
 * a browser: they never skip.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const BROWSER_ENV = 'TEST_BROWSER';

/** Where Chrome, Chromium and Edge install themselves, per platform. */
function installedCandidates(): string[] {
  if (process.platform === 'darwin') {
    return ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge']
      .flatMap((app) => [path.join('/Applications', app), path.join(process.env.HOME ?? '', 'Applications', app)]);
  }
  if (process.platform === 'win32') {
    const roots = [process.env.PROGRAMFILES, process.env['PROGRAMFILES(X86)'], process.env.LOCALAPPDATA].filter((r): r is string => !!r);
    return roots.flatMap((r) => [
      path.join(r, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      path.join(r, 'Chromium', 'Application', 'chrome.exe'),
      path.join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
    ]);
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/usr/bin/microsoft-edge', '/usr/bin/microsoft-edge-stable'];
}

const HOW_TO = `No browser for the UI tests: install Chrome, Chromium or Edge, or set ${BROWSER_ENV}=/path/to/chrome (npm delivers one only on Linux x64).`;

/**
 * @sparticuz/chromium unpacks into the temp directory, and test files run in
 * parallel processes: one process unpacks while the others wait on a lock
 * directory, so none starts a half-written binary.
 */
async function npmChromium(): Promise<string | null> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  let pack: typeof import('@sparticuz/chromium').default;
  try {
    pack = (await import('@sparticuz/chromium')).default;
  } catch {
    return null;
  }
  const lock = path.join(tmpdir(), 'crypto-addin-chromium.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than two minutes belongs to a process that died unpacking.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > 120_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await pack.executablePath();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The executable the UI tests drive, or an Error whose message says what to do. */
export async function findBrowser(): Promise<string> {
  const explicit = process.env[BROWSER_ENV];
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`${BROWSER_ENV}=${explicit} does not exist. ${HOW_TO}`);
    return explicit;
  }
  const installed = installedCandidates().find((p) => existsSync(p));
  if (installed) return installed;
  const fromNpm = await npmChromium();
  if (fromNpm) return fromNpm;
  throw new Error(HOW_TO);
}

/** Flags for a headless run as root on a closed network: no sandbox, GPU or background traffic. */
export const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await findBrowser(), args: BROWSER_ARGS });
}
