/**
 * The task pane, built (development bundle) and driven in headless Chromium:
 * Office.js from the local @microsoft/office-js copy, the API from an emulator
 * in this process (proxied at /v3 by harness/pane-server.ts, as the dev
 * server does), Excel's object model from office-addin-mock (bridged into the
 * page: see excelBridge below).
 *
 *   node --import tsx --test test/taskpane.test.ts
 *
 * The bundle is built once into a private directory (so a concurrent build of
 * dist/ cannot pull files from under the test) and reused while no source file
 * is newer. Screenshots of the pane's states go to docs/screenshots/ with
 * UPDATE_SCREENSHOTS=1 (else to a temp folder).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OfficeMockObject } from 'office-addin-mock';
import type { Page } from 'playwright-core';
import { PLAN_LIMITS, type Plan } from '../src/api/endpoints';
import type { MeterSnapshot } from '../src/client';
import { DEMO_KEYS, startEmulator } from '../src/emulator/server';
import { PLAN_LINES } from '../src/pages/plans';
import { SETTINGS_RULES } from '../src/office/settings';
import { errorWords } from '../src/taskpane/error-words';
import { contrastFailures, overflow, textSamples } from './support/page-checks';
import { freePort } from './support/ports';
import { startPaneServer } from '../harness/pane-server';
import { usePaneRig } from './support/pane-rig';
import { ambiguousSymbol } from './support/shared-symbol';
import { byId, evaluate, saveKey, text, type EvalResult } from './support/pane';
import { until } from './support/waiting';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The README's screenshots are rewritten only when asked (UPDATE_SCREENSHOTS=1), so a test
// run leaves the work tree as it was; otherwise they still render, into a temp folder.
const SHOTS = process.env.UPDATE_SCREENSHOTS ? path.join(root, 'docs/screenshots') : path.join(os.tmpdir(), 'crypto-pane-shots');
const PANE_WIDTH = 350;
const PLAN_KEYS = ['demo-sandbox', 'demo-basic', 'demo-advanced', 'demo-pro'] as const;
const UNKNOWN_KEY = 'ck-unknown-Z9x8W7v6U5';
/** Every key a test types: none may show up in the DOM, a URL, other storage or the console. */
const ALL_KEYS = [...PLAN_KEYS, 'demo-inactive', UNKNOWN_KEY];

// The API server on the wall clock (harness/README.md); page errors with their stacks.
const rig = usePaneRig({ build: { name: 'crypto-addin-taskpane-test', files: ['taskpane.js', 'taskpane.html', 'functions.js'] }, errorStacks: true });
const consoleLines: string[] = [];
const requestUrls: string[] = [];

// ------------------------------------------------------------------ Excel (office-addin-mock, bridged into the page)

type Step = { get: string } | { call: string; args: unknown[] };

interface ExcelMock {
  /** Calls the pane made on Excel objects, in order, and each ctx.sync(). */
  calls: { api: string; args: unknown[] }[];
}

/**
 * Page side of the Excel bridge, as source text (a function would be serialised
 * with the test runner's transpiler helpers). Office.onReady reports Excel (the
 * real office.js still loads, from the local copy, outside a host), and
 * Excel.run gets a context whose calls are recorded and sent on sync().
 */
const EXCEL_INIT_SCRIPT = `(() => {
  let office;
  const proxies = new WeakMap();
  const onReady = async (cb) => {
    const info = { host: 'Excel', platform: 'OfficeOnline' };
    if (typeof cb === 'function') cb(info);
    return info;
  };
  Object.defineProperty(window, 'Office', {
    configurable: true,
    get() {
      if (!office || typeof office !== 'object') return office;
      let p = proxies.get(office);
      if (!p) {
        p = new Proxy(office, {
          get: (t, k) => {
            if (k === 'onReady') return onReady;
            const v = Reflect.get(t, k, t);
            // Office's theme, as a host reports it, when the test gives one (window.__officeTheme).
            if (k === 'context' && window.__officeTheme) {
              return new Proxy(v || {}, { get: (c, n) => (n === 'officeTheme' ? window.__officeTheme : Reflect.get(c, n, c)) });
            }
            return v;
          },
        });
        proxies.set(office, p);
      }
      return p;
    },
    set(v) { office = v; },
  });
  let queue = [];
  const chain = (steps) => new Proxy(function () {}, {
    get: (_t, k) => (typeof k === 'symbol' || k === 'then' ? undefined : chain([...steps, { get: k }])),
    apply: (_t, _this, args) => {
      const s = [...steps.slice(0, -1), { call: steps[steps.length - 1].get, args }];
      queue.push(s);
      return chain(s);
    },
  });
  window.Excel = {
    CalculationType: { recalculate: 'Recalculate', full: 'Full', fullRebuild: 'FullRebuild' },
    run: async (batch) => {
      const root = chain([]);
      const ctx = new Proxy({}, {
        get: (_t, k) => k === 'sync'
          ? async () => { const ops = queue; queue = []; await window.__excelSync(ops); }
          : root[k],
      });
      return batch(ctx);
    },
  };
})();`;

/**
 * Office.js batches: proxy objects record commands, ctx.sync() sends them. The
 * page side (init script) does the same: a recording proxy collects the calls
 * on `context`, and sync() sends them here, where they are replayed on an
 * office-addin-mock Excel context, whose methods record what Excel was asked.
 */
async function excelBridge(page: Page): Promise<ExcelMock> {
  const calls: ExcelMock['calls'] = [];
  const activeSheet = new OfficeMockObject({
    host: 'excel',
    name: 'Sheet1',
    calculate: (markAllDirty: boolean) => calls.push({ api: 'Worksheet.calculate', args: [markAllDirty] }),
  });
  const context = new OfficeMockObject({
    host: 'excel',
    workbook: {
      application: {
        calculationMode: 'Automatic',
        calculate: (type: string) => calls.push({ api: 'Application.calculate', args: [type] }),
      },
      worksheets: { getActiveWorksheet: () => activeSheet },
    },
  }) as unknown as Record<string, unknown> & { sync(): Promise<void> };
  await page.exposeFunction('__excelSync', async (ops: Step[][]) => {
    for (const op of ops) {
      let obj: any = context;
      for (const s of op) obj = 'call' in s ? obj[s.call](...s.args) : obj[s.get];
    }
    await context.sync();
    calls.push({ api: 'sync', args: [] });
  });
  await page.addInitScript(EXCEL_INIT_SCRIPT);
  return { calls };
}

