/**
 * The preview workbook (npm start's page at /) in headless Chromium, through
 * the built development bundle: functions.js and functions.json run by the
 * preview's custom-functions runtime inside the real task pane page, against
 * an emulator in this process (proxied at /v3 as the dev server proxies it).
 *
 *   node --import tsx --test test/preview.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { loadExamples } from '../scripts/formula-table';
import { calculate, type JsonCell } from '../src/cli/calculate';
import { openSession, type Session } from '../src/cli/session';
import { PLAN_LIMITS } from '../src/api/endpoints';
import { startEmulator } from '../src/emulator/server';
import { PREVIEW_FILES } from '../harness/dev-build';
import { startPaneServer } from '../harness/pane-server';
import { usePaneRig } from './support/pane-rig';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The README's screenshot is rewritten only when asked (UPDATE_SCREENSHOTS=1), as test/taskpane.test.ts does.
const SHOTS = process.env.UPDATE_SCREENSHOTS ? path.join(root, 'docs/screenshots') : path.join(os.tmpdir(), 'crypto-preview-shots');

type Cell = number | string | boolean | null | { error: string; message?: string };

// The API server held at the real time the rig starts, so a test can move the market on by advancing it (harness/README.md).
const rig = usePaneRig({ build: { name: 'crypto-addin-preview-test', files: PREVIEW_FILES }, emulator: { rpm: 5000 }, clock: 'held' });
let cli: Session;

before(async () => {
  const { em } = await rig.ready();
  cli = await openSession({ apiUrl: em.url, workbook: { formattedNumbers: true } }); // the preview plays runtime 1.4: dates arrive formatted
});

after(async () => {
  await cli?.close();
});

async function openPreview(query = '?template=blank', settings?: Record<string, unknown>, site?: string): Promise<Page> {
  return rig.openPage(`index.html${query}`, {
    site,
    // Settings a user saved earlier in the pane (kept per user, as the pane keeps them).
    prepare: async (context) => {
      if (settings) await context.addInitScript((json) => localStorage.setItem('crypto-addin:settings', json), JSON.stringify(settings));
    },
  });
}

const cellLocator = (page: Page, address: string) => page.getByRole('gridcell', { name: address, exact: true });

/** Click the cell, type into the formula bar, press Enter: as a user does. */
async function enter(page: Page, address: string, text: string): Promise<void> {
  await cellLocator(page, address).click();
  const bar = page.getByRole('textbox', { name: 'Formula', exact: true });
  await bar.fill(text);
  await bar.press('Enter');
}

