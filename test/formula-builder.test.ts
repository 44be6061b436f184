/**
 * The pane's pure models for issue #25, in Node: the formula builder (fields
 * from functions.json, the formula text and arguments, the formula's own
 * checks in a dry run, its cost by the endpoint table, held against what the
 * formulas really spend over HTTP), the coin search, freezing and restoring,
 * the refresh-on-open decision, the CRYPTO calls in a formula's text, the
 * snapshot's cells and row, the answers' log rows and the errors in words.
 *
 *   node --import tsx --test test/formula-builder.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateCustomFunctionsMetadata } from 'custom-functions-metadata/lib/generate.js';
import { ENDPOINTS } from '../src/api/endpoints';
import { functionFiles } from '../src/cli/metadata';
import type { Session } from '../src/cli/session';
import { CATALOG } from '../src/formulas/catalog';
import { calculate } from '../src/cli/calculate';
import { loadExamples } from '../scripts/formula-table';
import type { Provenance } from '../src/formulas/provenance';
import { callText, logRows, LOG_HEADER } from '../src/taskpane/answer-log';
import { candidateLabel, findCoin, searchCoins, sharedSymbolNote } from '../src/formulas/coin-search';
import { currentErrors, errorWords } from '../src/taskpane/error-words';
import { bucketsBetween, estimateCredits } from '../src/taskpane/builder-cost';
import { dryRun, planNote } from '../src/taskpane/builder-dry-run';
import { buildCall, builderFunctions, builderGroups, fieldsOf, type FunctionsJson } from '../src/taskpane/formula-builder';
import areas from '../src/help/areas.json';
import { cryptoCalls, defaultCurrencyChange, FOLLOWS_DEFAULT_CURRENCY, unmeasuredCredits } from '../src/taskpane/formula-calls';
import { currencyOffer } from '../src/taskpane/currency-offer';
import { liveArgs } from '../src/formulas/live';
import { freezePlan, frozenKey, readRecord, restorePlan, withFingerprints, EMPTY_RECORD, type RangeNow } from '../src/taskpane/freeze';
import { fingerprint, typedFingerprint } from '../src/taskpane/freeze-fingerprint';
import { openRefreshDecision } from '../src/taskpane/open-refresh';
import { parseCellList, savedOnly, snapshotBlock, snapshotDone } from '../src/taskpane/snapshot';
import { cellRefreshEstimate } from '../src/taskpane/view-model';
import { FROZEN_NOW, frozenSession } from './support/frozen-session';

let meta: FunctionsJson;
let s: Session;
const SOLANA = { id: 6, slug: 'solana', symbol: 'SOL', name: 'Solana' };

before(async () => {
  const generated = await generateCustomFunctionsMetadata(functionFiles(), false);
  meta = JSON.parse(generated.metadataJson) as FunctionsJson;
  s = await frozenSession();
});
after(() => s?.close());

const fn = (id: string) => meta.functions.find((f) => f.id === id)!;
/** Where a formula takes a parameter, from functions.json (as the pane reads it). */
const param = (id: string, name: string) => meta.functions.find((f) => f.id === id)?.parameters.findIndex((p) => p.name === name) ?? -1;
const resolveIn = (coins: { id: number; slug: string; symbol: string | null; name: string }[]) => (input: string | number) => findCoin(coins, () => null, input);

