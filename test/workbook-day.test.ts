/**
 * Issue #25, the workbook's day, in the preview workbook (npm start's page)
 * in headless Chromium through the built development bundle: the task pane
 * acts on the grid through the preview's Excel shim, against an emulator in
 * this process.
 *
 * - Insert formula: "sol" in Coin, Solana, OHLCV from 2024-01-01, Insert:
 *   a working OHLCV in the active cell; the cost shown is what it spends;
 *   every formula the builder can produce evaluates without #VALUE!.
 * - Refresh when this workbook opens: a reopen with it refreshes without a
 *   click, without it shows the cached values, at the budget says so.
 * - Convert to values / Restore formulas; Append snapshot; Write log to sheet.
 * - Remove key and Save key recalculate the CRYPTO cells.
 *
 *   node --import tsx --test test/workbook-day.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../src/emulator/server';
import { buildCall, builderFunctions, fieldsOf, type FunctionsJson } from '../src/taskpane/formula-builder';
import { launchBrowser } from './support/browser';
import { developmentBuild } from './support/dev-build';
import { startPaneServer, type PaneServer } from './support/pane-server';

type Cell = number | string | boolean | null | { error: string; message?: string } | { type: string; basicValue: number };

let em: Emulator;
let server: PaneServer;
let browser: Browser;
let dist: string;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

before(async () => {
  dist = await developmentBuild('crypto-addin-preview-test', ['index.html', 'preview.js', 'preview-host.js', 'preview-pane.html', 'functions.js', 'functions.json']);
  em = await startEmulator({ now: Date.now(), rpm: 5000 });
  server = await startPaneServer({ apiTarget: em.url, distDir: dist });
  browser = await launchBrowser();
});

after(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
  await em?.close();
});

async function openPreview(query = '?template=blank', settings?: Record<string, unknown>): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'en-US', timezoneId: 'UTC' });
  contexts.push(context);
  if (settings) await context.addInitScript((json) => localStorage.setItem('crypto-addin:settings', json), JSON.stringify(settings));
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${server.url}/index.html${query}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return page;
}

const pane = (page: Page): FrameLocator => page.frameLocator('#pane');
const cellLocator = (page: Page, address: string) => page.getByRole('gridcell', { name: address, exact: true });

async function enter(page: Page, address: string, text: string): Promise<void> {
  await cellLocator(page, address).click();
  const bar = page.getByRole('textbox', { name: 'Formula', exact: true });
  await bar.fill(text);
  await bar.press('Enter');
}

const idle = (page: Page) => page.evaluate(() => window.__previewWorkbook!.workbook.whenIdle());

/** A cell of the first sheet (or another), as the workbook holds it. */
function value(page: Page, address: string, sheet = 'Sheet1'): Promise<Cell> {
  return page.evaluate(([a, s]) => JSON.parse(JSON.stringify(window.__previewWorkbook!.workbook.entry(s)!.sheet.value(a))) as never, [address, sheet] as const);
}
function input(page: Page, address: string, sheet = 'Sheet1'): Promise<string> {
  return page.evaluate(([a, s]) => window.__previewWorkbook!.workbook.entry(s)!.sheet.input(a), [address, sheet] as const);
}
/** Calls the workbook started on its CRYPTO functions so far (all sheets). */
const started = (page: Page) => page.evaluate(() => window.__previewWorkbook!.workbook.sheets.reduce((n, s) => n + s.calls.stats().started, 0));
/** Credits the shared runtime's client has spent. */
const credits = (page: Page) => page.evaluate(() => (document.getElementById('pane') as HTMLIFrameElement).contentWindow!.__cryptoAddin!.runtime.client.meter.snapshot().credits);
const isNumber = (v: Cell) => typeof v === 'number' || (typeof v === 'object' && v !== null && 'basicValue' in v);

async function until(what: string, cond: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** "Reopen workbook": saved and opened again, as Excel opens a saved file. */
async function reopen(page: Page): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Reopen workbook', exact: true }).click()]);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
}

