/**
 * Custom enums (@customenum in src/functions/*.ts): the generated functions.json
 * gives every choice argument a list of values for Excel's AutoComplete, each
 * value is one the formula takes, the list is the one its error names, and
 * free text the formula took before still works (an enum is a suggestion list;
 * older builds ignore it: learn.microsoft.com/office/dev/add-ins/excel/custom-functions-custom-enums).
 *
 *   node --import tsx --test test/custom-enums.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateCustomFunctionsMetadata } from 'custom-functions-metadata/lib/generate.js';
import { calculate, type Outcome } from '../src/cli/calculate';
import { functionFiles } from '../src/cli/metadata';
import { openSession, type Session } from '../src/cli/session';
import { FROZEN_NOW } from '../harness/instant';

interface EnumMeta {
  id: string;
  type: 'string' | 'number';
  values: { name: string; stringValue?: string; tooltip?: string }[];
}
interface Param {
  name: string;
  type?: string;
  optional?: boolean;
  repeating?: boolean;
  customEnumId?: string;
}
interface Fn {
  id: string;
  name: string;
  parameters: Param[];
}

/** Every choice argument: function id → parameter names. */
const CHOICE_PARAMETERS: Record<string, string[]> = {
  OHLCV: ['interval', 'fields'], HISTORICAL: ['field', 'currency'], RETURNS: ['period'], SPARKLINE: ['interval'], PERFORMANCE: ['field'],
  PRICE: ['currency'], QUOTE: ['currency'], MARKETS: ['sortBy', 'sortOrder', 'lifecycle', 'currency'], PROFILE: ['field', 'currency'],
  TOKENOMICS: ['field'], UNLOCKS: ['sortBy', 'sortOrder'], VCPRESSURE: ['field'], HOLDERS: ['view'],
  GAINERS: ['period'], LOSERS: ['period'], GLOBAL: ['field'], DERIVATIVES: ['field'], FEARGREED: ['field'], ALTSEASON: ['field'], DOMINANCE: ['asset'],
  TVLCHANGE: ['period'], BLOCKCHAIN: ['field'], CREDITS: ['field'], LIVEPRICE: ['currency'],
  DATA: ['field', 'currency'], STATS: ['currency'], COIN: ['currency'],
};

/** What a required argument is given while another argument is tried. */
const GIVEN: Record<string, string> = { field: '"price"', coin: '"bitcoin"', coins: '"bitcoin"', chain: '"ethereum"', start: '"30D"', date: '"2024-01-01"', period: '"monthly"', query: '"bit"' };

let functions: Fn[];
let enums: EnumMeta[];
let s: Session;

before(async () => {
  const generated = await generateCustomFunctionsMetadata(functionFiles(), false);
  assert.deepEqual(generated.errors, []);
  ({ functions, enums } = JSON.parse(generated.metadataJson) as { functions: Fn[]; enums: EnumMeta[] });
  s = await openSession({ emulator: { now: FROZEN_NOW, rpm: 5000 } });
});
after(async () => {
  await s?.close();
});

const fn = (id: string) => functions.find((f) => f.id === id)!;
const enumOf = (p: Param) => enums.find((e) => e.id === p.customEnumId);
const values = (e: EnumMeta) => e.values.map((v) => v.stringValue!);

/** The formula calling `id` with `value` (formula text) for `param`, required arguments given, the rest omitted. */
function formula(id: string, param: string, value: string): string {
  const params = fn(id).parameters;
  const at = params.findIndex((p) => p.name === param);
  const args = params.slice(0, at + 1).map((p, k) => (k === at ? value : p.optional || p.repeating ? '' : GIVEN[p.name] ?? '1'));
  return `=CRYPTO.${fn(id).name}(${args.join(',')})`;
}

/** A #VALUE! about this argument (its name first in the message), or null. */
const complaint = (o: Outcome, param: string) => ('error' in o && o.error === '#VALUE!' && o.message.startsWith(`${param} `) ? o.message : null);