function run(id: string, args: unknown[], now = FROZEN_NOW) {
  return dryRun(id, CATALOG[id], args, fn(id).parameters.map((p) => p.name), {
    settings: { defaultCurrency: 'USD', dateSystem: '1900' },
    now: () => now,
    client: s.client,
    resolve: resolveIn([SOLANA, { id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin' }]),
  });
}

describe('fields and formula text', () => {
  test('OHLCV: coin from the search, a date, choice lists from its custom enums (interval, the repeating fields), headers 1/0', () => {
    const fields = fieldsOf(fn('OHLCV'), meta);
    assert.deepEqual(fields.map((f) => [f.name, f.kind, f.required]), [
      ['coin', 'coin', true], ['start', 'date', true], ['end', 'date', false], ['interval', 'choice', false], ['headers', 'headers', false], ['fields', 'multi', false],
    ]);
    assert.deepEqual(fields[3].choices.map((c) => c.value), ['daily', 'weekly', 'monthly', 'hourly'], 'the OhlcvInterval enum of functions.json');
    assert.ok(fields[5].choices.some((c) => c.value === 'close'));
    assert.equal(fields[1].example, '2024-01-01');
  });

  test('the text: omitted arguments left empty in the middle and dropped at the end; quotes doubled; repeating values each an argument', () => {
    const f = fn('OHLCV');
    const fields = fieldsOf(f, meta);
    assert.equal(buildCall(f, fields, { start: '2024-01-01' }, SOLANA).text, '=CRYPTO.OHLCV("solana","2024-01-01")');
    const b = buildCall(f, fields, { start: '2024-01-01', headers: '0', fields: ['date', 'close'] }, SOLANA);
    assert.equal(b.text, '=CRYPTO.OHLCV("solana","2024-01-01",,,0,"date","close")');
    assert.deepEqual(b.args, ['solana', '2024-01-01', null, null, 0, ['date', 'close']]);
    assert.equal(buildCall(fn('SEARCH'), fieldsOf(fn('SEARCH'), meta), { query: 'say "hi"' }, null).text, '=CRYPTO.SEARCH("say ""hi""")');
  });

  test('a range of coins: the picked one, then others as a column of an array constant; matrix arguments arrive 2-D', () => {
    const f = fn('CORREL');
    const b = buildCall(f, fieldsOf(f, meta), { coins: 'bitcoin, ethereum', start: '90D' }, SOLANA);
    assert.equal(b.text, '=CRYPTO.CORREL({"solana";"bitcoin";"ethereum"},"90D")');
    assert.deepEqual(b.args[0], [['solana'], ['bitcoin'], ['ethereum']]);
    const q = buildCall(fn('QUOTE'), fieldsOf(fn('QUOTE'), meta), { fields: 'price,marketCap' }, SOLANA);
    assert.deepEqual(q.args.slice(0, 2), [[['solana']], [['price,marketCap']]]);
  });

  test('a number field refuses text before the formula is asked; ids where an id or a name is taken are numbers', () => {
    const f = fn('MARKETS');
    const fields = fieldsOf(f, meta);
    assert.deepEqual(buildCall(f, fields, { count: 'ten' }, null).errors, { count: 'count must be a number; got "ten"' });
    assert.equal(buildCall(f, fields, { count: '10', category: '3', excludeStablecoins: 'TRUE' }, null).text, '=CRYPTO.MARKETS(10,,,3,,,,,,,TRUE)');
  });

  test('what the hints offer is taken as a cell would take it: "5%" a number, a date serial a number, a year a period (review-features #10)', async () => {
    const st = buildCall(fn('STATS'), fieldsOf(fn('STATS'), meta), { start: '2024', riskFree: '5%' }, SOLANA);
    assert.deepEqual(st.errors, {}); // was: riskFree must be a number; got "5%"
    assert.equal(st.text, '=CRYPTO.STATS("solana","2024",,,,5%)');
    assert.equal(st.args[5], 0.05);
    assert.equal((await run('STATS', st.args)).error, null);
    const o = buildCall(fn('OHLCV'), fieldsOf(fn('OHLCV'), meta), { start: '45292', end: '45293.5' }, SOLANA);
    assert.equal(o.text, '=CRYPTO.OHLCV("solana",45292,45293.5)'); // was: "45292", text the formula refused
    assert.deepEqual(o.args.slice(1, 3), [45292, 45293.5]);
    assert.equal((await run('OHLCV', o.args)).error, null);
    // A field in percent points takes the number of percent, not "1%" read as 0.01 (review-r2 #4).
    const u = buildCall(fn('UNLOCKS'), fieldsOf(fn('UNLOCKS'), meta), { minPercentOfMcap: '1%' }, null);
    assert.deepEqual(u.errors, { minPercentOfMcap: 'minPercentOfMcap is in percent: type 1 for 1 %; got "1%"' });
    assert.deepEqual(buildCall(fn('MARKETS'), fieldsOf(fn('MARKETS'), meta), { count: '50%' }, null).errors, { count: 'count must be a number; got "50%"' });
  });

  test('every formula is offered except ASOF, which points at a cell', () => {
    const ids = builderFunctions(meta).map((f) => f.id);
    assert.ok(!ids.includes('ASOF'));
    assert.equal(ids.length, meta.functions.length - 1);
  });

  test('the list by area, in the help index\'s order: PRICE first, each formula once; one no area lists comes last, not lost', () => {
    const groups = builderGroups(meta, areas.areas);
    const ids = groups.flatMap((g) => g.functions.map((f) => f.id));
    assert.equal(ids[0], 'PRICE');
    assert.deepEqual(groups.map((g) => g.title), areas.areas.map((a) => a.title), 'every area has a formula the builder offers');
    assert.deepEqual([...ids].sort(), builderFunctions(meta).map((f) => f.id).sort(), 'each formula once, ASOF aside');
    const unlisted = builderGroups(meta, [{ title: 'Prices', functions: ['PRICE', 'ASOF', 'NOSUCH', 'PRICE'] }]);
    assert.deepEqual(unlisted.map((g) => [g.title, g.functions.length]), [['Prices', 1], ['Other', builderFunctions(meta).length - 1]]);
  });
});

describe('the dry run: the formula\'s own checks, no request', () => {
  test('a date that does not exist is the formula\'s #VALUE! on the start field; nothing was asked of the API', async () => {
    const before = s.emulator!.stats().requests;
    const r = await run('OHLCV', ['solana', '2024-02-30', null, null, null, []]);
    assert.deepEqual(r.error, { code: '#VALUE!', message: 'start is not a date that exists; got "2024-02-30"', field: 'start' });
    assert.deepEqual(r.requests, []);
    const choice = await run('OHLCV', ['solana', '2024-01-01', null, 'fortnightly', null, []]);
    assert.equal(choice.error?.field, 'interval');
    assert.match(choice.error!.message, /"daily", "weekly", "monthly" or "hourly"/);
    const noCoin = await run('OHLCV', [null, '2024-01-01', null, null, null, []]);
    assert.equal(noCoin.error?.field, 'coin');
    assert.equal(s.emulator!.stats().requests, before, 'the dry run made no request');
  });

  test('what the cell would show, by the one mapping: an unknown coin is #N/A, a bug is #N/A "unexpected error", not #VALUE!', async () => {
    const unknown = await run('OHLCV', ['nosuchcoin', '2024-01-01', null, null, null, []]);
    assert.deepEqual(unknown.error, { code: '#N/A', message: 'Unknown coin "nosuchcoin"', field: null });
    const deps = { settings: { defaultCurrency: 'USD' as const, dateSystem: '1900' as const }, now: () => FROZEN_NOW, client: s.client, resolve: () => null };
    const bug = await dryRun('PRICE', () => {
      throw new TypeError('boom');
    }, [], ['coin'], deps);
    assert.deepEqual(bug.error, { code: '#N/A', message: 'PRICE: unexpected error: boom', field: null });
  });

  test('a plan below what the requests need: the shared "needs the plan" words, with the account\'s plan', () => {
    const trending = [{ kind: 'get' as const, endpoint: 'trending', query: {} }];
    assert.equal(planNote([{ kind: 'get', endpoint: 'ohlcv', query: {} }], 'Basic'), ' It needs the Advanced plan or higher (yours: Basic): the cell would show #N/A.');
    assert.equal(planNote(trending, 'Pro'), '');
    assert.equal(planNote(trending, 'Gold'), '', 'a plan the add-in does not know: nothing said');
    assert.equal(planNote(trending, undefined), '');
    // SEARCH below Basic answers from the currency map (formulas/search.ts): no #N/A to warn of.
    const search = [{ kind: 'get' as const, endpoint: 'search', query: { query: 'btc' } }];
    assert.equal(planNote(search, 'Sandbox'), '');
    for (const [name, spec] of Object.entries(ENDPOINTS) as [string, { plan: string; standIn?: string }][]) {
      if (spec.standIn === undefined) continue;
      assert.ok(Object.hasOwn(ENDPOINTS, spec.standIn), `${name}: its stand-in is an endpoint`);
      assert.equal(ENDPOINTS[spec.standIn as keyof typeof ENDPOINTS].plan, 'Sandbox', `${name}: its stand-in is on every plan`);
    }
  });

  test('good arguments: the requests the formula would make, priced by the endpoint table', async () => {
    const r = await run('OHLCV', ['solana', '2024-01-01', null, null, null, []]);
    assert.equal(r.error, null);
    assert.deepEqual(r.requests.map((x) => [x.kind, x.endpoint, x.coinId, x.query.interval]), [['pages', 'candles', 6, 'day']]);
    const days = bucketsBetween(Date.UTC(2024, 0, 1), FROZEN_NOW, 'day');
    const est = estimateCredits(r.requests, FROZEN_NOW);
    assert.equal(est.credits, 1 + Math.ceil((days - 100) / 100));
    assert.ok(est.exact);
    const eur = estimateCredits((await run('PRICE', ['solana', 'EUR'])).requests, FROZEN_NOW);
    assert.equal(eur.credits, 2, 'a markets page converted to EUR: 1 + 1');
    const gbp = await run('PRICE', ['solana', 'GBP']);
    assert.deepEqual(gbp.requests.map((x) => x.endpoint).sort(), ['fiatList', 'markets'], 'the USD quote and the fiat list');
  });

  test('hourly candles before their reach: no refusal before the request (the reach is not documented: the service judges), one request priced', async () => {
    const r = await run('OHLCV', ['solana', '2024-01-01', '2024-01-05', 'hourly', null, []]);
    assert.equal(r.error, null);
    // the request as asked; the check that follows an answer not covering the range (reach.ts) is not priced
    assert.deepEqual(r.requests.map((x) => [x.kind, x.endpoint, x.query.interval]), [['pages', 'ohlcv', 'hour']]);
    assert.ok(r.complete);
  });

  test('the shown cost is what each builder formula spends when nothing is cached (over HTTP, the emulator\'s credits)', async () => {
    const differ: string[] = [];
    let compared = 0;
    await s.client.resolveCoin('solana'); // the builder has the currency map loaded: its search reads it
    for (const f of builderFunctions(meta)) {
      if (f.options?.stream) continue; // LIVEPRICE spends on every update
      const fields = fieldsOf(f, meta);
      const values = Object.fromEntries(fields.map((x) => [x.name, x.required ? x.example : '']));
      if (f.id === 'CORREL') values.coins = 'bitcoin';
      const b = buildCall(f, fields, values, SOLANA);
      const r = await run(f.id, b.args);
      if (r.error) continue; // a formula the pane would refuse (none with these examples, asserted below)
      const est = estimateCredits(r.requests, FROZEN_NOW, r.complete);
      s.client.refreshAll();
      s.host.clearLastGood();
      const before = s.client.meter.snapshot().credits;
      const failed = await s.host.evaluate(f.id, b.args as never[]).then(() => false, () => true);
      const spent = s.client.meter.snapshot().credits - before;
      compared++;
      // A request the service refuses costs nothing: an answer that failed spent at most what was shown.
      const ok = failed ? spent <= est.credits : est.exact ? spent === est.credits : spent >= est.credits;
      if (!ok) differ.push(`${b.text}: shown ${est.credits}${est.exact ? '' : '+'}, spent ${spent}${failed ? ' (failed)' : ''}`);
    }
    assert.ok(compared >= 30, `${compared} formulas compared`);
    assert.deepEqual(differ, []);
  });

  test('DOMINANCE("usdt") today\'s value asks from the start of the day: a client clock ahead of the server\'s is no error', async () => {
    const ahead = await frozenSession({ client: { now: () => FROZEN_NOW + 5_000 } });
    try {
      const [[v]] = (await ahead.host.evaluate('DOMINANCE', ['usdt', null, null, null])) as unknown[][];
      assert.equal(typeof v, 'number');
    } finally {
      await ahead.close();
    }
  });
});

describe('coin search', () => {
  const coins = [
    { id: 6, slug: 'solana', symbol: 'SOL', name: 'Solana' },
    { id: 900, slug: 'solar', symbol: 'SXP', name: 'Solar' },
    { id: 901, slug: 'sol-wormhole', symbol: 'SOL', name: 'Solana (Wormhole)' },
    { id: 902, slug: 'solve', symbol: 'SOLVE', name: 'SOLVE' },
    { id: 903, slug: 'consolidate', symbol: 'CNS', name: 'Consolidate' },
  ];
  const ranks: Record<number, number> = { 6: 5, 900: 400, 902: 1200 };
  const rank = (id: number) => ranks[id];

  test('"sol": the exact symbol first, best ranked first among equals, then starts, then anywhere; rank unknown last', () => {
    const list = searchCoins(coins, rank, 'sol');
    assert.deepEqual(list.map((c) => c.slug), ['solana', 'sol-wormhole', 'solve', 'solar', 'consolidate']);
    assert.equal(candidateLabel(list[0]), 'Solana (SOL), solana, rank 5');
    assert.equal(candidateLabel(list[1]), 'Solana (Wormhole) (SOL), sol-wormhole, unranked');
    assert.ok(list[0].sharedSymbol && list[1].sharedSymbol && !list[2].sharedSymbol);
    assert.match(sharedSymbolNote(list, 'SOL')!, /^2 coins use the symbol SOL: pick one/);
    assert.equal(sharedSymbolNote(list, 'solv'), null);
    assert.deepEqual(searchCoins(coins, rank, '  '), []);
  });

  test('a formula\'s coin found in the map as the formulas resolve it: slug or id, else the best-ranked symbol', () => {
    assert.equal(findCoin(coins, rank, 'SOL')!.slug, 'solana');
    assert.equal(findCoin(coins, rank, 'sol-wormhole')!.id, 901);
    assert.equal(findCoin(coins, rank, 902)!.slug, 'solve');
    assert.equal(findCoin(coins, rank, 'nope'), null);
  });
});

describe('convert to values and back', () => {
  const cells = [
    { sheet: 'Sheet1', address: 'B2', formula: '=CRYPTO.PRICE("bitcoin")', spill: null, values: [[65000]] },
    { sheet: 'Sheet1', address: 'D2', formula: '=CRYPTO.OHLCV("solana","30D")', spill: 'D2:I32', values: [['Date', 'Open']], numberFormat: [['General', 'General']] },
  ];

  test('each cell (or its whole spill) becomes its values; the record keeps each formula and where it spilled', () => {
    const plan = freezePlan(cells, EMPTY_RECORD, 1000);
    assert.deepEqual(plan.writes.map((w) => w.address), ['B2', 'D2:I32']);
    assert.deepEqual(plan.record.cells.map((c) => [c.address, c.formula, c.spill]), [['B2', '=CRYPTO.PRICE("bitcoin")', null], ['D2', '=CRYPTO.OHLCV("solana","30D")', 'D2:I32']]);
    // Frozen again: one entry a cell, the newer formula.
    const again = freezePlan([{ ...cells[0], formula: '=CRYPTO.PRICE("ethereum")' }], plan.record, 2000);
    assert.equal(again.record.cells.length, 2);
    assert.equal(again.record.cells.find((c) => c.address === 'B2')!.formula, '=CRYPTO.PRICE("ethereum")');
  });

  test('a data type read as #VALUE! is written back whole through valuesAsJson; without valuesAsJson the cell stays a formula (review-features #11)', () => {
    const card = { type: 'Entity', text: 'Bitcoin', properties: { Price: { type: 'Double', basicValue: 65000 } }, basicType: 'Error', basicValue: '#VALUE!' };
    const error = { type: 'Error', basicType: 'Error', basicValue: '#VALUE!' };
    const coin = { sheet: 'Sheet1', address: 'A1', formula: '=CRYPTO.COIN("bitcoin")', spill: null, values: [['#VALUE!']] };
    const coins = { sheet: 'Sheet1', address: 'C2', formula: '=CRYPTO.COIN({"a";"b"})', spill: 'C2:C3', values: [['#VALUE!'], ['#VALUE!']] };
    const withJson = freezePlan([{ ...coin, json: [[card]] }, { ...coins, json: [[card], [error]] }, { ...cells[0], json: [[{ type: 'Double', basicValue: 65000 }]] }], EMPTY_RECORD, 1000);
    assert.deepEqual(withJson.writes.map((w) => [w.address, w.entities?.map((e) => e.address)]), [['A1', ['A1']], ['C2:C3', ['C2']], ['B2', undefined]]);
    assert.deepEqual(withJson.writes[0].entities![0].value, card, 'the card whole');
    assert.deepEqual(withJson.kept, []);
    assert.deepEqual(withJson.record.cells.map((c) => c.address), ['A1', 'C2', 'B2']);
    // A card further into a spill is written to its own cell: the second row, the second column.
    const grid = { sheet: 'Sheet1', address: 'Y9', formula: '=CRYPTO.COIN({"a","b";"c","d"})', spill: 'Y9:Z10', values: [[1, 2], [3, '#VALUE!']], json: [[1, 2], [3, card]] };
    assert.deepEqual(freezePlan([grid], EMPTY_RECORD, 1000).writes[0].entities!.map((e) => e.address), ['Z10']);
    // No ExcelApi 1.16: a #VALUE! may be a card, so its cell stays a formula, out of the record; the others convert.
    const without = freezePlan([coin, { ...coins, json: null }, cells[0]], EMPTY_RECORD, 1000);
    assert.deepEqual(without.writes.map((w) => w.address), ['B2']);
    assert.deepEqual(without.kept.map((k) => [k.cell.address, k.reason]), [['A1', 'no-data-types'], ['C2', 'no-data-types']]);
    assert.deepEqual(without.record.cells.map((c) => c.formula), ['=CRYPTO.PRICE("bitcoin")']);
    // Another data type read as #VALUE! (a linked entity needs its provider): left a formula too.
    const linked = freezePlan([{ ...coin, json: [[{ type: 'LinkedEntity', text: 'MSFT', basicValue: '#VALUE!' }]] }], EMPTY_RECORD, 1000);
    assert.deepEqual(linked.kept.map((k) => k.reason), ['data-type']);
  });

  // A frozen range as Excel has it now: values, and no formula unless given.
  const held = (values: unknown[][], formulas: unknown[][] = values) => ({ values, formulas });

  test('restore: in scope only; a cell where a formula was typed since is left (and kept in the record); the spill is cleared first', () => {
    const record = freezePlan(cells, EMPTY_RECORD, 1000).record;
    const now = new Map([[frozenKey('Sheet1', 'B2'), held([[65000]])], [frozenKey('Sheet1', 'D2'), held([['Date', 'Open']], [['=SUM(1)', 'Open']])]]);
    const sheet = restorePlan(record, { kind: 'sheet', sheet: 'Sheet1' }, now);
    assert.deepEqual(sheet.restores, [{ sheet: 'Sheet1', address: 'B2', formula: '=CRYPTO.PRICE("bitcoin")', clear: null }]);
    assert.deepEqual(sheet.skipped.map((x) => [x.cell.address, x.reason]), [['D2', 'formula']]);
    assert.deepEqual(sheet.record.cells.map((c) => c.address), ['D2']);
    const selection = restorePlan(record, { kind: 'selection', sheet: 'Sheet1', range: 'C1:J40' }, new Map([[frozenKey('Sheet1', 'D2'), held([['Date', 'Open']])]]));
    assert.deepEqual(selection.restores.map((r) => [r.address, r.clear]), [['D2', 'D2:I32']]);
    assert.deepEqual(restorePlan(record, { kind: 'sheet', sheet: 'Other' }, new Map()).restores, []);
  });

  test('restore never clears the user\'s newer work: a formula anywhere in the old spill, other values there, or the sheet gone (review-features #1)', () => {
    const frozen = freezePlan(cells, EMPTY_RECORD, 1000).record;
    // The values Excel held once the freeze had written them: the record's fingerprints.
    const record = withFingerprints(frozen, new Map([[frozenKey('Sheet1', 'B2'), [[65000]]], [frozenKey('Sheet1', 'D2'), [['Date', 'Open']]]]));
    assert.equal(readRecord(JSON.parse(JSON.stringify(record))).cells[1].fingerprint, fingerprint([['Date', 'Open']]), 'kept in the document');
    const plan = (b2: RangeNow, d2: RangeNow) => restorePlan(record, { kind: 'workbook', sheet: 'Sheet1' }, new Map([[frozenKey('Sheet1', 'B2'), b2], [frozenKey('Sheet1', 'D2'), d2]]));

    const untouched = plan(held([[65000]]), held([['Date', 'Open']]));
    assert.deepEqual(untouched.restores.map((r) => r.address), ['B2', 'D2']);
    assert.deepEqual(untouched.record.cells, []);

    // A formula typed inside the spill, not at its anchor: was cleared with the spill.
    const typed = plan(held([[65000]]), held([['Date', 3]], [['Date', '=SUM(C3:C4)']]));
    assert.deepEqual(typed.restores.map((r) => r.address), ['B2']);
    assert.deepEqual(typed.skipped.map((x) => [x.cell.address, x.reason]), [['D2', 'formula']]);
    // A row inserted above: other values where the record says the cell is; was cleared, and the moved rows with it.
    const moved = plan(held([['Notes']]), held([['Open', 'Date']]));
    assert.deepEqual(moved.restores, []);
    assert.deepEqual(moved.skipped.map((x) => [x.cell.address, x.reason]), [['B2', 'changed'], ['D2', 'changed']]);
    assert.equal(moved.record.cells.length, 2, 'kept in the record, to restore by hand');
    // The sheet renamed: that cell is left, the others still restored (one batch held them all).
    const gone = plan(null, held([['Date', 'Open']]));
    assert.deepEqual(gone.restores.map((r) => r.address), ['D2']);
    assert.deepEqual(gone.skipped.map((x) => [x.cell.address, x.reason]), [['B2', 'sheet']]);
    // Text that begins with "=" (frozen behind Excel's ' prefix) reads back from Range.formulas as "=…", the same as
    // its value (office-js#6687): not a formula typed since. Was: never restorable.
    const eq = withFingerprints(frozen, new Map([[frozenKey('Sheet1', 'B2'), [['=not a formula']]]]));
    const text = restorePlan(eq, { kind: 'workbook', sheet: 'Sheet1' }, new Map([[frozenKey('Sheet1', 'B2'), held([['=not a formula']])], [frozenKey('Sheet1', 'D2'), held([['Date', 'Open']])]]));
    assert.deepEqual(text.restores.map((r) => r.address), ['B2', 'D2']);
    // A record from before fingerprints: the formula checks still hold, edited values do not stop it.
    const old = restorePlan(frozen, { kind: 'workbook', sheet: 'Sheet1' }, new Map([[frozenKey('Sheet1', 'B2'), held([[1]])], [frozenKey('Sheet1', 'D2'), held([[1, 2]], [[1, '=A1']])]]));
    assert.deepEqual(old.restores.map((r) => r.address), ['B2']);
    assert.equal(fingerprint([[1, 2]]) === fingerprint([[2, 1]]), false);
  });

  test('a frozen card replaced by another card is "changed": the fingerprint reads valuesAsJson where ExcelApi 1.16 is, as Range.values reads every card "#VALUE!"', () => {
    const card = (text: string, price: number) => ({ type: 'Entity', text, properties: { Price: { type: 'Double', basicValue: price } }, basicType: 'Error', basicValue: '#VALUE!' });
    const bitcoin = card('Bitcoin', 65000);
    const coin = { sheet: 'Sheet1', address: 'A1', formula: '=CRYPTO.COIN("bitcoin")', spill: null, values: [['#VALUE!']], json: [[bitcoin]] };
    const frozen = freezePlan([coin, cells[0]], EMPTY_RECORD, 1000).record;
    const record = withFingerprints(frozen, new Map([
      [frozenKey('Sheet1', 'A1'), { values: [['#VALUE!']], json: [[bitcoin]] }],
      [frozenKey('Sheet1', 'B2'), { values: [[65000]], json: [[{ type: 'Double', basicType: 'Double', basicValue: 65000 }]] }],
    ]));
    const [a1, b2] = record.cells;
    assert.ok(a1.typesFingerprint && a1.typesFingerprint !== a1.fingerprint, 'a card: both fingerprints');
    assert.equal(b2.typesFingerprint, undefined, 'no data type: the plain one only, as before');
    assert.equal(readRecord(JSON.parse(JSON.stringify(record))).cells[0].typesFingerprint, a1.typesFingerprint, 'kept in the document');
    const restore = (json: unknown[][] | null) =>
      restorePlan(record, { kind: 'workbook', sheet: 'Sheet1' }, new Map<string, RangeNow>([[frozenKey('Sheet1', 'A1'), { values: [['#VALUE!']], formulas: [['#VALUE!']], json }], [frozenKey('Sheet1', 'B2'), held([[65000]])]]));
    // Another card typed over it since: Range.values reads "#VALUE!" for both. Was: restored over the newer card.
    const replaced = restore([[card('Ethereum', 3000)]]);
    assert.deepEqual(replaced.skipped.map((x) => [x.cell.address, x.reason]), [['A1', 'changed']]);
    assert.deepEqual(replaced.restores.map((r) => r.address), ['B2']);
    assert.deepEqual(restore([[card('Bitcoin', 66000)]]).skipped.map((x) => x.reason), ['changed'], 'the same coin with another price is newer work too');
    // The same card, its fields in another order: restored.
    const reordered = { basicValue: '#VALUE!', basicType: 'Error', properties: { Price: { basicValue: 65000, type: 'Double' } }, text: 'Bitcoin', type: 'Entity' };
    assert.deepEqual(restore([[reordered]]).restores.map((r) => r.address), ['A1', 'B2']);
    // Restored where ExcelApi 1.16 is not (the workbook shared to an older Excel): the plain fingerprint, as before.
    assert.deepEqual(restore(null).restores.map((r) => r.address), ['A1', 'B2']);
    // A range without a data type digests as the plain fingerprint does: records from before still compare.
    assert.equal(typedFingerprint([[65000, 'x']], [[{ type: 'Double', basicValue: 65000 }, { type: 'String', basicValue: 'x' }]]), fingerprint([[65000, 'x']]));
    // An error frozen as #VALUE! (no typed fingerprint), a card there now: changed.
    const error = withFingerprints(freezePlan([{ ...coin, json: [[{ type: 'Error', basicType: 'Error', basicValue: '#VALUE!' }]] }], EMPTY_RECORD, 1000).record, new Map([[frozenKey('Sheet1', 'A1'), { values: [['#VALUE!']], json: [[{ type: 'Error', basicValue: '#VALUE!' }]] }]]));
    assert.equal(error.cells[0].typesFingerprint, undefined);
    const overError = restorePlan(error, { kind: 'workbook', sheet: 'Sheet1' }, new Map([[frozenKey('Sheet1', 'A1'), { values: [['#VALUE!']], formulas: [['#VALUE!']], json: [[bitcoin]] }]]));
    assert.deepEqual(overError.skipped.map((x) => x.reason), ['changed']);
  });

  test('a sheet renamed since the freeze: found by its Worksheet.id, restored there under its new name; records without an id still restore by name', () => {
    const onSheet = cells.map((c) => ({ ...c, sheetId: '{S1}' }));
    const frozen = freezePlan(onSheet, EMPTY_RECORD, 1000).record;
    assert.deepEqual(frozen.cells.map((c) => c.sheetId), ['{S1}', '{S1}'], 'the id beside the name');
    assert.deepEqual(readRecord(JSON.parse(JSON.stringify(frozen))).cells.map((c) => c.sheetId), ['{S1}', '{S1}'], 'kept in the document');
    const record = withFingerprints(frozen, new Map([[frozenKey('Sheet1', 'B2'), [[65000]]], [frozenKey('Sheet1', 'D2'), [['Date', 'Open']]]]));
    const on = (sheet: string, values: unknown[][]) => ({ ...held(values), sheet });
    // Sheet1 is "Prices" now: both cells go back there, the message names the new sheet.
    const renamed = new Map([[frozenKey('Sheet1', 'B2'), [on('Prices', [[65000]])]], [frozenKey('Sheet1', 'D2'), [on('Prices', [['Date', 'Open']])]]]);
    const plan = restorePlan(record, { kind: 'workbook', sheet: 'Prices' }, renamed);
    assert.deepEqual(plan.restores, [
      { sheet: 'Prices', address: 'B2', formula: '=CRYPTO.PRICE("bitcoin")', clear: null, renamedFrom: 'Sheet1' },
      { sheet: 'Prices', address: 'D2', formula: '=CRYPTO.OHLCV("solana","30D")', clear: 'D2:I32', renamedFrom: 'Sheet1' },
    ]);
    assert.deepEqual(plan.record.cells, [], 'out of the record (was: kept for good, "sheet not there")');
    // The active sheet is the renamed one: "Active sheet" and "Selection" scopes find its cells under the new name.
    assert.equal(restorePlan(record, { kind: 'sheet', sheet: 'Prices' }, renamed).restores.length, 2);
    assert.deepEqual(restorePlan(record, { kind: 'selection', sheet: 'Prices', range: 'A1:C3' }, renamed).restores.map((r) => r.address), ['B2']);
    assert.equal(restorePlan(record, { kind: 'sheet', sheet: 'Sheet1' }, renamed).restores.length, 0, 'not on the sheet now named Sheet1');
    // The id found a sheet whose cells are not the frozen ones (ids may change between sessions; Mac reuses a deleted
    // sheet's id), the recorded name one whose cells are: restored there.
    const both = new Map([[frozenKey('Sheet1', 'B2'), [on('Other', [['notes']]), held([[65000]])]], [frozenKey('Sheet1', 'D2'), [on('Other', [['x', 'y']]), on('Sheet1', [['Date', 'Open']])]]]);
    const byName = restorePlan(record, { kind: 'workbook', sheet: 'Other' }, both);
    assert.deepEqual(byName.restores.map((r) => [r.sheet, r.address, r.renamedFrom]), [['Sheet1', 'B2', undefined], ['Sheet1', 'D2', undefined]]);
    // Neither holds the frozen values: left, with the id's sheet's reason.
    const neither = restorePlan(record, { kind: 'workbook', sheet: 'Other' }, new Map([[frozenKey('Sheet1', 'B2'), [on('Other', [['notes']]), held([[1]], [['=1']])]]]));
    assert.deepEqual(neither.skipped.map((x) => [x.cell.address, x.reason]), [['B2', 'changed'], ['D2', 'sheet']]);
    // No fingerprint (the read-back failed): a sheet of another name is not trusted on the id's word alone.
    assert.deepEqual(restorePlan(frozen, { kind: 'workbook', sheet: 'Prices' }, renamed).skipped.map((x) => x.reason), ['sheet', 'sheet']);
    // A record written before ids: found by name as before; its sheet renamed is still "sheet" (nothing to find it by).
    const old = readRecord({ cells: [{ sheet: 'Sheet1', address: 'B2', formula: '=CRYPTO.PRICE("bitcoin")', spill: null, frozenAt: 5, fingerprint: fingerprint([[65000]]) }] });
    assert.equal(old.cells[0].sheetId, undefined);
    assert.deepEqual(restorePlan(old, { kind: 'workbook', sheet: 'Sheet1' }, new Map([[frozenKey('Sheet1', 'B2'), [held([[65000]])]]])).restores.map((r) => [r.sheet, r.address]), [['Sheet1', 'B2']]);
    assert.deepEqual(restorePlan(old, { kind: 'workbook', sheet: 'Sheet1' }, new Map([[frozenKey('Sheet1', 'B2'), []]])).skipped.map((x) => x.reason), ['sheet']);
  });

  test('a record read back from the document is checked: what is not a formula is dropped', () => {
    assert.deepEqual(readRecord(null), EMPTY_RECORD);
    assert.deepEqual(readRecord({ cells: [{ sheet: 'S', address: 'A1', formula: 'not a formula', spill: null }, { sheet: 'S', address: 'A2', formula: '=1', spill: null, frozenAt: 5 }] }).cells, [
      { sheet: 'S', address: 'A2', formula: '=1', spill: null, frozenAt: 5 },
    ]);
  });
});

describe('refresh when the workbook opens', () => {
  const four = ['=CRYPTO.OHLCV("bitcoin","30D")', '=CRYPTO.GLOBAL()', '=CRYPTO.TVL("aave")', '=CRYPTO.PROFILE("solana")'];
  const base = { enabled: true, hasKey: true, formulas: four, lastCredits: null, budget: null, spentToday: 0, dailyRemaining: null };
  test('off, no formulas, no key: nothing; otherwise within the budget and what the plan has left today', () => {
    assert.equal(openRefreshDecision({ ...base, enabled: false }).refresh, false);
    assert.equal(openRefreshDecision({ ...base, formulas: [] }).refresh, false);
    const nokey = openRefreshDecision({ ...base, hasKey: false });
    assert.ok(!nokey.refresh && nokey.reason === 'no-key');
    assert.deepEqual(openRefreshDecision(base), { refresh: true, credits: 4, basis: 'its formulas, prices sharing pages (the first refresh measures it)' });
    assert.deepEqual(openRefreshDecision({ ...base, lastCredits: 9, budget: 20 }), { refresh: true, credits: 9, basis: 'what the last refresh of this workbook spent' });
    const budget = openRefreshDecision({ ...base, lastCredits: 9, budget: 20, spentToday: 15 });
    assert.ok(!budget.refresh && budget.reason === 'budget');
    assert.match(budget.message!.text, /^Not refreshed when the workbook opened: it would spend about 9 credits and your daily budget has 5 credits left/);
    const zero = openRefreshDecision({ ...base, budget: 0 });
    assert.ok(!zero.refresh && zero.reason === 'budget');
    const account = openRefreshDecision({ ...base, dailyRemaining: 2 });
    assert.ok(!account.refresh && account.reason === 'account');
  });

  test('before a measured refresh, price formulas share the map and pages: 60 prices on a 50-credit budget refresh (review-features #12)', () => {
    const prices = Array.from({ length: 60 }, (_, i) => `=CRYPTO.PRICE(A${i + 2})`);
    const d = openRefreshDecision({ ...base, formulas: prices, budget: 50 });
    assert.deepEqual(d, { refresh: true, credits: 2, basis: 'its formulas, prices sharing pages (the first refresh measures it)' }); // was: refused, "about 60 credits"
    assert.equal(unmeasuredCredits(Array.from({ length: 600 }, (_, i) => `=CRYPTO.DATA(A${i},"price")`)), 4, 'the map and 3 pages (the benchmark measures 3)');
    assert.equal(unmeasuredCredits(['=CRYPTO.PRICE(A1)*CRYPTO.FEARGREED()', '=SUM(B1:B9)']), 3, 'each call counted; text that calls none, nothing');
    // Calls over a range of coins: one request a coin (review-r2 #9: CORREL of 59 coins was counted 1).
    assert.equal(unmeasuredCredits(['=CRYPTO.CORREL(A2:A60,"2024")', '=CRYPTO.STATS(Sheet2!$A$2:$B$3,"2024")']), 59 + 4);
    assert.equal(unmeasuredCredits(['=CRYPTO.STATS({"bitcoin";"ethereum";"solana"},"2024")']), 3);
    assert.equal(unmeasuredCredits(['=CRYPTO.QUOTE(A1:A600,"price")']), 1 + 3, 'quotes of a range share pages');
  });

  test('a new key or currency refreshes its cells under Refresh all data\'s rule: a yes first above 5 credits or over what is left', () => {
    const m = { ...s.client.meter.snapshot(), credits: 0 };
    assert.equal(cellRefreshEstimate(m, 3, null).confirm, false);
    assert.equal(cellRefreshEstimate(m, 12, null).confirm, true);
    assert.equal(cellRefreshEstimate(m, 3, 40).credits, 40, 'what the last refresh spent');
    assert.equal(cellRefreshEstimate(m, 3, null, 2).confirm, true, 'over what is left today');
  });
});

describe('formula text, snapshots, the log, errors', () => {
  test('CRYPTO calls and their arguments: nested, quoted commas and array constants respected, strings not calls', () => {
    assert.deepEqual(cryptoCalls('=CRYPTO.PRICE("bitcoin")*CRYPTO.PRICE(A1,"EUR")'), [{ name: 'PRICE', args: ['"bitcoin"'] }, { name: 'PRICE', args: ['A1', '"EUR"'] }]);
    assert.deepEqual(cryptoCalls('=CRYPTO.QUOTE({"a","b"},"price,rank",,0)'), [{ name: 'QUOTE', args: ['{"a","b"}', '"price,rank"', '', '0'] }]);
    assert.deepEqual(cryptoCalls('="CRYPTO.PRICE(x)"'), []);
    assert.deepEqual(cryptoCalls('=SUM(CRYPTO.OHLCV(B1,"30D",,,0,"close"))').map((c) => c.name), ['OHLCV']);
    const change = (formula: string, from: 'USD' | 'EUR' = 'USD', to: 'USD' | 'EUR' = 'EUR') => defaultCurrencyChange(formula, param, from, to);
    assert.equal(change('=CRYPTO.PRICE("bitcoin")'), 'answer');
    assert.equal(change('=CRYPTO.PRICE("bitcoin",)'), 'answer');
    assert.equal(change('=CRYPTO.PRICE("bitcoin","USD")'), null);
    assert.equal(change('=CRYPTO.RETURNS("bitcoin","monthly",0)'), null, 'RETURNS is USD unless told, and its headers are off');
    assert.equal(change('=CRYPTO.OHLCV("bitcoin","30D",,,0)'), null, 'no currency argument, no header row');
  });

  test('after a new default currency, a USD history shows its money headers otherwise ("Close (USD)"): those cells are offered too, while their headers show (review: left out last session)', () => {
    const change = (formula: string, from: 'USD' | 'EUR' = 'USD', to: 'USD' | 'EUR' = 'EUR') => defaultCurrencyChange(formula, param, from, to);
    // Headers shown by default, by 1, 2, TRUE, "yes", or a cell that may hold 1.
    for (const f of ['=CRYPTO.OHLCV("bitcoin","30D")', '=CRYPTO.OHLCV("bitcoin","30D",,,2)', '=CRYPTO.RETURNS("bitcoin","monthly")', '=CRYPTO.RETURNS("bitcoin","monthly",TRUE,"2024")',
      '=CRYPTO.SPARKLINE("bitcoin",1,"2D")', '=CRYPTO.SPARKLINE("bitcoin","yes")', '=CRYPTO.TVL("solana","3D")', '=CRYPTO.TVL("solana",,,B1)', '=INDEX(CRYPTO.OHLCV(A1,"7D"),1,5)']) {
      assert.equal(change(f), 'header', f);
      assert.equal(change(f, 'EUR', 'USD'), 'header', `${f}, back to USD`);
    }
    // Off (0, FALSE, "no"), or a value headers refuses (the cell is #VALUE!, with no header).
    for (const f of ['=CRYPTO.OHLCV("bitcoin","30D",,,0)', '=CRYPTO.OHLCV("bitcoin","30D",,,FALSE)', '=CRYPTO.RETURNS("bitcoin","monthly",0)',
      '=CRYPTO.SPARKLINE("bitcoin","no")', '=CRYPTO.TVL("solana",,,0)', '=CRYPTO.RETURNS("bitcoin","monthly","2024")', '=CRYPTO.TVL("solana",,,"maybe")']) {
      assert.equal(change(f), null, f);
    }
    assert.equal(change('=CRYPTO.OHLCV("bitcoin","30D")', 'EUR', 'EUR'), null, 'no change of currency, no change of header');
    assert.equal(change('=CRYPTO.STATS("bitcoin","2024")'), null, 'STATS heads its VWAP by its own currency argument');
    assert.equal(change('=CRYPTO.OHLCV("bitcoin","30D")*CRYPTO.PRICE("bitcoin")'), 'answer', 'the answer changes: more than the header');

    // The offer: both kinds named, and what refreshing costs counts the histories too (a new client's cache holds nothing).
    const cells = [
      { sheet: 'Sheet1', address: 'A1', formula: '=CRYPTO.PRICE("solana")' },
      { sheet: 'Sheet1', address: 'A2', formula: '=CRYPTO.PRICE("solana","USD")' },
      { sheet: 'Sheet1', address: 'A3', formula: '=CRYPTO.OHLCV("bitcoin","30D")' },
      { sheet: 'Sheet1', address: 'H1', formula: '=CRYPTO.OHLCV("bitcoin","30D",,,0)' },
      { sheet: 'Sheet2', address: 'B1', formula: '=CRYPTO.TVL("solana")' },
    ];
    const offer = currencyOffer(cells, param, 'USD', 'EUR')!;
    assert.deepEqual(offer.cells.map((c) => c.address), ['A1', 'A3', 'B1']);
    assert.equal(offer.credits, unmeasuredCredits(['=CRYPTO.PRICE("solana")', '=CRYPTO.OHLCV("bitcoin","30D")', '=CRYPTO.TVL("solana")']));
    assert.equal(offer.credits, 2 + 2, 'the map and a page for the price, a credit for each history');
    assert.equal(
      offer.text,
      '1 CRYPTO cell uses the default currency and still shows USD: Sheet1!A1. ' +
        '2 CRYPTO tables still have the headers of a USD workbook ("Close"; with EUR, "Close (USD)"), their USD numbers unchanged: Sheet1!A3, Sheet2!B1. ' +
        'Refresh them to show EUR? That fetches them again: about 4 credits (estimated from their formulas).',
    );
    const back = currencyOffer(cells.slice(2), param, 'EUR', 'USD')!;
    assert.equal(back.text, '2 CRYPTO tables still have the headers of a EUR workbook ("Close (USD)"; with USD, "Close"), their USD numbers unchanged: Sheet1!A3, Sheet2!B1. Refresh them? That fetches them again: about 2 credits (estimated from their formulas).');
    assert.equal(currencyOffer([cells[1], cells[3]], param, 'USD', 'EUR'), null, 'nothing changes: no offer');
  });

  test('the formulas whose header row alone changes with the default currency are the table\'s "header" ones: every example, in a USD and a EUR workbook', async () => {
    const eur = await frozenSession({ settings: { defaultCurrency: 'EUR' } });
    try {
      const headerOnly = new Set<string>();
      for (const [id, list] of Object.entries(loadExamples())) {
        for (const e of list) {
          const [usd, inEur] = [await calculate(s.host, e.formula), await calculate(eur.host, e.formula)];
          assert.ok('value' in usd && 'value' in inEur, `${e.formula} calculates`);
          const [a, b] = [usd.value, inEur.value];
          const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
          // Only labels differ (a header row, or a Field/Value table's Field column): every number is the same.
          const numbers = (g: unknown[][]) => g.map((r) => r.map((c) => (typeof c === 'string' ? null : c)));
          const labelsOnly = a.length === b.length && !same(a, b) && same(numbers(a), numbers(b));
          if (labelsOnly && a.length > 1) headerOnly.add(id);
          // The offer, cell by cell: a header-only change exactly where the labels change (not a one-field answer, not headers off).
          if (same(numbers(a), numbers(b)) && !/^=?CRYPTO\.(LIVEPRICE|ASOF)\(/i.test(e.formula)) {
            assert.equal(defaultCurrencyChange(e.formula, param, 'USD', 'EUR') === 'header', labelsOnly, `${e.formula}: offered for its labels, or not`);
          }
        }
      }
      const header = Object.keys(FOLLOWS_DEFAULT_CURRENCY).filter((id) => FOLLOWS_DEFAULT_CURRENCY[id] !== 'answer');
      assert.deepEqual([...headerOnly].sort(), header.sort());
    } finally {
      await eur.close();
    }
  });

  test('the formulas that follow the default currency are the ones whose requests change with it (review-features #7: COIN was left out)', async () => {
    // The least each formula with a currency parameter needs; a new one fails here until it is given its arguments.
    const needs: Record<string, unknown[]> = {
      PRICE: ['bitcoin'], DATA: ['bitcoin', 'price'], QUOTE: ['bitcoin'], MARKETS: [], PROFILE: ['bitcoin'], COIN: ['bitcoin'],
      HISTORICAL: ['bitcoin', 45292], STATS: ['bitcoin', '2024'], RETURNS: ['bitcoin', 'yearly'], LIVEPRICE: ['bitcoin'],
    };
    const withCurrency = meta.functions.filter((f) => f.parameters.some((p) => p.name === 'currency')).map((f) => f.id);
    assert.deepEqual([...withCurrency].sort(), Object.keys(needs).sort(), 'every formula with a currency parameter is checked');
    const asks = async (id: string, defaultCurrency: 'USD' | 'EUR') => {
      const r = await dryRun(id, CATALOG[id], needs[id], fn(id).parameters.map((p) => p.name), {
        settings: { defaultCurrency, dateSystem: '1900' }, now: () => FROZEN_NOW, client: s.client, resolve: resolveIn([{ id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin' }]),
      });
      assert.equal(r.error, null, `${id} takes its arguments`);
      return JSON.stringify(r.requests);
    };
    const follows: string[] = [];
    for (const id of withCurrency) {
      if (id === 'LIVEPRICE') continue; // a stream, not in the catalog the dry run runs: below
      if ((await asks(id, 'USD')) !== (await asks(id, 'EUR'))) follows.push(id);
    }
    if (liveArgs('bitcoin', null, null, 'EUR').currency === 'EUR') follows.push('LIVEPRICE');
    assert.deepEqual(follows.sort(), Object.keys(FOLLOWS_DEFAULT_CURRENCY).filter((id) => FOLLOWS_DEFAULT_CURRENCY[id] === 'answer').sort());
  });

  test('snapshot cells: ranges expanded, a cell without a sheet on the active one, too many refused; the row dated by its serial', () => {
    const r = parseCellList("B2, 'My sheet'!C1:C2", 'Sheet1');
    assert.ok('cells' in r);
    assert.deepEqual(r.cells, [{ sheet: 'Sheet1', address: 'B2' }, { sheet: 'My sheet', address: 'C1' }, { sheet: 'My sheet', address: 'C2' }]);
    assert.ok('error' in parseCellList('B2, nonsense!', 'Sheet1'));
    assert.ok('error' in parseCellList('A1:A51', 'Sheet1'));
    assert.deepEqual(snapshotBlock(r.cells, [1, null, 'x'], 45292.5), { header: ['Date (UTC)', 'Sheet1!B2', "'My sheet'!C1", "'My sheet'!C2"], row: [45292.5, 1, '', 'x'] });
  });

  test('a snapshot names the CRYPTO cells that show the value saved with the workbook, nothing fetched since it opened (review-features #15)', () => {
    const cells = [{ sheet: 'Sheet1', address: 'B2' }, { sheet: 'Sheet1', address: 'B3' }, { sheet: 'My sheet', address: 'C1' }, { sheet: 'Sheet1', address: 'B4' }];
    const formulas = ['=CRYPTO.PRICE("bitcoin")', '=B2*2', '=CRYPTO.QUOTE("eth","price")', 42];
    const fetched = new Set(['Sheet1!B2']);
    const saved = savedOnly(cells, formulas, (a) => fetched.has(a));
    assert.deepEqual(saved, [{ sheet: 'My sheet', address: 'C1' }], 'only a CRYPTO cell with no answer this session');
    assert.deepEqual(snapshotDone(4, 'Snapshots!A1:E2', []), { tone: 'success', text: 'Appended a snapshot of 4 cells at Snapshots!A1:E2.' });
    const warn = snapshotDone(4, 'Snapshots!A3:E3', saved);
    assert.equal(warn.tone, 'warning');
    assert.equal(warn.text, "Appended a snapshot of 4 cells at Snapshots!A3:E3. 'My sheet'!C1 shows the value saved with the workbook: nothing was fetched for it since the workbook opened. Press Refresh all data first to log today's values.");
  });

  test('log rows: one per calling cell, the cell\'s own formula where read, else rebuilt from the arguments', () => {
    const p: Provenance = {
      time: 1000, formula: 'PRICE', args: ['bitcoin', null], addresses: ['Sheet1!B2', 'Sheet1!B3'],
      fetches: [{ endpoint: 'markets', fetchedAt: 500, stale: false, fromCache: false, credits: 1 }],
      fetchedAt: 500, freshness: 'fresh', credits: 1, error: null, rows: 1, cols: 1,
    };
    const rows = logRows([p, { ...p, addresses: [], freshness: 'stale', error: { code: 'NETWORK_ERROR', message: 'Network failure' } }], (a) => (a === 'Sheet1!B2' ? '=CRYPTO.PRICE(A2)' : undefined), (ms) => ms / 1000);
    assert.deepEqual(rows[0], [...LOG_HEADER]);
    assert.deepEqual(rows.slice(1), [
      [1, 'Sheet1!B2', '=CRYPTO.PRICE(A2)', 'markets', 0.5, 'fresh', 1, ''],
      [1, 'Sheet1!B3', '=CRYPTO.PRICE("bitcoin")', 'markets', 0.5, 'fresh', 1, ''],
      [1, '', '=CRYPTO.PRICE("bitcoin")', 'markets', 0.5, 'stale', 1, 'Network failure'],
    ]);
    assert.equal(callText({ formula: 'QUOTE', args: [[['a'], ['b']], null, 'EUR'] }), '=CRYPTO.QUOTE({"a";"b"},,"EUR")');
  });

  test('errors in words, and gone when their cause is: a key saved after, a new UTC day, the same formula answering again', () => {
    assert.equal(errorWords('NO_API_KEY'), 'No API key');
    assert.equal(errorWords('BUDGET_EXCEEDED'), 'Daily credit budget reached');
    const day = Date.UTC(2026, 2, 15);
    const list = [
      { time: day + 10, formula: 'PRICE', code: 'NO_API_KEY', message: 'No API key' },
      { time: day - 10, formula: 'PRICE', code: 'BUDGET_EXCEEDED', message: 'Daily credit budget reached' },
      { time: day + 20, formula: 'OHLCV', code: 'NETWORK_ERROR', message: 'down' },
      { time: day + 30, formula: 'PRICE', code: 'UNKNOWN_COIN', message: 'Unknown coin "x"' },
    ];
    const none = { keySavedAt: null, now: day + 100, lastSuccess: () => null };
    assert.deepEqual(currentErrors(list, none).map((e) => e.code), ['NO_API_KEY', 'NETWORK_ERROR', 'UNKNOWN_COIN'], 'yesterday\'s budget is gone');
    const fixed = currentErrors(list, { keySavedAt: day + 15, now: day + 100, lastSuccess: (f) => (f === 'OHLCV' ? day + 25 : null) });
    assert.deepEqual(fixed.map((e) => e.code), ['UNKNOWN_COIN']);
  });
});
