/**
 * The development bundle (`webpack --mode development`), built once into a
 * private directory per caller (so a concurrent build of dist/ or another test
 * file's build cannot pull files from under it) and reused while no source is
 * newer. Shared by the pane and preview tests and the benchmark's browser workload.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(p: string): number {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of readdirSync(p)) m = Math.max(m, newestMtime(path.join(p, e)));
  return m;
}

function isFresh(dir: string, files: string[]): boolean {
  if (!files.every((f) => existsSync(path.join(dir, f)))) return false;
  const sources = Math.max(
    newestMtime(path.join(root, 'src')),
    newestMtime(path.join(root, 'docs/formula-examples')),
    statSync(path.join(root, 'webpack.config.js')).mtimeMs,
    statSync(path.join(root, 'manifest.xml')).mtimeMs,
  );
  return files.every((f) => statSync(path.join(dir, f)).mtimeMs > sources);
}

/**
 * Builds into os.tmpdir()/<name>-<checkout>/dist unless fresh; returns the directory.
 * Per checkout: several clones or worktrees on one machine must not reuse each other's build.
 */
export async function developmentBuild(name: string, expect: string[]): Promise<string> {
  const checkout = createHash('sha256').update(root).digest('hex').slice(0, 8);
  const dir = path.join(os.tmpdir(), `${name}-${checkout}`, 'dist');
  if (isFresh(dir, expect)) return dir;
  mkdirSync(dir, { recursive: true });
  try {
    await promisify(execFile)('npx', ['webpack', '--mode', 'development', '--output-path', dir], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
      // The npm copy of Office.js (served at /office-js by the test server): the CDN is not reachable from CI.
      env: { ...process.env, NO_UPDATE_NOTIFIER: '1', ADDIN_OFFICE_JS: 'local' },
    });
  } catch (e) {
    const out = e as { stdout?: string; stderr?: string };
    throw new Error(`webpack failed:\n${String(out.stdout ?? e).slice(-4000)}\n${out.stderr ?? ''}`);
  }
  const missing = expect.filter((f) => !existsSync(path.join(dir, f)));
  if (missing.length) throw new Error(`webpack did not write ${missing.join(', ')}`);
  return dir;
}

/** What the preview workbook (npm start's page) needs of a development build. */
export const PREVIEW_FILES = ['index.html', 'preview.js', 'preview-host.js', 'preview-pane.html', 'functions.js'];
