/**
 * The browser workload: the same PRICE cells as scale-1k and scale, entered
 * into the preview workbook (npm start's page, built development bundle) in
 * headless Chromium, as one paste of a column. Cold: from the paste until
 * every cell has its value on screen; warm: a full recalculation (every
 * CRYPTO call again, the add-in's cache warm). The API is the local API server
 * with the same added latency as the Node workloads.
 */
import { startEmulator } from '../src/emulator/server';
import { launchBrowser } from '../harness/browser';
import { PREVIEW_FILES, developmentBuild } from '../harness/dev-build';
import { startPaneServer } from '../harness/pane-server';

/**
 * Runs in the page, as source text (a function from here would carry the
 * TypeScript loader's helpers). After the values, a frame is drawn: the time
 * includes putting every cell on screen.
 */
const MEASURE = `async (texts) => {
  const { sheet } = window.__previewWorkbook;
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const t0 = performance.now();
  sheet.load(Object.fromEntries(texts.map((t, i) => ['A' + (i + 1), t])));
  await sheet.whenIdle();
  await painted();
  const coldMs = performance.now() - t0;
  const t1 = performance.now();
  sheet.recalculate({ full: true });
  await sheet.whenIdle();
  await painted();
  const warmMs = performance.now() - t1;
  const errorCells = texts.filter((_, i) => typeof sheet.value('A' + (i + 1)) !== 'number').length;
  return { coldMs, warmMs, errorCells };
}`;

export interface BrowserResult {
  cells: number;
  coldMs: number;
  warmMs: number;
  /** Requests the page sent to the API (cold + warm), /v3/status included. */
  requests: number;
  errorCells: number;
}

export async function runBrowserWorkloads(
  workloads: { name: string; texts: string[] }[],
  opts: { latencyMs: number; log: (line: string) => void },
): Promise<Record<string, BrowserResult>> {
  const out: Record<string, BrowserResult> = {};
  if (workloads.length === 0) return out;
  opts.log('browser: building the development bundle …');
  const dist = await developmentBuild('crypto-addin-bench-browser', PREVIEW_FILES);
  const browser = await launchBrowser();
  try {
    for (const w of workloads) {
      const em = await startEmulator({ latency: opts.latencyMs });
      const server = await startPaneServer({ apiTarget: em.url, distDir: dist });
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/index.html?template=blank`);
        await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        const before = server.proxied;
        opts.log(`browser: ${w.name} (${w.texts.length} cells) …`);
        const r = (await page.evaluate(`(${MEASURE})(${JSON.stringify(w.texts)})`)) as { coldMs: number; warmMs: number; errorCells: number };
        out[w.name] = { cells: w.texts.length, coldMs: Math.round(r.coldMs), warmMs: Math.round(r.warmMs), requests: server.proxied - before, errorCells: r.errorCells };
      } finally {
        await context.close();
        await server.close();
        await em.close();
      }
    }
  } finally {
    await browser.close();
  }
  return out;
}
