/**
 * MARKETS' category, tag and ecosystem filters given a name that names none
 * (review-r3 #18): the nearest names of the list the formula read.
 *
 *   node --import tsx --test test/markets-filters.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { keyedFrozenSessions } from './support/frozen-session';
import { formulaChecks } from './support/formula-checks';
import { closeNames } from '../src/formulas/closest-names';

const sessions = keyedFrozenSessions();
const { grid, failure } = formulaChecks(() => sessions.pro);

describe('MARKETS filters named wrongly (review-r3 #18)', () => {
  test('an unknown tag or category: #N/A naming up to two close names from the list read, or none when nothing is close', async () => {
    assert.deepEqual(await failure('=CRYPTO.MARKETS(3,,,,"layr-1")'), {
      error: '#N/A', message: 'Unknown tag "layr-1"; closest: "Layer 1", "Layer 2". A tag is named by its id, slug or name',
    });
    assert.deepEqual(await failure('=CRYPTO.MARKETS(3,,,"stablecoins")'), {
      error: '#N/A', message: 'Unknown category "stablecoins"; closest: "Stablecoin". A category is named by its id, slug or name',
    });
    assert.deepEqual(await failure('=CRYPTO.MARKETS(3,,,,"nosuchtag")'), {
      error: '#N/A', message: 'Unknown tag "nosuchtag". A tag is named by its id, slug or name',
    });
    // The suggestion works.
    assert.equal((await grid('=CRYPTO.MARKETS(3,,,,"Layer 1",,,,0)')).length, 3);
  });
  test('closeNames: slug or name within a few edits, nearest first, at most two', () => {
    const list = [{ name: 'Layer 1', slug: 'layer-1' }, { name: 'Layer 2', slug: 'layer-2' }, { name: 'Layer 3', slug: 'layer-3' }, { name: 'DeFi', slug: 'defi' }];
    assert.deepEqual(closeNames('layer-1x', list), ['Layer 1', 'Layer 2']);
    assert.deepEqual(closeNames('DEFI ', list), ['DeFi']);
    assert.deepEqual(closeNames('zzzz', list), []);
  });
});
