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
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { buildCall, builderFunctions, fieldsOf, type FunctionsJson } from '../src/taskpane/formula-builder';
import { PREVIEW_FILES } from '../harness/dev-build';
import { usePaneRig } from './support/pane-rig';
import { until as untilHolds, type Condition } from './support/waiting';

type Cell = number | string | boolean | null | { error: string; message?: string } | { type: string; basicValue: number };

// The API server held at the wall-clock time the rig starts, not the frozen
// instant: the "dated now" checks compare the page's dates with Date.now()
// (harness/README.md).
const rig = usePaneRig({ build: { name: 'crypto-addin-preview-test', files: [...PREVIEW_FILES, 'functions.json'] }, emulator: { rpm: 5000 }, clock: 'held' });

async function openPreview(query = '?template=blank'): Promise<Page> {
  return rig.openPage(`index.html${query}`, { viewport: { width: 1400, height: 1000 } });
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

/** The workbook's round trips (pane, grid, recalculation) take longer than the pane's alone. */
const until = (what: string, cond: Condition, timeoutMs = 20_000) => untilHolds(what, cond, timeoutMs);
/**
 * Data requests proxied so far: not the pane's own /v3/status reads (free), which it makes at most every 2 s
 * after the formulas spent something (plan-section.ts refreshSoon): one of those landed inside a recalculation's
 * count on a loaded machine (CI, 2026-11-27: "a recalculation sends 0 requests", 1 !== 0).
 */
const dataRequests = () => rig.server.proxiedPaths.filter((p) => p !== '/v3/status').length;

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
    assert.equal(await p.getByRole('textbox', { name: 'Start', exact: true }).getAttribute('aria-invalid'), 'true');
    await p.getByRole('button', { name: 'Insert', exact: true }).click();
    await until('the refusal', async () => /needs fixing/.test((await p.locator('#builder-message').textContent()) ?? ''));
    assert.equal(await input(page, 'D4'), '');
  });

  test('every formula the builder can produce evaluates without #VALUE! (each formula, each choice of each list)', async () => {
    const meta = JSON.parse(readFileSync(path.join(rig.dist, 'functions.json'), 'utf8')) as FunctionsJson;
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

/** A setting of the user's, as the pane keeps it (per user, on this computer). */
async function setUserSettings(page: Page, settings: Record<string, unknown>): Promise<void> {
  await page.evaluate((json) => localStorage.setItem('crypto-addin:settings', json), JSON.stringify(settings));
}

async function openRefreshOn(page: Page): Promise<void> {
  const box = pane(page).getByRole('checkbox', { name: 'Refresh when this workbook opens', exact: true });
  await box.check();
  await until('the setting saved', async () => /^On for this workbook/.test((await pane(page).locator('#open-refresh-message').textContent()) ?? ''));
}

describe('Refresh when this workbook opens', () => {
  test('with it: reopening shows fresh values without a click', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await idle(page);
    const saved = await value(page, 'A1');
    assert.equal(typeof saved, 'number');
    await openRefreshOn(page);
    rig.em.clock.advance(6 * 3_600_000); // the market moves on while the workbook is closed
    await reopen(page);
    await until('the refresh on open', async () => (await value(page, 'A1')) !== saved && typeof (await value(page, 'A1')) === 'number');
    assert.match((await pane(page).locator('#open-refresh-message').textContent()) ?? '', /Refreshed 1 CRYPTO cell when the workbook opened/);
    assert.equal(await pane(page).getByRole('checkbox', { name: 'Refresh when this workbook opens', exact: true }).isChecked(), true, 'kept in the workbook');
    assert.equal(await input(page, 'A1'), '=CRYPTO.PRICE("solana")');
  });

  test('without it: reopening shows the cached values, and nothing is called until asked', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await enter(page, 'A2', '=A1*2');
    await idle(page);
    const saved = await value(page, 'A1');
    rig.em.clock.advance(6 * 3_600_000);
    await reopen(page);
    assert.equal(await value(page, 'A1'), saved, 'the value saved with the workbook');
    assert.equal(await value(page, 'A2'), (saved as number) * 2);
    assert.equal(await started(page), 0, 'no CRYPTO function called');
    assert.equal(await page.locator('#pane').isHidden(), true, 'the add-in did not load with the workbook');
    // An edit elsewhere does not call it either (Excel recalculates only what changed).
    await enter(page, 'C1', '5');
    await idle(page);
    assert.equal(await started(page), 0);
    assert.equal(await value(page, 'A1'), saved);
    // Opened by the user, the add-in does not refresh on its own.
    await page.getByRole('button', { name: 'Open Crypto Data', exact: true }).click();
    await page.waitForSelector('#pane:not([hidden])');
    await pane(page).locator('body[data-ready="true"]').waitFor();
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await value(page, 'A1'), saved);
    assert.equal(await started(page), 0);
  });

  test('at the daily budget: it does not refresh, and says so', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await idle(page);
    const saved = await value(page, 'A1');
    await openRefreshOn(page);
    await setUserSettings(page, { dailyCreditBudget: 0 });
    rig.em.clock.advance(6 * 3_600_000);
    await reopen(page);
    const message = pane(page).locator('#open-refresh-message');
    await until('the message', async () => /^Not refreshed when the workbook opened: it would spend about \d+ credits? and your daily budget has 0 credits left/.test((await message.textContent()) ?? ''));
    assert.equal(await message.getAttribute('data-tone'), 'warning');
    assert.equal(await value(page, 'A1'), saved, 'the cached value stays');
    assert.equal(await started(page), 0);
  });
});

