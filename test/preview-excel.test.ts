/**
 * The preview playing different Excels (issue #27), in headless Chromium
 * through the built development bundle: functions.js and its Office edge run by
 * the preview's custom-functions runtime. ?runtime=1.4 advertises
 * CustomFunctionsRuntime 1.4 (dates reach the workbook as formatted numbers),
 * ?runtime=1.3 does not (plain serials); ?blanks=zero passes blank cells as 0
 * as older desktop builds do; ?dates=1904 puts the workbook on the 1904 system,
 * for the add-in's dates and for the preview's own DATE, YEAR... and date formats.
 *
 *   node --import tsx --test test/preview-excel.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { contentPolicy, pagePolicy } from '../scripts/content-policy';
import { PREVIEW_FILES } from '../harness/dev-build';
import { usePaneRig } from './support/pane-rig';

// The API server held at the wall-clock time the rig starts (harness/README.md).
const rig = usePaneRig({ build: { name: 'crypto-addin-preview-excel-test', files: PREVIEW_FILES }, emulator: { rpm: 5000 }, clock: 'held' });

/** The preview with the given switches; every result a call hands the workbook is recorded by cell. */
async function openPreview(query: string): Promise<Page> {
  const page = await rig.openPage(`index.html?template=blank&${query}`);
  await page.evaluate(() => {
    const host = window.__previewWorkbook!.host!;
    const delivered: Record<string, unknown> = {};
    (window as unknown as { __delivered: Record<string, unknown> }).__delivered = delivered;
    const call = host.call.bind(host);
    host.call = (req, onResult) => call(req, (grid) => {
      delivered[req.address] = JSON.parse(JSON.stringify(grid));
      onResult(grid);
    });
  });
  return page;
}

async function enter(page: Page, address: string, text: string): Promise<void> {
  await page.getByRole('gridcell', { name: address, exact: true }).click();
  const bar = page.getByRole('textbox', { name: 'Formula', exact: true });
  await bar.fill(text);
  await bar.press('Enter');
}

const idle = (page: Page) => page.evaluate(() => window.__previewWorkbook!.sheet.whenIdle());
const cell = (page: Page, address: string) => page.evaluate((a) => JSON.parse(JSON.stringify(window.__previewWorkbook!.sheet.value(a))), address);
const delivered = (page: Page, address: string) =>
  page.evaluate((a) => (window as unknown as { __delivered: Record<string, unknown> }).__delivered[a], address) as Promise<unknown[][]>;

const OHLCV = '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-02","daily",1,"date","close")';

test('advertising CustomFunctionsRuntime 1.4, OHLCV\'s date column reaches the workbook as formatted numbers', async () => {
  const page = await openPreview('runtime=1.4');
  assert.equal(await page.evaluate(() => (window.frames[0] as unknown as { Office: typeof Office }).Office.context.requirements.isSetSupported('CustomFunctionsRuntime', '1.4')), true);
  await enter(page, 'A1', OHLCV);
  await idle(page);
  const grid = await delivered(page, 'Sheet1!A1');
  assert.deepEqual(grid[0], ['Date', 'Close']);
  assert.deepEqual(grid.slice(1).map((r) => r[0]), [
    { type: 'FormattedNumber', basicValue: 45292, numberFormat: 'yyyy-mm-dd' },
    { type: 'FormattedNumber', basicValue: 45293, numberFormat: 'yyyy-mm-dd' },
  ]);
  assert.ok(grid.slice(1).every((r) => typeof r[1] === 'number'), 'prices stay plain numbers');
});

test('advertising 1.3, the same dates reach the workbook and its cells as serials', async () => {
  const page = await openPreview('runtime=1.3');
  assert.equal(await page.evaluate(() => (window.frames[0] as unknown as { Office: typeof Office }).Office.context.requirements.isSetSupported('CustomFunctionsRuntime', '1.4')), false);
  await enter(page, 'A1', OHLCV);
  await idle(page);
  assert.deepEqual((await delivered(page, 'Sheet1!A1')).slice(1).map((r) => r[0]), [45292, 45293]);
  assert.deepEqual([await cell(page, 'A2'), await cell(page, 'A3')], [45292, 45293]);
});

test('blank cells passed as 0 (older desktop builds): a blank in a column of coins is a blank row; a blank end runs to today', async () => {
  const page = await openPreview('runtime=1.3&blanks=zero');
  await enter(page, 'A1', 'bitcoin');
  await enter(page, 'A3', 'ethereum');
  await enter(page, 'B1', '=CRYPTO.QUOTE(A1:A3,"price",,0)');
  await enter(page, 'E1', '=CRYPTO.OHLCV("bitcoin","2024-01-01",D1,"monthly",0,"date")');
  await idle(page);
  assert.deepEqual(await delivered(page, 'Sheet1!B1').then((g) => g.map((r) => r.map((c) => typeof c))), [['string', 'number'], ['string', 'string'], ['string', 'number']]);
  assert.deepEqual([await cell(page, 'B1'), await cell(page, 'B2'), await cell(page, 'C2'), await cell(page, 'B3')], ['bitcoin', '', '', 'ethereum']);
  assert.equal(await cell(page, 'E1'), 45292);
  assert.ok(typeof (await cell(page, 'E13')) === 'number', 'a month a row from January 2024 on, as with the end omitted');
});

