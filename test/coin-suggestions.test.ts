/**
 * "Did you mean": the coin a user most likely meant comes first (review F8).
 * Small scripted maps and rank books, no HTTP; the same on the demo data:
 * client-quotes.test.ts, formulas-market.test.ts, formulas-chains.test.ts.
 *
 *   node --import tsx --test test/coin-suggestions.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoinMap, RankBook } from '../src/client/coin-map';
import { editDistance, nearness, suggest } from '../src/client/coin-suggestions';
import type { CoinRef } from '../src/client/coin-ref';
import { closestChains } from '../src/formulas/chains';

const coin = (id: number, slug: string, symbol: string | null, name: string): CoinRef => ({ id, slug, symbol, name });
/** A rank book that knows these ranks (null: known to be unranked). */
function ranksOf(entries: [number, number | null][]): RankBook {
  const b = new RankBook();
  b.learnRanks(entries.map(([id, rank]) => ({ id, rank })));
  return b;
}
const slugs = (xs: readonly CoinRef[]) => xs.map((c) => c.slug);

describe('editDistance: optimal string alignment', () => {
  test('a swap of two adjacent letters is one edit', () => {
    assert.equal(editDistance('bitocin', 'bitcoin'), 1);
    assert.equal(editDistance('etheruem', 'ethereum'), 1);
    assert.equal(editDistance('ab', 'ba'), 1);
  });
  test('otherwise Levenshtein: insertions, deletions, substitutions; symmetric', () => {
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('sitting', 'kitten'), 3);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('abc', ''), 3);
    assert.equal(editDistance('bitcon', 'bitcoin'), 1);
    assert.equal(editDistance('same', 'same'), 0);
    // a swapped pair is not edited again (OSA, not full Damerau): "ca" -> "abc" is 3, not 2
    assert.equal(editDistance('ca', 'abc'), 3);
  });
  test('past max it gives up with max + 1', () => {
    assert.equal(editDistance('abcdef', 'uvwxyz', 2), 3);
    assert.equal(editDistance('a', 'abcdef', 2), 3);
    assert.equal(editDistance('bitocin', 'bitcoin', 1), 1, 'a swap within max is found');
    // the cut-off never hides a distance within max
    const words = ['bitcoin', 'bitocin', 'btcoin', 'bitcoinn', 'tibcoin', 'ethereum', 'solana', 'sloana', 'bit', ''];
    for (const a of words) for (const b of words) for (const max of [0, 1, 2, 3]) {
      const full = editDistance(a, b);
      assert.equal(editDistance(a, b, max), full <= max ? full : max + 1, `${a} ${b} ${max}`);
    }
  });
});

describe('nearness', () => {
  test('typing the beginning of a name counts less than one edit; a name then more words, as one', () => {
    assert.ok(nearness('bitco', 'bitcoin', 1) < 1);
    assert.ok(nearness('bitco', 'bitcoin', 1) < nearness('bitco', 'bitcoin-cash', 1), 'the shorter rest is nearer');
    assert.ok(nearness('solana token', 'solana', 3) < 2);
  });
  test('input that merely begins with a short symbol is only its edits: "bitcon" is 2 from BITC, further than BIT allows', () => {
    assert.equal(nearness('bitcon', 'bitc', 2), 2);
    assert.equal(nearness('bitcon', 'bit', 2), Number.POSITIVE_INFINITY);
    assert.equal(nearness('solano', 'sola', 2), 2);
  });
});

