/**
 * Issue #26's done-when in the preview, in headless Chromium through the built
 * development bundle (functions.js run by the preview's custom-functions
 * runtime): =CRYPTO.COIN("bitcoin") shows Bitcoin with a data-type icon;
 * =A1.Price equals =CRYPTO.PRICE("bitcoin"); a click opens the card with its
 * fields and CryptoRank's attribution; PRICE(A1), TOKENOMICS(A1) and OHLCV(A1)
 * take the entity as its coin; a range spills entities; and with the preview
 * advertising CustomFunctionsRuntime 1.3 the same cells show names as text
 * and no error.
 *
 *   node --import tsx --test test/preview-coin.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { PREVIEW_FILES } from '../harness/dev-build';
import { usePaneRig } from './support/pane-rig';

// The API server held at the wall-clock time the rig starts (harness/README.md).
const rig = usePaneRig({ build: { name: 'crypto-addin-preview-coin-test', files: PREVIEW_FILES }, emulator: { rpm: 5000 }, clock: 'held' });

const openPreview = (query: string): Promise<Page> => rig.openPage(`index.html?template=blank&${query}`);

async function enter(page: Page, address: string, text: string): Promise<void> {
  await page.getByRole('gridcell', { name: address, exact: true }).click();
  const bar = page.getByRole('textbox', { name: 'Formula', exact: true });
  await bar.fill(text);
  await bar.press('Enter');
}

const idle = (page: Page) => page.evaluate(() => window.__previewWorkbook!.sheet.whenIdle());
const value = (page: Page, address: string) => page.evaluate((a) => JSON.parse(JSON.stringify(window.__previewWorkbook!.sheet.value(a))), address);
const gridcell = (page: Page, address: string) => page.getByRole('gridcell', { name: address, exact: true });
const basic = (v: unknown) => (typeof v === 'object' && v !== null && 'basicValue' in v ? (v as { basicValue: unknown }).basicValue : v);

/** The sheet of the issue: the coin, its fields beside it, and formulas given the entity as their coin. */
const SHEET: [string, string][] = [
  ['A1', '=CRYPTO.COIN("bitcoin")'],
  ['B1', '=A1.Price'],
  ['C1', '=CRYPTO.PRICE("bitcoin")'],
  ['D1', '=CRYPTO.PRICE(A1)'],
  ['E1', '=CRYPTO.TOKENOMICS(A1,"circulatingSupply")'],
  ['F1', '=CRYPTO.TOKENOMICS("bitcoin","circulatingSupply")'],
  ['B2', '=A1.[Market cap]'],
  ['C2', '=CRYPTO.DATA("bitcoin","marketCap")'],
  ['D2', '=ROWS(CRYPTO.OHLCV(A1,"2024-01-01","2024-01-05","daily",0,"close"))'],
  ['A4', '=CRYPTO.COIN({"ethereum";"solana";"nosuchcoinxyz"})'],
];

async function fill(page: Page): Promise<void> {
  for (const [a, f] of SHEET) await enter(page, a, f);
  await idle(page);
}

test('runtime 1.4: COIN shows Bitcoin as a data type, A1.Price is PRICE, the entity is the coin of PRICE, TOKENOMICS and OHLCV', async () => {
  const page = await openPreview('runtime=1.4');
  await fill(page);
  const a1 = await value(page, 'A1');
  assert.equal(a1.type, 'Entity');
  assert.equal(a1.text, 'Bitcoin');
  await assert.doesNotReject(gridcell(page, 'A1').and(page.locator('td.entity')).waitFor({ timeout: 5000 }), 'the cell is drawn as a data type');
  assert.equal(await gridcell(page, 'A1').textContent(), 'Bitcoin');

  const price = await value(page, 'C1');
  assert.equal(typeof price, 'number');
  const b1 = await value(page, 'B1');
  assert.equal(b1.type, 'FormattedNumber', 'the field keeps its money format');
  assert.equal(b1.basicValue, price, '=A1.Price equals =CRYPTO.PRICE("bitcoin")');
  assert.match(await gridcell(page, 'B1').textContent() ?? '', /^\$\d{1,3}(,\d{3})*\.\d{2}$/, 'shown in dollars');
  assert.equal(basic(await value(page, 'B2')), await value(page, 'C2'), '=A1.[Market cap] equals DATA(...,"marketCap")');
  assert.equal(await value(page, 'D1'), price, 'PRICE(A1)');
  const supply = await value(page, 'F1');
  assert.equal(typeof supply, 'number');
  assert.equal(await value(page, 'E1'), supply, 'TOKENOMICS(A1)');
  assert.equal(await value(page, 'D2'), 5, 'OHLCV(A1) spills five daily rows');

  // A range spills one entity per coin; an unknown coin is its own cell's #N/A.
  assert.equal((await value(page, 'A4')).text, 'Ethereum');
  assert.equal((await value(page, 'A5')).text, 'Solana');
  const a6 = await value(page, 'A6');
  assert.equal(a6.error, '#N/A');
  assert.match(a6.message, /nosuchcoinxyz/);
  assert.deepEqual(rig.pageErrors, []);
});

