/**
 * The pane's refreshes keep the user's work and the budget (review 2026-11-27, office #1-#3):
 * formulas re-entered only where the cell still holds them, a refresh's spend measured after its
 * answers (and a refresh on open not started on a 0 estimate with the budget used up), and Convert
 * to values leaving a cell still calculating (#BUSY!) a formula. In Node, with a small Excel whose
 * batches queue their reads and writes until sync(), as Office.js does.
 *
 *   node --import tsx --test test/pane-refresh-safety.test.ts
 */
import assert from 'node:assert/strict';
import { afterEach, test, type TestContext } from 'node:test';
import { CreditMeter, MarketClient, MemoryKvStore } from '../src/client';
import { startEmulator } from '../src/emulator/server';
import { StoredKeyStore } from '../src/office/storage';
import { cryptoCells } from '../src/office/workbook-cells';
import { leftAlone, reenterFormulas, spentUntilQuiet } from '../src/taskpane/excel';
import { EMPTY_RECORD, freezePlan } from '../src/taskpane/freeze';
import { FreezeSection } from '../src/taskpane/freeze-section';
import { KeySection } from '../src/taskpane/key-section';
import { openRefreshDecision } from '../src/taskpane/open-refresh';

const g = globalThis as Record<string, unknown>;

afterEach(() => {
  delete g.Excel;
  delete g.document;
  delete g.Office;
});

// ------------------------------------------------------------ a small Excel

interface FakeSheet {
  name: string;
  id: string;
  /** "A1" → a formula ("=...") or a value. */
  cells: Map<string, unknown>;
  /** What a formula's cell shows (Range.values), where not 0. */
  shows?: Map<string, unknown>;
}

const colOf = (s: string) => [...s].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
const colName = (n: number) => {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
};
const parse = (a: string) => {
  const m = /^([A-Z]+)(\d+)$/.exec(a)!;
  return { row: Number(m[2]), col: colOf(m[1]) };
};

/** A row inserted above `row` (1-based): the cells from there move one down, as Excel moves them. */
function insertRow(sheet: FakeSheet, row: number): void {
  const moved = [...sheet.cells].map(([a, v]) => {
    const p = parse(a);
    return [p.row >= row ? `${colName(p.col)}${p.row + 1}` : a, v] as const;
  });
  sheet.cells = new Map(moved);
}

/**
 * Excel.run over these sheets: reads are there after sync() (reading one before throws), writes
 * land on sync(), in order; a null object says whether it exists after sync(). `writes` logs each.
 */
function installExcel(sheets: FakeSheet[], writes: string[]): void {
  g.Excel = {
    run: async (batch: (ctx: unknown) => Promise<unknown>) => {
      const queue: (() => void)[] = [];
      const later = <T extends object>(target: T, fill: () => Partial<T>) => {
        queue.push(() => Object.assign(target, fill()));
        return target;
      };
      const notLoaded = (what: string) => () => {
        throw new Error(`test: ${what} read before load and sync`);
      };
      const range = (find: () => FakeSheet, address: string) => {
        const r = {
          load: () => void later(r as object, () => {
            const v = find().cells.get(address);
            const shown = typeof v === 'string' && v.startsWith('=') ? (find().shows?.get(address) ?? 0) : (v ?? '');
            return { loaded: { formulas: [[v ?? '']], values: [[shown]], numberFormat: [['General']] } };
          }),
          loaded: null as null | { formulas: unknown[][]; values: unknown[][]; numberFormat: string[][] },
          get formulas() {
            return r.loaded?.formulas ?? notLoaded('formulas')();
          },
          set formulas(f: unknown[][]) {
            queue.push(() => {
              const ws = find();
              writes.push(`${ws.name}!${address} := ${String(f[0][0])}`);
              ws.cells.set(address, f[0][0]);
            });
          },
          get values() {
            return r.loaded?.values ?? notLoaded('values')();
          },
          set values(v: unknown[][]) {
            queue.push(() => {
              const ws = find();
              writes.push(`${ws.name}!${address} = ${String(v[0][0])}`);
              ws.cells.set(address, v[0][0]);
            });
          },
          get numberFormat() {
            return r.loaded?.numberFormat ?? notLoaded('numberFormat')();
          },
          set numberFormat(_f: string[][]) {},
          getSpillingToRangeOrNullObject: () => ({ isNullObject: true, load() {} }),
        };
        return r;
      };
      const worksheet = (find: () => FakeSheet | undefined) => {
        const must = () => {
          const s = find();
          if (!s) throw new Error('ItemNotFound');
          return s;
        };
        const ws: Record<string, unknown> = {
          load: () => void later(ws, () => ({ name: must().name, id: must().id })),
          getRange: (a: string) => range(must, a),
          getUsedRangeOrNullObject: () => {
            const u: Record<string, unknown> = { load() {} };
            return later(u, () => {
              const addrs = [...must().cells.keys()].map(parse);
              if (addrs.length === 0) return { isNullObject: true };
              const top = Math.min(...addrs.map((a) => a.row));
              const bottom = Math.max(...addrs.map((a) => a.row));
              const left = Math.min(...addrs.map((a) => a.col));
              const right = Math.max(...addrs.map((a) => a.col));
              const formulas: unknown[][] = [];
              for (let r = top; r <= bottom; r++) formulas.push(Array.from({ length: right - left + 1 }, (_, c) => must().cells.get(`${colName(left + c)}${r}`) ?? ''));
              return { isNullObject: false, formulas, rowIndex: top - 1, columnIndex: left - 1 };
            });
          },
        };
        return ws;
      };
      const byKey = (key: string) => () => sheets.find((s) => s.id === key || s.name.toLowerCase() === key.toLowerCase());
      const worksheets: Record<string, unknown> = {
        load: () => void later(worksheets, () => ({ items: sheets.map((s) => worksheet(() => s)) })),
        getItem: (key: string) => worksheet(byKey(key)),
        getItemOrNullObject: (key: string) => later(worksheet(byKey(key)), () => ({ isNullObject: !byKey(key)() })),
        getActiveWorksheet: () => worksheet(() => sheets[0]),
      };
      const ctx = {
        workbook: { worksheets },
        sync: async () => {
          for (const op of queue.splice(0)) op();
        },
      };
      return batch(ctx);
    },
  };
}

