/**
 * Accessibility of the built task pane and the help and legal pages, in
 * headless Chromium: axe-core's WCAG 2.1 A and AA rules (tags wcag2a, wcag2aa,
 * wcag21a, wcag21aa) in each state of the pane and on each kind of page, in the
 * light and dark themes, in Office's narrow task pane (320 px) and wider; and a
 * keyboard walk: Tab reaches every control, and each shows a focus indicator.
 *
 *   node --import tsx --test test/accessibility.test.ts
 *
 * Microsoft asks this of Office Add-ins ("Accessibility guidelines for Office
 * Add-ins", Microsoft Learn): WCAG as the standard, every actionable element
 * reachable with Tab and the arrow keys, names, roles and states exposed,
 * visible focus indicators, 4.5:1 contrast for text (3:1 large), and automated
 * checks in the build. axe-core is a devDependency injected by the test
 * (page.addScriptTag): nothing of it is in the bundle.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { ambiguousSymbol } from './support/shared-symbol';
import { byId, evaluate, saveKey, text } from './support/pane';
import { until } from './support/waiting';
import { usePaneRig } from './support/pane-rig';

const require = createRequire(import.meta.url);
/**
 * axe-core's browser build, injected into each page checked. The pages'
 * Content-Security-Policy (script-src 'self' and Office's CDN) refuses an
 * injected script: the browser contexts that run axe bypass it (bypassCSP),
 * for the test's own script; the pages themselves are as built.
 */
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Office's task pane is about 320 to 350 px wide; a browser (the help pages, the preview) is wider. */
const WIDTHS = [320, 1024] as const;
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

const rig = usePaneRig({ build: { name: 'crypto-addin-a11y-test', files: ['taskpane.js', 'taskpane.html', 'functions.js', 'functions.json', 'help/index.html', 'support.html'] } });

// ------------------------------------------------------------------ axe

type RunOnly = { type: 'tag' | 'rule'; values: string[] };
const WCAG21: RunOnly = { type: 'tag', values: WCAG_TAGS };
/** WCAG 2.2's target size (2.5.8, AA): beyond 2.1, but Microsoft's guidance lists target size among the automated checks. */
const TARGET_SIZE: RunOnly = { type: 'rule', values: ['target-size'] };

/** axe-core's rules (WCAG 2.1 A and AA unless told) on the page as it is now; every violation, one line per element. */
async function axeViolations(page: Page, runOnly: RunOnly = WCAG21): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const results = (await page.evaluate(
    (runOnly) => (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<unknown> } }).axe.run(document, {
      runOnly,
      resultTypes: ['violations'],
    }),
    runOnly,
  )) as AxeResults;
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact ?? n.impact ?? '?'}) at ${n.target.join(' ')}: ${v.help}${n.failureSummary ? ` | ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`),
  );
}

async function assertNoViolations(page: Page, where: string): Promise<void> {
  const found = [...(await axeViolations(page)), ...(await axeViolations(page, TARGET_SIZE))];
  assert.deepEqual(found, [], `${where}: ${found.length} violation(s) of WCAG 2.1 A/AA (and 2.2 target size):\n  ${found.join('\n  ')}`);
}

// ------------------------------------------------------------------ the pane

async function openPane(width: number, theme: Theme): Promise<Page> {
  const page = await rig.openPage('taskpane.html', { viewport: { width, height: 900 }, context: { colorScheme: theme, bypassCSP: true }, readyMs: 20_000 });
  // The pane takes the system's theme outside Office (test/taskpane.test.ts checks Office's themes map to these two).
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
  return page;
}

