/**
 * The UI tests' browser finder: an explicit TEST_BROWSER wins, a wrong one is a
 * one-line failure that says how to fix it, and without one a browser is found
 * (installed, or npm's Chromium on Linux x64) and really starts.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { BROWSER_ENV, findBrowser, launchBrowser } from '../harness/browser';

const saved = process.env[BROWSER_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[BROWSER_ENV];
  else process.env[BROWSER_ENV] = saved;
});

test('a TEST_BROWSER that does not exist fails in one line naming the variable and the way out', async () => {
  process.env[BROWSER_ENV] = '/nowhere/chrome-that-is-not-there';
  const err = await findBrowser().then(() => null, (e: Error) => e);
  assert.ok(err, 'findBrowser rejects');
  assert.doesNotMatch(err.message, /\n/);
  assert.match(err.message, /TEST_BROWSER=\/nowhere\/chrome-that-is-not-there does not exist/);
  assert.match(err.message, /set TEST_BROWSER=\/path\/to\/chrome/);
});

test('without TEST_BROWSER a browser is found and renders a page', async () => {
  delete process.env[BROWSER_ENV];
  const exe = await findBrowser();
  process.env[BROWSER_ENV] = exe;
  assert.equal(await findBrowser(), exe, 'an explicit TEST_BROWSER is used as given');
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setContent('<p id="x">2 + 3 = <span></span></p><script>document.querySelector("span").textContent = 2 + 3</script>');
    assert.equal(await page.textContent('#x'), '2 + 3 = 5');
  } finally {
    await browser.close();
  }
});