const coins = ['bitcoin', 'ethereum', 'solana', 'cardano', 'dogecoin', 'tron', 'litecoin'];
const priceSheet = (n: number): FakeSheet => ({ name: 'Sheet1', id: '{S1}', cells: new Map(coins.slice(0, n).map((c, i) => [`A${i + 1}`, `=CRYPTO.PRICE("${c}")`])) });

// ------------------------------------------------------------ 1: re-entering keeps the user's edits

test('formulas are re-entered only where the cell still holds them: a typed value and the cells an inserted row moved are left alone, and named', async () => {
  const sheet = priceSheet(4);
  const writes: string[] = [];
  installExcel([sheet], writes);
  const cells = await cryptoCells('workbook');
  assert.equal(cells.length, 4);
  // While the pane waits (a question open, a status read), the user types 42 over A1 and inserts a row above row 3.
  sheet.cells.set('A1', 42);
  insertRow(sheet, 3);
  const { entered, changed } = await reenterFormulas(cells);
  assert.deepEqual(writes, ['Sheet1!A2 := =CRYPTO.PRICE("ethereum")'], 'only the cell that still holds its formula');
  assert.deepEqual(entered.map((c) => c.address), ['A2']);
  assert.deepEqual(changed.map((c) => c.address), ['A1', 'A3', 'A4']);
  assert.equal(sheet.cells.get('A1'), 42, "the user's 42 is kept");
  assert.equal(sheet.cells.get('A3'), undefined, 'no formula lands in the inserted row');
  assert.equal(sheet.cells.get('A4'), '=CRYPTO.PRICE("solana")', 'the moved cell is not overwritten with the formula that was there before');
  assert.match(leftAlone(changed), /changed since .*: Sheet1!A1, Sheet1!A3, Sheet1!A4\.$/);
  assert.equal(leftAlone([]), '');
});

test('a cell whose sheet was deleted meanwhile is left alone; the others are re-entered (found by sheet id through a rename)', async () => {
  const sheet = priceSheet(2);
  const other: FakeSheet = { name: 'Other', id: '{S2}', cells: new Map([['B2', '=CRYPTO.PRICE("tron")']]) };
  const sheets = [sheet, other];
  const writes: string[] = [];
  installExcel(sheets, writes);
  const cells = await cryptoCells('workbook');
  sheets.splice(1, 1);
  sheet.name = 'Renamed';
  const { entered, changed } = await reenterFormulas(cells);
  assert.deepEqual(writes, ['Renamed!A1 := =CRYPTO.PRICE("bitcoin")', 'Renamed!A2 := =CRYPTO.PRICE("ethereum")']);
  assert.equal(entered.length, 2);
  assert.deepEqual(changed.map((c) => `${c.sheet}!${c.address}`), ['Other!B2']);
});

