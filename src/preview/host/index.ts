/**
 * preview-host.js: loaded by the preview's copy of the task pane page where
 * Office.js would be, before functions.js and taskpane.js. It installs the
 * custom-functions runtime as CustomFunctions, Office and Excel shims, and
 * hands the workbook window the runtime (window.__customFunctionsHost).
 */
import { HOST_GLOBAL, type CustomFunctionsHost } from '../protocol';
import type { FunctionsJson } from '../runtime/metadata';
import { CustomFunctionsRuntime } from '../runtime/runtime';
import { excelShim } from './excel-shim';
import { officeShim, type ShimWorkbook } from './office-shim';
import { previewExcel, previewSearch } from './options';

const excel = previewExcel(previewSearch(window));
const runtime = new CustomFunctionsRuntime({ blanks: excel.blanks, version: excel.runtime });
let workbook: ShimWorkbook | null = null;
/** Office.onReady waits for the workbook (the pane page opened alone has none: at once). */
let connected!: () => void;
const workbookOpen = new Promise<void>((resolve) => (connected = resolve));
if (window.parent === window) connected();

const ready = fetch('functions.json', { cache: 'no-store' })
  .then((r) => {
    if (!r.ok) throw new Error(`functions.json: HTTP ${r.status}`);
    return r.json() as Promise<FunctionsJson>;
  })
  .then((json) => runtime.load(json));

const host: CustomFunctionsHost = {
  ready,
  functions: () => runtime.registered(),
  call: (req, onResult) => runtime.call(req, onResult),
  connectWorkbook: (wb) => {
    workbook = wb;
    connected();
  },
};

Object.assign(window, {
  CustomFunctions: runtime.namespace,
  Office: officeShim(excel, () => workbook, workbookOpen),
  Excel: excelShim(() => workbook, excel),
  [HOST_GLOBAL]: host,
});
