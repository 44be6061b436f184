/**
 * npm run samples: the templates as .xlsx files in the form Excel saves them,
 * held against test/fixtures/excel-saved-form.json (what an Excel-saved
 * workbook with custom functions holds, and where that was seen), and read
 * back with ExcelJS (a separate reader, MIT): each sheet holds the template's
 * headings and formulas, and the committed samples/ are the generated ones.
 *
 *   node --import tsx --test test/samples.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { strFromU8, unzipSync } from 'fflate';
import { SAMPLES_DIR, SAMPLE_TEMPLATES, addinReference, manifestAddin, sampleFile, savedTemplateFormula, writeSamples } from '../scripts/samples';
import { savedFormula, webextensionXml } from '../scripts/xlsx-saved-form';
import { isFormula } from '../src/preview/workbook/sheet';
import { calculate } from '../src/cli/calculate';
import { openSession } from '../src/cli/session';
import { toSerial } from '../src/formulas/cells';
import { FROZEN_ISO, FROZEN_NOW } from '../harness/instant';

const FIXTURE = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/excel-saved-form.json'), 'utf8')) as {
  parts: { path: string; contentType: string; relatedFrom: string; relationshipType: string; mustContain: string[] }[];
};
const ADDIN = manifestAddin();

let dir: string;
before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'crypto-samples-'));
  await writeSamples(dir);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const parts = (file: string) => Object.fromEntries(Object.entries(unzipSync(readFileSync(file))).map(([k, v]) => [k, strFromU8(v)]));
const written = (t: (typeof SAMPLE_TEMPLATES)[number]) => path.join(dir, sampleFile(t));

/** Attributes of an XML start tag. */
const attrs = (tag: string) => Object.fromEntries([...tag.matchAll(/\s([\w:]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));

/** Every formula cell of a sheet part: its attributes, its <f> attributes and text, and whether it has a cached value. */
function formulaCells(sheet: string) {
  return [...sheet.matchAll(/<c( [^>]*)>(<f( [^>]*)?>([^<]*)<\/f>)(<v>[^<]*<\/v>)?<\/c>/g)].map((m) => ({
    cell: attrs(m[1]),
    f: attrs(m[3] ?? ''),
    formula: m[4].replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
    cached: m[5] !== undefined,
  }));
}

async function readCells(file: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0];
  const formulas: Record<string, string> = {};
  const texts: Record<string, string> = {};
  ws.eachRow((row) =>
    row.eachCell((cell) => {
      if (cell.formula) formulas[cell.address] = `=${cell.formula}`;
      else if (typeof cell.value === 'string') texts[cell.address] = cell.value;
    }),
  );
  /** A cell's number format, empty cells too (where a table will spill). */
  const format = (address: string): string | undefined => ws.getCell(address).numFmt || undefined;
  return { formulas, texts, format, sheetName: ws.name };
}

function expected(t: (typeof SAMPLE_TEMPLATES)[number]) {
  const formulas: Record<string, string> = {};
  const texts: Record<string, string> = {};
  for (const [a, input] of Object.entries(t.cells)) {
    if (isFormula(input)) formulas[a] = `=${savedTemplateFormula(input)}`;
    else if (Number.isNaN(Number(input))) texts[a] = input;
  }
  return { formulas, texts };
}

test('each template is written as an .xlsx whose cells hold its headings and its formulas, the add-in\'s in Excel\'s saved form', async () => {
  for (const t of SAMPLE_TEMPLATES) {
    const got = await readCells(written(t));
    assert.equal(got.sheetName, t.title);
    assert.deepEqual(got.formulas, expected(t).formulas, `${t.id}: formulas`);
    assert.deepEqual(got.texts, expected(t).texts, `${t.id}: headings and text`);
    const all = Object.values(got.formulas);
    assert.ok(all.some((f) => f.includes(`_xldudf_${ADDIN.namespace}_`)), `${t.id} uses the add-in`);
    assert.ok(all.every((f) => !new RegExp(`(^|[^_A-Z])${ADDIN.namespace}\\.`).test(f)), `${t.id}: no formula keeps the typed form ${ADDIN.namespace}.NAME(...)`);
  }
});

test('every cell calling the add-in is as Excel saves one: cm="1", an array formula anchored at the cell, _xldudf_ names, a cached value', () => {
  for (const t of SAMPLE_TEMPLATES) {
    const sheet = parts(written(t))['xl/worksheets/sheet1.xml'];
    const cells = formulaCells(sheet);
    const calling = cells.filter((c) => c.formula.includes('_xldudf_'));
    const inTemplate = Object.values(t.cells).filter((x) => isFormula(x) && x.includes(`${ADDIN.namespace}.`));
    assert.equal(calling.length, inTemplate.length, `${t.id}: every formula calling the add-in`);
    for (const c of calling) {
      assert.equal(c.cell.cm, '1', `${t.id}!${c.cell.r}: cm="1"`);
      assert.deepEqual(c.f, { t: 'array', ref: c.cell.r }, `${t.id}!${c.cell.r}: <f t="array" ref="${c.cell.r}">`);
      assert.match(c.formula, new RegExp(`_xldudf_${ADDIN.namespace}_[A-Z0-9_]+\\(`));
      assert.ok(c.cached, `${t.id}!${c.cell.r}: a cached value`);
    }
    for (const c of cells.filter((x) => !x.formula.includes('_xldudf_'))) assert.equal(c.cell.cm, undefined, `${t.id}!${c.cell.r}: Excel's own formulas stay plain`);
  }
});

test('the parts Excel writes for custom functions are there, typed and related as in the Excel-saved workbook', () => {
  for (const t of SAMPLE_TEMPLATES) {
    const p = parts(written(t));
    for (const want of FIXTURE.parts) {
      assert.ok(p[want.path], `${t.id}: ${want.path}`);
      assert.ok(p['[Content_Types].xml'].includes(`PartName="/${want.path}" ContentType="${want.contentType}"`), `${t.id}: content type of ${want.path}`);
      const target = path.posix.relative(path.posix.dirname(path.posix.dirname(want.relatedFrom)), want.path);
      const rel = [...p[want.relatedFrom].matchAll(/<Relationship [^>]*\/>/g)].map((m) => attrs(m[0])).find((r) => r.Type === want.relationshipType);
      assert.ok(rel, `${t.id}: ${want.relatedFrom} relates ${want.path}`);
      assert.equal(rel.Target, target, `${t.id}: ${want.relatedFrom} targets ${want.path}`);
      for (const s of want.mustContain) assert.ok(p[want.path].includes(s), `${t.id}: ${want.path} holds ${s}`);
    }
    assert.match(p['xl/workbook.xml'], /<calcPr fullCalcOnLoad="1"\/>/, 'Excel calculates on open (it does not recalculate custom functions by itself)');
  }
});

test('the webextension part names the development add-in and lists exactly the function ids the workbook uses', () => {
  for (const t of SAMPLE_TEMPLATES) {
    const p = parts(written(t));
    const we = p['xl/webextensions/webextension1.xml'];
    const ref = attrs(/<we:reference [^>]*\/>/.exec(we)![0]);
    assert.deepEqual(ref, { id: ADDIN.id, version: ADDIN.version, store: 'developer', storeType: 'Registry' }, t.id);
    const listed = [...we.matchAll(/<we:customFunctionIds>([^<]+)<\/we:customFunctionIds>/g)].map((m) => m[1]).sort();
    const used = [...new Set(formulaCells(p['xl/worksheets/sheet1.xml']).flatMap((c) => [...c.formula.matchAll(/(_xldudf_[A-Z0-9_]+)\(/g)].map((m) => m[1])))].sort();
    assert.deepEqual(listed, used, t.id);
  }
});

test('a published build names the store\'s add-in: AppSource by asset id and locale (OMEX), Centralized Deployment by the manifest id (EXCatalog)', () => {
  assert.deepEqual(addinReference('appsource:WA104380000:en-GB'), { id: 'WA104380000', version: ADDIN.version, store: 'en-GB', storeType: 'OMEX' });
  assert.deepEqual(addinReference('catalog'), { id: ADDIN.id, version: ADDIN.version, store: 'EXCatalog', storeType: 'EXCatalog' });
  assert.throws(() => addinReference('somewhere'), /--store takes/);
  const we = webextensionXml(addinReference('appsource:WA104380000'), ['_xldudf_CRYPTO_PRICE'], 'x');
  assert.match(we, /<we:reference id="WA104380000" version="[\d.]+" store="en-US" storeType="OMEX"\/>/);
});

test('the add-in\'s names are rewritten wherever they are called, and nowhere in text', () => {
  assert.deepEqual(savedFormula('INDEX(CRYPTO.QUOTE(A4,"percentChange.h24"),1,2)+crypto.price("CRYPTO.PRICE(")', 'CRYPTO'), {
    text: 'INDEX(_xldudf_CRYPTO_QUOTE(A4,"percentChange.h24"),1,2)+_xldudf_CRYPTO_PRICE("CRYPTO.PRICE(")',
    names: ['QUOTE', 'PRICE'],
  });
  assert.equal(savedFormula('SUM(A1:A3)', 'CRYPTO').names.length, 0);
});

test('number formats: the templates\' money and percent cells, and the dates over each table\'s spill area', async () => {
  const history = await readCells(path.join(dir, 'crypto-history.xlsx'));
  for (let r = 4; r <= 15; r++) {
    assert.equal(history.format(`A${r}`), 'yyyy-mm-dd', `A${r}: OHLCV's date column`);
    assert.equal(history.format(`B${r}`), '#,##0.00', `B${r}: the template's money column`);
  }
  assert.equal(history.format('E4'), 'yyyy-mm-dd', 'RETURNS\'s date column');
  assert.equal(history.format('A3'), undefined, 'not the header row');
  const dashboard = await readCells(path.join(dir, 'crypto-dashboard.xlsx'));
  assert.equal(dashboard.format('P11'), 'yyyy-mm-dd hh:mm', 'MARKETS\'s Last updated column');
  const unlocks = await readCells(path.join(dir, 'crypto-unlocks.xlsx'));
  assert.equal(unlocks.format('A4'), 'yyyy-mm-dd');
});

test('the unlocks sample shows what its title says: every unlock of the next 90 days, its dates formatted to the last row', async () => {
  const t = SAMPLE_TEMPLATES.find((x) => x.id === 'unlocks')!;
  assert.match(t.cells.A1, /the next 90 days/);
  const session = await openSession({ emulator: { now: FROZEN_ISO } });
  try {
    const out = await calculate(session.host, t.cells.A3);
    assert.ok('value' in out, JSON.stringify(out));
    // The server's own count of the window, every page of the list of 25.
    let total = 0;
    for (let page = 1; ; page++) {
      const r = await fetch(`${session.emulator!.url}/v3/currencies/upcoming-token-unlocks?daysAhead=90&page=${page}`, { headers: { 'X-Api-Key': 'demo-pro' } });
      const b = (await r.json()) as { data: unknown[]; meta: { hasNextPage: boolean } };
      total += b.data.length;
      if (!b.meta.hasNextPage) break;
    }
    assert.ok(total > 25, `${total} unlocks in 90 days`);
    assert.equal(out.value.length, 1 + total, 'a header row and every unlock, no note row');
    const today = Math.floor(toSerial(FROZEN_NOW));
    const last = out.value[out.value.length - 1][0] as number;
    assert.ok(last > today + 80 && last <= today + 90, `the last row is near the 90th day (${last - today})`);
    const unlocks = await readCells(path.join(dir, 'crypto-unlocks.xlsx'));
    assert.equal(unlocks.format(`A${3 + total}`), 'yyyy-mm-dd', 'the last unlock\'s date formatted');
  } finally {
    await session.close();
  }
});

test('the committed samples/ are the generated ones, part for part (run npm run samples after changing a template)', () => {
  for (const t of SAMPLE_TEMPLATES) {
    const fresh = parts(written(t));
    const committed = parts(path.join(SAMPLES_DIR, sampleFile(t)));
    assert.deepEqual(Object.keys(committed).sort(), Object.keys(fresh).sort(), `samples/${sampleFile(t)}: parts`);
    for (const k of Object.keys(fresh)) assert.equal(committed[k], fresh[k], `samples/${sampleFile(t)} is out of date: ${k}`);
  }
});

test('the portfolio sample has its headings where the preview shows them', async () => {
  const got = await readCells(path.join(SAMPLES_DIR, 'crypto-portfolio.xlsx'));
  assert.deepEqual(['A3', 'B3', 'C3', 'D3', 'E3'].map((a) => got.texts[a]), ['Coin', 'Holding', 'Price (USD)', '24h change', 'Value (USD)']);
  assert.equal(got.formulas.C4, '=_xldudf_CRYPTO_PRICE(A4)');
  assert.equal(got.formulas.E10, '=SUM(E4:E8)');
});