describe('Keep values', () => {
  test('Convert to values: no CRYPTO formula left, values kept, a recalculation sends 0 requests; Restore formulas brings every formula back, after a reopen too', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await enter(page, 'A3', '=CRYPTO.OHLCV("bitcoin","2026-01-01","2026-01-05",,,"date","close")');
    await enter(page, 'D1', '=A1*2');
    await idle(page);
    const before = { a1: await value(page, 'A1'), b5: await value(page, 'B5'), a5: await value(page, 'A5') };
    assert.equal(typeof before.b5, 'number');
    const p = pane(page);
    await p.getByRole('radio', { name: 'Whole workbook', exact: true }).check();
    await p.getByRole('button', { name: 'Convert to values', exact: true }).click();
    await until('converted', async () => /^Converted 2 CRYPTO cells in the workbook to values/.test((await p.locator('#freeze-message').textContent()) ?? ''));
    const formulas = await page.evaluate(() => {
      const out: string[] = [];
      for (const s of window.__previewWorkbook!.workbook.sheets) for (const a of s.sheet.addresses()) if (/CRYPTO\./i.test(s.sheet.input(a))) out.push(`${s.name}!${a}`);
      return out;
    });
    assert.deepEqual(formulas, [], 'no CRYPTO formula left');
    assert.equal(await value(page, 'A1'), before.a1);
    assert.equal(await value(page, 'B5'), before.b5);
    assert.equal(await input(page, 'D1'), '=A1*2', 'other formulas stay');
    const requests = dataRequests();
    const calls = await started(page);
    await page.getByRole('button', { name: 'Recalculate', exact: true }).click();
    await idle(page);
    assert.equal(dataRequests() - requests, 0, 'a recalculation sends 0 requests');
    assert.equal(await started(page), calls);

    // The formulas are kept inside the workbook: they come back after a reopen.
    await reopen(page);
    await page.getByRole('button', { name: 'Open Crypto Data', exact: true }).click();
    await pane(page).locator('body[data-ready="true"]').waitFor();
    await pane(page).getByRole('radio', { name: 'Whole workbook', exact: true }).check();
    await pane(page).getByRole('button', { name: 'Restore formulas', exact: true }).click();
    await until('restored', async () => /^Restored 2 formulas in the workbook/.test((await pane(page).locator('#freeze-message').textContent()) ?? ''));
    assert.equal(await input(page, 'A1'), '=CRYPTO.PRICE("solana")');
    assert.equal(await input(page, 'A3'), '=CRYPTO.OHLCV("bitcoin","2026-01-01","2026-01-05",,,"date","close")');
    assert.equal(await input(page, 'B5'), '', 'the spill area cleared for the formula');
    await idle(page);
    assert.equal(typeof (await value(page, 'A1')), 'number');
    assert.equal(await value(page, 'B5'), before.b5, 'the spill is back');
    assert.equal(await value(page, 'A3'), 'Date');
  });

  test('Restore formulas leaves a frozen table alone where the user has worked since: a formula typed inside its old spill is kept, and the message says so', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await enter(page, 'A3', '=CRYPTO.OHLCV("bitcoin","2026-01-01","2026-01-05",,,"date","close")');
    await idle(page);
    const p = pane(page);
    await p.getByRole('radio', { name: 'Whole workbook', exact: true }).check();
    await p.getByRole('button', { name: 'Convert to values', exact: true }).click();
    await until('converted', async () => /^Converted 2 CRYPTO cells/.test((await p.locator('#freeze-message').textContent()) ?? ''));
    await enter(page, 'B5', '=SUM(1,2)'); // inside A3's old spill, A3:B8
    await idle(page);
    await p.getByRole('button', { name: 'Restore formulas', exact: true }).click();
    const message = p.locator('#freeze-message');
    await until('restored', async () => /^Restored 1 formula in the workbook/.test((await message.textContent()) ?? ''));
    assert.match((await message.textContent()) ?? '', /Left as it is, because a formula was typed there since: Sheet1!A3\./);
    assert.equal(await message.getAttribute('data-tone'), 'warning');
    assert.equal(await input(page, 'B5'), '=SUM(1,2)', 'was: cleared with the old spill');
    assert.equal(await value(page, 'B5'), 3);
    assert.equal(await input(page, 'A1'), '=CRYPTO.PRICE("solana")', 'the other cell is restored');
    assert.equal(typeof (await value(page, 'B4')), 'number', 'the frozen values around it stay');
  });

  /**
   * The preview advertises ExcelApi 1.16 (office-shim.ts), the data types; this plays an older Excel without
   * them (no Range.valuesAsJson). The pane asks Office.context.requirements when it converts.
   */
  const withoutDataTypes = (page: Page) =>
    page.evaluate(() => {
      const req = (window.frames[0] as unknown as { Office: typeof Office }).Office.context.requirements;
      const was = req.isSetSupported.bind(req);
      req.isSetSupported = ((name: string, version?: string | number) => !(name === 'ExcelApi' && Number(version) >= 1.13) && was(name, String(version ?? '1.1'))) as typeof req.isSetSupported;
    });

  test('Convert to values keeps a COIN card as the cell\'s value (through valuesAsJson), so =A1.Price still reads it; after a reopen too; Restore formulas brings COIN back (review-features #11)', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.COIN("bitcoin")');
    await enter(page, 'B1', '=A1.Price');
    await idle(page);
    const card = (await value(page, 'A1')) as unknown as { type: string; text: string };
    assert.equal(card.type, 'Entity');
    const price = await value(page, 'B1');
    assert.ok(typeof price === 'number' || (typeof price === 'object' && price !== null && 'basicValue' in price && typeof price.basicValue === 'number'), `a price: ${JSON.stringify(price)}`);
    const p = pane(page);
    await p.getByRole('radio', { name: 'Whole workbook', exact: true }).check();
    await p.getByRole('button', { name: 'Convert to values', exact: true }).click();
    await until('converted', async () => /^Converted 1 CRYPTO cell in the workbook to values/.test((await p.locator('#freeze-message').textContent()) ?? ''));
    assert.equal(await p.locator('#freeze-message').getAttribute('data-tone'), 'success');
    assert.equal(await input(page, 'A1'), '', 'no formula in A1: it holds a value');
    assert.deepEqual(await value(page, 'A1'), card, 'the card, not #VALUE!');
    assert.equal(await input(page, 'B1'), '=A1.Price');
    assert.deepEqual(await value(page, 'B1'), price, 'A1.Price reads the frozen card');
    const requests = dataRequests();
    await page.getByRole('button', { name: 'Recalculate', exact: true }).click();
    await idle(page);
    assert.equal(dataRequests() - requests, 0, 'a recalculation sends 0 requests');
    assert.deepEqual(await value(page, 'B1'), price);

    // Saved with the workbook: shared and reopened, the card is still there.
    await reopen(page);
    assert.equal(await input(page, 'A1'), '');
    assert.deepEqual(await value(page, 'A1'), card);
    assert.deepEqual(await value(page, 'B1'), price);
    await page.getByRole('button', { name: 'Open Crypto Data', exact: true }).click();
    await pane(page).locator('body[data-ready="true"]').waitFor();
    await pane(page).getByRole('radio', { name: 'Whole workbook', exact: true }).check();
    await pane(page).getByRole('button', { name: 'Restore formulas', exact: true }).click();
    await until('restored', async () => /^Restored 1 formula in the workbook/.test((await pane(page).locator('#freeze-message').textContent()) ?? ''));
    assert.equal(await input(page, 'A1'), '=CRYPTO.COIN("bitcoin")');
    await idle(page);
    assert.equal(((await value(page, 'A1')) as unknown as { type: string }).type, 'Entity');
    assert.equal(typeof (await value(page, 'B1')), typeof price, 'A1.Price reads the live card again');
  });

  test('Restore formulas leaves a frozen COIN card alone where another card was put since: Range.values reads both "#VALUE!", the fingerprint reads valuesAsJson', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.COIN("bitcoin")');
    await enter(page, 'A2', '=CRYPTO.PRICE("solana")');
    await idle(page);
    const card = (await value(page, 'A1')) as unknown as { type: string; text: string };
    assert.equal(card.type, 'Entity');
    const p = pane(page);
    await p.getByRole('radio', { name: 'Whole workbook', exact: true }).check();
    await p.getByRole('button', { name: 'Convert to values', exact: true }).click();
    await until('converted', async () => /^Converted 2 CRYPTO cells in the workbook to values/.test((await p.locator('#freeze-message').textContent()) ?? ''));
    // Another card written over it as a value, as an add-in or a paste would (Range.valuesAsJson).
    const other = { ...card, text: 'Ethereum (mine)' };
    await page.evaluate((v) => window.__previewWorkbook!.workbook.writeJson('Sheet1', 'A1', [[v]]), other as never);
    await idle(page);
    await p.getByRole('button', { name: 'Restore formulas', exact: true }).click();
    const message = p.locator('#freeze-message');
    await until('restored', async () => /^Restored 1 formula in the workbook/.test((await message.textContent()) ?? ''));
    assert.match((await message.textContent()) ?? '', /Left as it is, because its cells were changed since .*: Sheet1!A1\./);
    assert.equal(await message.getAttribute('data-tone'), 'warning');
    assert.equal(await input(page, 'A1'), '', 'was: =CRYPTO.COIN("bitcoin") written over the newer card');
    assert.equal(((await value(page, 'A1')) as unknown as { text: string }).text, 'Ethereum (mine)');
    assert.equal(await input(page, 'A2'), '=CRYPTO.PRICE("solana")', 'the other cell is restored');
  });

  /** The record of frozen cells, as the pane keeps it in the document's settings (Office.context.document.settings). */
  const frozenRecord = (page: Page) =>
    page.evaluate(() => (window.frames[0] as unknown as { Office: typeof Office }).Office.context.document.settings.get('crypto-addin.frozen') as { cells: Record<string, unknown>[] });
  const setFrozenRecord = (page: Page, record: unknown) =>
    page.evaluate((r) => (window.frames[0] as unknown as { Office: typeof Office }).Office.context.document.settings.set('crypto-addin.frozen', r), record as never);

  test('Restore formulas finds a sheet renamed since the freeze by its Worksheet.id and says its new name; a record saved before ids restores by name', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await enter(page, 'A2', '=CRYPTO.PRICE("bitcoin")');
    await idle(page);
    const p = pane(page);
    await p.getByRole('radio', { name: 'Whole workbook', exact: true }).check();
    await p.getByRole('button', { name: 'Convert to values', exact: true }).click();
    await until('converted', async () => /^Converted 2 CRYPTO cells/.test((await p.locator('#freeze-message').textContent()) ?? ''));
    const record = await frozenRecord(page);
    const ids = record.cells.map((c) => c.sheetId);
    assert.ok(typeof ids[0] === 'string' && /^\{[0-9A-F-]+\}$/.test(ids[0]), `the shim's Worksheet.id kept beside the name: ${ids[0]}`);
    assert.equal(ids[1], ids[0], 'one sheet, one id');
    // The preview cannot rename a sheet, so the record plays it: frozen on "Prices 2025", the sheet of that id now
    // named Sheet1. A2's entry as an older version wrote it: no id, no fingerprint.
    const [a1, a2] = record.cells;
    const { sheetId: _id, fingerprint: _f, typesFingerprint: _t, ...older } = a2;
    await setFrozenRecord(page, { ...record, cells: [{ ...a1, sheet: 'Prices 2025' }, older] });
    await p.getByRole('button', { name: 'Restore formulas', exact: true }).click();
    const message = p.locator('#freeze-message');
    await until('restored', async () => /^Restored 2 formulas in the workbook/.test((await message.textContent()) ?? ''));
    assert.match((await message.textContent()) ?? '', /Restored on a sheet renamed since: Prices 2025!A1 to Sheet1!A1\./);
    assert.equal(await message.getAttribute('data-tone'), 'success');
    assert.equal(await input(page, 'A1'), '=CRYPTO.PRICE("solana")', 'was: left for good, "its sheet is not there"');
    assert.equal(await input(page, 'A2'), '=CRYPTO.PRICE("bitcoin")', 'the older record restores by name');
    assert.equal(await frozenRecord(page), null, 'nothing left in the record');
  });

  test('Without ExcelApi 1.16 a COIN card is left a formula, not overwritten by #VALUE!, and the message says so; the other cells convert', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.COIN("bitcoin")');
    await enter(page, 'A2', '=CRYPTO.PRICE("solana")');
    await enter(page, 'B1', '=A1.Price');
    await idle(page);
    const price = await value(page, 'B1');
    const solana = await value(page, 'A2');
    await withoutDataTypes(page);
    const p = pane(page);
    await p.getByRole('radio', { name: 'Whole workbook', exact: true }).check();
    await p.getByRole('button', { name: 'Convert to values', exact: true }).click();
    const message = p.locator('#freeze-message');
    await until('converted', async () => /^Converted 1 CRYPTO cell in the workbook/.test((await message.textContent()) ?? ''));
    assert.match((await message.textContent()) ?? '', /Left as a formula, because a #VALUE! read there may be a data type \(a card\).*ExcelApi 1\.16.*: Sheet1!A1\./);
    assert.equal(await message.getAttribute('data-tone'), 'warning');
    assert.equal(await input(page, 'A1'), '=CRYPTO.COIN("bitcoin")', 'was: #VALUE! written over the card');
    assert.doesNotMatch(await input(page, 'A2'), /^=/, 'PRICE converted');
    assert.deepEqual(await value(page, 'A2'), solana);
    await idle(page);
    assert.deepEqual(await value(page, 'B1'), price, 'A1.Price still reads the card');
  });

  test('Append snapshot: a dated row of the chosen cells on the Snapshots sheet, the header once', async () => {
    const page = await openPreview();
    await enter(page, 'B2', '=CRYPTO.PRICE("bitcoin")');
    await enter(page, 'B3', '=B2*2');
    await idle(page);
    const p = pane(page);
    await cellLocator(page, 'B2').click();
    await page.keyboard.press('Shift+ArrowDown');
    await p.getByRole('button', { name: 'Use selection', exact: true }).click();
    await until('the selection', async () => (await p.getByRole('textbox', { name: 'Cells to log', exact: true }).inputValue()) === 'Sheet1!B2:B3');
    for (let i = 0; i < 2; i++) {
      await p.getByRole('button', { name: 'Append snapshot', exact: true }).click();
      const want = new RegExp(`at Snapshots!A${i === 0 ? 1 : 3}:C${i === 0 ? 2 : 3}`);
      await until('the snapshot', async () => want.test((await p.locator('#snapshot-message').textContent()) ?? '')).catch(async (e: Error) => {
        throw new Error(`${e.message}: ${await p.locator('#snapshot-message').textContent()} ${await p.locator('#snapshot-error').textContent()}`);
      });
    }
    assert.equal(await value(page, 'A1', 'Snapshots'), 'Date (UTC)');
    assert.equal(await value(page, 'B1', 'Snapshots'), 'Sheet1!B2');
    assert.equal(await value(page, 'B2', 'Snapshots'), await value(page, 'B2'));
    assert.equal(await value(page, 'C3', 'Snapshots'), await value(page, 'B3'));
    const when = (await value(page, 'A3', 'Snapshots')) as number;
    assert.ok(Math.abs((when - 25569) * 86_400_000 - Date.now()) < 120_000, 'dated now, as an Excel date');
    assert.equal(await page.evaluate(() => window.__previewWorkbook!.workbook.entry('Snapshots')!.formats.A3), 'yyyy-mm-dd hh:mm');
  });
});

