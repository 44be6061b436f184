/**
 * The preview page: the workbook's sheets (tabs), and beside them the add-in's
 * task pane page (a copy built with the preview host in place of Office.js),
 * whose window is the shared runtime where the built functions.js runs. The
 * demo key is saved once, the way a user saves one in the pane.
 *
 * "Reopen workbook" saves the workbook (formulas, formats, each call's last
 * result, the document's settings and the add-in's startup behaviour) and
 * opens it again as Excel opens a saved file: cached values, no custom
 * function called. The add-in's runtime then loads at once only when the
 * workbook asks for it (Office.addin.setStartupBehavior(load)); otherwise when
 * the user opens the pane or a formula needs one of its functions.
 */
import { RuntimeKvStore, StoredKeyStore } from '../../office/storage';
import { previewExcel } from '../host/options';
import { HOST_GLOBAL, type CustomFunctionsHost } from '../protocol';
import type { FunctionMetadata, FunctionsJson } from '../runtime/metadata';
import type { Call, CallRequest, ResultListener } from '../runtime/runtime';
import type { FunctionInvoker } from './calls';
import { FormulaEngine } from './engine';
import type { NumberFormat } from './format';
import { GridView } from './grid-view';
import type { Sheet } from './sheet';
import { TEMPLATES, templateById } from './templates';
import { PreviewWorkbook, type SavedWorkbook, type SheetEntry } from './workbook';

const DEMO_KEY = 'demo-pro';
const SEEDED = 'crypto-preview:demo-key-saved';
/** The saved workbook a reopen reads (this tab only, as a file on disk would be per machine). */
const SAVED = 'crypto-preview:saved-workbook';

declare global {
  interface Window {
    /** For the browser tests and the benchmark: the workbook as the page holds it. */
    __previewWorkbook?: { sheet: Sheet; view: GridView; readonly host: CustomFunctionsHost | null; workbook: PreviewWorkbook; openPane(): Promise<CustomFunctionsHost> };
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

/** The functions Excel knows from the manifest's functions.json, before the add-in's runtime has loaded. */
async function declaredFunctions(): Promise<FunctionMetadata[]> {
  const r = await fetch('functions.json', { cache: 'no-store' });
  if (!r.ok) throw new Error(`functions.json: HTTP ${r.status}`);
  return ((await r.json()) as FunctionsJson).functions;
}

/** The task pane and its runtime, loaded once: at open, when the user opens it, or when a formula needs a function. */
class Pane {
  #loading: Promise<CustomFunctionsHost> | null = null;
  host: CustomFunctionsHost | null = null;
  constructor(
    private readonly frame: HTMLIFrameElement,
    private readonly workbook: PreviewWorkbook,
  ) {}

  load(): Promise<CustomFunctionsHost> {
    this.#loading ??= new Promise<CustomFunctionsHost>((resolve, reject) => {
      el('pane-closed').hidden = true;
      this.frame.hidden = false;
      this.frame.addEventListener('load', () => {
        const host = (this.frame.contentWindow as unknown as Record<string, CustomFunctionsHost | undefined>)[HOST_GLOBAL];
        if (host) resolve(host);
        else reject(new Error('The task pane page has no custom-functions host (preview-host.js did not load).'));
      }, { once: true });
      this.frame.src = 'preview-pane.html';
    }).then(async (host) => {
      await host.ready;
      host.connectWorkbook(this.workbook);
      this.host = host;
      return host;
    });
    return this.#loading;
  }
}

/** Calls made before the runtime has loaded start it, as Excel loads an add-in whose function a formula calls. */
class DeferredInvoker implements FunctionInvoker {
  pane: Pane | null = null;
  call(req: CallRequest, onResult: ResultListener): Call {
    const host = this.pane?.host;
    if (host) return host.call(req, onResult);
    let real: Call | null = null;
    let canceled = false;
    void this.pane!.load().then((h) => {
      if (!canceled) real = h.call(req, onResult);
    });
    return {
      id: req.id,
      get settled() {
        return real?.settled ?? false;
      },
      cancel() {
        canceled = true;
        real?.cancel();
      },
    };
  }
}