/** The page's paste, as Ctrl+V delivers it: a paste event carrying the text (the system clipboard is the browser's own). */
async function pasteText(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    document.getElementById('grid')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

async function pasteAt(page: Page, address: string, text: string): Promise<void> {
  await cellLocator(page, address).click();
  await pasteText(page, text);
}

const idle = (page: Page) => page.evaluate(() => window.__previewWorkbook!.sheet.whenIdle());

async function values(page: Page, anchor: string, rows: number, cols: number): Promise<Cell[][]> {
  return page.evaluate(
    ([anchor, rows, cols]) => {
      const { sheet } = window.__previewWorkbook!;
      const m = /^([A-Z]+)(\d+)$/.exec(anchor as string)!;
      const col0 = m[1].charCodeAt(0) - 64;
      const row0 = Number(m[2]);
      const out: unknown[][] = [];
      for (let r = 0; r < (rows as number); r++) {
        const row: unknown[] = [];
        for (let c = 0; c < (cols as number); c++) row.push(sheet.value(`${String.fromCharCode(64 + col0 + c)}${row0 + r}`));
        out.push(row);
      }
      return JSON.parse(JSON.stringify(out));
    },
    [anchor, rows, cols] as const,
  );
}

/** The CLI's cells as the workbook holds them: errors as {error, message}, "" as empty text. */
function expectedCells(v: JsonCell[][]): Cell[][] {
  return v.map((row) => row.map((c) => (typeof c === 'object' && c !== null && 'error' in c ? { error: c.error, message: c.message } : (c as Cell))));
}

describe('the page', () => {
  test('says it is a preview, not Excel; has a labelled formula bar, a grid of named cells and the task pane with the demo key saved', async () => {
    const page = await openPreview('');
    assert.match((await page.locator('#preview-notice').textContent()) ?? '', /Preview of the add-in, not Excel/);
    await page.getByRole('textbox', { name: 'Formula', exact: true }).waitFor();
    await page.getByRole('grid').waitFor();
    assert.equal(await cellLocator(page, 'B3').count(), 1);
    const pane = page.frameLocator('#pane');
    await pane.locator('#key-saved:not([hidden])').waitFor({ timeout: 20_000 });
    assert.match((await pane.locator('#key-mask').textContent()) ?? '', /^•+ro$/, 'demo-pro, masked');
    // The portfolio template opens by default, and its prices arrive.
    await idle(page);
    const [[price]] = await values(page, 'C4', 1, 1);
    assert.equal(typeof price, 'number');
    assert.equal(await page.locator('[aria-current="page"]').textContent(), 'Portfolio');
    // The pane's usage panel counts what the workbook's formulas spent: one runtime.
    await pane.locator('#usage-table:not([hidden])').waitFor({ timeout: 20_000 });
    assert.ok(Number((await pane.locator('#usage-requests').textContent())?.replace(/\D/g, '')) > 0);
    assert.match((await pane.locator('#usage-rows').textContent()) ?? '', /PRICE/);
  });

  test('Excel functions, references, ranges and array constants; a date shows as a date', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '2');
    await enter(page, 'A2', '3');
    await enter(page, 'A3', '=SUM(A1:A2)+INDEX({10,20},1,2)');
    await enter(page, 'B1', '=AVERAGE(A1:A2)');
    await enter(page, 'B2', '=DATE(2024,3,15)');
    await idle(page);
    assert.deepEqual(await values(page, 'A3', 1, 2), [[25, null]]);
    assert.deepEqual(await values(page, 'B1', 2, 1), [[2.5], [45366]]);
    assert.equal((await cellLocator(page, 'B2').textContent())?.trim(), '2024-03-15');
  });
});

describe('editing as in Excel', () => {
  test('typing on a selected cell starts an entry; Enter commits and moves down; Escape reverts; Delete clears; arrows move', async () => {
    const page = await openPreview();
    await cellLocator(page, 'B2').click();
    await page.keyboard.type('=1+2');
    await page.keyboard.press('Enter');
    assert.equal((await values(page, 'B2', 1, 1))[0][0], 3);
    assert.equal(await page.locator('#name-box').textContent(), 'B3', 'Enter moved down');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.getByRole('textbox', { name: 'Formula', exact: true }).inputValue(), '=1+2');
    await page.keyboard.type('9');
    await page.keyboard.press('Escape');
    assert.equal((await values(page, 'B2', 1, 1))[0][0], 3, 'Escape kept the cell');
    await page.keyboard.press('Delete');
    assert.equal((await values(page, 'B2', 1, 1))[0][0], null);
    assert.equal(await cellLocator(page, 'B2').getAttribute('aria-selected'), 'true');
  });
});

describe('templates', () => {
  test('every function in the built functions.json is registered by the built functions.js', async () => {
    const page = await openPreview();
    const ids = await page.evaluate(() => window.__previewWorkbook!.host!.functions().map((f) => f.id));
    const json = (await (await fetch(`${rig.server.url}/functions.json`)).json()) as { functions: { id: string }[] };
    assert.deepEqual([...ids].sort(), json.functions.map((f) => f.id).sort());
  });

  for (const id of ['portfolio', 'history', 'dashboard', 'unlocks']) {
    test(`the ${id} template calculates without an error cell`, async () => {
      const page = await openPreview(`?template=${id}`);
      await idle(page);
      const errors = await page.evaluate(() => {
        const { sheet } = window.__previewWorkbook!;
        return sheet.addresses().flatMap((a) => {
          const v = sheet.value(a) as { error?: string; message?: string } | null;
          return v && typeof v === 'object' && v.error ? [`${a} ${v.error} ${v.message ?? ''}`] : [];
        });
      });
      assert.deepEqual(errors, []);
      const cells = await page.evaluate(() => window.__previewWorkbook!.sheet.addresses().length);
      assert.ok(cells > 10, `${id}: ${cells} cells`);
    });
  }
});