describe('Snapshots of saved values', () => {
  test('a snapshot taken after a reopen, before anything refreshed, says its CRYPTO cell shows the value saved with the workbook; after Refresh all data it does not', async () => {
    const page = await openPreview();
    await enter(page, 'B2', '=CRYPTO.PRICE("bitcoin")');
    await idle(page);
    await reopen(page); // Excel shows the saved value and does not call the function again
    await page.getByRole('button', { name: 'Open Crypto Data', exact: true }).click();
    const p = pane(page);
    await p.locator('body[data-ready="true"]').waitFor();
    const message = p.locator('#snapshot-message');
    await p.getByRole('textbox', { name: 'Cells to log', exact: true }).fill('Sheet1!B2');
    await p.getByRole('button', { name: 'Append snapshot', exact: true }).click();
    await until('the snapshot', async () => /^Appended a snapshot of 1 cell at Snapshots!/.test((await message.textContent()) ?? ''));
    assert.match((await message.textContent()) ?? '', /Sheet1!B2 shows the value saved with the workbook: nothing was fetched for it since the workbook opened/); // was: a plain success
    assert.equal(await message.getAttribute('data-tone'), 'warning');
    await p.getByRole('button', { name: 'Refresh all data', exact: true }).click();
    await idle(page);
    await until('an answer for B2', async () => page.evaluate(() => (document.getElementById('pane') as HTMLIFrameElement).contentWindow!.__cryptoAddin!.runtime.host.provenance.at('Sheet1!B2') !== null));
    await p.getByRole('button', { name: 'Append snapshot', exact: true }).click();
    await until('the second snapshot', async () => /^Appended a snapshot of 1 cell at Snapshots!A3/.test((await message.textContent()) ?? ''));
    assert.equal(await message.getAttribute('data-tone'), 'success');
  });
});

