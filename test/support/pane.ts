/**
 * Driving the built task pane in a browser page: its elements by id, saving a
 * key as a user does, and a formula through the shared runtime's calculation
 * host as Excel's glue calls it. Shared by the pane, builder and accessibility
 * tests.
 */
import type { Page } from 'playwright-core';
import { until } from './waiting';

export const byId = (page: Page, id: string) => page.locator(`#${id}`);
export const text = async (page: Page, id: string) => ((await byId(page, id).textContent()) ?? '').trim();

/** Type a key, press Save, wait for the outcome; returns the message and its tone. */
export async function saveKey(page: Page, key: string): Promise<{ text: string; tone: string }> {
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const msg = byId(page, 'key-message');
  await until('the key check', async () => {
    const tone = await msg.getAttribute('data-tone');
    return tone !== null && tone !== 'info';
  }, 20_000);
  return { text: (await msg.textContent()) ?? '', tone: (await msg.getAttribute('data-tone')) ?? '' };
}

export type EvalResult = { ok: true; value: unknown } | { ok: false; code: string; message: string; apiCode?: string };

/** A formula through the shared runtime's calculation host, as Excel's glue calls it: its value, or its error (which the pane's error list shows). */
export function evaluate(page: Page, id: string, args: unknown[]): Promise<EvalResult> {
  return page.evaluate(
    async ([id, args]) => {
      const rt = window.__cryptoAddin!.runtime;
      try {
        const value = await rt.host.evaluate(id, args as never[]);
        return { ok: true as const, value: JSON.parse(JSON.stringify(value)) as unknown };
      } catch (e) {
        const err = e as { code: string; message: string; apiCode?: string };
        return { ok: false as const, code: err.code, message: err.message, apiCode: err.apiCode };
      }
    },
    [id, args] as const,
  );
}
