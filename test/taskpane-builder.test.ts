/**
 * The formula builder ("Insert formula") in the built task pane, driven in
 * headless Chromium (as test/taskpane.test.ts drives the whole pane): when its
 * fields show their errors, and the order of its formula list.
 *
 *   node --import tsx --test test/taskpane-builder.test.ts
 *
 * Errors follow the constraint-validation pattern: none before the user has
 * edited or left a field or pressed Insert or Preview result (newcomer review
 * F17). The formula list is grouped by area with <optgroup>s, in the order of
 * the help index (src/help/areas.json), PRICE first, each formula once.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { builderFunctions, type FunctionsJson } from '../src/taskpane/formula-builder';
import areas from '../src/help/areas.json';
import { byId, text } from './support/pane';
import { until } from './support/waiting';
import { usePaneRig } from './support/pane-rig';

const rig = usePaneRig({ build: { name: 'crypto-addin-builder-test', files: ['taskpane.js', 'taskpane.html', 'functions.js', 'functions.json'] } });

const coinBox = (page: Page) => page.getByRole('combobox', { name: 'Coin', exact: true });

/** The pane, as the review saw it: standalone, with the key demo-pro saved, the builder's first check done. */
async function openPane(): Promise<Page> {
  const page = await rig.openPage('taskpane.html', { viewport: { width: 350, height: 900 }, readyMs: 20_000 });
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill('demo-pro');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await until('the key saved', async () => (await byId(page, 'key-message').getAttribute('data-tone')) === 'success', 20_000);
  await until('the formula list', async () => (await byId(page, 'formula-select').locator('option').count()) > 0);
  await settle(page);
  return page;
}

/** The builder's check as the pane shows it (its own hook), once the typing pause is over. */
async function settle(page: Page) {
  await page.evaluate(() => new Promise((r) => setTimeout(r, 250)));
  return page.evaluate(async () => {
    const c = await window.__cryptoAddin!.builder.check();
    return c && { text: c.built.text, error: c.run?.error ?? null };
  });
}

/**
 * Every error text in the builder, and every control marked invalid
 * (aria-invalid="true"; a field without a problem has no such attribute).
 */
async function shownErrors(page: Page): Promise<{ errors: string[]; invalid: string[] }> {
  return page.evaluate(() => {
    const section = document.getElementById('builder-section')!;
    return {
      errors: [...section.querySelectorAll('.field-error')].map((e) => `${e.id}: ${e.textContent ?? ''}`).filter((s) => !s.endsWith(': ')),
      invalid: [...section.querySelectorAll('[aria-invalid]')].map((e) => `${e.id}=${e.getAttribute('aria-invalid')}`),
    };
  });
}