describe('where each number came from', () => {
  test('CRYPTO.ASOF(cell) in the sheet: when its answer was fetched, and fresh; Write log to sheet lists each answer with its cell and formula', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await enter(page, 'A3', '=CRYPTO.OHLCV("bitcoin","2026-01-01","2026-01-05")');
    await enter(page, 'H1', '=CRYPTO.ASOF(A1)');
    await enter(page, 'H2', '=CRYPTO.ASOF(C5,"status")');
    await enter(page, 'H3', '=CRYPTO.ASOF(C5,"endpoint")');
    await idle(page);
    const when = (await value(page, 'H1')) as unknown as { basicValue: number; numberFormat: string };
    assert.equal(when.numberFormat, 'yyyy-mm-dd hh:mm:ss');
    assert.ok(Math.abs((when.basicValue - 25569) * 86_400_000 - Date.now()) < 120_000, 'fetched now (the add-in\'s clock)');
    assert.equal(await value(page, 'H2'), 'fresh', 'a cell inside the spill');
    assert.equal(await value(page, 'H3'), 'candles');
    const p = pane(page);
    await p.getByRole('button', { name: 'Write log to sheet', exact: true }).click();
    await until('the log', async () => /^Wrote \d+ answers to CRYPTO log!A1:H\d+/.test((await p.locator('#log-message').textContent()) ?? ''));
    const rows = await page.evaluate(() => {
      const s = window.__previewWorkbook!.workbook.entry('CRYPTO log')!.sheet;
      const out: unknown[][] = [];
      for (let r = 1; r <= 10; r++) out.push(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((c) => JSON.parse(JSON.stringify(s.value(`${c}${r}`)))));
      return out;
    });
    assert.deepEqual(rows[0], ['Time (UTC)', 'Address', 'Formula', 'Endpoint', 'Fetched at (UTC)', 'Status', 'Credits', 'Error']);
    const price = rows.find((r) => r[1] === 'Sheet1!A1')!;
    assert.ok(price, JSON.stringify(rows));
    assert.deepEqual(price.slice(2, 4), ['=CRYPTO.PRICE("solana")', 'markets']);
    assert.equal(price[5], 'fresh');
    const ohlcv = rows.find((r) => r[1] === 'Sheet1!A3')!;
    assert.deepEqual([ohlcv[2], ohlcv[3], ohlcv[6]], ['=CRYPTO.OHLCV("bitcoin","2026-01-01","2026-01-05")', 'candles', 1]);
    assert.ok(!rows.some((r) => String(r[2]).includes('ASOF')), 'ASOF reads answers, it is not one');
  });
});

