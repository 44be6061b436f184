/**
 * Where each answer came from (src/formulas/provenance.ts, the calculation
 * host): every evaluation's answers with their fetch time, freshness,
 * endpoint and credits by the endpoint table, kept by the calling cell;
 * CRYPTO.ASOF reads it for a cell or a cell of a spill; a value served stale
 * after a failure is marked in the cell. Over HTTP against the emulator on a
 * frozen clock.
 *
 *   node --import tsx --test test/provenance.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DateCell, FormattedCell, toSerial } from '../src/formulas/cells';
import { answerCredits } from '../src/formulas/answer-tracking';
import { ProvenanceBook, STALE_FORMAT, parseCellAddress, type Provenance } from '../src/formulas/provenance';
import type { Session } from '../src/cli/session';
import { FROZEN_NOW, frozenSession } from './support/frozen-session';

let s: Session;
before(async () => {
  s = await frozenSession({ client: { maxRetries: 0 } });
});
after(() => s?.close());

const callAt = (id: string, args: unknown[], address: string) => s.host.call(id, args, { address }).result;
const asof = (address: string | null, field: unknown = null, cell: unknown = [[null]]) => s.host.evaluate('ASOF', [cell, field, address]);
/** One field's answer: a 1x1 grid (ASOF is declared a matrix function), its value. */
async function one(answer: Promise<unknown>): Promise<unknown> {
  const r = await answer;
  assert.ok(Array.isArray(r) && r.length === 1 && Array.isArray(r[0]) && r[0].length === 1, `a 1x1 grid: ${JSON.stringify(r)}`);
  return (r as unknown[][])[0][0];
}

test('an answer is kept by the cell that asked: fetch time, fresh then cached, endpoint and credits by the endpoint table', async () => {
  const price = await callAt('PRICE', ['solana', null], 'Sheet1!B2');
  assert.equal(typeof price, 'number');
  const p = s.host.provenance.at('Sheet1!B2')!;
  assert.equal(p.formula, 'PRICE');
  assert.equal(p.freshness, 'fresh');
  assert.equal(p.fetchedAt, FROZEN_NOW, 'the frozen clock: fetched now');
  assert.deepEqual([...new Set(p.fetches.map((f) => f.endpoint))], ['markets']);
  assert.equal(p.credits, 1, 'one markets page');
  assert.equal(p.error, null);

  // The same formula in another cell: the quote comes from the cache.
  await callAt('PRICE', ['solana', null], 'Sheet1!B3');
  const again = s.host.provenance.at('Sheet1!B3')!;
  assert.equal(again.freshness, 'cached');
  assert.equal(again.credits, 0);
  assert.equal(again.fetchedAt, FROZEN_NOW, 'the time of the fetch it reused, not of the reuse');

  // A date-time (the session's workbook takes plain serials, as Range.values holds them).
  const when = await one(asof('Sheet1!B2'));
  assert.equal(when instanceof DateCell ? when.serial : when, toSerial(FROZEN_NOW));
  assert.equal(await one(asof('Sheet1!B3', 'status')), 'cached');
  assert.equal(await one(asof('Sheet1!B2', 'credits')), 1);
  assert.equal(await one(asof('Sheet1!B2', 'ENDPOINT')), 'markets', 'fields in any case');
});

test('a column of one formula shares an evaluation: every calling cell is kept once, past the list a Set takes over', async () => {
  const cells = Array.from({ length: 40 }, (_, i) => `Sheet2!C${i + 1}`);
  // All asked before the first answer: one evaluation in flight, each cell added to it (one twice).
  const results = await Promise.all([...cells, cells[3]].map((a) => callAt('PRICE', ['cardano', null], a)));
  assert.ok(results.every((r) => r === results[0] && typeof r === 'number'));
  const p = s.host.provenance.at('Sheet2!C1')!;
  assert.deepEqual([...p.addresses], cells, 'each cell once, in the order asked');
  for (const a of cells) assert.equal(s.host.provenance.at(a), p, `${a} finds the shared answer`);
});

test('ASOF finds a cell inside a spill through its anchor; "all" is a Field/Value table', async () => {
  const table = (await callAt('OHLCV', ['bitcoin', '2026-01-01', '2026-01-10', null, null, []], 'Sheet1!D1')) as unknown[][];
  assert.equal(table.length, 11, 'a header row and ten days');
  const inside = s.host.provenance.at('Sheet1!F7')!;
  assert.equal(inside.formula, 'OHLCV');
  assert.equal(inside.rows, 11);
  assert.deepEqual(inside.fetches.map((f) => f.endpoint), ['candles']);
  assert.equal(inside.credits, answerCredits('candles', {}, 10), 'ten buckets: one credit');
  assert.equal(s.host.provenance.at('Sheet1!F12'), null, 'below the spill: nothing');
  const all = (await asof('Sheet1!E3:E5', 'all')) as unknown[][];
  assert.deepEqual(all.map((r) => r[0]), ['Field', 'Fetched at (UTC)', 'Status', 'Endpoint', 'Credits', 'Error']);
  assert.deepEqual(all.slice(2).map((r) => r[1]), ['fresh', 'candles', 1, '']);
});

