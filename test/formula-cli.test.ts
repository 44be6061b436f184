/**
 * The formula CLI as users run it: one JSON object on stdout (one line per
 * formula with --file), non-zero exit only for a formula that cannot be parsed.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { WORKLOAD } from '../bench/chaos-run';
import { FAULT_KINDS, startEmulator } from '../src/emulator/server';
import { calculate } from '../src/cli/calculate';
import { recalculate } from '../src/cli/recalculation';
import { FROZEN_NOW, testSession } from './support/frozen-session';

const root = path.resolve(import.meta.dirname, '..');

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/formula.ts', ...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

async function cli(...args: string[]): Promise<{ code: number; out: unknown; stderr: string }> {
  const r = await run(args);
  let out: unknown = null;
  try {
    out = JSON.parse(r.stdout);
  } catch {
    out = r.stdout;
  }
  return { code: r.code, out, stderr: r.stderr };
}

const tmp = mkdtempSync(path.join(tmpdir(), 'formula-cli-'));
function file(name: string, lines: readonly string[]): string {
  const f = path.join(tmp, name);
  writeFileSync(f, lines.join('\n'));
  return f;
}

type Line = { value: unknown[][] } | { error: string; message: string };
const lines = (stdout: string): Line[] => stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Line);

test('--file: one JSON line per non-empty line, in order, in the single-formula shape; exit 0 with error cells', async () => {
  const f = file('small.txt', ['=CRYPTO.PRICE("bitcoin")', '', '   ', '  =CRYPTO.PRICE("nosuchcoin")', '=CRYPTO.OHLCV("bitcoin","2024-02-30")', '=CRYPTO.QUOTE({"bitcoin";"";"eth"},"price")', '=CRYPTO.PRICE("BTC")']);
  const r = await run(['--file', f]);
  assert.equal(r.code, 0, r.stderr);
  const out = lines(r.stdout);
  assert.equal(out.length, 5);
  const single = await cli('=CRYPTO.PRICE("bitcoin")');
  assert.deepEqual(out[0], single.out, 'the same shape and answer as the single-formula CLI');
  assert.deepEqual(out[4], out[0], 'BTC and bitcoin agree');
  assert.ok('error' in out[1] && out[1].error === '#N/A' && /nosuchcoin/.test(out[1].message));
  assert.ok('error' in out[2] && out[2].error === '#VALUE!');
  assert.ok('value' in out[3] && out[3].value.length === 4 && out[3].value[2].every((c) => c === ''));
});

test('--file: a line that is not a formula is #PARSE! in its place, the others are answered, exit 1', async () => {
  const r = await run(['--file', file('parse.txt', ['=CRYPTO.PRICE("bitcoin")', '=CRYPTO.PRICE("bitcoin"', '=CRYPTO.NOPE(1)'])]);
  assert.equal(r.code, 1);
  const out = lines(r.stdout);
  assert.equal(out.length, 3);
  assert.ok('value' in out[0]);
  assert.ok('error' in out[1] && out[1].error === '#PARSE!');
  assert.ok('error' in out[2] && out[2].error === '#NAME?');
});

test('--file: 200 formulas at 80 % of each fault kind finish with one clear answer per formula', async () => {
  // Every fault kind at once, each against its own local API server; a 3 s deadline instead of 45 s.
  const { createMarket } = await import('../src/emulator/market/index');
  const market = await createMarket({});
  const formulas = [
    ...WORKLOAD,
    ...Array.from({ length: 60 }, (_, i) => `=CRYPTO.PRICE(${i + 1})`),
    ...Array.from({ length: 28 }, (_, i) => `=CRYPTO.HISTORICAL("ethereum","2025-02-${String(i + 1).padStart(2, '0')}")`),
    ...['"2024-02-30"', '"2031-01-01"', '-1', '1.5', '"yesterday"'].map((d) => `=CRYPTO.OHLCV("bitcoin",${d})`),
    ...Array.from({ length: 20 }, (_, i) => `=CRYPTO.QUOTE("solana","price",,${i % 2})`),
  ].slice(0, 200);
  assert.equal(formulas.length, 200);
  const f = file('200.txt', formulas);
  const servers = await Promise.all(FAULT_KINDS.map((kind) => startEmulator({ market, faults: { [kind]: 0.8 }, seed: 17, slowMs: 700 })));
  try {
    const t0 = performance.now();
    const runs = await Promise.all(servers.map((em) => run(['--api', em.url, '--deadline', '3', '--file', f])));
    const ms = performance.now() - t0;
    runs.forEach((r, k) => {
      const kind = FAULT_KINDS[k];
      assert.equal(r.code, 0, `${kind}: ${r.stderr}`);
      const out = lines(r.stdout);
      assert.equal(out.length, 200, kind);
      for (const [i, o] of out.entries()) {
        if ('value' in o) {
          assert.deepEqual(Object.keys(o), ['value'], `${kind} line ${i + 1}`);
          continue;
        }
        assert.deepEqual(Object.keys(o).sort(), ['error', 'message'], `${kind} line ${i + 1}`);
        assert.ok(o.error === '#N/A' || o.error === '#VALUE!', `${kind} line ${i + 1}: ${o.error}`);
        assert.ok(o.message.length > 10 && !/\n\s+at /.test(o.message), `${kind} line ${i + 1}: ${o.message}`);
      }
      const errors = out.filter((o) => 'error' in o).length;
      console.log(`# --file, 200 formulas at 80 % ${kind}: ${200 - errors} values, ${errors} errors`);
    });
    console.log(`# six 200-formula files at 80 % faults answered in ${(ms / 1000).toFixed(1)} s (all at once)`);
  } finally {
    await Promise.all(servers.map((em) => em.close()));
  }
});

test('several formulas, one argument each, are each evaluated and printed as --file prints them (they were joined into one comparison: =1+1 =2+2 was false)', async () => {
  const formulas = ['=1+1', '=2+2', '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-02","daily",0,"close")', '=1+'];
  const [args, fromFile, two] = await Promise.all([run(formulas), run(['--file', file('args.txt', formulas)]), run(['=1+1', '=2+2'])]);
  assert.equal(args.stdout, fromFile.stdout, 'the same lines as --file');
  assert.equal(args.code, 1, 'exit 1 when one of them cannot be parsed, as with --file');
  const out = lines(args.stdout);
  assert.deepEqual(out.slice(0, 2), [{ value: [[2]] }, { value: [[4]] }]);
  assert.equal(typeof (out[2] as { value: unknown[][] }).value[0][0], 'number');
  assert.equal((out[3] as { error: string }).error, '#PARSE!');
  assert.equal(two.code, 0, two.stderr);
  assert.deepEqual(lines(two.stdout), [{ value: [[2]] }, { value: [[4]] }]);
});

test('-h and --help print the usage on stdout, exit 0, with a line saying what each option does; an unknown option is a usage error pointing there', async () => {
  const [long, short, unknown] = await Promise.all([run(['--help']), run(['-h']), run(['--nope', '=1'])]);
  assert.equal(long.code, 0, long.stderr);
  assert.equal(short.code, 0, short.stderr);
  assert.equal(short.stdout, long.stdout);
  const usage = long.stdout.split('\n');
  for (const option of ['-h, --help', '--file F', '--key KEY', '--api URL', '--currency EUR', '--deadline S', '--formats', '--blanks zero', '--date-system 1904', '--iso-dates']) {
    const line = usage.find((l) => l.trimStart().startsWith(option));
    assert.ok(line && line.trim().length > option.length + 10, `${option}: ${line}`);
  }
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--nope[\s\S]*--help/);
});

test('a formula prints {"value": [[...]]}, always 2-D', async () => {
  const r = await cli('=CRYPTO.PRICE("bitcoin")');
  assert.equal(r.code, 0, r.stderr);
  const v = (r.out as { value: unknown[][] }).value;
  assert.equal(v.length, 1);
  assert.equal(v[0].length, 1);
  assert.equal(typeof v[0][0], 'number');
  assert.ok((v[0][0] as number) > 1000, 'a bitcoin-like price');
});

test('a formula-level error is {"error","message"} with exit 0', async () => {
  const r = await cli('=CRYPTO.PRICE("bitcoin","XYZ")');
  assert.equal(r.code, 0);
  assert.deepEqual(Object.keys(r.out as object).sort(), ['error', 'message']);
  assert.equal((r.out as { error: string }).error, '#VALUE!');
});

test('--key "" means no key: #N/A saying where to add one', async () => {
  const r = await cli('--key', '', '=CRYPTO.PRICE("bitcoin")');
  assert.equal(r.code, 0);
  assert.equal((r.out as { error: string }).error, '#N/A');
  assert.match((r.out as { message: string }).message, /key/);
});

test('a key is never echoed back, even a wrong one', async () => {
  const secret = 'sk-live-7f3a9c1e55d2';
  const r = await cli('--key', secret, '=CRYPTO.PRICE("bitcoin")');
  assert.equal(r.code, 0);
  assert.equal((r.out as { error: string }).error, '#N/A');
  assert.ok(!JSON.stringify(r.out).includes(secret));
  assert.ok(!r.stderr.includes(secret));
});

test('a formula that cannot be parsed exits non-zero', async () => {
  const r = await cli('=CRYPTO.PRICE("bitcoin"');
  assert.notEqual(r.code, 0);
});

test('an unknown function is #NAME? and exit 0', async () => {
  const r = await cli('=CRYPTO.NOPE(1)');
  assert.equal(r.code, 0);
  assert.equal((r.out as { error: string }).error, '#NAME?');
});

test('formulas around CRYPTO calls answer as in the preview: arithmetic, TODAY(), MAX, SUMPRODUCT; the same messages', async () => {
  // The prices they are checked against come from the same run (one session, one cache): in separate
  // processes the emulator's prices could move between them, and the sums missed now and then.
  const prices = await run([
    '=0.75*CRYPTO.PRICE("bitcoin")+10*CRYPTO.PRICE("ethereum")',
    '=CRYPTO.PRICE("bitcoin")',
    '=CRYPTO.PRICE("ethereum")',
    '=SUMPRODUCT(INDEX(CRYPTO.QUOTE({"bitcoin";"ethereum"},"price",,0),0,2),{2;3})',
  ]);
  assert.equal(prices.code, 0, prices.stderr);
  const [mix, btc, eth, sp] = lines(prices.stdout).map((l) => (l as { value: number[][] }).value[0][0]);
  const [fear, max, none, name, ref] = await Promise.all(
    ['=CRYPTO.FEARGREED(TODAY()-90,TODAY())', '=MAX(1,2)', '=CRYPTO.PRICE()', '=MIN(1,2)+NOSUCH(1)', '=A1*2'].map((f) => cli(f)),
  );
  for (const r of [fear, max, none, name, ref]) assert.equal(r.code, 0, r.stderr);
  const v = (r: { out: unknown }) => (r.out as { value: unknown[][] }).value;
  assert.ok(Math.abs(mix - (0.75 * btc + 10 * eth)) < 1e-6 * mix);
  assert.deepEqual(v(fear)[0], ['Date', 'Value', 'Classification']);
  assert.ok(v(fear).length >= 90, `${v(fear).length} rows of Fear & Greed`);
  assert.deepEqual(v(max), [[2]]);
  assert.ok(Math.abs(sp - (2 * btc + 3 * eth)) < 1e-6 * sp);
  // The function itself names what is missing, as in the preview (it was "CRYPTO.PRICE needs coin" here).
  assert.deepEqual(none.out, { error: '#VALUE!', message: 'coin is required: a coin id, slug, symbol or name, e.g. "bitcoin" or "BTC"' });
  assert.deepEqual(name.out, { error: '#NAME?', message: 'Unknown function NOSUCH' });
  assert.equal((ref.out as { error: string }).error, '#REF!');
});

test('an unquoted coin or one in curly quotes is #NAME? saying how to quote it, not "wrong type" #VALUE!', async () => {
  const r = await run(['=CRYPTO.PRICE(bitcoin)', '=CRYPTO.PRICE(“bitcoin”)']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(lines(r.stdout), [
    { error: '#NAME?', message: '"bitcoin" is not a defined name: put text in double quotes, e.g. "bitcoin"' },
    { error: '#NAME?', message: 'Use straight double quotes (") around text, not “ ”' },
  ]);
});

test('a reference anywhere is the #REF! of =A1, saying there are no cells: in a CRYPTO call, a range, a field, around one (inside a call it was "wrong type" #VALUE!)', async () => {
  const formulas = ['=A1', '=CRYPTO.OHLCV(A1,"2024-01-01")', '=CRYPTO.PRICE("bitcoin",B1)', '=CRYPTO.PRICE(A1:B2)', '=CRYPTO.QUOTE(A1:A3,"price")', '=CRYPTO.PRICE(A:A)', '=CRYPTO.PRICE(A1.Price)', '=SUM(A1:A3)*CRYPTO.PRICE("bitcoin")'];
  const r = await run(formulas);
  assert.equal(r.code, 0, r.stderr);
  const noCells = { error: '#REF!', message: 'The formula CLI has no cells: give values, not references' };
  for (const [i, out] of lines(r.stdout).entries()) assert.deepEqual(out, noCells, formulas[i]);
});

test('--date-system 1904: DATE, TODAY and YEAR follow the workbook\'s system as the CRYPTO functions do, so a dated formula asks about the same day', async () => {
  const dated = [
    '=CRYPTO.HISTORICAL("bitcoin",DATE(2024,1,1))', // one call: DATE bound as a literal
    '=CRYPTO.HISTORICAL("bitcoin",DATE(2024,1,1)+0)', // through the engine
    '=CRYPTO.FEARGREED(TODAY()-3,TODAY())',
    '=YEAR(INDEX(CRYPTO.OHLCV("bitcoin",DATE(2024,1,1),DATE(2024,1,2),"daily",0,"date"),1,1))',
  ];
  const [in1900, in1904, file1904] = await Promise.all([
    run(['--file', file('dated.txt', dated)]),
    run(['--date-system', '1904', '--file', file('dated.txt', dated)]),
    Promise.all(dated.map((f) => cli('--date-system', '1904', f))),
  ]);
  assert.equal(in1900.code, 0, in1900.stderr);
  assert.equal(in1904.code, 0, in1904.stderr);
  const [a, b] = [lines(in1900.stdout), lines(in1904.stdout)];
  assert.deepEqual(file1904.map((r) => r.out), b, 'one formula at a time as in a file');
  for (const out of [...a, ...b]) assert.ok('value' in out, JSON.stringify(out));
  const value = (l: Line) => (l as { value: unknown[][] }).value;
  assert.equal(typeof value(a[0])[0][0], 'number');
  assert.deepEqual(value(b[0]), value(a[0]), 'the price on 2024-01-01 in either system');
  assert.deepEqual(value(b[1]), value(a[0]));
  const fear1900 = value(a[2]);
  const fear1904 = value(b[2]);
  assert.equal(fear1904.length, fear1900.length);
  assert.deepEqual(fear1904.map((r) => r.slice(1)), fear1900.map((r) => r.slice(1)), 'the same days\' readings');
  assert.deepEqual(fear1904.slice(1).map((r) => (r[0] as number) + 1462), fear1900.slice(1).map((r) => r[0]), 'dated 1,462 days lower');
  assert.deepEqual(value(b[3]), [[2024]]);
});

test('--iso-dates: cells formatted as dates print as ISO 8601 days (with the time, UTC, where the format shows one), the same days in either date system; other cells as before', async () => {
  const formulas = [
    '=CRYPTO.FEARGREED("2025-12-01","2025-12-02")', // a date column ("yyyy-mm-dd")
    '=CRYPTO.SPARKLINE("bitcoin",1)', // hourly times ("yyyy-mm-dd hh:mm")
    '=DATE(2024,2,29)', // formatted as a date by Excel, as in the preview (automaticFormat)
    '=NOW()',
    '=1+1',
    '=CRYPTO.FEARGREED(DATE(2025,12,1),DATE(2025,12,2))', // formulas among its arguments: through the engine
    '=INDEX(CRYPTO.FEARGREED("2025-12-01","2025-12-02"),2,1)', // inside another function
  ];
  const f = file('iso.txt', formulas);
  const [serials, in1900, in1904, one] = await Promise.all([
    run(['--file', f]),
    run(['--iso-dates', '--file', f]),
    run(['--iso-dates', '--date-system', '1904', '--file', f]),
    cli('--iso-dates', '--date-system', '1904', '=DATE(2024,2,29)'),
  ]);
  for (const r of [serials, in1900, in1904]) assert.equal(r.code, 0, r.stderr);
  const value = (l: Line) => (l as { value: unknown[][] }).value;
  const [plain, a, b] = [serials, in1900, in1904].map((r) => lines(r.stdout).map(value));
  // A 1900-system serial as the ISO text of its UTC minute: 46346.208333 is 2026-11-20T05:00Z.
  const minute = (serial: number) => new Date(Math.round((serial - 25569) * 86_400) * 1000).toISOString().slice(0, 16) + 'Z';

  assert.deepEqual(plain[0].slice(1).map((row) => typeof row[0]), ['number', 'number'], 'serials without the option');
  assert.deepEqual(a[0], [plain[0][0], ['2025-12-01', ...plain[0][1].slice(1)], ['2025-12-02', ...plain[0][2].slice(1)]]);
  assert.equal(a[1].length, plain[1].length);
  assert.ok(a[1].length > 2, `${a[1].length} sparkline rows`);
  a[1].slice(1).forEach((row, i) => {
    assert.equal(row[0], minute(plain[1][i + 1][0] as number), `sparkline row ${i + 1}`);
    assert.deepEqual(row.slice(1), plain[1][i + 1].slice(1), 'prices and volumes are numbers as before');
  });
  assert.deepEqual(a[2], [['2024-02-29']]);
  assert.match(a[3][0][0] as string, /^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/);
  assert.deepEqual(a[4], [[2]]);
  assert.deepEqual(a[5], a[0], 'a call with formula arguments keeps its dates'); // was: serial numbers
  assert.deepEqual(a[6], [['2025-12-01']], 'and one inside INDEX');
  assert.deepEqual(plain[5], plain[0], 'serials without the option');

  // The same calendar days in a 1904 workbook, whose serials are 1,462 lower.
  assert.deepEqual(b[0], a[0]);
  assert.deepEqual(b[1], a[1]);
  assert.deepEqual(b[2], a[2]);
  assert.deepEqual(one.out, { value: [['2024-02-29']] }, 'one formula as in a file');
});

test('NOW() is one instant per recalculation: a CRYPTO call on it answers, whatever the clock does while it waits (review-r3 #10)', async () => {
  // As the user ran it: the in-process API server's clock runs on while the answer comes ("More than 16 CRYPTO calls wait on one another").
  const [fear, ohlcv] = await Promise.all([cli('=CRYPTO.FEARGREED("2025-01-01",NOW())'), cli('=ROWS(CRYPTO.OHLCV("bitcoin","2025-01-01",NOW()))')]);
  assert.deepEqual((fear.out as { value: unknown[][] }).value?.[0], ['Date', 'Value', 'Classification'], JSON.stringify(fear.out).slice(0, 300));
  assert.ok(((ohlcv.out as { value: number[][] }).value?.[0][0] ?? 0) > 300, JSON.stringify(ohlcv.out));
  // Pinned, not lucky: a clock that moves on every read (each round of the engine read it anew).
  const s = await testSession();
  try {
    let t = FROZEN_NOW;
    const ticking = () => t++;
    for (const text of ['=CRYPTO.FEARGREED(NOW()-30,NOW())', '=ROWS(CRYPTO.OHLCV("bitcoin",NOW()-7))']) {
      const out = await calculate(s.host, text, { now: ticking });
      assert.ok('value' in out, `${text}: ${JSON.stringify(out)}`);
    }
    // one recalculation of several formulas: one instant for all of them, as Excel's
    const [a, b, c] = await recalculate(s.host, ['=NOW()', '=CRYPTO.FEARGREED(NOW()-3,NOW())', '=NOW()'], { now: ticking });
    assert.deepEqual(a, c);
    assert.ok('value' in b, JSON.stringify(b));
  } finally {
    await s.close();
  }
});

test('--api takes the base with or without /v3 and a trailing slash, as the pane\'s settings do; a plain-http address off this machine is a usage error', async () => {
  // review-r3: `--api http://127.0.0.1:4391/v3`, the base as the API's docs write it, asked /v3/v3/status.
  const em = await startEmulator({});
  try {
    for (const api of [em.url, `${em.url}/v3`, `${em.url}/v3/`, `${em.url}/`]) {
      const r = await cli('--api', api, '=CRYPTO.PRICE("bitcoin")');
      assert.equal(r.code, 0, r.stderr);
      // a price, not "Cannot GET /v3/v3/…" (the server's prices move with its clock: not compared across runs)
      assert.equal(typeof (r.out as { value?: unknown[][] }).value?.[0][0], 'number', `${api}: ${JSON.stringify(r.out)}`);
    }
  } finally {
    await em.close();
  }
  const far = await cli('--api', 'http://example.com/v3', '=CRYPTO.PRICE("bitcoin")');
  assert.equal(far.code, 2);
  assert.match(far.stderr, /^formula: --api: Use an https:\/\/ address \(http:\/\/ only for localhost\)\./);
});