describe('Insert formula', () => {
  test('"sol" in Coin, Solana, OHLCV from 2024-01-01, Insert: a working OHLCV for Solana in the active cell, costing what the pane said', async () => {
    const page = await openPreview();
    await cellLocator(page, 'B2').click();
    const p = pane(page);
    const coin = p.getByRole('combobox', { name: 'Coin', exact: true });
    await coin.fill('sol');
    const solana = p.getByRole('option', { name: /^Solana \(SOL\), solana, rank \d+$/ });
    await solana.waitFor();
    const options = await p.getByRole('option').allTextContents();
    assert.ok(options.length >= 2, `several candidates for "sol": ${options.join(' | ')}`);
    assert.match(options[0], /^Solana \(SOL\)/, 'the exact symbol, best ranked, first');
    await solana.click();
    await p.getByRole('combobox', { name: 'Formula', exact: true }).selectOption('OHLCV');
    await p.getByRole('textbox', { name: 'Start', exact: true }).fill('2024-01-01');
    const text = p.locator('#builder-text');
    await until('the formula text', async () => (await text.textContent()) === '=CRYPTO.OHLCV("solana","2024-01-01")');
    const cost = p.locator('#builder-cost');
    await until('the cost', async () => /^Costs \d+ credits? when fetched/.test((await cost.textContent()) ?? ''));
    const shown = Number((await cost.getAttribute('data-credits')) ?? 'NaN');
    assert.ok(shown > 1, `${shown} credits for two years of daily candles`);

    const before = await credits(page);
    await p.getByRole('button', { name: 'Insert', exact: true }).click();
    await until('the insert', async () => /Inserted into Sheet1!B2/.test((await p.locator('#builder-message').textContent()) ?? ''));
    assert.equal(await input(page, 'B2'), '=CRYPTO.OHLCV("solana","2024-01-01")');
    await idle(page);
    assert.equal(await value(page, 'B2'), 'Date');
    assert.equal(await value(page, 'C2'), 'Open');
    const firstDay = await value(page, 'B3');
    assert.ok(isNumber(firstDay), JSON.stringify(firstDay));
    assert.ok(isNumber(await value(page, 'F3')), 'a close price');
    assert.equal((await credits(page)) - before, shown, 'the credits the formula spent are the ones shown');
  });

  test('a wrong argument is marked on its field with the formula\'s own message, and Insert writes nothing', async () => {
    const page = await openPreview();
    await cellLocator(page, 'D4').click();
    const p = pane(page);
    await p.getByRole('combobox', { name: 'Coin', exact: true }).fill('bitcoin');
    await p.getByRole('option', { name: /^Bitcoin \(BTC\)/ }).first().click();
    await p.getByRole('combobox', { name: 'Formula', exact: true }).selectOption('OHLCV');
    await p.getByRole('textbox', { name: 'Start', exact: true }).fill('2024-02-30');
    await until('the field error', async () => /start is not a date that exists/.test((await p.locator('#bf-start-error').textContent()) ?? ''));
    assert.equal(await p.getByRole('textbox', { name: 'Start', exact: true }).getAttribute('aria-invalid'), '');
    await p.getByRole('button', { name: 'Insert', exact: true }).click();
    await until('the refusal', async () => /needs fixing/.test((await p.locator('#builder-message').textContent()) ?? ''));
    assert.equal(await input(page, 'D4'), '');
  });

  test('every formula the builder can produce evaluates without #VALUE! (each formula, each choice of each list)', async () => {
    const meta = JSON.parse(readFileSync(path.join(dist, 'functions.json'), 'utf8')) as FunctionsJson;
    const coin = { id: 5663, slug: 'solana', symbol: 'SOL', name: 'Solana' };
    const formulas = new Set<string>();
    for (const fn of builderFunctions(meta)) {
      const fields = fieldsOf(fn, meta);
      const base: Record<string, string> = Object.fromEntries(fields.map((f) => [f.name, f.required ? f.example : '']));
      if (fields.some((f) => f.kind === 'coins') && fn.id === 'CORREL') base.coins = 'bitcoin';
      const add = (v: Record<string, string | string[]>) => {
        const b = buildCall(fn, fields, v, coin);
        assert.deepEqual(b.errors, {}, `${fn.id}: ${JSON.stringify(v)}`);
        formulas.add(b.text);
      };
      add(base);
      // Every optional field with its example, and every choice of every list.
      add({ ...base, ...Object.fromEntries(fields.filter((f) => !f.required && f.example).map((f) => [f.name, f.example])) });
      for (const f of fields) {
        for (const c of f.choices) add({ ...base, [f.name]: f.kind === 'multi' ? [c.value] : c.value });
      }
    }
    assert.ok(formulas.size > 150, `${formulas.size} formulas`);
    const page = await openPreview();
    const list = [...formulas];
    await page.evaluate((texts) => {
      const sheet = window.__previewWorkbook!.sheet;
      // One formula a row, in column A, far enough apart for their spills (tables spill down and right).
      sheet.setInputs(Object.fromEntries(texts.map((t, i) => [`A${1 + i * 400}`, t])));
    }, list);
    await idle(page);
    const bad: string[] = [];
    for (let i = 0; i < list.length; i++) {
      const v = await value(page, `A${1 + i * 400}`);
      if (typeof v === 'object' && v !== null && 'error' in v && v.error === '#VALUE!') bad.push(`${list[i]}: ${v.message}`);
    }
    assert.deepEqual(bad, []);
  });
});

describe('no page errors', () => {
  test('none of the pages threw', () => {
    assert.deepEqual(pageErrors, []);
  });
});