test('ASOF given a value (a nested call) finds the latest answer equal to it; nothing given is #VALUE!, an unknown value #N/A', async () => {
  const price = await callAt('PRICE', ['bitcoin', null], 'Sheet1!J1');
  assert.equal(await one(asof(null, 'endpoint', [[price]])), 'markets');
  assert.equal(await one(asof(null, 'endpoint', price)), 'markets', 'a value as a scalar too');
  await assert.rejects(asof(null, null, [[-12345.678]]), (e: Error & { code?: string }) => e.code === '#N/A' && /No CRYPTO answer with this value/.test(e.message));
});

test('ASOF without a cell is #VALUE!, at a cell with no answer #N/A, with a bad field #VALUE! listing the fields', async () => {
  await assert.rejects(asof(null), (e: Error & { code?: string }) => e.code === '#VALUE!' && /a cell with a CRYPTO formula/.test(e.message));
  await assert.rejects(asof('Sheet1!Z99'), (e: Error & { code?: string }) => e.code === '#N/A' && /No CRYPTO answer at Sheet1!Z99 .*a LIVEPRICE cell is not tracked/.test(e.message));
  await assert.rejects(asof('Sheet1!B2', 'age'), (e: Error & { code?: string }) => e.code === '#VALUE!' && /fetchedAt, status, endpoint, credits, error, all/.test(e.message));
});

test('a failure after a good answer: the last good value, marked "(stale)" where the workbook shows it, and ASOF says stale with the error', async () => {
  await callAt('PRICE', ['cardano', null], 'Sheet1!C2');
  const good = s.host.provenance.at('Sheet1!C2')!;
  s.emulator!.clock.advance(120_000);
  s.client.refreshAll();
  s.host.settings.markStale = true;
  s.emulator!.faults.queue({ kind: '500', times: 10 });
  try {
    const stale = await callAt('PRICE', ['cardano', null], 'Sheet1!C2');
    assert.ok(stale instanceof FormattedCell, 'the number keeps its value and gets a format');
    assert.equal(stale.numberFormat, STALE_FORMAT);
    const p = s.host.provenance.at('Sheet1!C2')!;
    assert.equal(p.freshness, 'stale');
    assert.equal(p.fetchedAt, good.fetchedAt, 'the time of the value shown, not of the failed attempt');
    assert.match(p.error!.message, /Market data unavailable/);
    assert.equal(await one(asof('Sheet1!C2', 'status')), 'stale');
    assert.match(String(await one(asof('Sheet1!C2', 'error'))), /Market data unavailable/);
  } finally {
    s.emulator!.faults.clear?.();
    s.host.settings.markStale = false;
  }
  // Where the workbook's runtime does not mark (the CLI), the plain last good value.
  s.client.refreshAll();
  s.emulator!.faults.queue({ kind: '500', times: 10 });
  const plain = await callAt('PRICE', ['cardano', null], 'Sheet1!C3');
  assert.equal(typeof plain, 'number');
  s.emulator!.faults.clear?.();
});

test('HISTORICAL cells of one date share one request: each knows its fetch time, the request\'s credit is counted once', async () => {
  const [a, b] = await Promise.all([
    callAt('HISTORICAL', ['bitcoin', '2025-06-01', null, null], 'Sheet2!A1'),
    callAt('HISTORICAL', ['ethereum', '2025-06-01', null, null], 'Sheet2!A2'),
  ]);
  assert.equal(typeof a, 'number');
  assert.equal(typeof b, 'number');
  const pa = s.host.provenance.at('Sheet2!A1')!;
  const pb = s.host.provenance.at('Sheet2!A2')!;
  assert.deepEqual([pa.fetches.map((f) => f.endpoint), pb.fetches.map((f) => f.endpoint)], [['historicalItem'], ['historicalItem']]);
  assert.equal(pa.fetchedAt, pb.fetchedAt);
  assert.equal(pa.credits + pb.credits, 1, 'one request, one credit');
});

test('two cells sharing one request in flight (TOKENOMICS table and field): one is charged its credit, the other reads it uncharged', async () => {
  // review 2026-11-27 (supply #1): every cell waiting on a shared call was charged, so ASOF's credits added up to more than was spent.
  await callAt('PRICE', ['arbitrum', null], 'Sheet2!Z1'); // the coin resolved first: the two cells then ask one request
  const spent = s.client.meter.snapshot();
  const [a, b] = await Promise.all([
    callAt('TOKENOMICS', ['arbitrum', null], 'Sheet2!B1'),
    callAt('TOKENOMICS', ['arbitrum', 'maxSupply'], 'Sheet2!C1'),
  ]);
  assert.ok(Array.isArray(a), 'a table');
  assert.deepEqual(b, [[10_000_000_000]], 'the field');
  const now = s.client.meter.snapshot();
  assert.equal(now.requests - spent.requests, 1, 'one request');
  const pa = s.host.provenance.at('Sheet2!B1')!;
  const pb = s.host.provenance.at('Sheet2!C1')!;
  assert.ok(now.credits - spent.credits > 0);
  assert.equal(pa.credits + pb.credits, now.credits - spent.credits, 'the credits the cells say add up to what was spent');
  assert.deepEqual([pa.credits, pb.credits].sort(), [0, now.credits - spent.credits].sort(), 'one cell charged, the other not');
  assert.deepEqual([pa.freshness, pb.freshness].sort(), ['cached', 'fresh'], 'the uncharged one read it as another cell\'s answer');
});