/** The pane with a valid key: plan and credits, usage rows, an ambiguity, errors in the log. */
async function withKeyAndUsage(page: Page): Promise<void> {
  await saveKey(page, 'demo-pro');
  await byId(page, 'plan-body').waitFor({ state: 'visible' });
  await evaluate(page, 'PRICE', ['bitcoin', null]);
  await evaluate(page, 'PRICE', ['no-such-coin-for-the-log', null]);
  await evaluate(page, 'PRICE', [ambiguousSymbol(rig.em), null]);
  await until('usage rows and errors', async () => (await byId(page, 'usage-rows').locator('tr').count()) > 0 && (await byId(page, 'errors').locator('li').count()) > 0);
  await until('the ambiguity', async () => (await byId(page, 'ambiguities').locator('li').count()) > 0);
}

/** The formula builder with a field error shown (an OHLCV start that is no date), and Insert refused for it. */
async function builderWithError(page: Page): Promise<void> {
  await until('the formula list', async () => (await byId(page, 'formula-select').locator('option').count()) > 0);
  await page.getByRole('combobox', { name: 'Coin', exact: true }).fill('bitcoin');
  await page.getByRole('option', { name: /^Bitcoin \(BTC\)/ }).first().click();
  await page.getByRole('combobox', { name: 'Formula', exact: true }).selectOption('OHLCV');
  await page.getByRole('textbox', { name: 'Start', exact: true }).fill('2024-02-30');
  await until('the builder field error', async () => (await text(page, 'bf-start-error')) !== '');
  assert.equal(await byId(page, 'bf-start').getAttribute('aria-invalid'), 'true');
  await page.getByRole('button', { name: 'Insert', exact: true }).click();
  await until('the builder message', async () => (await text(page, 'builder-message')) !== '');
}

/** A previewed result: the first rows of an OHLCV table, wider than the narrow pane (it scrolls sideways). */
async function builderPreview(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: 'Start', exact: true }).fill('2024-01-01');
  await until('the error gone', async () => (await text(page, 'bf-start-error')) === '');
  await page.getByRole('button', { name: 'Preview result', exact: true }).click();
  await byId(page, 'builder-result-wrap').waitFor({ state: 'visible', timeout: 20_000 });
}

/** The coin search with its list of candidates open, one of them active (aria-activedescendant). */
async function coinListOpen(page: Page): Promise<void> {
  await page.getByRole('combobox', { name: 'Coin', exact: true }).fill('bit');
  await byId(page, 'coin-list').waitFor({ state: 'visible' });
  await page.keyboard.press('ArrowDown');
  await until('an active option', async () => (await byId(page, 'coin-input').getAttribute('aria-activedescendant')) !== null);
}

/** The confirmation panels and a settings field error: refresh's cost question, a refused value. */
async function confirmAndFieldError(page: Page): Promise<void> {
  for (let i = 0; i < 10; i++) await evaluate(page, 'PROFILE', [String(20 + i), null, null]);
  await page.getByRole('button', { name: 'Refresh all data', exact: true }).click();
  await byId(page, 'refresh-confirm').waitFor({ state: 'visible' });
  await page.locator('summary', { hasText: 'Advanced' }).click();
  await page.getByRole('spinbutton', { name: 'Live prices fresh for (seconds)' }).fill('5');
  await page.getByRole('button', { name: 'Apply settings' }).click();
  await until('the settings field error', async () => (await text(page, 'set-fresh-error')) !== '');
}

/** A new API host: the question before the key is sent there. */
async function hostConsent(page: Page): Promise<void> {
  await page.getByRole('spinbutton', { name: 'Live prices fresh for (seconds)' }).fill('60');
  await page.getByRole('textbox', { name: 'API base URL' }).fill('https://api.example.test');
  await page.getByRole('button', { name: 'Apply settings' }).click();
  await byId(page, 'host-consent').waitFor({ state: 'visible' });
}

