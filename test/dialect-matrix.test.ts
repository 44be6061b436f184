/**
 * The formula test suite under every dialect of the local API server: the
 * formula test files (test/formulas-*.test.ts) run as they are, in a child
 * process whose TEST_DIALECT makes their server answer in the docs and the
 * legacy shapes (their own run under `npm test` is the spec dialect). Their
 * assertions are values cross-checked against the synthetic market, so passing
 * under each dialect means the same values from each shape.
 *
 *   node --import tsx --test test/dialect-matrix.test.ts
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { calculate, type JsonCell } from '../src/cli/calculate';
import { openSession, type Session } from '../src/cli/session';
import { DIALECTS, type Dialect } from '../src/emulator/server';
import { FROZEN_ISO } from '../harness/instant';
import { TEST_WORKBOOK } from './support/workbook';

const dir = import.meta.dirname;
const files = readdirSync(dir).filter((f) => /^formulas-.*\.test\.ts$/.test(f)).sort();

test('the formula test files exist', () => {
  assert.ok(files.length >= 5, files.join(', '));
});

for (const dialect of DIALECTS.filter((d) => d !== 'spec')) {
  test(`the formula test suite passes under --dialect ${dialect}`, () => {
    // Without NODE_TEST_CONTEXT: the child reports for itself, not to this runner.
    const { NODE_TEST_CONTEXT: _own, ...env } = process.env;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...files.map((f) => path.join(dir, f))], {
      cwd: path.resolve(dir, '..'),
      env: { ...env, TEST_DIALECT: dialect },
      encoding: 'utf8',
      timeout: 480_000,
    });
    const out = `${run.stdout}\n${run.stderr}`;
    const count = (k: string) => Number(new RegExp(`^# ${k} (\\d+)`, 'm').exec(out)?.[1] ?? NaN);
    const failing = out.split('\n').filter((l) => /^\s*not ok /.test(l));
    assert.deepEqual(failing, [], `under ${dialect}:\n${failing.join('\n')}`);
    assert.equal(run.status, 0, out.slice(-3000));
    assert.ok(count('pass') > 50, `ran the suite (${count('pass')} passed)`);
    assert.equal(count('fail'), 0);
    console.log(`# ${dialect}: ${count('pass')} formula tests passed`);
  });
}

/**
 * The documented supply shapes, each served as its documentation page shows it
 * (checked on the raw answer) and read by the formulas to the same values as the
 * spec's shape: tokenomics (docs.cryptorank.io/api-reference/currencies/tokenomics-summary),
 * vesting allocations (.../vesting-&-token-unlocks/vesting-allocations) and
 * /v3/token-unlocks/upcoming (.../token-unlocks/upcoming-token-unlocks-across-all-coins).
 */