test('two cells reading the same list pages in flight (MARKETS with and without headers): one is charged the list, the other reads it uncharged', async () => {
  // review 2026-11-27 (supply #1), for lists read page by page (client/paging.ts).
  const spent = s.client.meter.snapshot();
  const args = (headers: number | null) => [300, null, null, null, null, null, null, null, headers, null, null];
  await Promise.all([callAt('MARKETS', args(null), 'Sheet3!A1'), callAt('MARKETS', args(0), 'Sheet3!Z1')]);
  const now = s.client.meter.snapshot();
  assert.ok(now.credits > spent.credits, 'a page was fetched for them (the first may be an earlier test\'s, from the cache)');
  const pa = s.host.provenance.at('Sheet3!A1')!;
  const pb = s.host.provenance.at('Sheet3!Z1')!;
  assert.equal(pa.credits + pb.credits, now.credits - spent.credits, 'the credits the cells say add up to what was spent');
  assert.deepEqual([pa.credits, pb.credits].sort(), [0, now.credits - spent.credits].sort(), 'one cell charged, the other not');
});

test('the book: addresses in any case and with $, sheets quoted, the log newest first and bounded', () => {
  assert.deepEqual(parseCellAddress("'My sheet'!$B$2:C4"), { sheet: 'My sheet', top: 2, left: 2, bottom: 4, right: 3 });
  const book = new ProvenanceBook(10);
  const entry = (n: number, address: string): Provenance => ({
    time: n, formula: 'PRICE', args: [], addresses: [address], fetches: [], fetchedAt: n, freshness: 'fresh', credits: 0, error: null, rows: 1, cols: 1,
  });
  for (let i = 0; i < 600; i++) book.record(entry(i, `Sheet1!A${i + 1}`));
  assert.equal(book.recent().length, 500);
  assert.equal(book.recent()[0].time, 599);
  assert.equal(book.at('sheet1!$a$600')?.time, 599);
  assert.equal(book.at('Sheet1!A1'), null, 'the oldest cells are forgotten (bounded)');
});

test('errors are kept too: an unknown coin has no fetch time', async () => {
  await assert.rejects(callAt('PRICE', ['no-such-coin-zz', null], 'Sheet1!H1'));
  const p = s.host.provenance.at('Sheet1!H1')!;
  assert.equal(p.freshness, 'none');
  assert.equal(p.fetchedAt, null);
  assert.match(p.error!.message, /Unknown coin/);
  await assert.rejects(asof('Sheet1!H1'), (e: Error & { code?: string }) => e.code === '#N/A' && /No answer was fetched: Unknown coin/.test(e.message));
});

test('SEARCH answered from the currency map (no search endpoint on Sandbox): ASOF names the map, its fetch time and credit; the next SEARCH reads it from the cache', async () => {
  const sandbox = await frozenSession({ key: 'demo-sandbox', client: { maxRetries: 0 } });
  try {
    const at = (args: unknown[], address: string) => sandbox.host.call('SEARCH', args, { address }).result;
    const asofThere = (address: string, field: unknown = null) => sandbox.host.evaluate('ASOF', [[[null]], field, address]);
    const g = (await at(['sol', null], 'Sheet1!A1')) as unknown[][];
    assert.equal(g[0][1], 'Name', 'a table');
    const p = sandbox.host.provenance.at('Sheet1!A1')!;
    assert.deepEqual(p.fetches.map((f) => f.endpoint), ['currencyMap'], 'the map, no search request');
    assert.equal(p.fetchedAt, FROZEN_NOW);
    assert.equal(p.freshness, 'fresh');
    assert.equal(p.credits, answerCredits('currencyMap', {}, 1));
    assert.equal(await one(asofThere('Sheet1!A1', 'endpoint')), 'currencyMap');
    const when = await one(asofThere('Sheet1!C5'));
    assert.equal(when instanceof DateCell ? when.serial : when, toSerial(FROZEN_NOW), 'a cell of the spill finds it');
    // Another query: the same map object, from the cache, no credit charged twice.
    await at(['bitcoin', null], 'Sheet1!G1');
    const again = sandbox.host.provenance.at('Sheet1!G1')!;
    assert.deepEqual([again.fetches.map((f) => f.endpoint), again.freshness, again.credits, again.fetchedAt], [['currencyMap'], 'cached', 0, FROZEN_NOW]);
  } finally {
    await sandbox.close();
  }
});
