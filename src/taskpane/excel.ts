/**
 * The pane's recalculations. Outside Excel (a plain browser, where
 * Office.onReady reports no host) there is nothing to recalculate.
 */
import type { CreditMeter, MarketClient } from '../client';
import { reenterUnchanged, type CryptoCell } from '../office/workbook-cells';

export function isExcelHost(host: Office.HostType | null | undefined): boolean {
  return typeof Excel !== 'undefined' && typeof Office !== 'undefined' && host === Office.HostType.Excel;
}

export { recalculateWorkbook } from '../office/workbook-cells';

/** Every formula on the active sheet (markAllDirty = true). */
export async function recalculateActiveSheet(): Promise<void> {
  await Excel.run(async (ctx) => {
    ctx.workbook.worksheets.getActiveWorksheet().calculate(true);
    await ctx.sync();
  });
}

/**
 * Only these CRYPTO cells (and what reads them) calculate again: each one's
 * formula is entered again, which makes Excel call its custom functions, as
 * an edit does. The caller found the cells (cryptoCells) to count or cost them first;
 * a cell that no longer holds the formula it was found with is left alone (`changed`),
 * and the caller's message names it (leftAlone).
 */
export async function reenterFormulas(cells: readonly CryptoCell[]): Promise<{ entered: CryptoCell[]; changed: CryptoCell[] }> {
  return reenterUnchanged(cells);
}

/** The cells re-entering left alone, for the end of the caller's message ('' when none). At most 10 named. */
export function leftAlone(changed: readonly { sheet: string; address: string }[]): string {
  if (changed.length === 0) return '';
  const names = changed.slice(0, 10).map((c) => `${c.sheet}!${c.address}`);
  const more = changed.length > names.length ? ` and ${changed.length - names.length} more` : '';
  const one = changed.length === 1;
  return ` Left alone, because ${one ? 'it was' : 'they were'} changed since the pane found ${one ? 'it' : 'them'} (edited, or moved by an inserted or deleted row or column): ${names.join(', ')}${more}.`;
}

/**
 * What a refresh spent: the meter's credits from `before` until it has been
 * quiet for `quietMs` after an answer and `busy()` (requests waiting for a
 * rate-limit slot) says nothing is held back, at most `maxMs`; null when no
 * answer came by then (nothing measured: the caller keeps its old figure).
 * The quiet clock starts at the first answer, not when the formulas were
 * entered: a refresh whose first answer took over 1.5 s (a slow link, a
 * rate-limit wait, a retry) was measured 0, saved as the workbook's estimate,
 * and let the next refresh on open past a spent budget (review 2026-11-27, office #2).
 */
export function spentUntilQuiet(
  meter: CreditMeter,
  before: number,
  { quietMs = 1_500, maxMs = 60_000, busy = () => false }: { quietMs?: number; maxMs?: number; busy?: () => boolean } = {},
): Promise<number | null> {
  return new Promise((resolve) => {
    const start = Date.now();
    let last: number | null = null;
    const onChange = () => (last = Date.now());
    meter.addEventListener('change', onChange);
    const tick = () => {
      const now = Date.now();
      if (last !== null && busy()) last = now;
      if ((last !== null && now - last >= quietMs) || now - start >= maxMs) {
        meter.removeEventListener('change', onChange);
        resolve(last === null ? null : Math.max(0, meter.snapshot().credits - before));
      } else setTimeout(tick, 250);
    };
    setTimeout(tick, 250);
  });
}

/** What a refresh by this client spent (spentUntilQuiet), kept open while its requests wait for a rate-limit slot. */
export function refreshSpent(client: Pick<MarketClient, 'meter' | 'queuedForRate'>, before: number): Promise<number | null> {
  return spentUntilQuiet(client.meter, before, { busy: () => client.queuedForRate > 0 });
}
