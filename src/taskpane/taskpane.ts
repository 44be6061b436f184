/**
 * The task pane: waits for Office and wires its sections, as the Office
 * template does. Each section (key, plan and credits, usage and the answers'
 * log, the formula builder, refresh and refresh on open, keep values and
 * snapshots, settings)
 * keeps its own state in its own module; the data comes from the shared runtime
 * (one client, one cache, one calculation host with the custom functions), and
 * every section is re-attached when settings rebuild it.
 */
import './taskpane.css';
import { getRuntime, onRuntimeChanged, type Runtime } from '../office/runtime';
import { DEMO_BUILD } from '../office/settings';
import { BuilderSection } from './builder-section';
import { isExcelHost } from './excel';
import { FreezeSection } from './freeze-section';
import { KeySection } from './key-section';
import { OpenRefreshSection } from './open-section';
import { PlanSection } from './plan-section';
import { RefreshSection } from './refresh-section';
import { SettingsSection } from './settings-section';
import { SnapshotSection } from './snapshot-section';
import { applyTheme, followTheme } from './theme';
import { UsageSection } from './usage-section';

declare global {
  interface Window {
    /** Development builds only: the shared runtime, for the demo console and the browser tests. */
    __cryptoAddin?: { getRuntime: typeof getRuntime; readonly runtime: Runtime; builder: BuilderSection };
  }
}

/** Office.onReady's host, or null outside Office (a plain browser) or when Office.js is missing. */
async function officeHost(): Promise<Office.HostType | null> {
  if (typeof Office === 'undefined' || typeof Office.onReady !== 'function') return null;
  try {
    const info = await Office.onReady();
    return info?.host ?? null;
  } catch {
    return null;
  }
}

async function start(): Promise<void> {
  const host = officeHost();
  void host.then(() => followTheme());
  const inExcel = host.then(isExcelHost);
  const plan = new PlanSection();
  const usage = new UsageSection(plan, inExcel);
  const key = new KeySection(plan, usage, inExcel);
  const builder = new BuilderSection(inExcel);
  const sections = [
    plan, key, usage, builder, new RefreshSection(plan, inExcel), new OpenRefreshSection(plan, inExcel),
    new FreezeSection(inExcel), new SnapshotSection(inExcel), new SettingsSection(inExcel),
  ];

  let rt = await getRuntime();
  if (DEMO_BUILD) {
    window.__cryptoAddin = {
      getRuntime,
      builder,
      get runtime() {
        return rt;
      },
    };
  }
  const attach = (next: Runtime) => {
    rt = next;
    for (const s of sections) s.attach(next);
  };
  onRuntimeChanged(attach);
  key.attach(rt);
  await key.render();
  attach(rt);
  document.body.dataset.ready = 'true';
}

applyTheme(); // the system's, before the first paint; Office's once it is ready
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void start());
else void start();
