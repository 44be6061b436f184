/**
 * CRYPTO.COIN (issue #26) in Node: the pure shaping of a quote into an entity
 * (coin-entity.ts), what the workbook gets on runtimes 1.4 and 1.3
 * (cells.ts), the formula through the calculation host against the local API
 * server (its credits equal PRICE's, entities as coin arguments), and the
 * engine's field access (A1.Price, A1.[Market cap], #FIELD!).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculate, type JsonCell, type Outcome } from '../src/cli/calculate';
import type { Session } from '../src/cli/session';
import { coinEntity, coinPageUrl, moneyFormat } from '../src/formulas/coin-entity';
import { coinArg } from '../src/formulas/args';
import { EntityCell, type EntityValue } from '../src/formulas/entity-cell';
import { DAYS_1900_TO_1904, forWorkbook, toSerial, workbookCell } from '../src/formulas/cells';
import type { MoneyQuote } from '../src/formulas/currency';
import { MAX_COIN_ENTITIES } from '../src/formulas/coin';
import { Engine } from '../src/engine/evaluator';
import { toGrid } from '../src/preview/runtime/runtime';
import { marshalOne } from '../src/preview/runtime/marshal';
import { testSession } from './support/frozen-session';

const QUOTE: MoneyQuote = {
  id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', rank: 1, currency: 'USD',
  price: 65000.5, marketCap: 1.28e12, volume24h: 3.1e10, volume24hBase: 480000, fullyDilutedValuation: 1.36e12,
  high24h: 66000, low24h: 64000, change24h: 2.5, change7d: -1.25, change30d: 10, change3m: null, changeYtd: 40,
  circulatingSupply: 19.7e6, totalSupply: 19.7e6, maxSupply: 21e6, isTraded: true,
  lastUpdated: Date.UTC(2026, 2, 15, 12, 30), stale: false, categoryId: 6, imageUrl: 'https://images.cryptorank.io/coins/60x60.bitcoin.png',
};

const props = (e: EntityCell) => e.value.properties;

describe('the entity of a quote (pure)', () => {
  test('text is the name; money, percents, supplies, ids and the time typed as Excel shows them', () => {
    const e = coinEntity(QUOTE);
    assert.equal(e.text, 'Bitcoin');
    assert.equal(String(e), 'Bitcoin');
    const p = props(e);
    assert.deepEqual(p.Price, { type: 'FormattedNumber', basicValue: 65000.5, numberFormat: '"$"#,##0.00' });
    assert.deepEqual(p['Market cap'], { type: 'FormattedNumber', basicValue: 1.28e12, numberFormat: '"$"#,##0' });
    assert.deepEqual(p['Change 24h'], { type: 'FormattedNumber', basicValue: 0.025, numberFormat: '0.00%' }, 'the API\'s 2.5 (percent) as the fraction a % format shows as 2.50%');
    assert.deepEqual(p['Max supply'], { type: 'FormattedNumber', basicValue: 21e6, numberFormat: '#,##0' });
    assert.deepEqual(p.ID, { type: 'Double', basicValue: 1 });
    assert.deepEqual(p.Rank, { type: 'Double', basicValue: 1 });
    assert.deepEqual(p['Category ID'], { type: 'Double', basicValue: 6 });
    assert.deepEqual(p.Symbol, { type: 'String', basicValue: 'BTC' });
    assert.deepEqual(p.Slug, { type: 'String', basicValue: 'bitcoin' });
    assert.deepEqual(p.Traded, { type: 'Boolean', basicValue: true });
    assert.deepEqual(p['Last updated'], { type: 'FormattedNumber', basicValue: toSerial(QUOTE.lastUpdated!), numberFormat: 'yyyy-mm-dd hh:mm' });
    assert.deepEqual(p.Logo, { type: 'WebImage', address: QUOTE.imageUrl, altText: 'Bitcoin logo' });
    assert.equal((p['CryptoRank page'] as { basicValue: string }).basicValue, 'https://cryptorank.io/price/bitcoin');
  });

  test('a field the answer lacks is left out (=A1.[Change 3m] is then #FIELD!, one cell), and so is a logo not on HTTPS', () => {
    const p = props(coinEntity({ ...QUOTE, change3m: null, maxSupply: null, imageUrl: 'http://example.com/x.png' }));
    assert.equal(Object.hasOwn(p, 'Change 3m'), false);
    assert.equal(Object.hasOwn(p, 'Max supply'), false);
    assert.equal(Object.hasOwn(p, 'Logo'), false);
    const card = coinEntity({ ...QUOTE, imageUrl: null }).value.layouts!.card!;
    assert.equal(card.mainImage, undefined, 'no image: no main image');
    for (const s of card.sections!) for (const name of s.properties) assert.ok(Object.hasOwn(props(coinEntity({ ...QUOTE, imageUrl: null })), name), `${name} is a property`);
  });

  test('the card: the name as title, the symbol under it, the logo, titled sections, and CryptoRank credited with a link', () => {
    const v = coinEntity(QUOTE).value;
    assert.deepEqual(v.layouts!.card!.title, { property: 'Name' });
    assert.deepEqual(v.layouts!.card!.subTitle, { property: 'Symbol' });
    assert.deepEqual(v.layouts!.card!.mainImage, { property: 'Logo' });
    assert.deepEqual(v.layouts!.card!.sections!.map((s) => s.title ?? ''), ['', 'Price changes', 'Market', 'Supply', 'Coin']);
    assert.ok(v.layouts!.card!.sections!.every((s) => s.layout === 'List'), 'List sections (ExcelApi 1.16), not TwoColumn (1.19)');
    assert.deepEqual(v.provider, { description: 'CryptoRank', logoTargetAddress: 'https://cryptorank.io' });
    assert.equal(coinPageUrl('a b'), 'https://cryptorank.io/price/a%20b');
  });

  test('money formats: the currency\'s symbol or code, and the decimals a small price needs', () => {
    assert.equal(moneyFormat(65000.5, 'USD'), '"$"#,##0.00');
    assert.equal(moneyFormat(0.5, 'EUR'), '"€"#,##0.0000');
    assert.equal(moneyFormat(0.00001234, 'USD'), '"$"#,##0.00000000');
    assert.equal(moneyFormat(2e9, 'GBP'), '"£"#,##0');
    assert.equal(moneyFormat(12, 'CHF'), '#,##0.00 "CHF"');
    assert.equal(moneyFormat(12, 'x"y'), '#,##0.00 "XY"', 'nothing from outside breaks the format\'s quotes');
  });

  test('the entity it makes is read back as that coin by its id (an entity passed to any CRYPTO formula)', () => {
    assert.equal(coinArg(coinEntity(QUOTE).toJSON()), 1);
    assert.equal(coinArg([[coinEntity({ ...QUOTE, id: 1234 }).toJSON()]]), 1234);
  });

  test('into the workbook: the entity on runtime 1.4 (its time in the 1904 system there), its name as text on 1.3, never an error', () => {
    const e = coinEntity(QUOTE);
    const on14 = workbookCell(e, { formattedNumbers: true, dateSystem: '1900' }) as EntityValue;
    assert.equal(on14.type, 'Entity');
    assert.equal((on14.properties['Last updated'] as { basicValue: number }).basicValue, toSerial(QUOTE.lastUpdated!));
    const on1904 = workbookCell(e, { formattedNumbers: true, dateSystem: '1904' }) as EntityValue;
    assert.equal((on1904.properties['Last updated'] as { basicValue: number }).basicValue, toSerial(QUOTE.lastUpdated!) - DAYS_1900_TO_1904);
    assert.equal(workbookCell(e, { formattedNumbers: false, dateSystem: '1900' }), 'Bitcoin');
    assert.deepEqual(forWorkbook([[e, '']], { formattedNumbers: false, dateSystem: '1900' }), [['Bitcoin', '']]);
  });

  test('one entity is a few kilobytes: a spill of the most COIN returns stays far under Excel\'s 5 MB payload (office-js#4654)', () => {
    const bytes = JSON.stringify(coinEntity(QUOTE)).length;
    assert.ok(bytes < 5000, `${bytes} bytes`);
    assert.ok(bytes * MAX_COIN_ENTITIES < 1_000_000);
  });
});

describe('the preview runtime and engine with entities', () => {
  const entity = coinEntity(QUOTE).toJSON();

  test('a function\'s entity reaches the workbook on 1.4 and is #VALUE! on 1.3; an `any` parameter gets it as its object', () => {
    assert.deepEqual(toGrid([[entity]], '1.4'), [[JSON.parse(JSON.stringify(entity))]]);
    assert.deepEqual(toGrid([[entity]], '1.3'), [[{ error: '#VALUE!' }]]);
    assert.deepEqual(marshalOne({ value: entity }, { name: 'coin', type: 'any' }), JSON.parse(JSON.stringify(entity)));
    assert.throws(() => marshalOne({ value: entity }, { name: 'n', type: 'number' }), /n must be a number, not a data type/);
  });

  test('field access: A1.Price, A1.[Market cap], any case; #FIELD! for a missing field or a cell without a data type', () => {
    const engine = new Engine([]);
    const scope = {
      cell: (p: { row: number; col: number }) => (p.row === 1 && p.col === 1 ? entity : p.row === 2 && p.col === 1 ? 'text' : null),
      range: () => [],
      customFunction: () => null,
    };
    const at = { row: 5, col: 5 };
    assert.deepEqual(engine.evaluate('=A1.Price', at, scope), entity.properties.Price);
    assert.deepEqual(engine.evaluate('=A1.[Market cap]', at, scope), entity.properties['Market cap']);
    assert.equal(engine.evaluate('=A1.price*2', at, scope), 130001);
    assert.equal(engine.evaluate('=A1.Symbol', at, scope), 'BTC');
    assert.equal(engine.evaluate('=A1.Traded', at, scope), true);
    assert.deepEqual(engine.evaluate('=A1.[No such field]', at, scope), { error: '#FIELD!', message: 'Bitcoin has no field No such field' });
    assert.deepEqual(engine.evaluate('=A2.Price', at, scope), { error: '#FIELD!', message: 'Price: the cell is not a data type' });
    assert.deepEqual(engine.evaluate('=A1+1', at, scope), { error: '#VALUE!' }, 'an entity in arithmetic is its basicValue, #VALUE!');
    assert.deepEqual(engine.evaluate('=A1', at, scope), entity, 'a reference to it is the entity');
  });
});

describe('CRYPTO.COIN through the calculation host', () => {
  let s14: Session;
  let s13: Session;
  before(async () => {
    s14 = await testSession({ workbook: { formattedNumbers: true } });
    s13 = await testSession({ workbook: { formattedNumbers: false } });
  });
  after(async () => {
    await s14?.close();
    await s13?.close();
  });
  const value = (o: Outcome): JsonCell[][] => {
    assert.ok('value' in o, JSON.stringify(o));
    return o.value;
  };

  test('=CRYPTO.COIN("bitcoin") is Bitcoin\'s entity whose Price is CRYPTO.PRICE("bitcoin")\'s number; on 1.3 the name', async () => {
    const [[e]] = value(await calculate(s14.host, '=CRYPTO.COIN("bitcoin")')) as EntityValue[][];
    const [[price]] = value(await calculate(s14.host, '=CRYPTO.PRICE("bitcoin")'));
    assert.equal(e.type, 'Entity');
    assert.equal(e.text, 'Bitcoin');
    assert.equal((e.properties.Price as { basicValue: number }).basicValue, price);
    assert.deepEqual(value(await calculate(s13.host, '=CRYPTO.COIN("bitcoin")')), [['Bitcoin']]);
  });

  test('in EUR and GBP its money fields are in that currency', async () => {
    const [[eur]] = value(await calculate(s14.host, '=CRYPTO.COIN("ethereum","EUR")')) as EntityValue[][];
    const [[priceEur]] = value(await calculate(s14.host, '=CRYPTO.PRICE("ethereum","EUR")'));
    assert.deepEqual(eur.properties.Price, { type: 'FormattedNumber', basicValue: priceEur, numberFormat: '"€"#,##0.00' });
    const [[gbp]] = value(await calculate(s14.host, '=CRYPTO.COIN("ethereum","gbp")')) as EntityValue[][];
    assert.match((gbp.properties.Price as { numberFormat: string }).numberFormat, /^"£"/);
    assert.equal((gbp.properties.Currency as { basicValue: string }).basicValue, 'GBP');
  });

  test('over a range: one entity per cell in the range\'s shape, a blank stays blank, an unknown coin is its own #N/A', async () => {
    const g = value(await calculate(s14.host, '=CRYPTO.COIN({"bitcoin","nosuchcoinxyz";"","ETH"})'));
    assert.equal((g[0][0] as EntityValue).text, 'Bitcoin');
    assert.equal((g[0][1] as { error: string }).error, '#N/A');
    assert.match((g[0][1] as { message: string }).message, /nosuchcoinxyz/);
    assert.equal(g[1][0], '');
    assert.equal((g[1][1] as EntityValue).text, 'Ethereum');
  });

  test('bad input: #VALUE! naming the argument and the bound', async () => {
    const none = await calculate(s14.host, '=CRYPTO.COIN("")');
    assert.ok('error' in none && none.error === '#VALUE!' && /coin is required/.test(none.message), JSON.stringify(none));
    const many = `{${Array.from({ length: MAX_COIN_ENTITIES + 1 }, (_, i) => i + 1).join(',')}}`;
    const o = await calculate(s14.host, `=CRYPTO.COIN(${many})`);
    assert.ok('error' in o && o.error === '#VALUE!' && o.message.includes(`at most ${MAX_COIN_ENTITIES} coins`), JSON.stringify(o).slice(0, 200));
    const cur = await calculate(s14.host, '=CRYPTO.COIN("bitcoin","XXX")');
    assert.ok('error' in cur && cur.error === '#VALUE!' && /currency/.test(cur.message));
  });

  test('an entity passed as the coin of PRICE, TOKENOMICS, OHLCV is that coin, by its id', async () => {
    const [[e]] = value(await calculate(s14.host, '=CRYPTO.COIN("solana")')) as EntityValue[][];
    const id = (e.properties.ID as { basicValue: number }).basicValue;
    for (const [id_, args] of [['PRICE', []], ['TOKENOMICS', [null, 'circulatingSupply']], ['OHLCV', ['2024-01-01', '2024-01-03', 'daily', 0, 'close']]] as const) {
      const withEntity = await s14.host.evaluate(id_, [e, ...args]);
      const withId = await s14.host.evaluate(id_, [id, ...args]);
      assert.deepEqual(JSON.parse(JSON.stringify(withEntity)), JSON.parse(JSON.stringify(withId)), id_);
    }
  });

  test('QUOTE over a range of coin entities: each row\'s Coin column shows the entity\'s name, as its cell does', async () => {
    const [[e]] = value(await calculate(s14.host, '=CRYPTO.COIN("solana")')) as EntityValue[][];
    const g = JSON.parse(JSON.stringify(await s14.host.evaluate('QUOTE', [[[e], ['bitcoin']], [['price']], null, 1]))) as unknown[][];
    assert.deepEqual(g.map((r) => r[0]), ['Coin', 'Solana', 'bitcoin']);
    assert.equal(typeof g[1][1], 'number');
  });

  test('300 COIN cells spend exactly the credits of the same 300 PRICE cells (one batched quote)', async () => {
    const page = async (q: string) => {
      const res = await fetch(`${s14.emulator!.url}/v3/currencies/markets?${q}`, { headers: { 'X-Api-Key': 'demo-pro' } });
      return ((await res.json()) as { data: { slug: string }[] }).data.map((m) => m.slug);
    };
    const slugs = [...(await page('limit=250')), ...(await page('limit=50&offset=250'))];
    assert.equal(slugs.length, 300);
    const count = async (formula: (i: number) => string) => {
      const s = await testSession({ workbook: { formattedNumbers: true } });
      try {
        const out = await Promise.all(slugs.map((_, i) => calculate(s.host, formula(i))));
        assert.deepEqual(out.filter((o) => !('value' in o)), [], 'no errors');
        const m = s.client.meter.snapshot();
        return { credits: m.credits, requests: m.requests };
      } finally {
        await s.close();
      }
    };
    const price = await count((i) => `=CRYPTO.PRICE("${slugs[i]}")`);
    const coin = await count((i) => `=CRYPTO.COIN("${slugs[i]}")`);
    assert.ok(price.credits > 0);
    assert.deepEqual(coin, price);
  });
});
