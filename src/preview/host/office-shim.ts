/**
 * The Office global the add-in calls, answered by the preview instead of
 * Office: Office.onReady reports Excel (once the workbook is there);
 * Office.context.requirements answers for the requirement sets the preview
 * plays (options.ts); Office.context.document.settings are the workbook's own
 * (get/set in memory, saveAsync into the workbook, as Office.js keeps them);
 * Office.addin.set/getStartupBehavior are this workbook's. The Excel global:
 * excel-shim.ts.
 */
import type { StartupBehavior, WorkbookCalculator, WorkbookDocument } from '../protocol';
import type { PreviewExcel } from './options';

export type ShimWorkbook = WorkbookCalculator & Partial<WorkbookDocument>;

export function open(wb: ShimWorkbook | null): ShimWorkbook {
  if (!wb) throw new Error('No workbook is open');
  return wb;
}

export function doc(wb: ShimWorkbook | null): WorkbookDocument {
  const w = open(wb);
  if (typeof w.read !== 'function') throw new Error('The preview workbook does not answer the Excel API');
  return w as WorkbookDocument;
}

/** Requirement sets and the highest version the preview answers for (CustomFunctionsRuntime per options). */
function supportedSets(excel: PreviewExcel): Record<string, string> {
  // ExcelApi 1.16: the data types, the newest the add-in uses (COIN's cards, Range.valuesAsJson when
  // freezing them), both of which the preview answers; an Excel that shows COIN's cards has it.
  return { CustomFunctionsRuntime: excel.runtime, SharedRuntime: '1.1', ExcelApi: '1.16' };
}

const versionAtLeast = (have: string, want: string) => {
  const [a, b] = [have, want].map((v) => v.split('.').map(Number));
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
};

export const StartupBehaviorEnum = { load: 'Load', none: 'None' } as const;

/** The document's settings as Office.js keeps them: read when the add-in starts, changed in memory, written by saveAsync. */
class DocumentSettings {
  #values: Record<string, unknown> = {};
  constructor(private readonly workbook: () => ShimWorkbook | null) {}
  reload(): void {
    const wb = this.workbook();
    this.#values = wb && typeof wb.settings === 'function' ? wb.settings() : {};
  }
  get(name: string): unknown {
    return Object.hasOwn(this.#values, name) ? structuredClone(this.#values[name]) : null;
  }
  set(name: string, value: unknown): void {
    this.#values[name] = structuredClone(value);
  }
  remove(name: string): void {
    delete this.#values[name];
  }
  saveAsync(a?: unknown, b?: unknown): void {
    const cb = (typeof a === 'function' ? a : b) as ((r: { status: string; error?: Error }) => void) | undefined;
    try {
      this.workbook()?.saveSettings?.(structuredClone(this.#values));
      setTimeout(() => cb?.({ status: 'succeeded' }), 0);
    } catch (e) {
      setTimeout(() => cb?.({ status: 'failed', error: e as Error }), 0);
    }
  }
  refreshAsync(cb?: (r: { status: string; value: DocumentSettings }) => void): void {
    this.reload();
    setTimeout(() => cb?.({ status: 'succeeded', value: this }), 0);
  }
}

export function officeShim(excel: PreviewExcel, workbook: () => ShimWorkbook | null, connected: Promise<void>) {
  const info = { host: 'Excel', platform: 'OfficeOnline' };
  const sets = supportedSets(excel);
  const settings = new DocumentSettings(workbook);
  const ready = connected.then(() => settings.reload());
  return {
    HostType: { Excel: 'Excel', Word: 'Word', PowerPoint: 'PowerPoint', Outlook: 'Outlook' },
    PlatformType: { OfficeOnline: 'OfficeOnline' },
    StartupBehavior: StartupBehaviorEnum,
    AsyncResultStatus: { Succeeded: 'succeeded', Failed: 'failed' },
    context: {
      requirements: {
        isSetSupported: (name: string, version = '1.1') => Object.hasOwn(sets, name) && versionAtLeast(sets[name], String(version)),
      },
      document: { settings },
    },
    addin: {
      async setStartupBehavior(b: StartupBehavior): Promise<void> {
        open(workbook()).setStartupBehavior?.(b);
      },
      async getStartupBehavior(): Promise<StartupBehavior> {
        return open(workbook()).startupBehavior?.() ?? 'None';
      },
    },
    /** Resolves once the workbook is open (the pane page alone: at once, with no workbook). */
    onReady(callback?: (i: typeof info) => void): Promise<typeof info> {
      return ready.then(() => {
        callback?.(info);
        return info;
      });
    },
  };
}
