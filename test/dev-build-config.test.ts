/**
 * The development build's configuration (webpack.config.js) without building:
 * where the task pane loads Office.js from, and the URLs the manifest and help
 * pages get when the dev server runs on another port.
 *
 *   node --import tsx --test test/dev-build-config.test.ts
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';

type Plugin = { userOptions?: { filename?: string; templateParameters?: { officeJs?: string } }; from?: string; to?: string };
const saved = { port: process.env.DEV_SERVER_PORT, officeJs: process.env.ADDIN_OFFICE_JS };
afterEach(() => {
  for (const [k, v] of [['DEV_SERVER_PORT', saved.port], ['ADDIN_OFFICE_JS', saved.officeJs]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

async function plugins(mode: 'development' | 'production'): Promise<Plugin[]> {
  // webpack.config.js is plain JavaScript (no types): imported by its URL.
  const { default: config } = (await import(new URL('../webpack.config.js', import.meta.url).href)) as {
    default: (env: unknown, argv: { mode: string }) => Promise<{ plugins: Plugin[] }>;
  };
  return (await config({}, { mode })).plugins;
}
const taskpaneOfficeJs = (ps: Plugin[]) => ps.find((p) => p.userOptions?.filename === 'taskpane.html')!.userOptions!.templateParameters!.officeJs;

test('sideloaded into Excel, the development build loads Office.js from Microsoft\'s CDN; the npm copy only when asked (tests, browser preview)', async () => {
  delete process.env.ADDIN_OFFICE_JS;
  assert.equal(taskpaneOfficeJs(await plugins('development')), 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js');
  process.env.ADDIN_OFFICE_JS = 'local';
  assert.equal(taskpaneOfficeJs(await plugins('development')), 'office-js/office.js');
  assert.equal(taskpaneOfficeJs(await plugins('production')), 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js', 'production ignores it');
});

test('the manifest and help URLs follow DEV_SERVER_PORT', async () => {
  process.env.DEV_SERVER_PORT = '3917';
  const rewrite = (await plugins('development')).find((p) => p.from === 'https://localhost:3000/');
  assert.equal(rewrite?.to, 'https://localhost:3917/');
  delete process.env.DEV_SERVER_PORT;
  assert.equal((await plugins('development')).find((p) => p.from === 'https://localhost:3000/'), undefined, 'nothing to rewrite on the default port');
});