describe('suggest: the coin the user most likely meant first', () => {
  // the shapes of the demo data's misses: a top coin one edit away, unranked coins whose symbols begin the input
  const BTC = coin(1, 'bitcoin', 'BTC', 'Bitcoin');
  const SOL = coin(6, 'solana', 'SOL', 'Solana');
  const LTC = coin(18, 'litecoin', 'LTC', 'Litecoin');
  const BCH = coin(15, 'bitcoin-cash', 'BCH', 'Bitcoin Cash');
  const BIT = coin(1072, 'bitra-finance', 'BIT', 'Bitra Finance');
  const BITOM = coin(1638, 'bito', 'BITOM', 'Bito');
  const SOLA = coin(1780, 'solanter-chain', 'SOLA', 'Solanter Chain');
  const SOLAN = coin(2484, 'solannex-token', 'SOLAN', 'Solannex Token');
  const BITC = coin(3059, 'bitcysta-ai', 'BITC', 'Bitcysta AI');
  const map = new CoinMap([BTC, SOL, BCH, LTC, BIT, BITOM, SOLA, SOLAN, BITC], 0);
  const ranks = ranksOf([[1, 1], [6, 6], [15, 15], [18, 18], [2484, 1364], [1780, 1712], [1072, null]]);

  test('the review\'s cases: bitcon, bitocin, solano', () => {
    assert.equal(suggest(map, 'bitcon', ranks)[0]?.slug, 'bitcoin');
    assert.equal(suggest(map, 'bitocin', ranks)[0]?.slug, 'bitcoin');
    assert.equal(suggest(map, 'solano', ranks)[0]?.slug, 'solana');
  });

  test('with no rank known (a cold start), nearness alone still puts them first', () => {
    const none = new RankBook();
    assert.equal(suggest(map, 'bitcon', none)[0]?.slug, 'bitcoin');
    assert.equal(suggest(map, 'bitocin', none)[0]?.slug, 'bitcoin');
    assert.equal(suggest(map, 'solano', none)[0]?.slug, 'solana');
    assert.equal(suggest(map, 'bitcon')[0]?.slug, 'bitcoin', 'or no rank book at all');
  });

  test('a top coin one edit further than an obscure coin comes first', () => {
    // "dogcon": dogcorn is one edit (an r), dogecoin two (an e, an i)
    const DOGE = coin(8, 'dogecoin', 'DOGE', 'Dogecoin');
    const CORN = coin(5, 'dogcorn', 'DCRN', 'Dogcorn');
    const m = new CoinMap([CORN, DOGE], 0);
    assert.equal(editDistance('dogcon', 'dogcorn'), 1);
    assert.equal(editDistance('dogcon', 'dogecoin'), 2);
    assert.deepEqual(slugs(suggest(m, 'dogcon', ranksOf([[8, 8]]))), ['dogecoin', 'dogcorn']);
    assert.deepEqual(slugs(suggest(m, 'dogcon', ranksOf([[8, 8], [5, 900]]))), ['dogecoin', 'dogcorn'], 'a ranked coin outside the top ranks too');
    // without ranks the nearer one
    assert.deepEqual(slugs(suggest(m, 'dogcon', new RankBook())), ['dogcorn', 'dogecoin']);
  });

  test('between two top coins the nearer comes first, whatever their ranks', () => {
    assert.equal(suggest(map, 'bitcoin-cashh', ranks)[0]?.slug, 'bitcoin-cash', 'one edit from bitcoin cash; bitcoin and more words');
    assert.equal(suggest(map, 'lietcoin', ranks)[0]?.slug, 'litecoin', 'a swap from litecoin, two edits from bitcoin');
  });

  test('an exact-distance tie goes to the higher-ranked coin', () => {
    // "bitocin": bitcoin by a swap, bitoxin by a substitution: one edit each; bitoxin has the lower id
    const XIN = coin(2, 'bitoxin', 'BOX', 'Bitoxin');
    const BTC9 = coin(9, 'bitcoin', 'BTC', 'Bitcoin');
    const m = new CoinMap([XIN, BTC9], 0);
    assert.deepEqual(slugs(suggest(m, 'bitocin', ranksOf([[9, 7], [2, 40]]))), ['bitcoin', 'bitoxin']);
    assert.deepEqual(slugs(suggest(m, 'bitocin', ranksOf([[9, 400], [2, 900]]))), ['bitcoin', 'bitoxin'], 'outside the top ranks too');
    assert.deepEqual(slugs(suggest(m, 'bitocin', ranksOf([[9, 40], [2, 7]]))), ['bitoxin', 'bitcoin']);
    // no ranks: the lower id
    assert.deepEqual(slugs(suggest(m, 'bitocin', new RankBook())), ['bitoxin', 'bitcoin']);
  });

  test('a coin without a rank comes after a ranked one within one edit of it', () => {
    const DOGE = coin(8, 'dogecoin', 'DOGE', 'Dogecoin');
    const CORN = coin(5, 'dogcorn', 'DCRN', 'Dogcorn'); // one edit from "dogcon"; dogecoin two
    const m = new CoinMap([CORN, DOGE], 0);
    assert.deepEqual(slugs(suggest(m, 'dogcon', ranksOf([[8, 2000], [5, null]]))), ['dogecoin', 'dogcorn'], 'unranked');
    assert.deepEqual(slugs(suggest(m, 'dogcon', ranksOf([[8, 2000]]))), ['dogecoin', 'dogcorn'], 'its rank not known');
    // as near: the ranked one too
    const A = coin(3, 'solane', 'SLE', 'Solane');
    const B = coin(4, 'solang', 'SLG', 'Solang');
    assert.deepEqual(slugs(suggest(new CoinMap([A, B], 0), 'solana', ranksOf([[4, 2000], [3, null]]))), ['solang', 'solane']);
  });

  test('at most three, as before; typing the beginning of a name still finds it', () => {
    assert.equal(suggest(map, 'bit', ranks).length, 3);
    assert.equal(suggest(map, 'bitco', ranks)[0]?.slug, 'bitcoin');
    assert.deepEqual(slugs(suggest(map, 'bitco', ranks)).slice(0, 2), ['bitcoin', 'bitcoin-cash']);
    assert.equal(suggest(map, 'solana token', ranks)[0]?.slug, 'solana');
    assert.deepEqual(suggest(map, 'zzzzzzzz', ranks), []);
  });
});

describe('closestChains', () => {
  const chain = (id: number, slug: string, name: string) => ({ id, slug, name });
  const chains = [chain(1, 'bitcoin', 'Bitcoin'), chain(19, 'litecoin', 'Litecoin'), chain(20, 'dogecoin', 'Dogecoin'), chain(2, 'ethereum', 'Ethereum')];
  test('a swap of two letters is one edit: "litceoin" is Litecoin first, not Bitcoin', () => {
    assert.equal(closestChains('litceoin', chains)[0], 'Litecoin');
    assert.equal(closestChains('etheruem', chains)[0], 'Ethereum');
    assert.equal(closestChains('etherium', chains)[0], 'Ethereum');
    assert.equal(closestChains('litceoin', chains).length, 3, 'three names, as before');
  });
});
