/**
 * What the add-in keeps inside the workbook: a few document settings
 * (Office.context.document.settings, saved with the file and travelling with
 * it: never the key, never anything about the user) and whether the add-in
 * loads when this workbook opens (Office.addin.setStartupBehavior, SharedRuntime
 * 1.1, document scope: learn.microsoft.com/office/dev/add-ins/develop/run-code-on-document-open).
 */

/** Every document setting the add-in writes, and only these. */
export const DOCUMENT_SETTINGS = {
  /** true: recalculate the CRYPTO cells when the workbook opens. */
  refreshOnOpen: 'crypto-addin.refreshOnOpen',
  /** Credits the last refresh of this workbook spent: the next one's estimate. */
  refreshCredits: 'crypto-addin.refreshCredits',
  /** The formulas of cells converted to values (taskpane/freeze.ts). */
  frozen: 'crypto-addin.frozen',
  /** The cells "Append snapshot" logs. */
  snapshotCells: 'crypto-addin.snapshotCells',
} as const;

export type DocumentSettingName = (typeof DOCUMENT_SETTINGS)[keyof typeof DOCUMENT_SETTINGS];

function settings(): Office.Settings | null {
  try {
    return typeof Office !== 'undefined' && Office.context?.document?.settings ? Office.context.document.settings : null;
  } catch {
    return null;
  }
}

/** Whether this host keeps document settings (Excel does; a browser outside Office does not). */
export const hasDocumentSettings = () => settings() !== null;

export function readSetting<T = unknown>(name: DocumentSettingName): T | null {
  const s = settings();
  if (!s) return null;
  try {
    const v = s.get(name) as T | undefined;
    return v === undefined ? null : v;
  } catch {
    return null;
  }
}

/** Sets (null: removes) and saves them into the document. */
export function writeSettings(values: Partial<Record<DocumentSettingName, unknown>>): Promise<void> {
  const s = settings();
  if (!s) return Promise.reject(new Error('This host keeps no document settings'));
  for (const [k, v] of Object.entries(values)) {
    if (v === null || v === undefined) s.remove(k);
    else s.set(k, v);
  }
  return new Promise((resolve, reject) =>
    s.saveAsync((r: Office.AsyncResult<void>) => (String(r.status).toLowerCase() === 'failed' ? reject(r.error ?? new Error('The settings were not saved')) : resolve())),
  );
}

/** Office.addin startup behaviour, where the host has it (SharedRuntime 1.1). */
function addin(): { setStartupBehavior(b: unknown): Promise<void>; getStartupBehavior(): Promise<unknown> } | null {
  try {
    if (typeof Office === 'undefined') return null;
    const a = (Office as unknown as { addin?: { setStartupBehavior?: unknown; getStartupBehavior?: unknown } }).addin;
    if (!a || typeof a.setStartupBehavior !== 'function') return null;
    if (Office.context?.requirements && !Office.context.requirements.isSetSupported('SharedRuntime', '1.1')) return null;
    return a as ReturnType<typeof addin>;
  } catch {
    return null;
  }
}

export const canLoadOnOpen = () => addin() !== null;

/** Load the add-in (no UI) when this workbook next opens, or not. */
export async function setLoadOnOpen(on: boolean): Promise<void> {
  const a = addin();
  if (!a) throw new Error('This version of Office cannot load the add-in when a workbook opens (SharedRuntime 1.1)');
  const behaviours = (Office as unknown as { StartupBehavior?: { load: string; none: string } }).StartupBehavior ?? { load: 'Load', none: 'None' };
  await a.setStartupBehavior(on ? behaviours.load : behaviours.none);
}
