/**
 * npm run samples: the preview's templates as .xlsx workbooks in the form
 * Excel saves them (scripts/xlsx-saved-form.ts: `_xldudf_` names, array marks,
 * cached values, the parts naming the add-in), for Excel users to open once
 * the add-in is installed. Writes samples/<template>.xlsx; `--out DIR` elsewhere.
 *
 * The workbooks name the development add-in (the manifest's Id, sideloaded:
 * store "developer", storeType "Registry", as Excel writes it for a sideloaded
 * add-in). A published build names the store's instead:
 *   npm run samples -- --store appsource:WA104380000:en-US   (AppSource: asset id and locale, storeType OMEX)
 *   npm run samples -- --store catalog                       (Centralized Deployment: storeType EXCatalog)
 *
 * Number formats: the templates' own (money, percent) and, over each table's
 * spill area, the formats of the dates the table answers with, found by
 * calculating the table once on the local API server's demo data (the shape
 * only: no value of it is stored).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import writeXlsxFile, { type Cell, type SheetData } from 'write-excel-file/node';
import { parseAddress, toAddress } from '../src/preview/workbook/address';
import type { NumberFormat } from '../src/preview/workbook/format';
import { literalValue, isFormula } from '../src/preview/workbook/sheet';
import { TEMPLATES, type Template } from '../src/preview/workbook/templates';
import { calculate } from '../src/cli/calculate';
import { loadFunctionMetadata } from '../src/cli/metadata';
import { openSession } from '../src/cli/session';
import { FROZEN_ISO } from '../harness/instant';
import { savedFormula, toSavedForm, type AddinReference } from './xlsx-saved-form';

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

/** Rows below a table's calculated spill area that get its formats too: tables grow (RETURNS gains a year). */
const SPILL_MARGIN_ROWS = 10;
/**
 * The day the spill areas are calculated on (the local API server's clock): the
 * files do not change with the day they are written. The frozen instant, as
 * test/samples.test.ts checks the unlocks sample's spill area at it; moving it
 * changes the samples: run npm run samples.
 */
const SHAPE_DAY = FROZEN_ISO;

export const SAMPLE_TEMPLATES = TEMPLATES.filter((t) => Object.keys(t.cells).length > 0);
export const sampleFile = (t: Template) => `crypto-${t.id}.xlsx`;

/** The add-in as the manifest names it: its Id, Version and custom-functions namespace. */
export function manifestAddin(manifest = readFileSync(path.join(root, 'manifest.xml'), 'utf8')): { id: string; version: string; namespace: string } {
  const id = /<Id>\s*([^<\s]+)\s*<\/Id>/.exec(manifest)?.[1];
  const version = /<Version>\s*([^<\s]+)\s*<\/Version>/.exec(manifest)?.[1];
  const namespace = /<bt:String id="Functions\.Namespace" DefaultValue="([^"]+)"/.exec(manifest)?.[1];
  if (!id || !version || !namespace) throw new Error('manifest.xml: no <Id>, <Version> or Functions.Namespace');
  return { id, version, namespace };
}

/** `--store appsource:<asset id>[:<locale>]` or `--store catalog`; none: the development add-in. */
export function addinReference(store: string | undefined, addin = manifestAddin()): AddinReference {
  if (!store) return { id: addin.id, version: addin.version, store: 'developer', storeType: 'Registry' };
  if (store === 'catalog') return { id: addin.id, version: addin.version, store: 'EXCatalog', storeType: 'EXCatalog' };
  const m = /^appsource:(WA\d+)(?::([a-z]{2}-[a-z]{2}))?$/i.exec(store);
  if (m) return { id: m[1].toUpperCase(), version: addin.version, store: m[2] ?? 'en-US', storeType: 'OMEX' };
  throw new Error(`--store takes appsource:<asset id, WA...>[:<locale>] or catalog; got "${store}"`);
}

function cellOf(input: string, excelFormat: string | undefined): Cell {
  // The file keeps a formula without its "=" (SpreadsheetML's <f> element).
  if (isFormula(input)) return { type: 'Formula', value: input.slice(1), ...(excelFormat ? { format: excelFormat } : {}) };
  const v = literalValue(input);
  if (typeof v === 'number') return { type: Number, value: v, ...(excelFormat ? { format: excelFormat } : {}) };
  if (typeof v === 'boolean') return { type: Boolean, value: v };
  return { type: String, value: String(v) };
}

