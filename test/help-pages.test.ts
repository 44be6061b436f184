/**
 * The help pages (the functions' help links in Excel, and /help/ with the
 * add-in) say what the formulas do: grouped by area in the order users look
 * for them, and each page's claims (one value or a table, the unknown-coin
 * error, the date forms) checked against what the formulas return.
 *
 *   node --import tsx --test test/help-pages.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadExamples } from '../scripts/formula-table';
import { calculate, type Outcome } from '../src/cli/calculate';
import { loadFunctionMetadata, type FunctionMeta } from '../src/cli/metadata';
import type { Session } from '../src/cli/session';
import { PREVIEW_FILES, developmentBuild } from '../harness/dev-build';
import { testSession } from './support/frozen-session';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AREAS = JSON.parse(readFileSync(path.join(root, 'src/help/areas.json'), 'utf8')) as {
  areas: { title: string; functions: string[] }[];
  oneValueOrTable: Record<string, string>;
};

let dist: string;
let session: Session;
let functions: FunctionMeta[];

before(async () => {
  dist = await developmentBuild('crypto-addin-preview-test', PREVIEW_FILES);
  session = await testSession();
  functions = await loadFunctionMetadata();
});
after(() => session?.close());

const helpPage = (file: string) => readFileSync(path.join(dist, 'help', file), 'utf8');
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/\s+/g, ' ');
const cellsOf = (o: Outcome) => ('value' in o ? o.value.length * Math.max(...o.value.map((r) => r.length)) : 1);

test('the index groups every formula once, by area (prices, history, supply, market-wide, chains, account), in that order', () => {
  const listed = AREAS.areas.flatMap((a) => a.functions);
  assert.deepEqual([...listed].sort(), functions.map((f) => f.id).sort(), 'every function in exactly one area');
  assert.equal(new Set(listed).size, listed.length);
  assert.deepEqual(AREAS.areas.map((a) => a.title), ['Prices', 'History', 'Supply', 'Market-wide', 'Chains', 'Account']);
  const index = helpPage('index.html');
  const headings = [...index.matchAll(/<h3>([^<]+)<\/h3>/g)].map((m) => m[1]);
  assert.deepEqual(headings, AREAS.areas.map((a) => a.title));
  const order = [...index.matchAll(/href="([a-z]+)\.html"/g)].map((m) => m[1].toUpperCase()).filter((id) => listed.includes(id));
  assert.deepEqual(order, listed, 'the links in the areas\' order');
  assert.ok(order.indexOf('PRICE') === 0 && order.indexOf('CREDITS') === order.length - 1, 'PRICE first, CREDITS last');
});

test("each page's Result says one value or a table as its examples answer", async () => {
  const examples = loadExamples();
  const wrong: string[] = [];
  for (const f of functions) {
    const page = text(helpPage(`${f.id.toLowerCase()}.html`));
    const result = /Result (.*?) (Dates|Examples) /.exec(page)?.[1] ?? '';
    const either = Object.hasOwn(AREAS.oneValueOrTable, f.id);
    for (const { formula } of examples[f.id] ?? []) {
      if (/LIVEPRICE/.test(formula)) continue; // a stream: one value that updates
      const o = await calculate(session.host, formula);
      if ('error' in o) continue; // the examples' own test checks they answer
      const n = cellsOf(o);
      if (!either && /^One value/.test(result) && n !== 1) wrong.push(`${formula}: ${n} cells, page says "${result}"`);
      if (!either && /^A table/.test(result) && n === 1) wrong.push(`${formula}: one cell, page says "${result}"`);
    }
    if (either) assert.equal(result, AREAS.oneValueOrTable[f.id], f.id);
  }
  assert.deepEqual(wrong, []);
});

test('the unknown-coin error is on the pages of formulas that take a coin, and those formulas answer it', async () => {
  const examples = loadExamples();
  for (const f of functions) {
    const takesCoin = f.parameters.some((p) => p.name === 'coin' || p.name === 'coins');
    const page = text(helpPage(`${f.id.toLowerCase()}.html`));
    assert.equal(/unknown coin/.test(page), takesCoin, f.id);
    if (!takesCoin || f.id === 'LIVEPRICE') continue;
    const example = (examples[f.id] ?? []).find((e) => /^=CRYPTO\.[A-Z]+\("[^"]+"/.test(e.formula));
    if (!example) continue;
    const formula = example.formula.replace(/^(=CRYPTO\.[A-Z]+\()"[^"]+"/, '$1"nosuchcoinxyz"');
    const o = await calculate(session.host, formula);
    // The whole formula's error, or (QUOTE) the coin's row of error cells.
    const err = 'error' in o ? o : (o.value.flat().find((c) => typeof c === 'object') as { error: string; message: string } | undefined);
    assert.ok(err && err.error === '#N/A' && /nosuchcoinxyz/.test(err.message), `${formula}: ${JSON.stringify(o).slice(0, 200)}`);
  }
});

test('the date forms a page lists are accepted: a period alone means that period, as a single date its first day', async () => {
  const dated = functions.filter((f) => f.parameters.some((p) => ['start', 'end', 'date'].includes(p.name)));
  assert.ok(dated.length >= 5);
  for (const f of dated) assert.match(text(helpPage(`${f.id.toLowerCase()}.html`)), /"2024Q1".*"30D"/, f.id);
  const v = async (formula: string) => {
    const o = await calculate(session.host, formula);
    assert.ok('value' in o, `${formula}: ${JSON.stringify(o)}`);
    return o.value;
  };
  assert.deepEqual(await v('=CRYPTO.HISTORICAL("bitcoin","2024Q1")'), await v('=CRYPTO.HISTORICAL("bitcoin","2024-01-01")'));
  assert.deepEqual(await v('=CRYPTO.HISTORICAL("bitcoin","2024-03")'), await v('=CRYPTO.HISTORICAL("bitcoin",DATE(2024,3,1))'));
  assert.equal((await v('=CRYPTO.OHLCV("bitcoin","2024Q1",,"monthly",0,"close")')).length, 3, 'a quarter alone: its three months');
  assert.equal((await v('=CRYPTO.OHLCV("bitcoin","2024",,"monthly",0,"close")')).length, 12, 'a year alone: its twelve months');
  assert.ok((await v('=CRYPTO.OHLCV("bitcoin","30D",,"daily",0,"close")')).length >= 30, 'a look-back');
});

test("the blank rule: OHLCV's page names fields beside headers as an argument whose 0 is a value (Date), so a blank cell differs by build", () => {
  const blankCells = (id: string) => /<h2>Blank cells<\/h2><p>(.*?)<\/p>/s.exec(helpPage(`${id}.html`))?.[1] ?? '';
  const ohlcv = blankCells('ohlcv');
  assert.match(ohlcv, /<code>headers<\/code> and <code>fields<\/code> are the exceptions/);
  assert.match(ohlcv, /a blank <code>fields<\/code> cell is no column in Excel on the web and newer desktop builds .* and a Date column on older desktop builds/);
  assert.match(ohlcv, /a blank <code>headers<\/code> cell shows the header row in Excel on the web and newer desktop builds and hides it on older desktop builds/);
  // Other formulas: headers alone (RETURNS), and a fields argument whose 0 is no value (STATS' names).
  for (const id of ['returns', 'stats']) {
    assert.match(blankCells(id), /<code>headers<\/code> is the exception: its 0 hides the header row/, id);
    assert.doesNotMatch(blankCells(id), /<code>fields<\/code>/, id);
  }
});
