/**
 * npm run samples: the templates as .xlsx files, opened with ExcelJS (a
 * separate reader, MIT): each sheet holds the template's headings and
 * formulas, cell for cell, and the committed samples/ are the generated ones.
 *
 *   node --import tsx --test test/samples.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { strFromU8, unzipSync } from 'fflate';
import { SAMPLES_DIR, SAMPLE_TEMPLATES, sampleFile, writeSamples } from '../scripts/samples';
import { isFormula } from '../src/preview/workbook/sheet';

type Found = { formulas: Record<string, string>; texts: Record<string, string> };

async function readCells(file: string): Promise<Found & { sheetName: string }> {
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
  return { formulas, texts, sheetName: ws.name };
}

function expected(t: (typeof SAMPLE_TEMPLATES)[number]): Found {
  const formulas: Record<string, string> = {};
  const texts: Record<string, string> = {};
  for (const [a, input] of Object.entries(t.cells)) {
    if (isFormula(input)) formulas[a] = input;
    else if (Number.isNaN(Number(input))) texts[a] = input;
  }
  return { formulas, texts };
}

test('each template is written as an .xlsx whose cells hold its formulas and headings', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crypto-samples-'));
  try {
    const files = await writeSamples(dir);
    assert.deepEqual(files.map((f) => path.basename(f)).sort(), ['crypto-dashboard.xlsx', 'crypto-history.xlsx', 'crypto-portfolio.xlsx', 'crypto-unlocks.xlsx']);
    for (const t of SAMPLE_TEMPLATES) {
      const got = await readCells(path.join(dir, sampleFile(t)));
      assert.equal(got.sheetName, t.title);
      assert.deepEqual(got.formulas, expected(t).formulas, `${t.id}: formulas`);
      assert.deepEqual(got.texts, expected(t).texts, `${t.id}: headings and text`);
      assert.ok(Object.values(got.formulas).some((f) => f.includes('CRYPTO.')), `${t.id} uses the add-in`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the committed samples/ hold the current templates (run npm run samples after changing one)', async () => {
  for (const t of SAMPLE_TEMPLATES) {
    const got = await readCells(path.join(SAMPLES_DIR, sampleFile(t)));
    assert.deepEqual(got.formulas, expected(t).formulas, `samples/${sampleFile(t)} is out of date`);
    assert.deepEqual(got.texts, expected(t).texts, `samples/${sampleFile(t)} is out of date`);
  }
});

test('the portfolio sample has its headings where the preview shows them', async () => {
  const got = await readCells(path.join(SAMPLES_DIR, 'crypto-portfolio.xlsx'));
  assert.deepEqual(['A3', 'B3', 'C3', 'D3', 'E3'].map((a) => got.texts[a]), ['Coin', 'Holding', 'Price (USD)', '24h change', 'Value (USD)']);
  assert.equal(got.formulas.C4, '=CRYPTO.PRICE(A4)');
  assert.equal(got.formulas.E10, '=SUM(E4:E8)');
});

test('table formulas are stored as dynamic arrays (they spill in Excel), single values are not', async () => {
  const parts = (name: string) => unzipSync(readFileSync(path.join(SAMPLES_DIR, name)));
  const dash = parts('crypto-dashboard.xlsx');
  const sheet = strFromU8(dash['xl/worksheets/sheet1.xml']);
  assert.match(sheet, /<c r="A10"[^>]* cm="1"><f t="array" ref="A10">CRYPTO\.MARKETS\(10\)<\/f>/);
  // FEARGREED is declared a table in functions.json (its history form), so it is marked even where it gives one value.
  assert.match(sheet, /<c r="B3"[^>]* cm="1"><f t="array" ref="B3">CRYPTO\.FEARGREED\(\)<\/f>/);
  assert.match(strFromU8(dash['xl/metadata.xml']), /<metadataType name="XLDAPR"[^>]*\/>.*fDynamic="1"/);
  assert.match(strFromU8(dash['[Content_Types].xml']), /PartName="\/xl\/metadata.xml" ContentType="application\/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata\+xml"/);
  assert.match(strFromU8(dash['xl/_rels/workbook.xml.rels']), /relationships\/sheetMetadata" Target="metadata.xml"/);
  const portfolio = strFromU8(parts('crypto-portfolio.xlsx')['xl/worksheets/sheet1.xml']);
  assert.doesNotMatch(portfolio, /cm="1"/, 'PRICE is one value, and INDEX(...) of a table is one value: nothing is marked');
});