describe('accessibility: the task pane (axe-core, WCAG 2.1 A and AA)', { timeout: 300_000 }, () => {
  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      test(`${theme} theme, ${width} px: first run, a refused key, a saved key with plan and usage, the builder (an error, a preview, its list open), confirmations`, async () => {
        const page = await openPane(width, theme);
        const at = `${theme} ${width}px`;
        await assertNoViolations(page, `${at}, first run (no key)`);
        await saveKey(page, 'ck-unknown-Z9x8W7v6U5');
        assert.equal(await byId(page, 'key-message').getAttribute('data-tone'), 'error');
        await assertNoViolations(page, `${at}, a key refused (error message)`);
        await withKeyAndUsage(page);
        await assertNoViolations(page, `${at}, key saved, plan and usage shown`);
        await builderWithError(page);
        await assertNoViolations(page, `${at}, builder with a field error`);
        await builderPreview(page);
        await assertNoViolations(page, `${at}, builder with a previewed result`);
        await coinListOpen(page);
        await assertNoViolations(page, `${at}, builder's coin list open`);
        await page.keyboard.press('Escape');
        await confirmAndFieldError(page);
        await assertNoViolations(page, `${at}, refresh confirmation and a settings field error`);
        await hostConsent(page);
        await assertNoViolations(page, `${at}, the question before a new API host`);
        await page.context().close();
      });
    }
  }

  test('the check itself reports a violation (an unlabelled field, text without contrast)', async () => {
    const page = await openPane(320, 'light');
    await page.evaluate(() => {
      const p = document.createElement('p');
      p.textContent = 'Faint';
      p.style.color = '#dddddd';
      const input = document.createElement('input');
      document.querySelector('main')!.prepend(p, input);
    });
    const found = await axeViolations(page);
    assert.ok(found.some((v) => v.startsWith('label ')), found.join('\n'));
    assert.ok(found.some((v) => v.startsWith('color-contrast ')), found.join('\n'));
    await page.context().close();
  });
});

describe('accessibility: Windows high contrast (forced colours)', { timeout: 120_000 }, () => {
  // Microsoft's guidance: UI elements render correctly in Windows high contrast themes. There, backgrounds
  // are the theme's: a gauge drawn with background colours alone would vanish (its figures stay in text).
  test('the credit gauges still show: a bordered track, and a fill of another colour than it', async () => {
    const page = await rig.openPage('taskpane.html', { viewport: { width: 320, height: 900 }, context: { forcedColors: 'active' }, readyMs: 20_000 });
    await saveKey(page, 'demo-sandbox');
    await byId(page, 'plan-body').waitFor({ state: 'visible' });
    for (let i = 0; i < 5; i++) await evaluate(page, 'PROFILE', [String(10 + i), null, null]);
    await until('credits used', async () => (await page.locator('#daily-bar .fill').evaluate((f) => parseFloat((f as HTMLElement).style.width) || 0)) > 0, 10_000);
    const look = await page.evaluate(() => {
      const bar = document.getElementById('daily-bar')!;
      const fill = bar.querySelector('.fill')!;
      return {
        forced: matchMedia('(forced-colors: active)').matches,
        track: getComputedStyle(bar).backgroundColor,
        border: `${getComputedStyle(bar).borderTopStyle} ${getComputedStyle(bar).borderTopWidth}`,
        fill: getComputedStyle(fill).backgroundColor,
        width: fill.getBoundingClientRect().width,
      };
    });
    assert.ok(look.forced, 'forced colours emulated');
    assert.equal(look.border, 'solid 1px', JSON.stringify(look));
    assert.notEqual(look.fill, look.track, JSON.stringify(look));
    assert.ok(look.width > 0, JSON.stringify(look));
    await page.context().close();
  });
});

// ------------------------------------------------------------------ keyboard

interface Stop {
  key: string;
  what: string;
  outline: string;
  shadow: string;
}

/** What identifies a control, and the focus styles it has now. */
const STOP_SCRIPT = `(e) => {
  const cs = getComputedStyle(e);
  const sig = (x) => x.tagName + ':' + (x.textContent || '').trim().slice(0, 40) + (x.getAttribute('href') ? ' ' + x.getAttribute('href') : '');
  // A control without an id or name: its tag, text and link, and which of the page's alike it is.
  const same = Array.from(document.getElementsByTagName(e.tagName)).filter((x) => sig(x) === sig(e));
  const key = e.id || (e.name ? e.name + '=' + e.value : '') || sig(e) + (same.length > 1 ? ' #' + same.indexOf(e) : '');
  return { key, what: e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' "' + (e.getAttribute('aria-label') || e.textContent || e.value || '').trim().slice(0, 30) + '"',
    outline: cs.outlineStyle === 'none' || parseFloat(cs.outlineWidth) === 0 ? 'none' : cs.outlineStyle + ' ' + cs.outlineWidth + ' ' + cs.outlineColor,
    shadow: cs.boxShadow };
}`;