test('functions.json gives OHLCV\'s interval and RETURNS\' period a custom enum (typed string, as the generator writes it)', () => {
  const interval = fn('OHLCV').parameters.find((p) => p.name === 'interval')!;
  assert.equal(interval.type, 'string');
  assert.deepEqual(values(enumOf(interval)!), ['daily', 'weekly', 'monthly', 'hourly']);
  const period = fn('RETURNS').parameters.find((p) => p.name === 'period')!;
  assert.deepEqual(values(enumOf(period)!), ['monthly', 'quarterly', 'yearly']);
  assert.ok(enums.every((e) => e.values.every((v) => v.name && v.stringValue && v.tooltip)), 'every value has a name, a value and a tooltip');
  assert.equal(new Set(enums.map((e) => e.id)).size, enums.length, 'enum ids are unique across the files');
});

test('every choice argument has a custom enum', () => {
  const missing = Object.entries(CHOICE_PARAMETERS).flatMap(([id, ps]) => ps.filter((p) => !enumOf(fn(id).parameters.find((x) => x.name === p)!)).map((p) => `${id}.${p}`));
  assert.deepEqual(missing, []);
});

test('each enum value is one the formula takes, and the list is the one its error names', async () => {
  const problems: string[] = [];
  for (const [id, ps] of Object.entries(CHOICE_PARAMETERS)) {
    for (const param of ps) {
      const e = enumOf(fn(id).parameters.find((p) => p.name === param)!)!;
      const bad = await calculate(s.host, formula(id, param, '"zz-not-a-choice"'));
      const message = complaint(bad, param);
      if (!message) {
        problems.push(`${id}.${param}: no #VALUE! naming it for a bad value (${JSON.stringify(bad).slice(0, 200)})`);
        continue;
      }
      const allowed = message.replace(/; got .*$/, '');
      const listed = /(?:one of|names|from):? (.*)$/.exec(allowed)?.[1].split(/,\s*/) ?? [...allowed.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      const offered = values(e);
      const lower = (xs: string[]) => xs.map((x) => x.trim().toLowerCase());
      for (const v of lower(offered)) if (!lower(listed).includes(v)) problems.push(`${id}.${param}: the enum offers ${v}, the error does not name it`);
      for (const v of lower(listed)) if (!lower(offered).includes(v)) problems.push(`${id}.${param}: the error names ${v}, the enum does not offer it`);
      for (const v of offered) {
        const o = await calculate(s.host, formula(id, param, JSON.stringify(v)));
        const c = complaint(o, param);
        if (c) problems.push(`${id}.${param}: ${v} refused: ${c}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('free text the formulas took before still works: aliases and STOCKHISTORY\'s numbers', async () => {
  for (const f of ['=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-03-31",2)', '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-03-31","month")', '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-01-05",,,0,1)', '=CRYPTO.SPARKLINE("bitcoin",,,,"daily")', '=CRYPTO.TVLCHANGE("ethereum","1w")', '=CRYPTO.PRICE("bitcoin","eur")']) {
    const o = await calculate(s.host, f);
    assert.ok('value' in o, `${f}: ${JSON.stringify(o).slice(0, 200)}`);
  }
  // The period words OHLCV takes name the same spans in GAINERS, LOSERS and TVLCHANGE (newcomer review F19).
  for (const [word, code, f] of [['weekly', '7d', 'GAINERS'], ['Monthly', '30d', 'LOSERS'], ['daily', '24h', 'GAINERS']] as const) {
    assert.deepEqual(await calculate(s.host, `=CRYPTO.${f}("${word}",3,0)`), await calculate(s.host, `=CRYPTO.${f}("${code}",3,0)`), `${f} ${word}`);
  }
  for (const [word, code] of [['weekly', '7d'], ['quarterly', '90d'], ['yearly', '1y']]) {
    assert.deepEqual(await calculate(s.host, `=CRYPTO.TVLCHANGE("ethereum","${word}")`), await calculate(s.host, `=CRYPTO.TVLCHANGE("ethereum","${code}")`), word);
  }
  const monthly = await calculate(s.host, '=CRYPTO.OHLCV("bitcoin","2024-01-01","2024-03-31",2,0,"date")');
  assert.ok('value' in monthly && monthly.value.length === 3, 'interval 2 is monthly');
});
