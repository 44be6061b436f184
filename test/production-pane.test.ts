/**
 * The production build in headless Chromium, under its own Content-Security-
 * Policy: Office.js is answered from the local @microsoft/office-js copy at
 * Microsoft's CDN address, and https://api.cryptorank.io by an emulator in
 * this process (both through Playwright's routing), so the pages run exactly
 * as shipped: same URLs, same policy.
 *
 *   node --import tsx --test test/production-pane.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { DEFAULT_API_ORIGIN, OFFICE_CDN_ORIGIN } from '../scripts/content-policy';
import { STORED } from '../src/pages/privacy';
import { contrastFailures, overflow, textSamples } from './support/page-checks';
import { OFFICE_JS_DIR } from '../harness/pane-server';
import { usePaneRig } from './support/pane-rig';

const root = path.resolve(import.meta.dirname, '..');
const CDN_PREFIX = `${OFFICE_CDN_ORIGIN}/lib/1/hosted/`;
let out: string;

// The production build, served as built: its pages call the API's own origin (routed below), not /v3.
const rig = usePaneRig({
  build: async () => {
    out = mkdtempSync(path.join(tmpdir(), 'crypto-prod-pane-'));
    await promisify(execFile)('npx', ['webpack', '--mode', 'production', '--output-path', out], {
      cwd: root,
      env: { ...process.env, ADDIN_PUBLIC_URL: 'https://addin.contoso.test/crypto/' },
      maxBuffer: 32 * 1024 * 1024,
    });
    return out;
  },
  proxyApi: false,
});

after(async () => {
  await rig.ready().then((r) => r.close(), () => {}); // nothing is served from the build any more
  if (out) rmSync(out, { recursive: true, force: true });
});

/** A page that records every policy violation (window.__violations) and page error. */
async function open(file: string, opts: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<{ page: Page; errors: string[] }> {
  const errors: string[] = [];
  const page = await rig.openPage(file, {
    viewport: { width: opts.width ?? 350, height: 900 },
    context: { colorScheme: opts.colorScheme ?? 'light' },
    readyMs: false,
    prepare: (context, page) => asShipped(context, page, errors),
  });
  return { page, errors };
}

/** Office.js at its CDN address and the API at its own origin, answered locally; page errors and policy violations recorded. */
async function asShipped(context: BrowserContext, page: Page, errors: string[]): Promise<void> {
  await context.route(`${CDN_PREFIX}**`, (route) => {
    const rel = decodeURIComponent(new URL(route.request().url()).pathname.slice('/lib/1/hosted/'.length));
    let body: Buffer;
    try {
      body = readFileSync(path.join(OFFICE_JS_DIR, rel));
    } catch {
      return route.fulfill({ status: 404, body: 'not found' });
    }
    return route.fulfill({ status: 200, contentType: 'text/javascript', body });
  });
  await context.route(`${DEFAULT_API_ORIGIN}/**`, async (route) => {
    const u = new URL(route.request().url());
    const response = await route.fetch({ url: `${rig.em.url}${u.pathname}${u.search}` });
    await route.fulfill({ response });
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    const list: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = list;
    document.addEventListener('securitypolicyviolation', (e) => list.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations.slice());

describe('the production build under its Content-Security-Policy', { timeout: 120_000 }, () => {
  test('the pane loads Office.js from the CDN, checks a key with the API and shows the plan, with no policy violation', async () => {
    const { page, errors } = await open('taskpane.html');
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    assert.equal(await page.evaluate(() => typeof Office), 'object', 'Office.js ran');
    assert.equal(await page.locator('#demo-banner').count(), 0, 'no demo banner in production');
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill('demo-pro');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForFunction(() => document.getElementById('plan-name')?.textContent === 'Pro', undefined, { timeout: 20_000 });
    assert.match((await page.locator('#key-message').textContent()) ?? '', /Key saved\. It works: Pro plan/);
    // A formula through the code Excel calls (the functions bundle's registration), over the same API.
    const price = await page.evaluate(() => {
      const m = (globalThis as unknown as { CustomFunctions: { _association: { mappings: Record<string, (...a: unknown[]) => Promise<unknown>> } } }).CustomFunctions._association.mappings;
      return m.PRICE('bitcoin', null, undefined);
    });
    assert.ok(typeof price === 'number' && price > 0, String(price));
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(errors, []);

    // The privacy page names every entry the add-in stored.
    // The key at once; the coin list is written off the critical path, after the first formula.
    await page.waitForFunction(() => Object.keys(localStorage).length >= 2, undefined, { timeout: 10_000 });
    const keys = await page.evaluate(() => Object.keys(localStorage));
    assert.ok(keys.includes('crypto-addin:apiKey'), keys.join(' '));
    for (const k of keys) assert.ok(STORED.some((s) => s.key.test(k)), `${k} is on the privacy page`);
  });

  test('the policy is in force: a connection to another host and a script from another host are refused', async () => {
    const { page } = await open('taskpane.html');
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    const fetched = await page.evaluate(() => fetch('https://tracker.example.test/collect').then(() => 'sent', () => 'refused'));
    assert.equal(fetched, 'refused');
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.src = 'https://cdn.example.test/x.js';
      document.head.append(s);
    });
    await page.waitForFunction(() => (window as unknown as { __violations: string[] }).__violations.length >= 2);
    const v = await violations(page);
    assert.ok(v.includes('connect-src https://tracker.example.test/collect'), v.join('\n'));
    assert.ok(v.includes('script-src-elem https://cdn.example.test/x.js'), v.join('\n'));
  });

  test('a custom API host: the pane asks before the key goes there, and says this build cannot reach it', async () => {
    const { page } = await open('taskpane.html');
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    await page.locator('summary', { hasText: 'Advanced' }).click();
    await page.getByRole('textbox', { name: 'API base URL' }).fill('https://api.example.test');
    await page.getByRole('button', { name: 'Apply settings' }).click();
    await page.waitForFunction(() => document.getElementById('host-consent')?.hidden === false, undefined, { timeout: 10_000 });
    const asked = (await page.locator('#host-consent-text').textContent()) ?? '';
    assert.match(asked, /Your API key will be sent to api\.example\.test/);
    assert.match(asked, /can only reach its own API address .*requests to api\.example\.test will be blocked/);
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await page.evaluate(() => localStorage.getItem('crypto-addin:settings')), null, 'nothing saved');
    // The build's own API address is neither asked about nor said to be blocked.
    await page.getByRole('textbox', { name: 'API base URL' }).fill('');
    await page.getByRole('button', { name: 'Apply settings' }).click();
    await page.waitForFunction(() => document.getElementById('settings-message')?.dataset.tone === 'success', undefined, { timeout: 10_000 });
    assert.equal(await page.evaluate(() => document.getElementById('host-consent')?.hidden), true);
    assert.deepEqual(await violations(page), []);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`help and listing pages in the ${scheme} system theme at 320 px: WCAG AA contrast, no horizontal overflow`, async () => {
      for (const file of ['support.html', 'privacy.html', 'whats-new.html', 'help/index.html', 'help/ohlcv.html']) {
        const { page } = await open(file, { width: 320, colorScheme: scheme });
        await page.waitForLoadState('load');
        const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.equal(bg, scheme === 'dark' ? 'rgb(41, 41, 41)' : 'rgb(255, 255, 255)', `${file} follows the ${scheme} preference`);
        const samples = await textSamples(page);
        assert.ok(samples.length > 10, `${file}: ${samples.length} texts`);
        assert.deepEqual(contrastFailures(samples), [], file);
        const o = await overflow(page);
        assert.ok(o.scroll <= o.w, `${file}: ${JSON.stringify(o)}`);
        await page.context().close();
      }
    });
  }

  test('the support, privacy, terms, what\'s new and help pages render with no policy violation', async () => {
    for (const file of ['support.html', 'privacy.html', 'terms.html', 'whats-new.html', 'help/index.html', 'help/price.html']) {
      const { page, errors } = await open(file);
      await page.waitForLoadState('load');
      assert.ok(await page.evaluate(() => document.styleSheets.length > 0 && getComputedStyle(document.body).fontSize === '14px'), `${file}: its style sheet applied`);
      assert.deepEqual(await violations(page), [], file);
      assert.deepEqual(errors, [], file);
    }
  });
});