function renderPicker(current: string | null): void {
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

/** A grid and a formula bar input per sheet; the active sheet's are shown, with its tab marked. */
class SheetViews {
  readonly views = new Map<SheetEntry, { view: GridView; table: HTMLTableElement; bar: HTMLInputElement }>();
  constructor(private readonly workbook: PreviewWorkbook) {
    workbook.addEventListener('sheet-added', (e) => this.#add((e as CustomEvent<SheetEntry>).detail));
    workbook.addEventListener('activated', () => this.#show());
  }

  #add(entry: SheetEntry): void {
    const first = this.views.size === 0;
    const n = this.workbook.sheets.indexOf(entry) + 1;
    let table = el<HTMLTableElement>('grid');
    let bar = el<HTMLInputElement>('formula');
    if (!first) {
      table = document.createElement('table');
      table.id = `grid-${n}`;
      table.setAttribute('role', 'grid');
      table.tabIndex = 0;
      el('sheets').append(table);
      bar = document.createElement('input');
      bar.id = `formula-${n}`;
      bar.type = 'text';
      bar.spellcheck = false;
      bar.autocomplete = 'off';
      bar.setAttribute('aria-label', 'Formula');
      el('formula').after(bar);
    }
    table.setAttribute('aria-label', entry.name);
    const view = new GridView(entry.sheet, { table, bar, nameBox: el('name-box'), message: el('cell-message') });
    view.formats = entry.formats;
    entry.selection = view.selection;
    this.views.set(entry, { view, table, bar });
    this.#show();
  }

  #show(): void {
    const active = this.workbook.active;
    for (const [entry, v] of this.views) {
      v.table.hidden = entry !== active;
      v.bar.hidden = entry !== active;
      if (entry === active) {
        v.view.render();
        el('name-box').textContent = v.view.activeAddress;
      }
    }
    el('sheet-tabs').replaceChildren(
      ...this.workbook.sheets.map((s) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = s.name;
        if (s === active) b.setAttribute('aria-current', 'true');
        b.addEventListener('click', () => this.workbook.activateSheet(s.name));
        return b;
      }),
    );
  }

  get active(): GridView {
    return this.views.get(this.workbook.active)!.view;
  }
}

function readSaved(): SavedWorkbook | null {
  try {
    const text = sessionStorage.getItem(SAVED);
    return text ? (JSON.parse(text) as SavedWorkbook) : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const status = el('status');
  const params = new URLSearchParams(location.search);
  const saved = params.has('reopen') ? readSaved() : null;
  const template = templateById(params.get('template'));
  renderPicker(saved ? null : template.id);
  status.textContent = 'Loading the add-in…';
  await saveDemoKeyOnce();

  const invoker = new DeferredInvoker();
  // The workbook's date system (?dates=1904) for its own DATE, TODAY, YEAR... as for the add-in's dates.
  const workbook = new PreviewWorkbook(new FormulaEngine(await declaredFunctions(), previewExcel(location.search).dates), invoker);
  const pane = new Pane(el<HTMLIFrameElement>('pane'), workbook);
  invoker.pane = pane;
  const views = new SheetViews(workbook);

  for (const b of document.querySelectorAll<HTMLButtonElement>('button[data-format]')) {
    b.addEventListener('click', () => views.active.setFormat(b.dataset.format as NumberFormat));
  }
  el('fill-down').addEventListener('click', () => views.active.fill('down'));
  el('recalculate').addEventListener('click', () => void workbook.calculate('Full'));
  el('open-pane').addEventListener('click', () => void pane.load());
  el('reopen').addEventListener('click', () => {
    sessionStorage.setItem(SAVED, JSON.stringify(workbook.save()));
    const next = new URLSearchParams(location.search);
    next.set('reopen', '1');
    location.search = next.toString();
  });
  const showStatus = () => {
    const pending = workbook.sheets.reduce((n, s) => n + s.calls.stats().pending, 0);
    status.textContent = pending ? `Calculating: ${pending} CRYPTO ${pending === 1 ? 'call' : 'calls'} pending…` : 'Ready';
  };
  workbook.addEventListener('sheet-added', (e) => (e as CustomEvent<SheetEntry>).detail.sheet.addEventListener('change', showStatus));

  if (saved) {
    workbook.restore(saved);
    views.active.render();
    el('reopened').hidden = false;
  } else {
    const first = workbook.add('Sheet1');
    Object.assign(first.formats, template.formats);
    first.sheet.load(template.cells);
  }
  // Excel loads the add-in with the workbook only when the workbook says so (StartupBehavior.load);
  // a first open in the preview shows the pane, as a user opening it from the ribbon would.
  if (!saved || saved.startup === 'Load') await pane.load();
  else {
    el('pane').hidden = true;
    el('pane-closed').hidden = false;
  }
  showStatus();
  const sheet1 = workbook.sheets[0];
  window.__previewWorkbook = {
    sheet: sheet1.sheet,
    view: views.views.get(sheet1)!.view,
    get host() {
      return pane.host;
    },
    workbook,
    openPane: () => pane.load(),
  };
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  el('status').textContent = `The preview could not start: ${e instanceof Error ? e.message : String(e)}`;
});
