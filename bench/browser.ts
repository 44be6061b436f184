/**
 * The browser workload: the same PRICE cells as scale-1k and scale, entered
 * into the preview workbook (npm start's page, built development bundle) in
 * headless Chromium, as one paste of a column. Cold: from the paste until
 * every cell has its value on screen; warm: a full recalculation (every
 * CRYPTO call again, the add-in's cache warm). The API is the local API server
 * with the same added latency as the Node workloads.
 */
import { PREVIEW_FILES, developmentBuild } from '../harness/dev-build';
import { paneRig } from '../harness/pane-rig';

const BUILD = { name: 'crypto-addin-bench-browser', files: PREVIEW_FILES };

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
  await developmentBuild(BUILD.name, BUILD.files); // each workload's rig then finds it built
  for (const w of workloads) {
    // A rig each: a new API server, so no workload starts with another's credits spent or its rate window filled.
    const rig = await paneRig({ build: BUILD, emulator: { latency: opts.latencyMs } });
    try {
      const page = await rig.openPage('index.html?template=blank', { readyMs: 60_000 });
      const before = rig.server.proxied;
      opts.log(`browser: ${w.name} (${w.texts.length} cells) …`);
      const r = (await page.evaluate(`(${MEASURE})(${JSON.stringify(w.texts)})`)) as { coldMs: number; warmMs: number; errorCells: number };
      out[w.name] = { cells: w.texts.length, coldMs: Math.round(r.coldMs), warmMs: Math.round(r.warmMs), requests: rig.server.proxied - before, errorCells: r.errorCells };
    } finally {
      await rig.close();
    }
  }
  return out;
}