// ------------------------------------------------------------------ page helpers

interface PaneOptions {
  width?: number;
  excel?: boolean;
  /** The system's colour scheme (prefers-color-scheme). */
  colorScheme?: 'light' | 'dark';
  /** What Office.context.officeTheme reports (inside the mocked Excel only). */
  officeTheme?: { bodyBackgroundColor: string; bodyForegroundColor: string; controlBackgroundColor: string; controlForegroundColor: string };
  /** Another pane server (one in front of an API server of another dialect). */
  site?: string;
}

async function openPane(opts: PaneOptions = {}): Promise<{ page: Page; excel: ExcelMock | null }> {
  let excel: ExcelMock | null = null;
  const page = await rig.openPage('taskpane.html', {
    viewport: { width: opts.width ?? PANE_WIDTH, height: 900 },
    context: { colorScheme: opts.colorScheme ?? 'light' },
    readyMs: 20_000,
    site: opts.site,
    prepare: async (_context, page) => {
      page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
      page.on('request', (r) => requestUrls.push(r.url()));
      if (opts.officeTheme) await page.addInitScript((t) => (window.__officeTheme = t), opts.officeTheme);
      if (opts.excel || opts.officeTheme) excel = await excelBridge(page);
    },
  });
  return { page, excel };
}

const num = async (page: Page, id: string) => Number((await text(page, id)).replace(/[^\d.-]/g, ''));

/**
 * A formula through the code Excel calls: the function functions.js registered
 * with CustomFunctions.associate (office.js keeps the mapping; outside Excel it
 * is not called by anyone else). Success only: outside Excel, office.js has no
 * CustomFunctions.Error to turn failures into.
 */
function viaFunctionsBundle(page: Page, id: string, args: unknown[]): Promise<unknown> {
  return page.evaluate(
    async ([id, args]) => {
      const mappings = (globalThis as unknown as { CustomFunctions: { _association: { mappings: Record<string, (...a: unknown[]) => Promise<unknown>> } } })
        .CustomFunctions._association.mappings;
      return mappings[id](...args, undefined);
    },
    [id, args] as const,
  );
}

const meter = (page: Page): Promise<MeterSnapshot> => page.evaluate(() => window.__cryptoAddin!.runtime.client.meter.snapshot());

/** Everything the page keeps: web storage, IndexedDB (every store of every database), cookies. */
async function storageDump(page: Page): Promise<{ local: Record<string, string>; session: Record<string, string>; idb: string[]; cookies: string }> {
  // No named inner functions here: the callback is serialised into the page.
  return page.evaluate(async () => {
    const local = Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k) ?? '']));
    const session = Object.fromEntries(Object.keys(sessionStorage).map((k) => [k, sessionStorage.getItem(k) ?? '']));
    const idb: string[] = [];
    for (const info of (await indexedDB.databases()) ?? []) {
      if (!info.name) continue;
      const req = indexedDB.open(info.name);
      const db = await new Promise<IDBDatabase>((res, rej) => {
        req.onsuccess = () => res(req.result);
        req.onerror = () => rej(req.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const r = db.transaction(store).objectStore(store).getAll();
        const all = await new Promise<unknown[]>((res, rej) => {
          r.onsuccess = () => res(r.result);
          r.onerror = () => rej(r.error);
        });
        idb.push(`${info.name}/${store}: ${JSON.stringify(all)}`);
      }
      db.close();
    }
    return { local, session, idb, cookies: document.cookie };
  });
}

/** A screenshot of some sections of the pane (their union), for docs/screenshots. */
async function shot(page: Page, file: string, ids?: string[]): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const out = path.join(SHOTS, file);
  if (!ids) {
    await page.screenshot({ path: out });
    return;
  }
  const boxes = [];
  for (const id of ids) {
    const b = await page.evaluate((id) => {
      const r = document.getElementById(id)!.getBoundingClientRect();
      return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height };
    }, id);
    boxes.push(b);
  }
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - 8);
  const bottom = Math.max(...boxes.map((b) => b.y + b.h)) + 8;
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y, width, height: bottom - y } });
}

declare global {
  interface Window {
    __officeTheme?: PaneOptions['officeTheme'];
  }
}

/** Office's own theme colours (Office.context.officeTheme) for its Colorful and Black themes. */
const OFFICE_COLORFUL = { bodyBackgroundColor: '#FFFFFF', bodyForegroundColor: '#000000', controlBackgroundColor: '#FFFFFF', controlForegroundColor: '#262626' };
const OFFICE_BLACK = { bodyBackgroundColor: '#262626', bodyForegroundColor: '#FFFFFF', controlBackgroundColor: '#404040', controlForegroundColor: '#FFFFFF' };

// ------------------------------------------------------------------ suite

