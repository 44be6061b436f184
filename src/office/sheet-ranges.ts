/**
 * Ranges read whole (formulas, values, and valuesAsJson where ExcelApi 1.16
 * is there) on the sheet of a recorded Worksheet.id and on the sheet of a
 * recorded name: what Restore formulas checks before it writes
 * (taskpane/freeze.ts decides). Two syncs for any number of ranges.
 *
 * Worksheets.getItemOrNullObject takes "its name or ID" (ExcelApi 1.4,
 * learn.microsoft.com/javascript/api/excel/excel.worksheetcollection, getItemOrNullObject);
 * a missing sheet is a null object rather than an error that would fail the
 * whole batch. Worksheet.id: ExcelApi 1.1, the same through a rename or move
 * (learn.microsoft.com/javascript/api/excel/excel.worksheet, id).
 */
import { dataTypesSupported, type CellAt } from './workbook-cells';

/** A range as read, on the sheet of that name (now) and id. */
export interface SheetRange {
  sheet: string;
  sheetId: string;
  formulas: unknown[][];
  values: unknown[][];
  /** Range.valuesAsJson; null where ExcelApi 1.16 is not there. */
  json: unknown[][] | null;
}

/**
 * Each range on the sheet its id names, then on the sheet its name names
 * where that is another sheet: none, one or two reads a range, in that order
 * ([] where neither sheet is there).
 */
export async function readRangesOnSheets(cells: readonly (CellAt & { sheetId?: string })[]): Promise<SheetRange[][]> {
  if (cells.length === 0) return [];
  const json = dataTypesSupported();
  return Excel.run(async (ctx) => {
    const sheets = new Map<string, Excel.Worksheet>();
    const sheet = (key: string) => {
      let ws = sheets.get(key.toLowerCase());
      if (!ws) {
        ws = ctx.workbook.worksheets.getItemOrNullObject(key);
        ws.load('name,id');
        sheets.set(key.toLowerCase(), ws);
      }
      return ws;
    };
    const candidates = cells.map((c) => [...(c.sheetId ? [sheet(c.sheetId)] : []), sheet(c.sheet)]);
    await ctx.sync();
    const ranges = cells.map((c, i) => {
      const seen = new Set<string>();
      return candidates[i]
        .filter((ws) => !ws.isNullObject && !seen.has(ws.id) && Boolean(seen.add(ws.id)))
        .map((ws) => {
          const r = ws.getRange(c.address);
          r.load(json ? 'formulas,values,valuesAsJson' : 'formulas,values');
          return { ws, r };
        });
    });
    await ctx.sync();
    return ranges.map((list) =>
      list.map(({ ws, r }) => ({ sheet: ws.name, sheetId: ws.id, formulas: r.formulas, values: r.values, json: json ? (r.valuesAsJson as unknown[][]) : null })),
    );
  });
}