test('the README screenshot: the portfolio template as npm start shows it, at the demo plan\'s real rate limit', async () => {
  // The suite's API server lifts the rate limits; npm start's keeps the plans' own.
  const plain = await startEmulator({ latency: 30 });
  const site = await startPaneServer({ apiTarget: plain.url, distDir: rig.dist });
  try {
    const page = await openPreview('?template=portfolio', undefined, site.url);
    await idle(page);
    await page.evaluate(() => window.__previewWorkbook!.view.select({ row: 4, col: 3 }));
    // The pane's plan and usage panel fill in after the formulas spent something.
    const pane = page.frameLocator('#pane');
    await pane.locator('#plan-body:not([hidden])').waitFor({ timeout: 20_000 });
    assert.equal((await pane.locator('#plan-rpm').textContent())?.trim(), String(PLAN_LIMITS.Pro.rateLimitPerMinute));
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'preview-portfolio.png') });
  } finally {
    await site.close();
    await plain.close();
  }
});

describe('the built bundle in cells', () => {
  test('each README formula example typed into a cell spills what the formula CLI gives for it', async () => {
    const page = await openPreview();
    const mismatches: string[] = [];
    for (const list of Object.values(loadExamples())) {
      for (const { formula } of list) {
        if (/LIVEPRICE/.test(formula)) continue; // a stream: its own test below
        await enter(page, 'A1', formula);
        await idle(page);
        const want = await calculate(cli.host, formula);
        assert.ok('value' in want, `${formula}: the CLI gives ${JSON.stringify(want)}`);
        const rows = want.value.length;
        const cols = Math.max(...want.value.map((r) => r.length));
        let got = await values(page, 'A1', rows, cols);
        let expected = expectedCells(want.value);
        // CREDITS also reports what this session spent: the page and the CLI are two sessions.
        if (/CREDITS/.test(formula)) [got, expected] = [got, expected].map((g) => g.filter((r) => !String(r[0]).startsWith('workbook')));
        if (JSON.stringify(got) !== JSON.stringify(expected)) {
          mismatches.push(`${formula}\n  got  ${JSON.stringify(got).slice(0, 300)}\n  want ${JSON.stringify(want.value).slice(0, 300)}`);
        }
      }
    }
    assert.deepEqual(mismatches, []);
  });

  test('errors from the bundle: an unknown coin is #N/A naming it, a bad argument #VALUE! naming the allowed values; a spilled date shows as its value does (no format guessed from a heading)', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("nosuchcoinxyz")');
    await enter(page, 'A2', '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-03","fortnightly")');
    await enter(page, 'A4', '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-03")');
    await idle(page);
    const [[unknown], [bad]] = (await values(page, 'A1', 2, 1)) as { error: string; message: string }[][];
    assert.equal(unknown.error, '#N/A');
    assert.match(unknown.message, /nosuchcoinxyz/);
    assert.equal(bad.error, '#VALUE!');
    assert.match(bad.message, /daily.*weekly.*monthly/);
    assert.equal(await cellLocator(page, 'A1').getAttribute('title'), `#N/A ${unknown.message}`);
    assert.equal((await cellLocator(page, 'A4').textContent())?.trim(), 'Date');
    // Excel gives a custom function's serial date no format; a formatted number (CustomFunctionsRuntime 1.4) brings its own.
    const [[date]] = await values(page, 'A5', 1, 1);
    const serial = typeof date === 'object' && date !== null && 'basicValue' in date ? (date as { basicValue: number }).basicValue : date;
    assert.equal(serial, 45292);
    assert.equal((await cellLocator(page, 'A5').textContent())?.trim(), typeof date === 'number' ? '45292' : '2024-01-01');
  });

  test('a pending call shows #BUSY!; editing an argument cancels it and the cell shows the new result', async () => {
    // An API 1.5 s away, so the first call is still pending when the argument changes.
    const slow = await startEmulator({ now: Date.now(), rpm: 5000, latency: 1500 });
    rig.server.setApiTarget(slow.url);
    try {
      const page = await openPreview();
      await enter(page, 'A1', 'bitcoin');
      await enter(page, 'B1', '=CRYPTO.OHLCV(A1,"2020-01-01","2024-12-31","daily",0,"close")');
      assert.deepEqual((await values(page, 'B1', 1, 1))[0][0], { error: '#BUSY!', message: 'Waiting for the add-in' });
      assert.equal((await cellLocator(page, 'B1').textContent())?.trim(), '#BUSY!');
      await enter(page, 'A1', 'ethereum');
      await idle(page);
      await checkEthereum(page);
    } finally {
      rig.server.setApiTarget(rig.em.url);
      await slow.close();
    }
  });

  async function checkEthereum(page: Page): Promise<void> {
    const stats = await page.evaluate(() => window.__previewWorkbook!.sheet.calls.stats());
    assert.ok(stats.canceled >= 1, `the bitcoin call was canceled: ${JSON.stringify(stats)}`);
    const want = await calculate(cli.host, '=CRYPTO.OHLCV("ethereum","2020-01-01","2024-12-31","daily",0,"close")');
    assert.ok('value' in want);
    assert.deepEqual(await values(page, 'B1', 3, 1), want.value.slice(0, 3));
  }

  test('a spill onto a typed cell shows #SPILL! with its message on hover', async () => {
    const page = await openPreview();
    await enter(page, 'A3', 'in the way');
    await enter(page, 'A1', '=CRYPTO.MARKETS(5)');
    await idle(page);
    const cell = cellLocator(page, 'A1');
    assert.equal((await cell.textContent())?.trim(), '#SPILL!');
    assert.match((await cell.getAttribute('title')) ?? '', /^#SPILL! Spill range isn't blank/);
    await enter(page, 'A3', '');
    await idle(page);
    assert.equal((await cellLocator(page, 'B2').textContent())?.trim(), 'Bitcoin');
  });

  test('LIVEPRICE updates in place while the market moves', async () => {
    // Live prices fresh for 15 s (the pane's minimum): LIVEPRICE polls that often.
    const page = await openPreview('?template=blank', { liveFreshnessSeconds: 15 });
    await enter(page, 'A1', '=CRYPTO.LIVEPRICE("bitcoin",1)');
    await page.waitForFunction(() => typeof window.__previewWorkbook!.sheet.value('A1') === 'number', null, { timeout: 20_000 });
    const first = (await values(page, 'A1', 1, 1))[0][0];
    rig.em.clock.advance(3 * 3_600_000); // the emulator's market moves on by three hours
    await page.waitForFunction((v) => {
      const now = window.__previewWorkbook!.sheet.value('A1');
      return typeof now === 'number' && now !== v;
    }, first, { timeout: 40_000 });
    assert.equal(await page.evaluate(() => window.__previewWorkbook!.sheet.calls.stats().started), 1, 'one call, updated in place');
  });
});

