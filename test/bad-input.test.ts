/**
 * Property-based bad input (fast-check): for every formula, hundreds of
 * argument combinations generated from its functions.json metadata
 * (bench/bad-input.ts), each through the calculation host against the local
 * API server. Every one must be a value Excel can show, or #VALUE!/#N/A with a
 * plain message (a #VALUE! naming the argument): never a thrown error, a stack
 * trace or a cell Excel cannot show.
 *
 *   node --import tsx --test test/bad-input.test.ts        (FC_SEED=n to explore other cases)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { argumentsFor, judge } from '../bench/bad-input';
import { loadFunctionMetadata, type FunctionMeta } from '../src/cli/metadata';
import type { Session } from '../src/cli/session';
import { frozenSession } from './support/frozen-session';

const RUNS = 200;
const SEED = Number(process.env.FC_SEED ?? 17);

let s: Session;
let functions: FunctionMeta[];
const tally: Record<string, number> = { value: 0, '#VALUE!': 0, '#N/A': 0 };

before(async () => {
  [s, functions] = await Promise.all([frozenSession(), loadFunctionMetadata()]);
});
after(async () => {
  console.log(`# bad input: ${Object.values(tally).reduce((a, b) => a + b, 0)} calls: ${tally.value} values, ${tally['#VALUE!']} #VALUE!, ${tally['#N/A']} #N/A`);
  await s.close();
});

const NAMES = [
  'CREDITS', 'BLOCKCHAINS', 'BLOCKCHAIN', 'TVL', 'TVLCHANGE', 'PERSONS', 'TRENDING', 'GAINERS', 'LOSERS', 'GLOBAL', 'DERIVATIVES',
  'FEARGREED', 'ALTSEASON', 'DOMINANCE', 'OHLCV', 'HISTORICAL', 'RETURNS', 'SPARKLINE', 'PERFORMANCE', 'LIVEPRICE', 'PRICE',
  'QUOTE', 'MARKETS', 'SEARCH', 'PROFILE', 'CONTRACTS', 'TOKENOMICS', 'VESTING', 'UNLOCKS', 'VCPRESSURE', 'HOLDERS',
  'DATA', 'STATS', 'CORREL', 'ASOF', 'COIN',
];

test('every formula in functions.json is covered', () => {
  assert.deepEqual(functions.map((f) => f.id).sort(), [...NAMES].sort());
});

describe(`${RUNS} generated calls per formula`, () => {
  for (const id of NAMES) {
    test(id, async () => {
      const meta = functions.find((f) => f.id === id)!;
      // Sampled rather than fc.assert: every wrong outcome is listed, with its reason, not only the first.
      const cases = fc.sample(argumentsFor(meta), { numRuns: RUNS, seed: SEED });
      const wrong: string[] = [];
      for (const args of cases) {
        const outcome = await s.host.evaluate(id, args).then((ok) => ({ ok }), (err: unknown) => ({ err }));
        const v = judge(meta, outcome);
        if (v.kind === 'wrong') wrong.push(`CRYPTO.${id}(${JSON.stringify(args).slice(0, 160)}): ${v.why.slice(0, 300)}`);
        else tally[v.kind]++;
      }
      assert.deepEqual(wrong, [], `${wrong.length} of ${RUNS} calls`);
    });
  }
});