describe('documented supply shapes under --dialect docs, over HTTP', () => {
  const sessions = {} as Record<Dialect, Session>;
  before(async () => {
    for (const d of ['spec', 'docs'] as const) {
      sessions[d] = await openSession({ workbook: TEST_WORKBOOK, emulator: { now: FROZEN_ISO, rpm: 5000, dialect: d } });
    }
  });
  after(async () => {
    for (const t of Object.values(sessions)) await t?.close();
  });
  const grid = async (d: Dialect, text: string): Promise<JsonCell[][]> => {
    const out = await calculate(sessions[d].host, text);
    assert.ok('value' in out, `${d} ${text}: ${JSON.stringify(out)}`);
    return out.value;
  };
  const raw = async (d: Dialect, pathAndQuery: string): Promise<Record<string, unknown>> => {
    const r = await fetch(`${sessions[d].emulator!.url}${pathAndQuery}`, { headers: { 'X-Api-Key': 'demo-pro' } });
    assert.equal(r.status, 200, pathAndQuery);
    return (await r.json()) as Record<string, unknown>;
  };
  const idOf = async (slug: string) => {
    const map = (await raw('docs', '/v3/currencies/map')).data as { id: number; slug: string }[];
    return map.find((c) => c.slug === slug)!.id;
  };

  test('tokenomics: vestingInfo, nextUnlockUsdAmount, ISO nextUnlockDate, no untracked figures; the same cells, and #N/A naming the two it lacks', async () => {
    const t = (await raw('docs', `/v3/currencies/${await idOf('sui')}/tokenomics`)).data as Record<string, unknown>;
    assert.ok(Array.isArray(t.vestingInfo) && (t.vestingInfo as unknown[]).every((u) => typeof u === 'string' && u.startsWith('https://')));
    assert.equal(typeof t.nextUnlockUsdAmount, 'string');
    assert.match(String(t.nextUnlockDate), /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
    for (const k of ['untrackedAmount', 'untrackedPercent', 'nextUnlockValue', 'vestingSourceUrls']) assert.ok(!(k in t), k);
    const [spec, docs] = [await grid('spec', '=CRYPTO.TOKENOMICS("sui")'), await grid('docs', '=CRYPTO.TOKENOMICS("sui")')];
    assert.equal(docs.length, spec.length);
    for (let i = 0; i < spec.length; i++) {
      const field = spec[i][0] as string;
      if (field === 'untrackedAmount' || field === 'untrackedPercent') {
        assert.deepEqual(docs[i], [field, { error: '#N/A', message: `The API answered without ${field} (/v3/currencies/{id}/tokenomics)` }]);
      } else assert.deepEqual(docs[i], spec[i], field);
    }
  });

  test('vesting allocations: the documented items (no allocationId, isTracked, endDate; no query parameters); every cell right but End date', async () => {
    const id = await idOf('sui');
    const items = (await raw('docs', `/v3/currencies/${id}/vesting/allocations`)).data as Record<string, unknown>[];
    assert.ok(items.length >= 3);
    for (const a of items) {
      assert.deepEqual(Object.keys(a).sort(), ['allocationName', 'groupDominance', 'lockedAmount', 'lockedPercent', 'nextUnlockDate', 'nextUnlockTokenAmount',
        'nextUnlockUsdAmount', 'percentOfSupply', 'totalAmount', 'unlockedAmount', 'unlockedPercent', 'vestingType']);
      assert.ok(['linear', 'nonlinear', 'dynamic'].includes(String(a.vestingType)));
    }
    const refused = await fetch(`${sessions.docs.emulator!.url}/v3/currencies/${id}/vesting/allocations?includeUntracked=true`, { headers: { 'X-Api-Key': 'demo-pro' } });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /property includeUntracked should not exist/);
    const [spec, docs] = [await grid('spec', '=CRYPTO.VESTING("sui")'), await grid('docs', '=CRYPTO.VESTING("sui")')];
    const END = spec[0].indexOf('End date');
    assert.deepEqual(docs[0], spec[0]);
    assert.equal(docs.length, spec.length);
    for (let i = 1; i < spec.length; i++) {
      assert.deepEqual(docs[i].filter((_, k) => k !== END), spec[i].filter((_, k) => k !== END), String(spec[i][0]));
      assert.deepEqual(docs[i][END], { error: '#N/A', message: 'The API answered without endDate (/v3/currencies/{id}/vesting/allocations)' });
    }
  });

  test('/v3/token-unlocks/upcoming: currencyId/Name/Symbol, currencyImages, ISO dates at 00:00Z, filters honoured; UNLOCKS reads the same table', async () => {
    const body = await raw('docs', '/v3/token-unlocks/upcoming?daysAhead=30&limit=200&sortBy=usdAmount&sortOrder=desc&minUsdAmount=1000');
    const items = body.data as Record<string, unknown>[];
    assert.ok(items.length > 0);
    for (let i = 0; i < items.length; i++) {
      const u = items[i];
      assert.deepEqual(Object.keys(u).sort(), ['circulatingSupply', 'currencyId', 'currencyImages', 'currencyName', 'currencySymbol', 'date', 'marketCap',
        'percentOfMcap', 'percentOfSupply', 'price', 'tokenAmount', 'usdAmount']);
      assert.deepEqual(Object.keys(u.currencyImages as object).sort(), ['icon', 'native', 'x150', 'x60']);
      assert.match(String(u.date), /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
      assert.ok(Number(u.usdAmount) >= 1000);
      if (i > 0) assert.ok(Number(u.usdAmount) <= Number(items[i - 1].usdAmount), 'sortBy usdAmount desc');
    }
    for (const f of ['=CRYPTO.UNLOCKS(30)', '=CRYPTO.UNLOCKS(60,"percentOfMcap",,,0.5,,0)']) {
      const [spec, docs] = [await grid('spec', f), await grid('docs', f)];
      assert.ok(spec.length > 25, `${f}: ${spec.length} rows`);
      assert.deepEqual(docs, spec, f);
    }
  });
});