/**
 * Every control a keyboard user should reach: the native ones (links, buttons,
 * fields, summaries) that are visible and enabled, whatever their tabindex, and
 * anything else put in the tab order (tabindex 0).
 */
function interactive(page: Page): Promise<Stop[]> {
  return page.evaluate((script) => {
    const stop = (0, eval)(script) as (e: Element) => Stop;
    const native = 'a[href], button, input:not([type="hidden"]), select, textarea, summary';
    return Array.from(document.querySelectorAll<HTMLElement>(`${native}, [tabindex]`))
      .filter((e) => e.checkVisibility() && !(e as HTMLButtonElement).disabled && (e.matches(native) || e.tabIndex >= 0))
      .map(stop);
  }, STOP_SCRIPT);
}

const focusedStop = (page: Page) =>
  page.evaluate((script) => {
    const e = document.activeElement;
    return e && e !== document.body ? ((0, eval)(script) as (e: Element) => Stop)(e) : null;
  }, STOP_SCRIPT);

/**
 * Tab from the top of the page to its end, then the arrow keys through each
 * radio group (Tab stops on a group's checked button only, as in any radio
 * group). Returns the controls not reached, and those whose outline and
 * box-shadow are the same focused as at rest (no visible focus indicator).
 */
async function keyboardWalk(page: Page): Promise<{ reached: Stop[]; missed: string[]; invisible: string[] }> {
  // A click in the top left corner (no control there): nothing focused, and Tab starts from the top of the page
  // (the click moves the sequential focus navigation starting point there).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.click(1, 1);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  // Nothing focused: each control's resting look.
  const resting = new Map((await interactive(page)).map((s) => [s.key, s]));
  const reached: Stop[] = [];
  for (let i = 0; i < 300; i++) {
    await page.keyboard.press('Tab');
    const s = await focusedStop(page);
    // Past the last control focus leaves the page (or wraps round to the first).
    if (!s || (reached.length > 0 && s.key === reached[0].key)) break;
    reached.push(s);
  }
  const groups = await page.evaluate(() => [...new Set(Array.from(document.querySelectorAll<HTMLInputElement>('input[type="radio"]')).filter((r) => r.checkVisibility()).map((r) => r.name))]);
  for (const name of groups) {
    const size = await page.locator(`input[type="radio"][name="${name}"]`).count();
    const entry = reached.find((s) => s.key.startsWith(`${name}=`));
    if (!entry) continue;
    await page.locator(`input[type="radio"][name="${name}"]:checked`).focus();
    for (let i = 1; i < size; i++) {
      await page.keyboard.press('ArrowRight');
      const s = await focusedStop(page);
      if (s) reached.push(s);
    }
    // Back to the first choice, as the page had it.
    await page.keyboard.press('ArrowRight');
  }
  const keys = new Set(reached.map((s) => s.key));
  const missed = [...resting.values()].filter((s) => !keys.has(s.key)).map((s) => s.what);
  const invisible = reached
    .filter((s) => {
      const r = resting.get(s.key);
      return r && s.outline === r.outline && s.shadow === r.shadow;
    })
    .map((s) => `${s.what}: outline ${s.outline}, box-shadow ${s.shadow}`);
  return { reached, missed, invisible };
}