describe("Excel's functions around the add-in's results (issue #23)", () => {
  // Expected results from Microsoft's function pages (support.microsoft.com):
  // - NA: "When a formula refers to a cell containing #N/A, the formula returns the #N/A error value."
  // - STDEV.S: the "n-1" method, sqrt(sum((x - mean)^2) / (n - 1)); its example, ten breaking
  //   strengths 1345 ... 1299, gives 27.46391572.
  // - MAX: the largest number; a range's text and blanks are ignored.
  const STRENGTHS = [1345, 1301, 1368, 1322, 1310, 1370, 1318, 1350, 1303, 1299];
  const sampleSd = (xs: number[]) => {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  };

  test('MAX and STDEV.S over an OHLCV spill, SUM over #N/A, INDEX(NA(),1,2): as Microsoft documents them', async () => {
    const page = await openPreview();
    const ohlcv = '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-03-31","daily",0,"close")';
    await enter(page, 'A1', ohlcv);
    await enter(page, 'C1', '=MAX(A1#)');
    await enter(page, 'C2', '=STDEV.S(A1:A91)');
    await enter(page, 'C3', '=MAX(A1:A91)');
    await pasteAt(page, 'E1', STRENGTHS.join('\n'));
    await enter(page, 'C4', '=STDEV.S(E1:E10)');
    await enter(page, 'F1', '=NA()');
    await enter(page, 'F2', '5');
    await enter(page, 'C5', '=SUM(F1:F2)');
    await enter(page, 'C6', '=INDEX(NA(),1,2)');
    await enter(page, 'C7', '=AVERAGE(F1:F2)');
    await enter(page, 'C8', '=COUNT(F1:F2)');
    await idle(page);
    const want = await calculate(cli.host, ohlcv);
    assert.ok('value' in want);
    const closes = want.value.map((r) => r[0] as number);
    assert.equal(closes.length, 91);
    const [[max], [sd], [max2], [strength], [sum], [index], [avg], [count]] = await values(page, 'C1', 8, 1);
    assert.equal(max, Math.max(...closes));
    assert.equal(max2, max);
    assert.ok(Math.abs((sd as number) - sampleSd(closes)) < 1e-9 * sampleSd(closes), `STDEV.S ${sd} vs ${sampleSd(closes)}`);
    assert.equal((strength as number).toFixed(8), '27.46391572');
    assert.equal((sum as { error: string }).error, '#N/A');
    assert.equal((index as { error: string }).error, '#N/A');
    assert.equal((avg as { error: string }).error, '#N/A');
    assert.equal(count, 1, 'COUNT skips errors (COUNT page)');
  });

  test('pasting three lines of coin names fills three cells; Ctrl+D fills a formula down with its reference moved', async () => {
    const page = await openPreview();
    await cellLocator(page, 'A1').click();
    await pasteText(page, 'bitcoin\nethereum\nsolana\n');
    await enter(page, 'B1', '=CRYPTO.PRICE(A1)');
    await cellLocator(page, 'B1').click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Control+d');
    await idle(page);
    assert.deepEqual((await values(page, 'A1', 4, 1)).map((r) => r[0]), ['bitcoin', 'ethereum', 'solana', null]);
    assert.deepEqual(await page.evaluate(() => ['B2', 'B3'].map((a) => window.__previewWorkbook!.sheet.input(a))), ['=CRYPTO.PRICE(A2)', '=CRYPTO.PRICE(A3)']);
    // A new CLI session: the shared one may hold prices from before an earlier test moved the market on.
    const fresh = await openSession({ apiUrl: rig.em.url });
    after(() => fresh.close());
    for (const [i, coin] of ['bitcoin', 'ethereum', 'solana'].entries()) {
      const want = await calculate(fresh.host, `=CRYPTO.PRICE("${coin}")`);
      assert.ok('value' in want);
      assert.equal((await values(page, `B${i + 1}`, 1, 1))[0][0], want.value[0][0], coin);
    }
  });

  test("the selected error cell's message is in the status bar, without hovering", async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("nosuchcoinxyz")');
    await enter(page, 'A2', '=1/0');
    await idle(page);
    await cellLocator(page, 'A1').click();
    const message = page.getByLabel("Selected cell's error");
    assert.match((await message.textContent()) ?? '', /^A1: #N\/A .*nosuchcoinxyz/);
    await page.keyboard.press('ArrowDown');
    assert.match((await message.textContent()) ?? '', /^A2: #DIV\/0! .*divides by zero/);
    await page.keyboard.press('ArrowDown');
    assert.equal((await message.textContent())?.trim(), '');
  });

  test('General format as Excel shows it; the format buttons; a spill wider than the drawn columns; Ctrl+Right reaches it', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '2161700000000');
    await enter(page, 'A2', '362676000000');
    await enter(page, 'A3', '=1/3');
    await enter(page, 'A4', '0.1234');
    await enter(page, 'A5', '45292');
    await enter(page, 'A6', '=TODAY()');
    await enter(page, 'A8', '=SEQUENCE(1,40)');
    await idle(page);
    const text = async (a: string) => (await cellLocator(page, a).textContent())?.trim();
    assert.deepEqual([await text('A1'), await text('A2'), await text('A3')], ['2.1617E+12', '3.62676E+11', '0.333333333']);
    await cellLocator(page, 'A4').click();
    await page.getByRole('button', { name: 'Percent', exact: true }).click();
    assert.equal(await text('A4'), '12.34%');
    await cellLocator(page, 'A5').click();
    await page.getByRole('button', { name: 'Date', exact: true }).click();
    assert.equal(await text('A5'), '2024-01-01');
    await page.getByRole('button', { name: 'Number', exact: true }).click();
    assert.equal(await text('A5'), '45,292.00');
    assert.match((await text('A6')) ?? '', /^\d{4}-\d{2}-\d{2}$/, 'TODAY() shows a date, as Excel formats it');
    // Column AN (the 40th) is drawn because the spill reaches it; Ctrl+Right goes to the spill's end.
    assert.equal(await text('AN8'), '40');
    await cellLocator(page, 'A8').click();
    await page.keyboard.press('Control+ArrowRight');
    assert.equal(await page.locator('#name-box').textContent(), 'AN8');
  });
});

