/**
 * The pane's recalculations. Outside Excel (a plain browser, where
 * Office.onReady reports no host) there is nothing to recalculate.
 */
import type { CreditMeter } from '../client';
import { writeFormulas, type CryptoCell } from '../office/workbook-cells';

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
 * an edit does. The caller found the cells (cryptoCells) to count or cost them first.
 */
export async function reenterFormulas(cells: readonly CryptoCell[]): Promise<void> {
  await writeFormulas(cells.map((c) => ({ sheet: c.sheet, address: c.address, formula: c.formula })));
}

/**
 * What a refresh spent: the meter's credits from `before` until it has been
 * quiet for `quietMs` (the calls it started have settled), at most `maxMs`.
 */
export function spentUntilQuiet(meter: CreditMeter, before: number, quietMs = 1_500, maxMs = 60_000): Promise<number> {
  return new Promise((resolve) => {
    const start = Date.now();
    let last = Date.now();
    const onChange = () => (last = Date.now());
    meter.addEventListener('change', onChange);
    const tick = () => {
      const now = Date.now();
      if (now - last >= quietMs || now - start >= maxMs) {
        meter.removeEventListener('change', onChange);
        resolve(Math.max(0, meter.snapshot().credits - before));
      } else setTimeout(tick, 250);
    };
    setTimeout(tick, 250);
  });
}
