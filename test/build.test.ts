/**
 * The production build: functions.json generated from JSDoc for every formula,
 * the task pane page, help pages, icons, and a schema-valid manifest whose URLs
 * point at the configured production host.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { formatProblems, validateManifest } from '../scripts/validate-manifest';
import { CATALOG } from '../src/formulas/catalog';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const PROD = 'https://addin.contoso.test/crypto/';
let out: string;

interface Meta {
  functions: { id: string; name: string; description: string; helpUrl: string; parameters: { name: string; description: string }[] }[];
}

describe('production build', () => {
  before(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'crypto-build-'));
    await run('npx', ['webpack', '--mode', 'production', '--output-path', out], {
      cwd: root,
      env: { ...process.env, ADDIN_PUBLIC_URL: PROD },
      maxBuffer: 32 * 1024 * 1024,
    });
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  test('functions.json is generated for every formula, with descriptions, parameter help and help URLs on the production host', () => {
    const meta = JSON.parse(readFileSync(path.join(out, 'functions.json'), 'utf8')) as Meta;
    assert.deepEqual(meta.functions.map((f) => f.id).sort(), Object.keys(CATALOG).sort());
    for (const f of meta.functions) {
      assert.ok(f.description, `${f.id} has a description`);
      assert.equal(f.helpUrl, `${PROD}help/${f.id.toLowerCase()}.html`);
      assert.ok(existsSync(path.join(out, 'help', `${f.id.toLowerCase()}.html`)), `${f.id} help page exists`);
      for (const p of f.parameters) assert.ok(p.description, `${f.id}.${p.name} has help`);
    }
  });

  test('every formula help page shows at least one example', () => {
    const meta = JSON.parse(readFileSync(path.join(out, 'functions.json'), 'utf8')) as Meta;
    for (const f of meta.functions) {
      const html = readFileSync(path.join(out, 'help', `${f.id.toLowerCase()}.html`), 'utf8');
      assert.match(html, new RegExp(`<code>=CRYPTO\\.${f.id}\\(`), `${f.id} has an example`);
    }
    assert.match(readFileSync(path.join(out, 'help', 'index.html'), 'utf8'), /CRYPTO\.PRICE/);
  });

  test('the functions bundle registers every function with CustomFunctions.associate', () => {
    const js = readFileSync(path.join(out, 'functions.js'), 'utf8');
    for (const id of Object.keys(CATALOG)) assert.match(js, new RegExp(`associate\\("${id}"`), id);
  });

  test('the task pane loads Office.js from the CDN and both bundles (shared runtime)', () => {
    const html = readFileSync(path.join(out, 'taskpane.html'), 'utf8');
    assert.match(html, /https:\/\/appsforoffice\.microsoft\.com\/lib\/1\/hosted\/office\.js/);
    assert.match(html, /functions\.js/);
    assert.match(html, /taskpane\.js/);
    assert.doesNotMatch(html, /localhost/);
  });

  test('the built manifest points at the production host and validates against the schemas', async () => {
    const manifest = readFileSync(path.join(out, 'manifest.xml'), 'utf8');
    assert.doesNotMatch(manifest, /localhost/);
    assert.match(manifest, new RegExp(`${PROD}taskpane\\.html`));
    assert.match(manifest, new RegExp(`${PROD}functions\\.json`));
    for (const size of [16, 32, 64, 80, 128]) assert.ok(statSync(path.join(out, 'assets', `icon-${size}.png`)).size > 0);
    await assertValid(manifest, 'dist/manifest.xml');
  });

  test('the functions bundle stays small: it loads inside Excel', () => {
    const kb = statSync(path.join(out, 'functions.js')).size / 1024;
    assert.ok(kb < 300, `functions.js is ${kb.toFixed(0)} KB`);
  });
});

/** The schema's verdict, with libxml2's own lines as the failure message. */
async function assertValid(xml: string, name: string): Promise<void> {
  const v = await validateManifest(xml, name);
  assert.ok(v.valid, formatProblems(name, v));
}

const SOURCE = readFileSync(path.join(root, 'manifest.xml'), 'utf8');

test('the source manifest validates against the project\'s schemas', async () => {
  await assertValid(SOURCE, 'manifest.xml');
});

describe('a broken manifest is rejected with the schema\'s message, its line and the element at fault', () => {
  const lineOf = (xml: string, needle: string) => xml.slice(0, xml.indexOf(needle)).split('\n').length;

  test('an unknown element', async () => {
    const bad = SOURCE.replace('<Hosts>', '<Bogus/>\n  <Hosts>');
    const v = await validateManifest(bad);
    assert.equal(v.valid, false);
    assert.equal(v.problems.length, 1, formatProblems('manifest.xml', v));
    assert.equal(v.problems[0].line, lineOf(bad, '<Bogus/>'));
    assert.match(v.problems[0].message, /Element 'Bogus': This element is not expected/);
  });

  test('a missing <SupportUrl> (the catalog requires one)', async () => {
    const bad = SOURCE.replace(/\s*<SupportUrl [^>]*\/>/, '');
    assert.notEqual(bad, SOURCE);
    const v = await validateManifest(bad);
    assert.equal(v.valid, false);
    assert.match(v.problems[0].message, /Expected is \( SupportUrl \)/);
  });

  test('a version that is not a.b.c.d', async () => {
    const v = await validateManifest(SOURCE.replace(/<Version>[^<]*<\/Version>/, '<Version>one</Version>'));
    assert.equal(v.valid, false);
    assert.match(v.problems[0].message, /Element 'Version'/);
  });
});

test('npm run validate uses the same check and exits 1 naming the file and line', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'crypto-manifest-'));
  const bad = path.join(dir, 'manifest.xml');
  writeFileSync(bad, SOURCE.replace('<Hosts>', '<Bogus/><Hosts>'));
  const good = await run('node', ['--import', 'tsx', 'scripts/validate-manifest.ts', 'manifest.xml'], { cwd: root });
  assert.match(good.stdout, /manifest\.xml validates/);
  const failed = await run('node', ['--import', 'tsx', 'scripts/validate-manifest.ts', bad], { cwd: root }).then(
    () => null,
    (e: { code: number; stderr: string }) => e,
  );
  rmSync(dir, { recursive: true, force: true });
  assert.ok(failed, 'a broken manifest exits non-zero');
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: .*Element 'Bogus'`));
});