/** The pane's elements by id, made on first use; `fire` runs an element's listeners. `query` answers querySelector. */
function installDom(query: (selector: string) => unknown = () => null) {
  const els = new Map<string, Record<string, any>>();
  g.document = {
    getElementById(id: string) {
      if (!els.has(id)) {
        const listeners = new Map<string, ((e: unknown) => unknown)[]>();
        const attrs = new Map<string, string>();
        const e: Record<string, any> = {
          id, value: '', textContent: '', hidden: false, dataset: {},
          setAttribute: (k: string, v: string) => attrs.set(k, v),
          getAttribute: (k: string) => attrs.get(k) ?? null,
          removeAttribute: (k: string) => attrs.delete(k),
          addEventListener: (t: string, fn: (e: unknown) => unknown) => listeners.set(t, [...(listeners.get(t) ?? []), fn]),
          focus() {},
          select() {},
          fire: (t: string) => (listeners.get(t) ?? []).forEach((fn) => fn({ preventDefault() {}, target: e })),
        };
        els.set(id, e);
      }
      return els.get(id);
    },
    querySelector: query,
  };
  return (id: string) => (g.document as { getElementById(id: string): Record<string, any> }).getElementById(id);
}

/** The sections' handlers return nothing to await: wait for what they show, with a bound. */
async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(ok(), `timed out waiting for ${what}`);
}

test('Refresh after a key save does not overwrite a cell the user changed while the question was open, and says so', async () => {
  const E = installDom();
  const sheet = priceSheet(7);
  const writes: string[] = [];
  installExcel([sheet], writes);
  const em = await startEmulator({});
  try {
    const store = new MemoryKvStore();
    const keys = new StoredKeyStore(store);
    const client = new MarketClient({ baseUrl: em.url, keyStore: keys, storage: store });
    const rt = { settings: { apiBaseUrl: em.url }, keys, client, host: { clearLastGood() {} } } as never;
    const section = new KeySection({ set() {}, showError() {} } as never, { keySaved() {} } as never, Promise.resolve(true));
    section.attach(rt);
    E('key-refresh').hidden = true;
    E('key-input').value = 'demo-pro';
    E('key-form').fire('submit');
    await until('the question (7 formulas, more than 5 credits)', () => E('key-refresh').hidden === false);
    sheet.cells.set('A1', 42);
    E('key-refresh-go').fire('click');
    await until('the refresh message', () => /refreshing with the new key/.test(E('key-message').textContent));
    assert.equal(sheet.cells.get('A1'), 42, "the user's 42 is kept");
    assert.equal(writes.length, 6);
    assert.match(E('key-message').textContent, /^The 6 CRYPTO cells are refreshing with the new key\. Left alone, because it was changed since .*: Sheet1!A1\.$/);
    assert.equal(E('key-message').dataset.tone, 'warning');
  } finally {
    await em.close();
  }
});

// ------------------------------------------------------------ 2: what a refresh spent, and the next one on open

/** Node's mock clock: `ms` on, 50 ms at a time, the meter's 'change' (a microtask) let through after each step. */
function clock(t: TestContext) {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const settle = () => new Promise<void>((r) => queueMicrotask(r));
  return async (ms: number) => {
    for (let i = 0; i < ms; i += 50) {
      t.mock.timers.tick(50);
      await settle();
    }
  };
}

test('a refresh whose first answer comes after 2 s is measured as what it spent, not 0', async (t) => {
  const advance = clock(t);
  const meter = new CreditMeter();
  let measured: number | null | undefined;
  void spentUntilQuiet(meter, meter.snapshot().credits).then((n) => (measured = n));
  await advance(2000);
  assert.equal(measured, undefined, 'no answer yet: still measuring');
  meter.recordRequest('markets', undefined, 5);
  await advance(200);
  meter.recordRequest('currencyMap', undefined, 1);
  await advance(1400);
  assert.equal(measured, undefined, 'not yet quiet 1.5 s after the last answer');
  await advance(400);
  assert.equal(measured, 6);
});

test('requests held for a rate-limit slot keep the measure open; no answer at all measures nothing (null), not 0', async (t) => {
  const advance = clock(t);
  const meter = new CreditMeter();
  let queued = 3;
  let measured: number | null | undefined;
  void spentUntilQuiet(meter, 0, { busy: () => queued > 0 }).then((n) => (measured = n));
  await advance(100);
  meter.recordRequest('markets', undefined, 5);
  await advance(5000);
  assert.equal(measured, undefined, 'three requests still wait for the pacer');
  queued = 0;
  await advance(1000);
  meter.recordRequest('markets', undefined, 5);
  await advance(2000);
  assert.equal(measured, 10);

  let none: number | null | undefined;
  void spentUntilQuiet(meter, meter.snapshot().credits, { maxMs: 10_000 }).then((n) => (none = n));
  await advance(9000);
  assert.equal(none, undefined);
  await advance(1500);
  assert.equal(none, null);
});