test('a workbook on the 1904 system: its date serials are read and written 1,462 days apart, the same days', async () => {
  const page = await openPreview('runtime=1.3&dates=1904');
  await enter(page, 'A1', '=CRYPTO.OHLCV("bitcoin",43830,43831,"daily",0,"date","close")');
  await idle(page);
  const in1904 = await delivered(page, 'Sheet1!A1');
  assert.deepEqual(in1904.map((r) => r[0]), [43830, 43831]);
  const plain = await openPreview('runtime=1.3');
  await enter(plain, 'A1', '=CRYPTO.OHLCV("bitcoin",45292,45293,"daily",0,"date","close")');
  await idle(plain);
  const in1900 = await delivered(plain, 'Sheet1!A1');
  assert.deepEqual(in1900.map((r) => r[0]), [45292, 45293]);
  assert.deepEqual(in1904.map((r) => r[1]), in1900.map((r) => r[1]), 'the same days\' closes');
});

const shown = async (page: Page, address: string) => (await page.getByRole('gridcell', { name: address, exact: true }).textContent())?.trim();

test('a workbook on the 1904 system: the preview\'s own DATE, YEAR and text dates compute in it, as Excel\'s follow the workbook\'s system', async () => {
  const [in1904, in1900] = await Promise.all([openPreview('dates=1904'), openPreview('dates=1900')]);
  for (const page of [in1904, in1900]) {
    await enter(page, 'A1', '=DATE(2024,1,1)');
    await enter(page, 'A2', '=YEAR(A1)');
    await enter(page, 'A3', '="2024-01-02"-A1');
    await idle(page);
  }
  assert.deepEqual([await cell(in1904, 'A1'), await cell(in1904, 'A2'), await cell(in1904, 'A3')], [43830, 2024, 1]);
  assert.deepEqual([await cell(in1900, 'A1'), await cell(in1900, 'A2'), await cell(in1900, 'A3')], [45292, 2024, 1]);
});

test('a workbook on the 1904 system: a date format shows the day its serial is there, in the grid and on a data type\'s card', async () => {
  const page = await openPreview('runtime=1.4&dates=1904');
  await enter(page, 'A1', '=DATE(2024,1,1)'); // Excel's automatic date format
  await enter(page, 'B1', '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-02","daily",0,"date")'); // the add-in's formatted dates
  await enter(page, 'C1', '=CRYPTO.COIN("bitcoin")');
  await enter(page, 'D1', '=TEXT(C1.[Last updated],"yyyy-mm-dd hh:mm")');
  await idle(page);
  assert.equal(await cell(page, 'A1'), 43830);
  assert.equal(await shown(page, 'A1'), '2024-01-01');
  assert.deepEqual(await cell(page, 'B1'), { type: 'FormattedNumber', basicValue: 43830, numberFormat: 'yyyy-mm-dd' });
  assert.deepEqual([await shown(page, 'B1'), await shown(page, 'B2')], ['2024-01-01', '2024-01-02']);
  const updated = (await cell(page, 'D1')) as string;
  assert.match(updated, /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  assert.ok(Math.abs(Number(updated.slice(0, 4)) - new Date().getUTCFullYear()) <= 1, `the coin's last update is recent, not 4 years early: ${updated}`);
  await page.getByRole('gridcell', { name: 'C1', exact: true }).click();
  const card = page.getByRole('dialog', { name: 'Bitcoin card' });
  await card.waitFor({ timeout: 5000 });
  assert.equal(await card.locator('dt', { hasText: /^Last updated$/ }).locator('xpath=following-sibling::dd[1]').textContent(), updated);
});

test('a workbook on the 1904 system: a dated CRYPTO formula asks about the same day as in the 1900 system', async () => {
  const formula = '=CRYPTO.HISTORICAL("bitcoin",DATE(2024,1,1))';
  const [in1904, in1900] = await Promise.all([openPreview('dates=1904'), openPreview('dates=1900')]);
  await enter(in1904, 'A1', formula);
  await enter(in1904, 'A2', '=CRYPTO.HISTORICAL("bitcoin","2024-01-01")');
  await enter(in1900, 'A1', formula);
  await Promise.all([idle(in1904), idle(in1900)]);
  const price = await cell(in1900, 'A1');
  assert.equal(typeof price, 'number', JSON.stringify(price));
  assert.equal(await cell(in1904, 'A1'), price, 'the price on 2024-01-01 in either system');
  assert.equal(await cell(in1904, 'A2'), price);
});

test('the development pages carry the policy with the hosts Office.js needs when the build is sideloaded into Excel', () => {
  for (const page of ['taskpane.html', 'preview-pane.html', 'index.html']) {
    const { policy, problem } = pagePolicy(readFileSync(path.join(rig.dist, page), 'utf8'));
    assert.ok(policy, `${page}: ${problem}`);
    assert.deepEqual(policy, contentPolicy({ apiOrigin: 'https://api.cryptorank.io', dev: true }), page);
    assert.ok(policy['script-src'].includes('https://appsforoffice.microsoft.com') && policy['script-src'].includes('https://ajax.aspnetcdn.com'), page);
    assert.ok(policy['connect-src'].includes('https://*.pipe.aria.microsoft.com'), page);
  }
});

test('the help pages say what a blank cell does on each kind of build, headers\' 0 included', () => {
  const ohlcv = readFileSync(path.join(rig.dist, 'help/ohlcv.html'), 'utf8');
  assert.match(ohlcv, /<h2>Blank cells<\/h2><p>An argument that points at a blank cell arrives as empty in Excel on the web and newer desktop builds, and as 0 in older desktop builds\./);
  assert.match(ohlcv, /a blank <code>headers<\/code> cell shows the header row in Excel on the web and newer desktop builds and hides it on older desktop builds/);
  const price = readFileSync(path.join(rig.dist, 'help/price.html'), 'utf8');
  assert.match(price, /<h2>Blank cells<\/h2>/);
  assert.doesNotMatch(price, /<code>headers<\/code> is the exception/, 'PRICE has no headers');
});

test('no page errors', () => {
  assert.deepEqual(rig.pageErrors, []);
});