describe('task pane', { timeout: 240_000 }, () => {
  test('first run: what it does, where to get a key, a labelled key field and Save', async () => {
    const { page } = await openPane();
    await assert.doesNotReject(page.getByRole('textbox', { name: 'API key', exact: true }).waitFor({ state: 'visible' }));
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor({ state: 'visible' });
    const link = page.getByRole('link', { name: 'Get an API key' });
    assert.equal(await link.getAttribute('href'), 'https://cryptorank.io/public-api');
    assert.match(await text(page, 'intro'), /CRYPTO\.PRICE\("bitcoin"\)/);
    // What each plan gives, in a line each: Sandbox free, then what the paid plans add.
    const plans = (await byId(page, 'plans').locator('li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.deepEqual(plans, PLAN_LINES.map((l) => `${l.plan} ${l.note} ${l.text}`));
    assert.equal(await page.getByRole('button', { name: 'Remove key', exact: true }).count(), 0, 'no key, nothing to remove');
    assert.match(await text(page, 'plan-message'), /Add your API key/);
    // Development build: demo data, said prominently.
    assert.ok(await byId(page, 'demo-banner').isVisible());
    assert.match(await text(page, 'demo-banner'), /Demo data/);
    // Outside Excel (Office.onReady: host null) the pane says the Excel part is skipped.
    await until('host note', () => byId(page, 'host-note').isVisible());
    // Status messages are in live regions.
    for (const id of ['key-message', 'plan-message', 'refresh-message', 'settings-message']) {
      assert.equal(await byId(page, id).getAttribute('aria-live'), 'polite', id);
    }
    await shot(page, 'first-run.png');
  });

  for (const dialect of ['docs', 'legacy'] as const) {
    test(`under the ${dialect} dialect of /v3/status, saving a key shows the plan and credits; daily figures only where the answer has them`, async () => {
      const other = await startEmulator({ port: 0, dialect });
      const site = await startPaneServer({ apiTarget: other.url, distDir: rig.dist });
      try {
        const { page } = await openPane({ site: site.url });
        const limits = PLAN_LIMITS.Advanced;
        const m = await saveKey(page, 'demo-advanced');
        assert.equal(m.tone, 'success', m.text);
        await until('the plan', async () => (await text(page, 'plan-name')) === 'Advanced');
        assert.equal(await num(page, 'plan-rpm'), limits.rateLimitPerMinute);
        assert.equal(await num(page, 'monthly-limit'), limits.monthlyCredits);
        assert.equal(await num(page, 'monthly-used'), other.usage('demo-advanced').monthlyUsed);
        // The legacy shape reports no daily figures: no gauge, and nothing derived from the monthly ones.
        assert.equal(await byId(page, 'daily').isVisible(), dialect !== 'legacy');
        if (dialect !== 'legacy') assert.equal(await num(page, 'daily-limit'), limits.dailyCredits);
      } finally {
        await site.close();
        await other.close();
      }
    });
  }

  test('each demo key shows its plan, requests per minute and credits, as the emulator counts them', async () => {
    const { page } = await openPane();
    for (const [i, key] of PLAN_KEYS.entries()) {
      const plan = DEMO_KEYS[key] as Plan;
      const limits = PLAN_LIMITS[plan];
      rig.em.setUsage(key, { dailyUsed: 11 + i, monthlyUsed: 1234 + 100 * i });
      const before = rig.em.usage(key);
      const m = await saveKey(page, key);
      assert.equal(m.tone, 'success', m.text);
      assert.match(m.text, new RegExp(`${plan} plan, ${limits.rateLimitPerMinute} requests per minute`));
      await until(`plan ${plan}`, async () => (await text(page, 'plan-name')) === plan);
      assert.equal(await num(page, 'plan-rpm'), limits.rateLimitPerMinute);
      assert.equal(await num(page, 'plan-rpm'), rig.em.rateLimitFor(key));
      const usage = rig.em.usage(key);
      assert.equal(usage.dailyUsed, before.dailyUsed, 'checking the key spent no credits');
      assert.equal(await num(page, 'daily-used'), usage.dailyUsed);
      assert.equal(await num(page, 'daily-limit'), limits.dailyCredits);
      assert.equal(await num(page, 'daily-remaining'), limits.dailyCredits - usage.dailyUsed);
      assert.equal(await num(page, 'monthly-used'), usage.monthlyUsed);
      assert.equal(await num(page, 'monthly-limit'), limits.monthlyCredits);
      assert.equal(await num(page, 'monthly-remaining'), limits.monthlyCredits - usage.monthlyUsed);
      assert.equal(await byId(page, 'daily-bar').getAttribute('aria-valuenow'), String(usage.dailyUsed));
      assert.equal(await byId(page, 'daily-bar').getAttribute('aria-valuemax'), String(limits.dailyCredits));
      assert.match(await text(page, 'daily-reset'), /resets in \d+ (h|min)|resets now/);
      const periodEnd = new Date(usage.currentPeriodEnd).toLocaleString('en-US', {
        day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC',
      });
      assert.ok((await text(page, 'monthly-reset')).includes(`resets ${periodEnd}`), await text(page, 'monthly-reset'));
      // Saved: the input is cleared, the key shown masked, and only there.
      assert.equal(await page.getByRole('textbox', { name: 'API key', exact: true }).inputValue(), '');
      assert.ok(await page.getByRole('button', { name: 'Remove key', exact: true }).isVisible());
      const mask = await text(page, 'key-mask');
      assert.match(mask, /^•+/);
      assert.ok(key.endsWith(mask.replace(/•/g, '')));
      const html = await page.content();
      for (const k of ALL_KEYS) assert.ok(!html.includes(k), `${k} in the DOM`);
      const store = await storageDump(page);
      assert.equal(store.local['crypto-addin:apiKey'], key);
    }
    await shot(page, 'plan-and-credits.png', ['key-section', 'plan-section']);
  });

  test('an unknown key, an inactive subscription and a network failure each say what went wrong', async () => {
    const { page } = await openPane();
    const invalid = await saveKey(page, UNKNOWN_KEY);
    assert.equal(invalid.tone, 'error');
    assert.match(invalid.text, /Invalid API key/);
    assert.match(invalid.text, /not saved/);
    assert.equal((await storageDump(page)).local['crypto-addin:apiKey'], undefined, 'a rejected key is not kept');
    assert.equal(await page.getByRole('button', { name: 'Remove key', exact: true }).count(), 0);
    await shot(page, 'error-invalid-key.png', ['key-section', 'plan-section']);

    const inactive = await saveKey(page, 'demo-inactive');
    assert.match(inactive.text, /No active subscription/);
    assert.equal(inactive.tone, 'warning');
    await until('plan panel error', async () => /No active subscription/.test(await text(page, 'plan-message')));
    assert.ok(await byId(page, 'plan-body').isHidden());

    // The API base pointing at a closed port.
    const port = await freePort();
    await page.locator('summary', { hasText: 'Advanced' }).click();
    await page.getByRole('textbox', { name: 'API base URL' }).fill(`http://127.0.0.1:${port}`);
    await page.getByRole('button', { name: 'Apply settings' }).click();
    await page.getByRole('button', { name: 'Send my key there' }).click(); // a new host is asked about first
    await until('settings applied', async () => (await byId(page, 'settings-message').getAttribute('data-tone')) === 'success');
    assert.match(await text(page, 'custom-api'), new RegExp(`127\\.0\\.0\\.1:${port}`));
    const network = await saveKey(page, 'demo-pro');
    assert.match(network.text, /Network failure/);
    assert.match(network.text, new RegExp(`127\\.0\\.0\\.1:${port}`));

    const texts = [invalid.text, inactive.text, network.text];
    assert.equal(new Set(texts).size, 3, 'three different messages');
    assert.equal(new Set(texts.map((t) => t.split(':')[0])).size, 3, 'three different headlines');
  });

  test('the pane and the custom functions share one runtime: it sees their spending and refresh drops their cache', async () => {
    const { page } = await openPane();
    await saveKey(page, 'demo-basic');
    const before = rig.em.usage('demo-basic').requests;
    const price = await viaFunctionsBundle(page, 'PRICE', ['bitcoin', null]);
    assert.ok(typeof price === 'number' && price > 0, String(price));
    const afterFirst = rig.em.usage('demo-basic').requests;
    assert.ok(afterFirst > before, 'the formula called the API');
    const m = await meter(page);
    assert.ok(m.byCaller.PRICE && m.byCaller.PRICE.requests > 0, `the pane's meter saw the formula: ${JSON.stringify(m.byCaller)}`);
    await until('usage row', async () => (await text(page, 'usage-rows')).includes('CRYPTO.PRICE'));
    assert.equal(await viaFunctionsBundle(page, 'PRICE', ['bitcoin', null]), price);
    assert.equal(rig.em.usage('demo-basic').requests, afterFirst, 'the second call came from the shared cache');
    await page.getByRole('button', { name: 'Refresh all data', exact: true }).click();
    await until('refreshed', async () => (await text(page, 'refresh-message')) !== '');
    await viaFunctionsBundle(page, 'PRICE', ['bitcoin', null]);
    assert.ok(rig.em.usage('demo-basic').requests > afterFirst, 'refresh dropped the cache the formulas use');

    // As Excel calls a @cancelable function: with an invocation whose onCanceled the glue sets.
    const viaExcel = await page.evaluate(async () => {
      const mappings = (globalThis as unknown as { CustomFunctions: { _association: { mappings: Record<string, (...a: unknown[]) => Promise<unknown>> } } })
        .CustomFunctions._association.mappings;
      const invocation: { onCanceled?: () => void } = {};
      const value = await mappings.PRICE('ethereum', null, invocation);
      invocation.onCanceled?.(); // Excel may cancel after the fact: harmless
      return { value, hooked: typeof invocation.onCanceled === 'function' };
    });
    assert.ok(typeof viaExcel.value === 'number' && viaExcel.value > 0, JSON.stringify(viaExcel));
    assert.equal(viaExcel.hooked, true, 'the glue hooked the cancellation to the call');
  });

  test('removing the key: formulas answer #N/A saying where to add one', async () => {
    const { page } = await openPane();
    await saveKey(page, 'demo-pro');
    const ok = await evaluate(page, 'PRICE', ['bitcoin', null]);
    assert.ok(ok.ok && typeof ok.value === 'number' && ok.value > 0, JSON.stringify(ok));

    await page.getByRole('button', { name: 'Remove key', exact: true }).click();
    await until('key removed', async () => (await page.getByRole('button', { name: 'Remove key', exact: true }).count()) === 0);
    assert.match(await text(page, 'key-message'), /Key removed/);
    const store = await storageDump(page);
    assert.equal(store.local['crypto-addin:apiKey'], undefined);
    assert.equal(await page.evaluate(() => window.__cryptoAddin!.runtime.keys.getKey()), null);

    const r = await evaluate(page, 'PRICE', ['bitcoin', null]);
    assert.ok(!r.ok, 'no value without a key');
    assert.equal(r.code, '#N/A');
    assert.equal(r.apiCode, 'NO_API_KEY');
    assert.match(r.message, /No API key/);
    assert.match(r.message, /Crypto Data/, 'names where to add the key');
    await until('error log entry', async () => (await byId(page, 'errors').locator('li').count()) > 0);
    const first = await byId(page, 'errors').locator('li').first().textContent();
    assert.match(first ?? '', /CRYPTO\.PRICE/);
    // In words, not the internal code (issue #25).
    assert.match(first ?? '', /No API key/);
    assert.doesNotMatch(first ?? '', /NO_API_KEY/);
    assert.match(await text(page, 'plan-message'), /Add your API key/);
  });

  test('the workbook panel shows what the client spent, by formula, with ambiguous symbols and errors', async () => {
    const { page } = await openPane();
    await saveKey(page, 'demo-advanced');
    const before = rig.em.usage('demo-advanced');
    const symbol = ambiguousSymbol(rig.em);
    const results = [
      await evaluate(page, 'PRICE', ['bitcoin', null]),
      await evaluate(page, 'PRICE', ['ethereum', 'EUR']),
      await evaluate(page, 'PRICE', ['bitcoin', null]), // a cache hit
      await evaluate(page, 'QUOTE', [[['bitcoin'], ['ethereum']], [['price', 'marketCap']], null, null]), // from the cache
      await evaluate(page, 'PROFILE', ['bitcoin', 'rank', null]),
      await evaluate(page, 'PRICE', [symbol, null]),
    ];
    assert.ok(results.every((r) => r.ok), JSON.stringify(results.filter((r) => !r.ok)));
    const e1 = await evaluate(page, 'PRICE', ['definitely-not-a-coin-qq', null]);
    const e2 = await evaluate(page, 'PROFILE', ['bitcoin', 'not-a-field-zz', null]);
    assert.ok(!e1.ok && !e2.ok);

    let m = await meter(page);
    assert.ok(m.credits > 0 && m.cacheHits > 0, JSON.stringify(m));
    // The panel shows the meter's numbers (throttled render: compare with the meter as it is
    // at each look), and the meter matches the emulator.
    await until('usage panel', async () => {
      m = await meter(page);
      return (
        (await num(page, 'usage-credits')) === m.credits &&
        (await num(page, 'usage-requests')) === m.requests &&
        (await num(page, 'usage-cache')) === m.cacheHits &&
        (await num(page, 'usage-shared')) === m.sharedCalls &&
        (await byId(page, 'usage-rows').locator('tr').count()) === Object.keys(m.byCaller).length
      );
    });
    const spentOnServer = rig.em.usage('demo-advanced').dailyUsed - before.dailyUsed;
    assert.equal(m.credits, spentOnServer, 'the client counted what the API charged');
    assert.equal(await num(page, 'usage-cache'), m.cacheHits);
    assert.equal(await num(page, 'usage-shared'), m.sharedCalls);
    const rows = await byId(page, 'usage-rows').locator('tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.children).map((c) => (c.textContent ?? '').trim())),
    );
    const expected = Object.entries(m.byCaller).map(([caller, u]) => [caller, u.requests, u.credits] as const);
    assert.equal(rows.length, expected.length, JSON.stringify({ rows, expected }));
    for (const [caller, requests, credits] of expected) {
      const label = caller === 'client' ? 'Add-in (plan check, coin list)' : `CRYPTO.${caller}`;
      const row = rows.find((r) => r[0] === label);
      assert.ok(row, `row for ${label} in ${JSON.stringify(rows)}`);
      assert.deepEqual([Number(row[1].replace(/\D/g, '')), Number(row[2].replace(/\D/g, ''))], [requests, credits], label);
    }
    assert.ok(rows.some((r) => r[0] === 'CRYPTO.PRICE') && rows.some((r) => r[0] === 'CRYPTO.PROFILE'), JSON.stringify(rows));

    // Plan and credits follow (status is free: reading it changes nothing on the server).
    await until('plan panel after the formulas', async () => (await num(page, 'daily-used')) === rig.em.usage('demo-advanced').dailyUsed, 8_000);
    const afterRefresh = rig.em.usage('demo-advanced');
    await new Promise((r) => setTimeout(r, 2_500));
    assert.equal(rig.em.usage('demo-advanced').dailyUsed, afterRefresh.dailyUsed, 'refreshing the plan spent no credits');

    // Ambiguous symbol: listed with the coin chosen.
    const amb = await page.evaluate(() => window.__cryptoAddin!.runtime.client.ambiguities.map((a) => ({ input: a.input, name: a.chosen.name })));
    assert.ok(amb.some((a) => a.input.toUpperCase() === symbol), JSON.stringify(amb));
    const ambText = await text(page, 'ambiguities');
    assert.match(ambText, new RegExp(`"${symbol}" is `, 'i'));
    assert.ok(ambText.includes(amb.find((a) => a.input.toUpperCase() === symbol)!.name));

    // Error log: newest first, with formula, the error in words and the message.
    const errors = await page.evaluate(() => window.__cryptoAddin!.runtime.host.errors().map((e) => ({ ...e })));
    assert.ok(errors.length >= 2);
    const items = await byId(page, 'errors').locator('li').allTextContents();
    assert.equal(items.length, errors.length);
    assert.match(items[0], /CRYPTO\.PROFILE/, 'newest first');
    assert.match(items[1], /CRYPTO\.PRICE/);
    assert.ok(items[0].includes(errorWords(errors[0].code)) && items[0].includes(errors[0].message));
    assert.match(items[1], /Unknown coin/);
    const kinds = await byId(page, 'errors').locator('.code').allTextContents();
    assert.ok(kinds.length === items.length && !kinds.some((k) => /_/.test(k)), `in words, not codes: ${kinds.join(' | ')}`);
    assert.match(items[0], /\d\d:\d\d:\d\d/);
    await shot(page, 'usage.png', ['usage-section']);
  });

  test('refresh: the cost is shown first, the cache is dropped and Excel is asked for a full recalculation', async () => {
    const { page, excel } = await openPane({ excel: true });
    assert.ok(excel);
    assert.ok(await byId(page, 'host-note').isHidden(), 'inside (mocked) Excel there is no outside-Excel note');
    await saveKey(page, 'demo-pro');
    // Spend more than a few credits.
    for (const coin of ['bitcoin', 'ethereum']) assert.ok((await evaluate(page, 'PRICE', [coin, 'EUR'])).ok);
    let spent = (await meter(page)).credits;
    for (let i = 0; spent <= 5 && i < 10; i++) {
      await evaluate(page, 'PROFILE', [String(10 + i), null, null]);
      spent = (await meter(page)).credits;
    }
    assert.ok(spent > 5, `spent ${spent}`);
    const requestsBefore = rig.em.usage('demo-pro').requests;
    assert.ok((await evaluate(page, 'PRICE', ['bitcoin', 'EUR'])).ok);
    assert.equal(rig.em.usage('demo-pro').requests, requestsBefore, 'a fresh price comes from the cache');

    // Confirm step, with the estimate from the meter; Cancel changes nothing.
    await page.getByRole('button', { name: 'Refresh all data', exact: true }).click();
    const confirm = byId(page, 'refresh-confirm');
    await confirm.waitFor({ state: 'visible' });
    const estimateText = await text(page, 'refresh-confirm-text');
    assert.match(estimateText, new RegExp(`about ${spent.toLocaleString('en-US')} credits`));
    assert.match(estimateText, /since the workbook opened/);
    await shot(page, 'refresh-confirm.png', ['refresh-section']);
    assert.equal(excel.calls.length, 0, 'nothing recalculated before confirming');
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.ok(await confirm.isHidden());
    assert.ok((await evaluate(page, 'PRICE', ['bitcoin', 'EUR'])).ok);
    assert.equal(rig.em.usage('demo-pro').requests, requestsBefore, 'cancelled: the cache is still there');
    assert.equal(excel.calls.length, 0);

    await page.getByRole('button', { name: 'Refresh all data', exact: true }).click();
    await page.getByRole('button', { name: 'Refresh anyway' }).click();
    await until('refresh message', async () => (await byId(page, 'refresh-message').getAttribute('data-tone')) === 'success');
    assert.deepEqual(
      excel.calls.map((c) => [c.api, ...c.args]),
      [['Application.calculate', 'Full'], ['sync']],
      'a full recalculation through the Excel API',
    );
    assert.match(await text(page, 'refresh-message'), /recalculating/);
    // The recalculation runs the formulas again: they call the API again.
    assert.ok((await evaluate(page, 'PRICE', ['bitcoin', 'EUR'])).ok);
    assert.ok(rig.em.usage('demo-pro').requests > requestsBefore, 'after the refresh the API is called again');

    // Refresh active sheet: what was spent since the refresh is small: no confirm step.
    await page.getByRole('button', { name: 'Refresh active sheet', exact: true }).click();
    await until('sheet recalculated', () => excel.calls.length === 4);
    assert.deepEqual(excel.calls.slice(2).map((c) => [c.api, ...c.args]), [['Worksheet.calculate', true], ['sync']]);
    assert.ok(await confirm.isHidden());
    const requestsAfterSheet = rig.em.usage('demo-pro').requests;
    assert.ok((await evaluate(page, 'PRICE', ['bitcoin', 'EUR'])).ok);
    assert.ok(rig.em.usage('demo-pro').requests > requestsAfterSheet, 'the sheet refresh dropped the cache too');
  });

  test('outside Excel, refresh clears the cache and says nothing was recalculated', async () => {
    const { page } = await openPane();
    await saveKey(page, 'demo-basic');
    assert.ok((await evaluate(page, 'PRICE', ['bitcoin', null])).ok);
    const requests = rig.em.usage('demo-basic').requests;
    await page.getByRole('button', { name: 'Refresh all data', exact: true }).click();
    // A price costs a credit or two: below the confirm threshold.
    await until('refresh message', async () => (await text(page, 'refresh-message')) !== '');
    assert.match(await text(page, 'refresh-message'), /Not running inside Excel/);
    assert.ok((await evaluate(page, 'PRICE', ['bitcoin', null])).ok);
    assert.ok(rig.em.usage('demo-basic').requests > requests);
  });

  test('settings: currency, freshness, budget and base URL are saved and applied to a new client', async () => {
    const { page } = await openPane();
    await saveKey(page, 'demo-sandbox');
    await page.evaluate(() => {
      (window as unknown as { __oldClient: unknown }).__oldClient = window.__cryptoAddin!.runtime.client;
    });
    // The form's choices and limits are the settings rules', not the page's own copy.
    const { min, max } = SETTINGS_RULES.liveFreshnessSeconds;
    assert.deepEqual(await byId(page, 'set-currency').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)), [...SETTINGS_RULES.currencies]);
    assert.deepEqual([await byId(page, 'set-fresh').getAttribute('min'), await byId(page, 'set-fresh').getAttribute('max')], [String(min), String(max)]);
    assert.match(await text(page, 'set-fresh-hint'), new RegExp(`\\(${min} to ${max}\\)`));
    // Invalid values are refused with a message on the field.
    await page.getByRole('spinbutton', { name: 'Live prices fresh for (seconds)' }).fill('5');
    await page.getByRole('button', { name: 'Apply settings' }).click();
    assert.match(await text(page, 'set-fresh-error'), /15 to 3600/);
    assert.equal(await byId(page, 'set-fresh').getAttribute('aria-invalid'), 'true');
    assert.equal((await storageDump(page)).local['crypto-addin:settings'], undefined, 'nothing saved');

    await page.getByRole('combobox', { name: 'Default currency' }).selectOption('EUR');
    await page.getByRole('spinbutton', { name: 'Live prices fresh for (seconds)' }).fill('120');
    await page.getByRole('spinbutton', { name: 'Daily credit budget' }).fill('2');
    await page.locator('summary', { hasText: 'Advanced' }).click();
    const base = page.getByRole('textbox', { name: 'API base URL' });
    assert.equal(await base.inputValue(), rig.server.url, 'development build: the local API server, through the page origin');
    assert.match(await text(page, 'set-base-hint'), /Development build/);
    await page.getByRole('button', { name: 'Apply settings' }).click();
    await until('settings applied', async () => (await byId(page, 'settings-message').getAttribute('data-tone')) === 'success');
    assert.equal(await byId(page, 'set-fresh').getAttribute('aria-invalid'), null);
    await shot(page, 'settings.png', ['settings-section']);

    const saved = JSON.parse((await storageDump(page)).local['crypto-addin:settings']);
    assert.deepEqual(saved, { defaultCurrency: 'EUR', liveFreshnessSeconds: 120, dailyCreditBudget: 2, apiBaseUrl: rig.server.url });
    const rt = await page.evaluate(() => {
      const r = window.__cryptoAddin!.runtime;
      return {
        settings: r.settings,
        hostCurrency: r.host.settings.defaultCurrency,
        newClient: r.client !== (window as unknown as { __oldClient: unknown }).__oldClient,
      };
    });
    assert.deepEqual(rt.settings, saved);
    assert.equal(rt.hostCurrency, 'EUR');
    assert.ok(rt.newClient, 'applySettings built a new client');

    // The pane follows the new client's meter, and the budget stops the formulas.
    const results: EvalResult[] = [];
    for (const coin of ['bitcoin', 'ethereum', 'tether', 'solana', '5', '6', '7']) {
      results.push(await evaluate(page, 'PROFILE', [coin, 'rank', null]));
    }
    const stopped = results.find((r) => !r.ok && r.apiCode === 'BUDGET_EXCEEDED');
    assert.ok(stopped && !stopped.ok, JSON.stringify(results));
    assert.match(stopped.message, /budget/i);
    const m = await meter(page);
    assert.ok(m.credits <= 2, `spent ${m.credits} with a budget of 2`);
    await until('usage panel follows the new meter', async () => (await num(page, 'usage-requests')) === m.requests && m.requests > 0);
    await until('budget line', async () => /Daily budget: \d+ of 2 credits/.test(await text(page, 'usage-budget')));
    // The budget line matches from the first render; the error is logged and rendered (throttled) a moment later.
    await until('budget error in the list', async () => /Daily credit budget reached/.test(await text(page, 'errors')));
  });

  test('a new API host is asked about in the pane before the key is sent there; nothing is saved or sent until the user agrees', async () => {
    const { page } = await openPane();
    await saveKey(page, 'demo-sandbox');
    const other = 'https://api.example.test';
    await page.locator('summary', { hasText: 'Advanced' }).click();
    await page.getByRole('textbox', { name: 'API base URL' }).fill(other);
    await page.getByRole('button', { name: 'Apply settings' }).click();
    await until('the question', async () => !(await byId(page, 'host-consent').isHidden()));
    assert.match(await text(page, 'host-consent-text'), /Your API key will be sent to api\.example\.test/);
    assert.equal((await storageDump(page)).local['crypto-addin:settings'], undefined, 'nothing saved while asking');
    // Cancel: nothing saved, the client still asks the local server.
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await byId(page, 'host-consent').isHidden(), true);
    assert.match(await text(page, 'settings-message'), /not saved/);
    assert.equal((await storageDump(page)).local['crypto-addin:settings'], undefined);
    // Agreed: saved, and the pane says a custom address is in use.
    await page.getByRole('button', { name: 'Apply settings' }).click();
    await until('asked again', async () => !(await byId(page, 'host-consent').isHidden()));
    await page.getByRole('button', { name: 'Send my key there' }).click();
    await until('settings applied', async () => (await byId(page, 'settings-message').getAttribute('data-tone')) === 'success');
    assert.equal(JSON.parse((await storageDump(page)).local['crypto-addin:settings']).apiBaseUrl, other);
    assert.match(await text(page, 'custom-api'), /custom API address: api\.example\.test/);
    // The same address again is not asked about; back to the default is not either.
    await page.evaluate(() => void (document.getElementById('settings-message')!.textContent = ''));
    await page.getByRole('button', { name: 'Apply settings' }).click();
    await until('applied again', async () => /saved/.test(await text(page, 'settings-message')));
    assert.equal(await byId(page, 'host-consent').isHidden(), true);
    await page.getByRole('textbox', { name: 'API base URL' }).fill('');
    await page.getByRole('button', { name: 'Apply settings' }).click();
    await until('back to the default', async () => JSON.parse((await storageDump(page)).local['crypto-addin:settings']).apiBaseUrl === rig.server.url);
    assert.equal(await byId(page, 'host-consent').isHidden(), true);
  });

  test("the theme follows Office's where Office reports one (Colorful light, Black dark), the system's otherwise", async () => {
    const theme = async (page: Page) => {
      await until('theme', async () => (await page.evaluate(() => document.documentElement.dataset.themeSource)) !== undefined);
      const source = async () => page.evaluate(() => document.documentElement.dataset.themeSource);
      // Office's theme is read once Office.onReady has answered.
      await until('theme settled', async () => (await source()) === 'office' || !(await page.evaluate(() => Boolean(window.__officeTheme))));
      return page.evaluate(() => ({
        name: document.documentElement.dataset.theme,
        source: document.documentElement.dataset.themeSource,
        bg: getComputedStyle(document.body).backgroundColor,
      }));
    };
    const cases = [
      { opts: { colorScheme: 'light' }, want: { name: 'light', source: 'system', bg: 'rgb(255, 255, 255)' } },
      { opts: { colorScheme: 'dark' }, want: { name: 'dark', source: 'system', bg: 'rgb(41, 41, 41)' } },
      { opts: { colorScheme: 'light', officeTheme: OFFICE_BLACK }, want: { name: 'dark', source: 'office', bg: 'rgb(41, 41, 41)' } },
      { opts: { colorScheme: 'dark', officeTheme: OFFICE_COLORFUL }, want: { name: 'light', source: 'office', bg: 'rgb(255, 255, 255)' } },
    ] as const;
    for (const c of cases) {
      const { page } = await openPane(c.opts);
      assert.deepEqual(await theme(page), c.want, JSON.stringify(c.opts));
      await page.context().close();
    }
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme} theme at 320 px: every text meets WCAG AA contrast, nothing overflows`, async () => {
      const { page } = await openPane({ width: 320, colorScheme: scheme });
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
      // Every kind of content: a saved key and plan, messages of each tone, a field error,
      // the refresh confirmation, usage rows, an ambiguity and errors in the log.
      await saveKey(page, UNKNOWN_KEY); // error tone
      await saveKey(page, 'demo-pro'); // success tone
      assert.ok((await evaluate(page, 'PRICE', ['bitcoin', null])).ok);
      await evaluate(page, 'PRICE', ['a-very-long-coin-name-that-does-not-exist-anywhere-in-the-market-list', null]);
      await evaluate(page, 'PRICE', [ambiguousSymbol(rig.em), null]);
      for (let i = 0; (await meter(page)).credits <= 5 && i < 10; i++) await evaluate(page, 'PROFILE', [String(20 + i), null, null]);
      await page.getByRole('button', { name: 'Refresh all data', exact: true }).click();
      await byId(page, 'refresh-confirm').waitFor({ state: 'visible' });
      await page.locator('summary', { hasText: 'Advanced' }).click();
      await page.getByRole('spinbutton', { name: 'Live prices fresh for (seconds)' }).fill('5');
      await page.getByRole('button', { name: 'Apply settings' }).click();
      await until('field error', async () => (await text(page, 'set-fresh-error')) !== '');
      await until('usage rows', async () => (await byId(page, 'usage-rows').locator('tr').count()) > 0 && (await byId(page, 'errors').locator('li').count()) > 0);
      // The formula builder (issue #25): a field error, the formula text and its cost, the coin list open.
      await page.getByRole('combobox', { name: 'Coin', exact: true }).fill('bitcoin');
      await page.getByRole('option', { name: /^Bitcoin \(BTC\)/ }).first().click();
      await page.getByRole('combobox', { name: 'Formula', exact: true }).selectOption('OHLCV');
      await page.getByRole('textbox', { name: 'Start', exact: true }).fill('2024-02-30');
      await until('builder field error', async () => (await text(page, 'bf-start-error')) !== '');
      await page.getByRole('combobox', { name: 'Coin', exact: true }).fill('bit');
      await byId(page, 'coin-list').waitFor({ state: 'visible' });
      await page.evaluate(() => new Promise((r) => setTimeout(r, 400)));

      const samples = await textSamples(page);
      assert.ok(samples.length > 60, `text samples: ${samples.length}`);
      for (const id of ['key-message', 'plan-name', 'refresh-confirm-text', 'set-fresh-error', 'demo-banner', 'ambiguities', 'coin-list', 'builder-text']) {
        assert.ok(samples.some((s) => s.what.includes(`#${id}`)) || (await byId(page, id).isVisible()), `${id} is on screen`);
      }
      assert.deepEqual(contrastFailures(samples), [], `${scheme}: text below WCAG AA`);
      const o = await overflow(page);
      assert.equal(o.w, 320);
      assert.ok(o.scroll <= o.w, JSON.stringify(o));
      assert.deepEqual(o.wide, []);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await shot(page, `theme-${scheme}.png`, ['key-section', 'plan-section', 'refresh-section']);
    });
  }

  test('the contrast check itself fails on low-contrast text', async () => {
    const { page } = await openPane({ width: 320 });
    await page.evaluate(() => {
      const p = document.createElement('p');
      p.id = 'faint';
      p.textContent = 'Faint text';
      p.style.color = '#c8c8c8';
      document.querySelector('main')!.prepend(p);
    });
    const failures = contrastFailures(await textSamples(page));
    assert.equal(failures.length, 1, failures.join('\n'));
    assert.match(failures[0], /^p#faint "Faint text": 1\.\d\d:1/);
  });

  test('at 320 px: no horizontal overflow; named controls by role; usable from the keyboard', async () => {
    const { page } = await openPane({ width: 320 });
    // Keyboard: Tab to the key field, type, Enter saves.
    let focused = '';
    for (let i = 0; i < 15 && focused !== 'key-input'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.id ?? '');
    }
    assert.equal(focused, 'key-input', 'the key field is reachable with Tab');
    await page.keyboard.type('demo-pro');
    await page.keyboard.press('Enter');
    await until('saved by keyboard', async () => (await byId(page, 'key-message').getAttribute('data-tone')) === 'success');
    // Content that could widen the pane: a long error, tables, the advanced field.
    await evaluate(page, 'PRICE', ['a-very-long-coin-name-that-does-not-exist-anywhere-in-the-market-list', null]);
    assert.ok((await evaluate(page, 'PRICE', ['bitcoin', null])).ok);
    await page.locator('summary', { hasText: 'Advanced' }).click();
    await page.getByRole('button', { name: 'Refresh all data', exact: true }).waitFor();
    await new Promise((r) => setTimeout(r, 400));
    const o = await overflow(page);
    assert.equal(o.w, 320);
    assert.ok(o.scroll <= o.w, JSON.stringify(o));
    assert.deepEqual(o.wide, []);
    for (const name of ['Save', 'Remove key', 'Refresh all data', 'Refresh active sheet', 'Apply settings']) {
      assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);
    }
    assert.equal(await page.getByRole('textbox', { name: 'API key', exact: true }).count(), 1);
    assert.equal(await page.getByRole('progressbar', { name: 'Daily credits' }).count(), 1);
    // Focus is visible on buttons.
    await page.getByRole('button', { name: 'Refresh all data', exact: true }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.equal(outline, 'solid');
  });

  test('the key appears nowhere but its own storage entry: not the DOM, other storage, URLs or the console', async () => {
    const { page } = await openPane();
    await saveKey(page, UNKNOWN_KEY);
    await saveKey(page, 'demo-advanced');
    assert.ok((await evaluate(page, 'PRICE', ['bitcoin', null])).ok);
    await evaluate(page, 'PRICE', ['no-such-coin-for-the-log', null]);
    await new Promise((r) => setTimeout(r, 500));
    const html = await page.content();
    const store = await storageDump(page);
    for (const k of ALL_KEYS) {
      assert.ok(!html.includes(k), `${k} in the DOM`);
      for (const [name, value] of Object.entries(store.local)) {
        if (name !== 'crypto-addin:apiKey') assert.ok(!value.includes(k) && !name.includes(k), `${k} in localStorage ${name}`);
      }
      assert.ok(!JSON.stringify(store.session).includes(k), `${k} in sessionStorage`);
      assert.ok(!store.idb.join('\n').includes(k), `${k} in IndexedDB`);
      assert.ok(!store.cookies.includes(k), `${k} in a cookie`);
    }
    assert.equal(store.local['crypto-addin:apiKey'], 'demo-advanced');
    // Across every page of this run (this test runs last).
    for (const k of ALL_KEYS) {
      assert.ok(!consoleLines.some((l) => l.includes(k)), `${k} in console output`);
      assert.ok(!requestUrls.some((u) => u.includes(encodeURIComponent(k)) || u.includes(k)), `${k} in a URL`);
    }
    assert.ok(consoleLines.length > 0, 'console output was collected');
    assert.ok(requestUrls.some((u) => u.includes('/v3/')), 'requests were collected');
    assert.deepEqual(rig.pageErrors, [], 'no uncaught errors in the page');
  });
});
