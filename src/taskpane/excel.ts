/**
 * The pane's only Excel calls: recalculations. Outside Excel (a plain browser,
 * where Office.onReady reports no host) there is nothing to recalculate.
 */

export function isExcelHost(host: Office.HostType | null | undefined): boolean {
  return typeof Excel !== 'undefined' && typeof Office !== 'undefined' && host === Office.HostType.Excel;
}

/** Every formula in every open workbook, dirty or not: re-runs the CRYPTO functions (F9 would not). */
export async function recalculateWorkbook(): Promise<void> {
  await Excel.run(async (ctx) => {
    ctx.workbook.application.calculate(Excel.CalculationType.full);
    await ctx.sync();
  });
}

/** Every formula on the active sheet (markAllDirty = true). */
export async function recalculateActiveSheet(): Promise<void> {
  await Excel.run(async (ctx) => {
    ctx.workbook.worksheets.getActiveWorksheet().calculate(true);
    await ctx.sync();
  });
}