describe('accessibility: the pane from the keyboard', { timeout: 240_000 }, () => {
  for (const theme of THEMES) {
    test(`${theme} theme, 320 px: Tab (and the arrow keys in a radio group) reaches every control, each with a visible focus indicator`, async () => {
      const page = await openPane(320, theme);
      await withKeyAndUsage(page);
      await builderWithError(page);
      await builderPreview(page);
      await page.locator('summary', { hasText: 'Advanced' }).click();
      const { reached, missed, invisible } = await keyboardWalk(page);
      assert.ok(reached.length > 30, `stops: ${reached.length}`);
      // The controls of every section, the previewed result's scrolling region and the footer's links among them
      // (not "Refresh when this workbook opens": disabled outside Excel).
      for (const key of ['key-input', 'remove-key', 'coin-input', 'formula-select', 'bf-start', 'builder-result-wrap', 'refresh-all', 'freeze-scope=workbook', 'snapshot-cells', 'log-go', 'set-base', 'apply-settings', "A:What's new whats-new.html"]) {
        assert.ok(reached.some((s) => s.key === key), `${key} reached: ${reached.map((s) => s.key).join(', ')}`);
      }
      assert.deepEqual(missed, [], 'controls the keyboard does not reach');
      assert.deepEqual(invisible, [], 'focused controls that look as they do unfocused (outline and box-shadow unchanged)');
      await page.context().close();
    });
  }

  test('the walk itself finds a control out of the tab order and one whose focus does not show', async () => {
    const page = await openPane(320, 'light');
    await page.evaluate(() => {
      document.getElementById('refresh-sheet')!.tabIndex = -1;
      const style = document.createElement('style');
      style.textContent = '#save-key:focus-visible { outline: none; box-shadow: none; }';
      document.head.append(style);
    });
    const { missed, invisible } = await keyboardWalk(page);
    assert.deepEqual(missed, ['button#refresh-sheet "Refresh active sheet"']);
    assert.equal(invisible.length, 1, invisible.join('\n'));
    assert.match(invisible[0], /^button#save-key "Save": outline none/);
    await page.context().close();
  });
});

// ------------------------------------------------------------------ help and legal pages

/** One page of each kind: the help index, a formula's page (with a table, dates, examples), support (a table), privacy, terms, what's new. */
const PAGES = ['help/index.html', 'help/ohlcv.html', 'help/price.html', 'support.html', 'privacy.html', 'terms.html', 'whats-new.html'];

describe('accessibility: the help and legal pages (axe-core, WCAG 2.1 A and AA)', { timeout: 240_000 }, () => {
  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      test(`${theme} theme, ${width} px`, async () => {
        const page = await rig.newPage({ viewport: { width, height: 900 }, context: { colorScheme: theme, bypassCSP: true } });
        const failures: string[] = [];
        for (const file of PAGES) {
          const res = await page.goto(`${rig.server.url}/${file}`);
          assert.equal(res?.status(), 200, file);
          const found = [...(await axeViolations(page)), ...(await axeViolations(page, TARGET_SIZE))];
          failures.push(...found.map((f) => `${file}: ${f}`));
        }
        assert.deepEqual(failures, [], `${failures.length} violation(s) of WCAG 2.1 A/AA (and 2.2 target size):\n  ${failures.join('\n  ')}`);
        await page.context().close();
      });
    }
  }

  for (const theme of THEMES) {
    test(`${theme} theme, 320 px: Tab reaches every link of each page, each with a visible focus indicator`, async () => {
      const page = await rig.newPage({ viewport: { width: 320, height: 900 }, context: { colorScheme: theme } });
      for (const file of PAGES) {
        await page.goto(`${rig.server.url}/${file}`);
        const { reached, missed, invisible } = await keyboardWalk(page);
        assert.ok(reached.length >= 6, `${file}: ${reached.length} stops`);
        assert.deepEqual(missed, [], `${file}: links the keyboard does not reach`);
        assert.deepEqual(invisible, [], `${file}: focused links that look as they do unfocused`);
      }
      await page.context().close();
    });
  }

  test('no uncaught errors in the pages', () => {
    assert.deepEqual(rig.pageErrors, []);
  });
});
