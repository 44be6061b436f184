/**
 * Which Excel the preview plays, from the preview page's address (the pane is
 * its frame, so the page's query string decides; the pane page opened alone
 * reads its own):
 *
 *   ?runtime=1.3|1.4   the CustomFunctionsRuntime version advertised: 1.4 takes
 *                      formatted numbers from functions (Microsoft 365), 1.3 does not
 *                      (perpetual Office 2019/2021)
 *   ?blanks=zero       blank cells passed as 0, as older desktop builds pass them
 *   ?dates=1904        the workbook on the 1904 date system
 */
import type { DateSystem } from '../../formulas/cells';
import type { BlankCells } from '../runtime/marshal';
import type { RuntimeVersion } from '../runtime/runtime';

export interface PreviewExcel {
  runtime: RuntimeVersion;
  blanks: BlankCells;
  dates: DateSystem;
}

/**
 * What the preview plays unless asked: Excel on the web (Microsoft 365), whose
 * runtime is 1.4: dates reach the grid as formatted numbers and show in their own format.
 */
export const PREVIEW_DEFAULTS: PreviewExcel = { runtime: '1.4', blanks: 'null', dates: '1900' };

export function previewExcel(search: string): PreviewExcel {
  const q = new URLSearchParams(search);
  const runtime = q.get('runtime');
  return {
    runtime: runtime === '1.3' || runtime === '1.4' ? runtime : PREVIEW_DEFAULTS.runtime,
    blanks: q.get('blanks') === 'zero' ? 'zero' : PREVIEW_DEFAULTS.blanks,
    dates: q.get('dates') === '1904' ? '1904' : PREVIEW_DEFAULTS.dates,
  };
}

/** The query string that decides: the preview page around the pane, or the pane page opened alone. */
export function previewSearch(w: Window): string {
  try {
    return w.parent !== w ? w.parent.location.search : w.location.search;
  } catch {
    return w.location.search;
  }
}
