/**
 * The preview page: the grid, and beside it the add-in's task pane page (a
 * copy built with the preview host in place of Office.js), whose window is the
 * shared runtime where the built functions.js runs. The demo key is saved once,
 * the way a user saves one in the pane.
 */
import { RuntimeKvStore, StoredKeyStore } from '../../office/storage';
import { HOST_GLOBAL, type CustomFunctionsHost } from '../protocol';
import { CallSites } from './calls';
import { FormulaEngine } from './engine';
import type { NumberFormat } from './format';
import { GridView } from './grid-view';
import { Sheet } from './sheet';
import { TEMPLATES, templateById } from './templates';

const DEMO_KEY = 'demo-pro';
const SEEDED = 'crypto-preview:demo-key-saved';

declare global {
  interface Window {
    /** For the browser tests and the benchmark: the workbook as the page holds it. */
    __previewWorkbook?: { sheet: Sheet; view: GridView; host: CustomFunctionsHost };
  }
}

const el = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Once per browser profile: a user who removes the key keeps it removed across reloads. */
async function saveDemoKeyOnce(): Promise<void> {
  if (localStorage.getItem(SEEDED)) return;
  const keys = new StoredKeyStore(new RuntimeKvStore());
  if (!(await keys.getKey())) await keys.setKey(DEMO_KEY);
  localStorage.setItem(SEEDED, '1');
}

function openPane(frame: HTMLIFrameElement): Promise<CustomFunctionsHost> {
  return new Promise((resolve, reject) => {
    frame.addEventListener('load', () => {
      const host = (frame.contentWindow as unknown as Record<string, CustomFunctionsHost | undefined>)[HOST_GLOBAL];
      if (host) resolve(host);
      else reject(new Error('The task pane page has no custom-functions host (preview-host.js did not load).'));
    }, { once: true });
    frame.src = 'preview-pane.html';
  });
}

function renderPicker(current: string): void {
  el('templates').replaceChildren(
    ...TEMPLATES.map((t) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `?template=${t.id}`;
      a.textContent = t.title;
      a.title = t.description;
      if (t.id === current) a.setAttribute('aria-current', 'page');
      li.append(a);
      return li;
    }),
  );
}

async function main(): Promise<void> {
  const status = el('status');
  const template = templateById(new URLSearchParams(location.search).get('template'));
  renderPicker(template.id);
  status.textContent = 'Loading the add-in…';
  await saveDemoKeyOnce();
  const host = await openPane(el<HTMLIFrameElement>('pane'));
  await host.ready;

  let sheet!: Sheet;
  const calls = new CallSites(host, (cell) => sheet.scheduleRecalculation(cell));
  sheet = new Sheet(new FormulaEngine(host.functions()), calls);
  const view = new GridView(sheet, { table: el<HTMLTableElement>('grid'), bar: el<HTMLInputElement>('formula'), nameBox: el('name-box'), message: el('cell-message') });
  view.formats = { ...template.formats };
  for (const b of document.querySelectorAll<HTMLButtonElement>('button[data-format]')) {
    b.addEventListener('click', () => view.setFormat(b.dataset.format as NumberFormat));
  }
  el('fill-down').addEventListener('click', () => view.fill('down'));
  host.connectWorkbook({
    // Excel's Recalculate leaves custom functions whose inputs did not change; Full calls them all again.
    calculate: async (type) => sheet.recalculate({ full: type !== 'Recalculate' }),
    calculateActiveSheet: async (markAllDirty) => sheet.recalculate({ full: markAllDirty }),
  });
  el('recalculate').addEventListener('click', () => sheet.recalculate({ full: true }));
  sheet.addEventListener('change', () => {
    const { pending } = calls.stats();
    status.textContent = pending ? `Calculating: ${pending} CRYPTO ${pending === 1 ? 'call' : 'calls'} pending…` : 'Ready';
  });
  sheet.load(template.cells);
  window.__previewWorkbook = { sheet, view, host };
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  el('status').textContent = `The preview could not start: ${e instanceof Error ? e.message : String(e)}`;
});
