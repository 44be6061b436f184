/**
 * The production build: functions.json generated from JSDoc for every formula,
 * the task pane page, help pages, icons, and a schema-valid manifest whose URLs
 * point at the configured production host.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { checkPackage, formatPackageProblems, iconFile, ICON_SIZES, RULES, type PackageSpec, type RuleId } from '../scripts/package-check';
import { contentPolicy, OFFICE_CDN_ORIGIN, pagePolicy } from '../scripts/content-policy';
import { formatProblems, validateManifest } from '../scripts/validate-manifest';
import { PAGE_LINKS } from '../src/pages';
import { STORED } from '../src/pages/privacy';
import { CATALOG } from '../src/formulas/catalog';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const PROD = 'https://addin.contoso.test/crypto/';
const VERSION = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const API = 'https://api.cryptorank.io';
const SUPPORT_EMAIL = 'help@contoso.test';
const SPEC: PackageSpec = { publicUrl: PROD, version: VERSION, sourceMaps: false, apiOrigin: API };
let out: string;

interface Meta {
  functions: { id: string; name: string; description: string; helpUrl: string; parameters: { name: string; description: string }[] }[];
}

describe('production build', () => {
  before(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'crypto-build-'));
    await run('npx', ['webpack', '--mode', 'production', '--output-path', out], {
      cwd: root,
      env: { ...process.env, ADDIN_PUBLIC_URL: PROD, ADDIN_SUPPORT_EMAIL: SUPPORT_EMAIL },
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
    for (const size of ICON_SIZES) assert.ok(statSync(path.join(out, iconFile(size))).size > 0);
    await assertValid(manifest, 'dist/manifest.xml');
  });

  test('the package passes every publishing rule: URLs on the host, icons, versions, nothing from development', async () => {
    assert.deepEqual(
      RULES.map((r) => r.id),
      ['public-url', 'manifest-schema', 'manifest-urls', 'help-urls', 'icons', 'version', 'content-policy', 'no-development'],
    );
    const problems = await checkPackage(out, SPEC);
    assert.equal(formatPackageProblems(problems), '');
    assert.match(readFileSync(path.join(out, 'manifest.xml'), 'utf8'), new RegExp(`<Version>${VERSION.replace(/\./g, '\\.')}\\.\\d+</Version>`));
  });

  /** A copy of the package with one thing broken, and what the check says about it. */
  async function broken(change: (dir: string) => void, spec: Partial<PackageSpec> = {}) {
    const dir = mkdtempSync(path.join(tmpdir(), 'crypto-broken-'));
    try {
      cpSync(out, dir, { recursive: true });
      change(dir);
      return await checkPackage(dir, { ...SPEC, ...spec });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const edit = (dir: string, rel: string, f: (text: string) => string) => {
    const file = path.join(dir, rel);
    const before = readFileSync(file, 'utf8');
    const after = f(before);
    assert.notEqual(after, before, `the edit changed ${rel}`);
    writeFileSync(file, after);
  };
  const breakages: { name: string; rule: RuleId; message: RegExp; change?: (dir: string) => void; spec?: Partial<PackageSpec> }[] = [
    { name: 'a missing icon size', rule: 'icons', message: /80x80 icon: assets\/icon-80\.png is missing/, change: (d) => rmSync(path.join(d, iconFile(80))) },
    { name: 'a store logo of the wrong size', rule: 'icons', message: /assets\/icon-300\.png is 64x64, not 300x300/, change: (d) => copyFileSync(path.join(d, iconFile(64)), path.join(d, iconFile(300))) },
    { name: 'a ribbon image of the wrong size', rule: 'icons', message: /ribbon image Icon\.16x16: assets\/icon-16\.png is 32x32, not 16x16/, change: (d) => copyFileSync(path.join(d, iconFile(32)), path.join(d, iconFile(16))) },
    { name: 'a localhost URL in the manifest', rule: 'no-development', message: /manifest\.xml: a loopback URL \(https:\/\/localhost/, change: (d) => edit(d, 'manifest.xml', (x) => x.replace(`${PROD}taskpane.html`, 'https://localhost:3000/taskpane.html')) },
    { name: 'a manifest URL on another host', rule: 'manifest-urls', message: /<bt:Url> https:\/\/elsewhere\.test\/functions\.js is not on https:\/\/addin\.contoso\.test\/crypto\//, change: (d) => edit(d, 'manifest.xml', (x) => x.replace(`${PROD}functions.js`, 'https://elsewhere.test/functions.js')) },
    { name: 'a manifest URL naming a file not in the package', rule: 'manifest-urls', message: /taskpane\.html is not in the package/, change: (d) => rmSync(path.join(d, 'taskpane.html')) },
    { name: 'a help page missing', rule: 'help-urls', message: /functions\.json PRICE help URL .*help\/price\.html is not in the package/, change: (d) => rmSync(path.join(d, 'help/price.html')) },
    { name: 'a manifest version apart from package.json', rule: 'version', message: /<Version> \d+\.\d+\.\d+\.\d+ does not match package\.json 9\.9\.9/, spec: { version: '9.9.9' } },
    { name: 'a manifest version that is not a.b.c.d', rule: 'version', message: /<Version> 0\.1\.0 is not a\.b\.c\.d/, change: (d) => edit(d, 'manifest.xml', (x) => x.replace(/<Version>[^<]*</, '<Version>0.1.0<')) },
    { name: 'a source map not asked for', rule: 'no-development', message: /functions\.js\.map: a source map/, change: (d) => writeFileSync(path.join(d, 'functions.js.map'), '{}') },
    { name: 'a demo key in a bundle', rule: 'no-development', message: /taskpane\.js: development build content \(demo-pro\)/, change: (d) => edit(d, 'taskpane.js', (x) => `${x}\n// demo-pro`) },
    { name: 'the local Office.js copy', rule: 'no-development', message: /taskpane\.html: development build content \(office-js\/office\.js\)/, change: (d) => edit(d, 'taskpane.html', (x) => x.replace(/https:\/\/appsforoffice\.microsoft\.com\/lib\/1\/hosted\/office\.js/, 'office-js/office.js')) },
    { name: 'a manifest the schemas reject', rule: 'manifest-schema', message: /Element 'Bogus'/, change: (d) => edit(d, 'manifest.xml', (x) => x.replace('<Hosts>', '<Bogus/><Hosts>')) },
    { name: 'a page without a Content-Security-Policy', rule: 'content-policy', message: /^privacy\.html: no Content-Security-Policy meta tag/, change: (d) => edit(d, 'privacy.html', (x) => x.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')) },
    { name: 'a page that may connect anywhere', rule: 'content-policy', message: /^help\/price\.html: connect-src is "'self' https:\/\/api\.cryptorank\.io \* https:\/\/\*\.pipe\.aria\.microsoft\.com"/, change: (d) => edit(d, 'help/price.html', (x) => x.replace('connect-src \'self\' https://api.cryptorank.io', 'connect-src \'self\' https://api.cryptorank.io *')) },
    { name: 'a page whose policy comes after its scripts', rule: 'content-policy', message: /^taskpane\.html: the Content-Security-Policy comes after a script/, change: (d) => edit(d, 'taskpane.html', (x) => x.replace(/(<meta http-equiv="Content-Security-Policy"[^>]*>)(.*?)(<\/head>)/s, '$2$1$3')) },
    { name: 'a plain-http host', rule: 'public-url', message: /ADDIN_PUBLIC_URL http:\/\/addin\.contoso\.test\/ is not https:\/\//, spec: { publicUrl: 'http://addin.contoso.test/' } },
  ];
  for (const b of breakages) {
    test(`the package check fails on ${b.name}`, async () => {
      const problems = await broken(b.change ?? (() => {}), b.spec);
      const hit = problems.filter((p) => p.rule === b.rule && b.message.test(p.message));
      assert.ok(hit.length > 0, formatPackageProblems(problems) || 'no problem found');
    });
  }

  test('a source map passes when asked for (ADDIN_SOURCE_MAPS=1)', async () => {
    const problems = await broken((d) => writeFileSync(path.join(d, 'functions.js.map'), '{}'), { sourceMaps: true });
    assert.equal(formatPackageProblems(problems), '');
  });

  test('every page of the build carries the Content-Security-Policy: scripts from the add-in and the hosts Office.js loads, connections to the API and Office.js\'s telemetry only', () => {
    const pages = listHtml(out);
    assert.ok(pages.length >= 5 + Object.keys(CATALOG).length, pages.join(' '));
    for (const p of ['taskpane.html', 'support.html', 'privacy.html', 'terms.html', 'whats-new.html', 'help/index.html']) assert.ok(pages.includes(p), p);
    const want = contentPolicy({ apiOrigin: API, dev: false });
    for (const rel of pages) {
      const html = readFileSync(path.join(out, rel), 'utf8');
      const { policy, problem } = pagePolicy(html);
      assert.ok(policy, `${rel}: ${problem}`);
      assert.deepEqual(policy, want, rel);
      // Office.js, and MicrosoftAjax.js it loads on some paths; its telemetry (office-js#1005; scripts/content-policy.ts).
      assert.deepEqual(policy['script-src'], ["'self'", OFFICE_CDN_ORIGIN, 'https://ajax.aspnetcdn.com'], rel);
      assert.deepEqual(policy['connect-src'], ["'self'", API, 'https://*.pipe.aria.microsoft.com'], rel);
      // What the policy forbids must not be needed: no inline script, no inline handler, no script from elsewhere.
      for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
        const src = /\bsrc=["']?([^"' >]+)/.exec(tag)?.[1];
        assert.ok(src, `${rel}: an inline script ${tag}`);
        assert.ok(!/^[a-z]+:/i.test(src) || src.startsWith(`${OFFICE_CDN_ORIGIN}/`), `${rel}: a script from elsewhere: ${src}`);
      }
      assert.doesNotMatch(html, /\son[a-z]+=/i, `${rel}: an inline event handler`);
    }
  });

  test('support, privacy, terms and what\'s new are in the package, linked from the manifest, the pane and the help index', () => {
    const manifest = readFileSync(path.join(out, 'manifest.xml'), 'utf8');
    assert.match(manifest, new RegExp(`<SupportUrl DefaultValue="${PROD}support\\.html" />`));
    const pane = readFileSync(path.join(out, 'taskpane.html'), 'utf8');
    const index = readFileSync(path.join(out, 'help/index.html'), 'utf8');
    for (const page of ['support.html', 'privacy.html', 'terms.html', 'whats-new.html']) {
      assert.ok(existsSync(path.join(out, page)), page);
      assert.match(pane, new RegExp(`href="?${page.replace('.', '\\.')}`), `the pane links ${page}`);
      assert.match(index, new RegExp(`href="?\\.\\./${page.replace('.', '\\.')}`), `the help index links ${page}`);
    }
    for (const l of PAGE_LINKS) assert.ok(existsSync(path.join(out, l.file)), `every page's navigation link resolves: ${l.file}`);
  });

  test('the support page: how to get a key, common errors with their fix, the contact address from configuration', () => {
    const html = readFileSync(path.join(out, 'support.html'), 'utf8');
    assert.match(html, /Get an API key/);
    assert.match(html, /cryptorank\.io\/public-api/);
    assert.match(html, /Sandbox/);
    for (const e of ['No API key', 'Invalid API key', 'No active subscription', '#VALUE!', 'Network failure']) assert.ok(html.includes(e.replace(/"/g, '&quot;')), e);
    assert.ok(html.includes(`mailto:${SUPPORT_EMAIL}`), 'ADDIN_SUPPORT_EMAIL is the contact');
    assert.ok(!html.includes(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).config.support_email), 'the configured address replaces the default');
  });

  test('the privacy policy names what is stored and where, what is sent to which host, and no telemetry', () => {
    const html = readFileSync(path.join(out, 'privacy.html'), 'utf8');
    for (const { name } of STORED) assert.ok(html.includes(name), name);
    assert.match(html, /On your computer only/);
    assert.match(html, /api\.cryptorank\.io/);
    assert.match(html, /No telemetry/);
    assert.match(readFileSync(path.join(out, 'terms.html'), 'utf8'), /Terms of use/);
  });

  test('what\'s new is CHANGELOG.md as a page', () => {
    const html = readFileSync(path.join(out, 'whats-new.html'), 'utf8');
    const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
    const versions = [...changelog.matchAll(/^## (\S+)/gm)].map((m) => m[1]);
    assert.ok(versions.includes(VERSION), `CHANGELOG.md has an entry for ${VERSION}`);
    for (const v of versions) assert.match(html, new RegExp(`<h2[^>]*>${v.replace(/\./g, '\\.')}</h2>`), v);
    assert.doesNotMatch(html, /^#+ /m, 'markdown was converted');
  });

  test('the functions bundle stays small: it loads inside Excel', () => {
    const kb = statSync(path.join(out, 'functions.js')).size / 1024;
    assert.ok(kb < 300, `functions.js is ${kb.toFixed(0)} KB`);
  });
});

function listHtml(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    return e.isDirectory() ? listHtml(dir, rel) : rel.endsWith('.html') ? [rel] : [];
  });
}

/** The schema's verdict, with libxml2's own lines as the failure message. */
async function assertValid(xml: string, name: string): Promise<void> {
  const v = await validateManifest(xml, name);
  assert.ok(v.valid, formatProblems(name, v));
}

test('the production build fails, naming the rule, when the package breaks one (a localhost host)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'crypto-build-bad-'));
  const failed = await run('npx', ['webpack', '--mode', 'production', '--output-path', dir], {
    cwd: root,
    env: { ...process.env, ADDIN_PUBLIC_URL: 'https://localhost:3000/' },
    maxBuffer: 32 * 1024 * 1024,
  }).then(
    () => null,
    (e: { code: number; stdout: string }) => e,
  );
  rmSync(dir, { recursive: true, force: true });
  assert.ok(failed, 'the build exits non-zero');
  assert.equal(failed.code, 1);
  assert.match(failed.stdout, /package check \[public-url\]: ADDIN_PUBLIC_URL https:\/\/localhost:3000\/ is this computer/);
  assert.match(failed.stdout, /package check \[no-development\]: manifest\.xml: a loopback URL/);
});

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