describe('the pane acts on the grid', () => {
  test('after Remove key and after Save key the CRYPTO cells show the new state without another click; the errors say it in words and go with the key', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await enter(page, 'A2', '=A1*2');
    await idle(page);
    assert.equal(typeof (await value(page, 'A1')), 'number');
    const p = pane(page);
    await p.getByRole('button', { name: 'Remove key', exact: true }).click();
    await until('#N/A without a click', async () => ((await value(page, 'A1')) as { error?: string })?.error === '#N/A');
    assert.match(((await value(page, 'A1')) as { message: string }).message, /No API key/);
    assert.equal(((await value(page, 'A2')) as { error?: string }).error, '#N/A');
    assert.match((await p.locator('#key-message').textContent()) ?? '', /The 1 CRYPTO cell now show #N\/A until you add a key/);
    await until('the error in words', async () => ((await p.locator('#errors .code').allTextContents()).includes('No API key')));
    assert.ok(!(await p.locator('#errors').textContent())!.includes('NO_API_KEY'), 'no internal code');

    await p.getByRole('textbox', { name: 'API key', exact: true }).fill('demo-pro');
    await p.getByRole('button', { name: 'Save', exact: true }).click();
    await until('a number without a click', async () => typeof (await value(page, 'A1')) === 'number');
    assert.equal(typeof (await value(page, 'A2')), 'number');
    assert.match((await p.locator('#key-message').textContent()) ?? '', /Key saved\. It works: Pro plan.*The 1 CRYPTO cell are refreshing with it\./);
    await until('the key error gone', async () => !((await p.locator('#errors .code').allTextContents()).includes('No API key')));
  });

  test('a new default currency: the pane names the cells that follow it, and the USD histories whose headers now read otherwise, with the credits, and refreshes them when asked', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await enter(page, 'A2', '=CRYPTO.PRICE("solana","USD")');
    await enter(page, 'A4', '=CRYPTO.OHLCV("bitcoin","2026-01-01","2026-01-02")');
    await enter(page, 'H1', '=CRYPTO.OHLCV("bitcoin","2026-01-01","2026-01-02",,0)');
    await idle(page);
    const usd = await value(page, 'A1');
    assert.equal(await value(page, 'E4'), 'Close');
    const candles = await value(page, 'E5');
    const p = pane(page);
    await p.getByRole('combobox', { name: 'Default currency', exact: true }).selectOption('EUR');
    await p.getByRole('button', { name: 'Apply settings', exact: true }).click();
    const note = p.locator('#currency-change-text');
    await until('the notice', async () => /^1 CRYPTO cell uses the default currency/.test((await note.textContent()) ?? ''));
    assert.equal(
      await note.textContent(),
      '1 CRYPTO cell uses the default currency and still shows USD: Sheet1!A1. ' +
        '1 CRYPTO table still has the headers of a USD workbook ("Close"; with EUR, "Close (USD)"), its USD numbers unchanged: Sheet1!A4. ' +
        'Refresh them to show EUR? That fetches them again: about 3 credits (estimated from their formulas).',
      'H1 shows no header: not named (was: A1 alone, A4 left saying "Close" in a EUR workbook)',
    );
    assert.equal(await value(page, 'A1'), usd, 'nothing changed before the user says so');
    const meter = () => page.evaluate(() => (document.getElementById('pane') as HTMLIFrameElement).contentWindow!.__cryptoAddin!.runtime.client.meter.snapshot().byEndpoint);
    assert.equal((await meter()).candles, undefined, 'the new settings\' client has fetched no candles');
    await p.getByRole('button', { name: 'Refresh these cells', exact: true }).click();
    await until('EUR', async () => typeof (await value(page, 'A1')) === 'number' && (await value(page, 'A1')) !== usd);
    await until('the header', async () => (await value(page, 'E4')) === 'Close (USD)');
    assert.equal(await value(page, 'E5'), candles, 'the same USD numbers');
    assert.equal(await value(page, 'A2'), usd, 'the cell that names USD stays');
    await idle(page);
    assert.ok(((await meter()).candles?.credits ?? 0) >= 1, 'the history was fetched again: its credit is in the estimate, not free');
  });
});

describe('no page errors', () => {
  test('none of the pages threw', () => {
    assert.deepEqual(rig.pageErrors, []);
  });
});