/** Excel number formats by cell: the template's, then each table's date columns over its spill area. */
export type CellFormats = Record<string, string>;

export function sheetData(t: Template, spillFormats: CellFormats = {}): SheetData {
  const rows: SheetData = [];
  const place = (address: string, cell: Cell) => {
    const p = parseAddress(address)!;
    while (rows.length < p.row) rows.push([]);
    const row = rows[p.row - 1];
    while (row.length < p.col) row.push(null);
    row[p.col - 1] = cell;
  };
  // Empty cells that only carry a format: where a table will spill (its dates, and the template's money or percent columns).
  const spillArea: CellFormats = { ...spillFormats };
  for (const [address, f] of Object.entries(t.formats)) if (!(address in t.cells) && EXCEL_FORMATS[f]) spillArea[address] ??= EXCEL_FORMATS[f]!;
  for (const [address, format] of Object.entries(spillArea)) if (!(address in t.cells)) place(address, { type: Number, value: undefined, format });
  for (const [address, input] of Object.entries(t.cells)) {
    const preview = t.formats[address];
    place(address, cellOf(input, spillFormats[address] ?? (preview ? EXCEL_FORMATS[preview] : undefined)));
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

/**
 * The date formats over each spilling table's area: the table calculated once
 * (formatted numbers kept), and each column holding dates formatted as they
 * are, from the anchor down to SPILL_MARGIN_ROWS below the last row.
 */
export async function spillFormats(t: Template): Promise<CellFormats> {
  const anchors = await spillingCells(t);
  if (anchors.length === 0) return {};
  const session = await openSession({ emulator: { now: SHAPE_DAY }, workbook: { formattedNumbers: true } });
  const out: CellFormats = {};
  try {
    for (const anchor of anchors) {
      const outcome = await calculate(session.host, t.cells[anchor]);
      if (!('value' in outcome)) throw new Error(`${t.id}!${anchor}: ${t.cells[anchor]} gives ${JSON.stringify(outcome)} on the demo data`);
      const at = parseAddress(anchor)!;
      const width = Math.max(...outcome.value.map((r) => r.length));
      for (let c = 0; c < width; c++) {
        const date = outcome.value.map((r) => r[c]).find((v) => typeof v === 'object' && v !== null && 'numberFormat' in v);
        if (!date || !('numberFormat' in date)) continue;
        for (let r = 0; r < outcome.value.length + SPILL_MARGIN_ROWS; r++) {
          const address = toAddress({ row: at.row + r, col: at.col + c });
          const value = outcome.value[r]?.[c];
          if (typeof value === 'string' && value !== '') continue; // the header row
          out[address] = date.numberFormat;
        }
      }
    }
  } finally {
    await session.close();
  }
  return out;
}

export async function writeSamples(dir = SAMPLES_DIR, store?: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const addin = manifestAddin();
  const reference = addinReference(store, addin);
  const functionIds = new Map((await loadFunctionMetadata()).map((f) => [f.name.toUpperCase(), f.id]));
  const files: string[] = [];
  for (const t of SAMPLE_TEMPLATES) {
    const file = path.join(dir, sampleFile(t));
    const plain = await writeXlsxFile(sheetData(t, await spillFormats(t)), {
      sheet: t.title,
      columns: [{ width: 24 }, { width: 14 }, { width: 16 }, { width: 14 }, { width: 16 }],
    }).toBuffer();
    const { bytes } = toSavedForm(plain, { namespace: addin.namespace, functionIds, addin: reference, instanceSeed: `${addin.id}/${t.id}` });
    writeFileSync(file, bytes);
    files.push(file);
  }
  return files;
}

/** A template formula as the sample saves it (what a test compares with). */
export const savedTemplateFormula = (input: string, namespace = manifestAddin().namespace) => savedFormula(input.slice(1), namespace).text;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const out = arg('--out');
  const files = await writeSamples(out ? path.resolve(out) : SAMPLES_DIR, arg('--store'));
  for (const f of files) console.log(path.relative(process.cwd(), f));
}