describe('the task pane acts on the workbook', () => {
  test('Remove key, then a recalculation: cells turn #N/A with the message', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("bitcoin")');
    await idle(page);
    assert.equal(typeof (await values(page, 'A1', 1, 1))[0][0], 'number');
    const pane = page.frameLocator('#pane');
    await pane.getByRole('button', { name: 'Remove key', exact: true }).click();
    await pane.locator('#key-saved[hidden]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Recalculate', exact: true }).click();
    await idle(page);
    const [[cell]] = await values(page, 'A1', 1, 1);
    assert.equal((cell as { error: string }).error, '#N/A');
    const title = (await cellLocator(page, 'A1').getAttribute('title')) ?? '';
    assert.match(title, /^#N\/A .*key/i);
  });

  test('the portfolio template after Remove key and a recalculation: #N/A totals with the key message, not 0.00 or #NAME?', async () => {
    const page = await openPreview('?template=portfolio');
    await idle(page);
    assert.equal(typeof (await values(page, 'E10', 1, 1))[0][0], 'number');
    const pane = page.frameLocator('#pane');
    await pane.getByRole('button', { name: 'Remove key', exact: true }).click();
    await pane.locator('#key-saved[hidden]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Recalculate', exact: true }).click();
    await idle(page);
    for (const a of ['C4', 'D4', 'E4', 'D10', 'E10']) {
      const [[v]] = await values(page, a, 1, 1);
      assert.equal((v as { error?: string }).error, '#N/A', `${a}: ${JSON.stringify(v)}`);
      assert.match((v as { message?: string }).message ?? '', /key/i, `${a}: ${JSON.stringify(v)}`);
      assert.equal((await cellLocator(page, a).textContent())?.trim(), '#N/A');
    }
    await cellLocator(page, 'E10').click();
    assert.match((await page.getByLabel("Selected cell's error").textContent()) ?? '', /^E10: #N\/A .*key/i);
  });

  test('Refresh all data recalculates the grid: every CRYPTO call again, with the new market', async () => {
    const page = await openPreview();
    await enter(page, 'A1', '=CRYPTO.PRICE("solana")');
    await idle(page);
    const before = (await values(page, 'A1', 1, 1))[0][0];
    const started = await page.evaluate(() => window.__previewWorkbook!.sheet.calls.stats().started);
    rig.em.clock.advance(5 * 3_600_000);
    const pane = page.frameLocator('#pane');
    await pane.getByRole('button', { name: 'Refresh all data', exact: true }).click();
    const go = pane.getByRole('button', { name: 'Refresh anyway', exact: true });
    if (await go.isVisible()) await go.click();
    await page.waitForFunction((n) => window.__previewWorkbook!.sheet.calls.stats().started > n, started, { timeout: 20_000 });
    await idle(page);
    const afterValue = (await values(page, 'A1', 1, 1))[0][0];
    assert.equal(typeof afterValue, 'number');
    assert.notEqual(afterValue, before);
    // A new CLI session: the shared one may hold the price from before the market moved.
    const fresh = await openSession({ apiUrl: rig.em.url });
    const want = await calculate(fresh.host, '=CRYPTO.PRICE("solana")');
    await fresh.close();
    assert.ok('value' in want);
    assert.equal(afterValue, want.value[0][0]);
  });
});

test('no page errors', () => {
  assert.deepEqual(rig.pageErrors, []);
});