describe('formula builder in the pane', { timeout: 180_000 }, () => {
  test('on opening: no error shown and nothing marked invalid, though the coin is still missing; the coin is marked required', async () => {
    const page = await openPane();
    const check = await settle(page);
    assert.equal(await byId(page, 'formula-select').inputValue(), 'PRICE');
    assert.equal(check?.error?.field, 'coin', 'the check knows the coin is missing');
    assert.deepEqual(await shownErrors(page), { errors: [], invalid: [] });
    assert.equal(await coinBox(page).getAttribute('aria-required'), 'true');
    // A formula chosen before the coin: its own required fields are not errors either.
    await page.getByRole('combobox', { name: 'Formula', exact: true }).selectOption('OHLCV');
    await settle(page);
    assert.deepEqual(await shownErrors(page), { errors: [], invalid: [] });
    await page.context().close();
  });

  test('typing into the coin and clearing it shows the error, and marks the field invalid', async () => {
    const page = await openPane();
    await coinBox(page).fill('bit');
    await byId(page, 'coin-list').waitFor({ state: 'visible' });
    await settle(page);
    assert.deepEqual((await shownErrors(page)).errors, [], 'no error while a coin is being searched');
    await coinBox(page).fill('');
    await settle(page);
    assert.match(await text(page, 'coin-error'), /^coin is required/);
    assert.equal(await coinBox(page).getAttribute('aria-invalid'), 'true', 'marked invalid ("true": ARIA reads a bare attribute as false)');
    // A coin picked: the error is gone.
    await coinBox(page).fill('bitcoin');
    await page.getByRole('option', { name: /^Bitcoin \(BTC\)/ }).first().click();
    await settle(page);
    assert.deepEqual(await shownErrors(page), { errors: [], invalid: [] });
    await page.context().close();
  });

  test('leaving the coin empty, or with a search typed but no coin picked, shows the error', async () => {
    const page = await openPane();
    await coinBox(page).focus();
    await byId(page, 'formula-select').focus();
    await settle(page);
    assert.match(await text(page, 'coin-error'), /^coin is required/);
    await page.context().close();
    const again = await openPane();
    await coinBox(again).fill('bit');
    await byId(again, 'coin-list').waitFor({ state: 'visible' });
    await settle(again);
    assert.equal(await text(again, 'coin-error'), '', 'none while searching');
    await byId(again, 'formula-select').focus();
    await settle(again);
    assert.match(await text(again, 'coin-error'), /^coin is required/);
    await again.context().close();
  });

  test('Insert with the coin empty shows the error, focuses the coin and says why', async () => {
    const page = await openPane();
    await page.getByRole('button', { name: 'Insert', exact: true }).click();
    await until('the coin error', async () => (await text(page, 'coin-error')) !== '');
    assert.match(await text(page, 'coin-error'), /^coin is required/);
    assert.equal(await coinBox(page).getAttribute('aria-invalid'), 'true', 'marked invalid ("true": ARIA reads a bare attribute as false)');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'coin-input');
    assert.match(await text(page, 'builder-message'), /needs fixing first/);
    await page.context().close();
  });

  test('a formula\'s own required field: no error until edited or Insert; then marked invalid', async () => {
    const page = await openPane();
    await coinBox(page).fill('bitcoin');
    await page.getByRole('option', { name: /^Bitcoin \(BTC\)/ }).first().click();
    await page.getByRole('combobox', { name: 'Formula', exact: true }).selectOption('OHLCV');
    const check = await settle(page);
    assert.equal(check?.error?.field, 'start', 'the check knows the start is missing');
    assert.deepEqual(await shownErrors(page), { errors: [], invalid: [] });
    assert.equal(await page.getByRole('textbox', { name: 'Start', exact: true }).getAttribute('aria-required'), 'true');
    await page.getByRole('button', { name: 'Insert', exact: true }).click();
    await until('the start error', async () => (await text(page, 'bf-start-error')) !== '');
    assert.match(await text(page, 'bf-start-error'), /^start is required/);
    assert.equal(await byId(page, 'bf-start').getAttribute('aria-invalid'), 'true', 'marked invalid');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'bf-start');
    // Typed into: a wrong date says so as it is typed, a good one clears it.
    await page.getByRole('textbox', { name: 'Start', exact: true }).fill('2024-02-30');
    await until('the date error', async () => /not a date that exists/.test(await text(page, 'bf-start-error')));
    await page.getByRole('textbox', { name: 'Start', exact: true }).fill('2024-02-01');
    await settle(page);
    assert.deepEqual(await shownErrors(page), { errors: [], invalid: [] });
    await page.context().close();
  });

  test('the formula list: PRICE first, every formula of functions.json once (ASOF aside), grouped by area in the help index\'s order', async () => {
    const page = await openPane();
    const meta = JSON.parse(readFileSync(path.join(rig.dist, 'functions.json'), 'utf8')) as FunctionsJson;
    const list = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLOptionElement>('#formula-select option')].map((o) => ({
        id: o.value,
        group: o.parentElement instanceof HTMLOptGroupElement ? o.parentElement.label : null,
      })),
    );
    const ids = list.map((o) => o.id);
    assert.equal(ids[0], 'PRICE');
    assert.equal(new Set(ids).size, ids.length, `a formula listed twice: ${ids.join(' ')}`);
    assert.deepEqual([...ids].sort(), builderFunctions(meta).map((f) => f.id).sort());
    // The most used come first: the first group is the prices one, then history.
    assert.deepEqual(ids.slice(0, 4), ['PRICE', 'COIN', 'DATA', 'QUOTE']);
    assert.ok(ids.indexOf('OHLCV') < ids.indexOf('STATS') && ids.indexOf('MARKETS') < ids.indexOf('OHLCV'), ids.join(' '));
    const order = areas.areas.flatMap((a) => a.functions.filter((id) => ids.includes(id)).map((id) => ({ id, group: a.title })));
    assert.deepEqual(list, order, 'the help index\'s areas and order');
    await page.context().close();
  });

  test('no uncaught errors in the page', () => {
    assert.deepEqual(rig.pageErrors, []);
  });
});
