/**
 * Worksheet ids for the preview's Excel shim (excel-sheets.ts, excel-shim.ts).
 * Worksheet.id (ExcelApi 1.1): "uniquely identifies the worksheet in a given
 * workbook ... remains the same even when the worksheet is renamed or moved"
 * (learn.microsoft.com/javascript/api/excel/excel.worksheet, id). Excel's are
 * GUIDs in braces; Excel on the web gives a new workbook's first sheet
 * {00000000-0001-0000-0000-000000000000} (office-js#552), the form used here,
 * numbered in the order the shim first sees each sheet. Kept per document by
 * the sheet's name: the preview cannot rename a sheet (neither WorkbookDocument
 * nor its grid offers it), so a sheet's name is what stays; a rename added
 * there must move the sheet's id to its new name. A reopened workbook is a new
 * document and numbers its sheets again, as ids may change between sessions
 * in Excel too (office-js-docs#297).
 */
import type { WorkbookDocument } from '../protocol';

/** One document's sheet ids, by sheet name. */
class SheetIds {
  readonly #byName = new Map<string, string>();
  id(name: string): string {
    const key = name.toLowerCase();
    let id = this.#byName.get(key);
    if (!id) {
      id = `{00000000-0001-0000-${this.#byName.size.toString(16).toUpperCase().padStart(4, '0')}-000000000000}`;
      this.#byName.set(key, id);
    }
    return id;
  }
  /** The sheet named `key`, or whose id `key` is (Worksheets.getItem takes either). */
  find(d: WorkbookDocument, key: string): string | null {
    const k = key.toLowerCase();
    return d.sheetNames().find((n) => n.toLowerCase() === k || this.id(n).toLowerCase() === k) ?? null;
  }
}

const idsOf = new WeakMap<WorkbookDocument, SheetIds>();
export function sheetIds(d: WorkbookDocument): SheetIds {
  let ids = idsOf.get(d);
  if (!ids) idsOf.set(d, (ids = new SheetIds()));
  return ids;
}
