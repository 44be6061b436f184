/**
 * npm run samples: the preview's templates as .xlsx workbooks with their
 * CRYPTO formulas (write-excel-file, MIT), for Excel users to open once the
 * add-in is installed. Writes samples/<template>.xlsx; `--out DIR` elsewhere.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import writeXlsxFile, { type Cell, type SheetData } from 'write-excel-file/node';
import { parseAddress } from '../src/preview/workbook/address';
import type { NumberFormat } from '../src/preview/workbook/format';
import { literalValue, isFormula } from '../src/preview/workbook/sheet';
import { TEMPLATES, type Template } from '../src/preview/workbook/templates';
import { loadFunctionMetadata } from '../src/cli/metadata';
import { markDynamicArrays } from './xlsx-dynamic-arrays';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SAMPLES_DIR = path.join(root, 'samples');

/** The preview's formats as Excel number formats. */
const EXCEL_FORMATS: Record<NumberFormat, string | undefined> = {
  general: undefined,
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm',
  money: '#,##0.00',
  percent: '0.00%',
  percentPoints: '0.00"%"',
  integer: '#,##0',
};

export const SAMPLE_TEMPLATES = TEMPLATES.filter((t) => Object.keys(t.cells).length > 0);
export const sampleFile = (t: Template) => `crypto-${t.id}.xlsx`;

function cellOf(input: string, format: NumberFormat | undefined): Cell {
  const excelFormat = format ? EXCEL_FORMATS[format] : undefined;
  // The file keeps a formula without its "=" (SpreadsheetML's <f> element).
  if (isFormula(input)) return { type: 'Formula', value: input.slice(1), ...(excelFormat ? { format: excelFormat } : {}) };
  const v = literalValue(input);
  if (typeof v === 'number') return { type: Number, value: v, ...(excelFormat ? { format: excelFormat } : {}) };
  if (typeof v === 'boolean') return { type: Boolean, value: v };
  return { type: String, value: String(v) };
}

export function sheetData(t: Template): SheetData {
  const rows: SheetData = [];
  for (const [address, input] of Object.entries(t.cells)) {
    const p = parseAddress(address)!;
    while (rows.length < p.row) rows.push([]);
    const row = rows[p.row - 1];
    while (row.length < p.col) row.push(null);
    row[p.col - 1] = cellOf(input, t.formats[address]);
  }
  // The title in bold, as a heading.
  const title = rows[0]?.[0];
  if (title && typeof title === 'object' && !(title instanceof Date)) Object.assign(title, { fontWeight: 'bold', fontSize: 14 });
  return rows;
}

/** Cells whose formula is a CRYPTO function returning a table (functions.json's matrix result): they spill. */
export async function spillingCells(t: Template): Promise<string[]> {
  const tables = new Set((await loadFunctionMetadata()).filter((f) => f.result?.dimensionality === 'matrix').map((f) => f.name));
  return Object.entries(t.cells)
    .filter(([, input]) => {
      const m = /^=CRYPTO\.([A-Z0-9]+)\(/i.exec(input);
      return m !== null && tables.has(m[1].toUpperCase());
    })
    .map(([a]) => a);
}

export async function writeSamples(dir = SAMPLES_DIR): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const t of SAMPLE_TEMPLATES) {
    const file = path.join(dir, sampleFile(t));
    const bytes = await writeXlsxFile(sheetData(t), { sheet: t.title, columns: [{ width: 24 }, { width: 14 }, { width: 16 }, { width: 14 }, { width: 16 }] }).toBuffer();
    writeFileSync(file, markDynamicArrays(bytes, await spillingCells(t)));
    files.push(file);
  }
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const files = await writeSamples(i > 0 ? path.resolve(process.argv[i + 1]) : SAMPLES_DIR);
  for (const f of files) console.log(path.relative(process.cwd(), f));
}
