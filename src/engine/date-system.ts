/**
 * The workbook's date system for the engine. Its date functions compute on
 * 1900-system serials (values.ts serialOf/msOf); a workbook on the 1904
 * system holds the same day 1,462 days lower, and its serial 0 is 1904-01-01
 * ("Date systems in Excel", support.microsoft.com/office/e7fe7167-48a9-4b96-bb53-5612a800b487;
 * "Differences between the 1900 and the 1904 date system in Excel",
 * learn.microsoft.com/troubleshoot/microsoft-365-apps/excel/1900-and-1904-date-system).
 * The offset is the add-in's own (serialFrom/serialIn, formulas/cells.ts);
 * this adds the lower limit: in either system a serial below 0 is no date.
 */
import { serialFrom, serialIn, type DateSystem } from '../formulas/cells';

export type { DateSystem };

/** The first year a workbook on this system has days in. */
export const firstYear = (system: DateSystem): number => (system === '1904' ? 1904 : 1900);

/** A day given as a 1900-system serial, as the workbook holds it; null before the system's first day. */
export function workbookSerial(serial1900: number, system: DateSystem): number | null {
  const s = serialIn(serial1900, system);
  return s < 0 ? null : s;
}

/** A serial the workbook holds, as the 1900-system serial the functions compute with; null before the system's first day. */
export function serial1900(serial: number, system: DateSystem): number | null {
  return serial < 0 ? null : serialFrom(serial, system);
}