test('a workbook whose last refresh was measured 0 does not refresh on open with the daily budget spent', () => {
  const formulas = ['=CRYPTO.PRICE("bitcoin")'];
  const base = { enabled: true, hasKey: true, formulas, budget: 10, spentToday: 10, dailyRemaining: null };
  for (const lastCredits of [0, null]) {
    const d = openRefreshDecision({ ...base, lastCredits });
    assert.ok(!d.refresh && d.reason === 'budget', `lastCredits ${lastCredits}: refused`);
    assert.match(d.message!.text, /your daily budget has 0 credits left/);
  }
  assert.ok(!openRefreshDecision({ ...base, lastCredits: 0, budget: 0, spentToday: 0 }).refresh, 'a budget of 0');
  assert.ok(!openRefreshDecision({ ...base, lastCredits: 0, budget: null, spentToday: 0, dailyRemaining: 0 }).refresh, 'nothing left on the plan today');
  // A 0 measured is taken as unmeasured: the formulas' estimate, under a budget that has room for it.
  assert.deepEqual(openRefreshDecision({ ...base, lastCredits: 0, spentToday: 0 }), { refresh: true, credits: 2, basis: 'its formulas, prices sharing pages (the first refresh measures it)' });
});

// ------------------------------------------------------------ 3: Convert to values during a recalculation

test('a cell still calculating (#BUSY!) is not frozen as the text "#BUSY!": it stays a formula, out of the record', () => {
  const busy = { sheet: 'Sheet1', address: 'B2', formula: '=CRYPTO.PRICE("bitcoin")', spill: null, values: [['#BUSY!']], json: null };
  const done = { ...busy, address: 'B3', formula: '=CRYPTO.PRICE("ethereum")', values: [[3000]] };
  const plan = freezePlan([busy, done], EMPTY_RECORD, 0);
  assert.deepEqual(plan.writes.map((w) => [w.address, w.values]), [['B3', [[3000]]]]);
  assert.deepEqual(plan.kept.map((k) => [k.cell.address, k.reason]), [['B2', 'busy']]);
  assert.deepEqual(plan.record.cells.map((c) => c.address), ['B3']);
  // Read through valuesAsJson (ExcelApi 1.16), and in a spill still calculating.
  const json = [[{ type: 'String' }, { type: 'String' }], [{ type: 'Double' }, { type: 'Error', errorType: 'Busy' }]];
  const typed = freezePlan([{ ...busy, spill: 'B2:C3', values: [['Date', 'Close'], [45292, '#BUSY!']], json }], EMPTY_RECORD, 0);
  assert.deepEqual(typed.writes, []);
  assert.equal(typed.kept[0].reason, 'busy');
});

test('Convert to values during a recalculation leaves the #BUSY! cell a formula and says so', async () => {
  const E = installDom((selector) => (selector.includes('freeze-scope') ? { value: 'workbook' } : null));
  const saved = new Map<string, unknown>();
  g.Office = {
    context: {
      document: {
        settings: {
          get: (k: string) => saved.get(k),
          set: (k: string, v: unknown) => saved.set(k, v),
          remove: (k: string) => saved.delete(k),
          saveAsync: (cb: (r: { status: string }) => void) => cb({ status: 'succeeded' }),
        },
      },
    },
  };
  const sheet = priceSheet(2);
  sheet.shows = new Map<string, unknown>([['A1', 64000], ['A2', '#BUSY!']]);
  const writes: string[] = [];
  installExcel([sheet], writes);
  new FreezeSection(Promise.resolve(true));
  E('freeze-go').fire('click');
  await until('the message', () => E('freeze-message').textContent !== '');
  assert.deepEqual(writes, ['Sheet1!A1 = 64000']);
  assert.equal(sheet.cells.get('A2'), '=CRYPTO.PRICE("ethereum")', 'still a formula');
  assert.equal(E('freeze-message').dataset.tone, 'warning');
  assert.match(E('freeze-message').textContent, /^Converted 1 CRYPTO cell in the workbook to values;.* Left as a formula, because it was still calculating \(#BUSY!\).*: Sheet1!A2\.$/);
});