test('runtime 1.4: clicking the cell opens its card: the name, the symbol, sections of fields in their formats, CryptoRank credited', async () => {
  const page = await openPreview('runtime=1.4');
  await enter(page, 'A1', '=CRYPTO.COIN("bitcoin")');
  await enter(page, 'C1', '=CRYPTO.PRICE("bitcoin")');
  await idle(page);
  await gridcell(page, 'A1').click();
  const card = page.getByRole('dialog', { name: 'Bitcoin card' });
  await card.waitFor({ timeout: 5000 });
  assert.equal(await card.getByRole('heading', { level: 2 }).textContent(), 'Bitcoin');
  assert.equal(await card.locator('.entity-subtitle').textContent(), 'BTC');
  const fields = await card.locator('dt').allTextContents();
  for (const f of ['Price', 'Change 24h', 'Market cap', 'Rank', 'Circulating supply', 'Max supply', 'ID', 'Slug', 'Last updated', 'CryptoRank page']) assert.ok(fields.includes(f), `${f} on the card`);
  const summaries = await card.locator('summary').allTextContents();
  assert.deepEqual(summaries, ['Price changes', 'Market', 'Supply', 'Coin']);
  const priceText = await card.locator('dt', { hasText: /^Price$/ }).locator('xpath=following-sibling::dd[1]').textContent();
  const price = (await value(page, 'C1')) as number;
  assert.equal(Number(priceText!.replace(/[$,]/g, '')), Math.round(price * 100) / 100, 'the price in its money format');
  assert.match(await card.locator('dt', { hasText: /^Change 24h$/ }).locator('xpath=following-sibling::dd[1]').textContent() ?? '', /^-?\d+\.\d{2}%$/);
  const provider = card.getByRole('link', { name: 'CryptoRank', exact: true });
  assert.equal(await provider.getAttribute('href'), 'https://cryptorank.io');
  assert.equal(await card.locator('.entity-provider').textContent(), 'Data from CryptoRank');
  await page.keyboard.press('Escape');
  assert.equal(await card.count(), 0, 'Escape closes the card');
  // A cell without a data type opens no card.
  await gridcell(page, 'C1').click();
  assert.equal(await page.getByRole('dialog').count(), 0);
  assert.deepEqual(rig.pageErrors, []);
});

test('runtime 1.3: the same sheet shows the names as text and no error; PRICE, TOKENOMICS and OHLCV read the name', async () => {
  const page = await openPreview('runtime=1.3');
  await fill(page);
  assert.equal(await value(page, 'A1'), 'Bitcoin');
  assert.equal(await gridcell(page, 'A1').textContent(), 'Bitcoin');
  assert.equal(await page.locator('td.entity').count(), 0, 'no data-type cells');
  assert.deepEqual([await value(page, 'A4'), await value(page, 'A5')], ['Ethereum', 'Solana']);
  const price = await value(page, 'C1');
  assert.equal(typeof price, 'number');
  assert.equal(await value(page, 'D1'), price, 'PRICE of the name');
  assert.equal(await value(page, 'E1'), await value(page, 'F1'), 'TOKENOMICS of the name');
  assert.equal(await value(page, 'D2'), 5);
  // Text has no fields: Excel's #FIELD!, as it would show for a name typed by hand.
  assert.equal((await value(page, 'B1')).error, '#FIELD!');
  for (const a of ['A1', 'C1', 'D1', 'E1', 'F1', 'D2', 'A4', 'A5']) {
    const v = await value(page, a);
    assert.ok(typeof v !== 'object' || v === null, `${a}: ${JSON.stringify(v)} is no error`);
  }
  assert.deepEqual(rig.pageErrors, []);
});
