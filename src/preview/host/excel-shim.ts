/**
 * The Excel global the add-in calls, answered by the preview instead of
 * Excel: Excel.run gives a request context (excel-batch.ts) whose objects
 * queue their reads and writes and carry them out in order on sync(), as
 * Office.js batches them: the workbook and its worksheets collection, the
 * selection and active cell, calculate(), and workbook.functions.date()
 * (Excel's DATE, in the workbook's date system), here; ranges and worksheets
 * in excel-sheets.ts.
 */
import { serialIn, toSerial } from '../../formulas/cells';
import type { WorkbookDocument } from '../protocol';
import { NotLoaded, nullable, RequestContext } from './excel-batch';
import { sheetIds } from './excel-sheet-ids';
import { Range, sheetData, Worksheet } from './excel-sheets';
import { doc, open, type ShimWorkbook } from './office-shim';
import type { PreviewExcel } from './options';

export const CalculationType = { recalculate: 'Recalculate', full: 'Full', fullRebuild: 'FullRebuild' } as const;

function workbookObject(ctx: RequestContext) {
  let items: Worksheet[] | null = null;
  const worksheets = {
    getActiveWorksheet: () => new Worksheet(ctx, (d) => (typeof d.activeSheet === 'function' ? d.activeSheet() : 'Sheet1')),
    /** By name or id, as Office.js takes either (learn.microsoft.com/javascript/api/excel/excel.worksheetcollection, getItem). */
    getItem: (key: string) =>
      new Worksheet(ctx, (d) => {
        const n = sheetIds(d).find(d, key);
        if (n === null) throw new Error(`ItemNotFound: no worksheet named ${key}`);
        return n;
      }),
    getItemOrNullObject: (key: string) => {
      const locate = (d: WorkbookDocument) => sheetIds(d).find(d, key);
      return nullable(ctx, new Worksheet(ctx, locate), (d) => locate(d) !== null);
    },
    add: (name: string) => {
      ctx.queue.push((wb) => doc(wb).addSheet(name));
      return worksheets.getItem(name);
    },
    load(_props?: unknown) {
      ctx.queue.push((wb) => {
        const d = doc(wb);
        items = d.sheetNames().map((n) => {
          const ws = new Worksheet(ctx, () => n);
          (ws as unknown as { data: Record<string, unknown> }).data = sheetData(d, n);
          return ws;
        });
      });
      return worksheets;
    },
    get items(): Worksheet[] {
      if (!items) throw new NotLoaded('items');
      return items;
    },
  };
  /** Excel's DATE as Workbook.functions evaluates it: a FunctionResult whose value is there after sync(). */
  const date = (y: number, m: number, d: number) => {
    const result = { value: undefined as number | undefined, error: undefined as string | undefined, load: () => result };
    ctx.queue.push(async () => {
      result.value = serialIn(toSerial(Date.UTC(y, m - 1, d)), ctx.excel.dates);
    });
    return result;
  };
  return {
    application: { calculate: (type: 'Recalculate' | 'Full' | 'FullRebuild') => void ctx.queue.push((wb) => open(wb).calculate(type)) },
    worksheets,
    functions: { date },
    getSelectedRange: () =>
      new Range(ctx, (d) => {
        const s = d.selection();
        return { sheet: s.sheet, address: s.address };
      }),
    getActiveCell: () =>
      new Range(ctx, (d) => {
        const s = d.selection();
        return { sheet: s.sheet, address: s.active };
      }),
  };
}

export function excelShim(workbook: () => ShimWorkbook | null, excel: PreviewExcel) {
  return {
    CalculationType,
    ClearApplyTo: { all: 'All', formats: 'Formats', contents: 'Contents' },
    async run<T>(batch: (ctx: unknown) => Promise<T>): Promise<T> {
      return batch(new RequestContext(workbook, excel, workbookObject));
    },
  };
}
