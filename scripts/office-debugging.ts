/**
 * office-addin-debugging (sideloads into desktop Excel), run as npm start and
 * npm stop need it.
 *
 * Its own cli.js runs on this Node (process.execPath), not through `npx`: on
 * Windows that is npx.cmd, and since Node 18.20.2 / 20.12.2 (CVE-2024-27980)
 * spawning a .cmd without `shell: true` throws EINVAL (Node docs, child_process,
 * "Spawning .bat and .cmd files on Windows"; nodejs/node#52681). A shell instead
 * would need cmd.exe quoting for our arguments (a temp-dir path, "npm run
 * dev-server") and would put cmd.exe between us and the process we stop.
 *
 * ADDIN_DEBUGGING_CLI names a stand-in script instead: the tests', as Excel
 * cannot be sideloaded where they run.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The project root: office-addin-debugging reads manifest.xml and package.json from its working directory. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where desktop Excel can be sideloaded (office-addin-debugging's own platforms). */
export const EXCEL_PLATFORMS: readonly string[] = ['win32', 'darwin'];

export function officeAddinDebugging(args: string[], options: SpawnOptions = {}): ChildProcess {
  const cli = process.env.ADDIN_DEBUGGING_CLI || createRequire(import.meta.url).resolve('office-addin-debugging/cli.js');
  return spawn(process.execPath, [cli, ...args], { cwd: ROOT, ...options });
}

/**
 * `office-addin-debugging stop manifest.xml`: unregisters the add-in and stops the
 * dev server its start left running (its pid is in the OS temp dir). It unregisters
 * by the manifest's id, so the root manifest also removes a sideloaded copy with
 * another port (start.ts's). Resolves with its exit code.
 */
export function stopDebugging(): Promise<number> {
  return new Promise((resolve) => {
    const child = officeAddinDebugging(['stop', 'manifest.xml'], { stdio: 'inherit' });
    child.once('error', (e) => {
      console.error(`office-addin-debugging stop could not run: ${e.message}`);
      resolve(1);
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}
