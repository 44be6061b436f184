/**
 * The pane's theme choice and the WCAG contrast arithmetic the browser tests
 * rely on. Pure: no DOM.
 *
 *   node --import tsx --test test/theme.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { contrastRatio, over, parseColor } from '../src/taskpane/contrast';
import { chooseTheme } from '../src/taskpane/theme';

describe('theme and contrast', () => {
  test('WCAG contrast ratios: black on white is 21:1, #767676 on white just passes AA, #777777 just fails', () => {
    const white = parseColor('#fff')!;
    assert.equal(contrastRatio(parseColor('#000000')!, white), 21);
    assert.ok(contrastRatio(parseColor('#767676')!, white) >= 4.5);
    assert.ok(contrastRatio(parseColor('#777777')!, white) < 4.5);
    assert.deepEqual(parseColor('rgba(0, 0, 0, 0.5)'), [0, 0, 0, 0.5]);
    assert.deepEqual(over(parseColor('rgba(0, 0, 0, 0.5)')!, white), [127.5, 127.5, 127.5, 1]);
    assert.equal(parseColor('transparent'), null);
  });

  test("Office's theme decides when it reports a body colour; the system's preference otherwise", () => {
    assert.deepEqual(chooseTheme({ bodyBackgroundColor: '#262626' }, false), { name: 'dark', source: 'office' }); // Black
    assert.deepEqual(chooseTheme({ bodyBackgroundColor: '#666666' }, false), { name: 'dark', source: 'office' }); // Dark Gray
    assert.deepEqual(chooseTheme({ bodyBackgroundColor: '#FFFFFF' }, true), { name: 'light', source: 'office' }); // White
    assert.deepEqual(chooseTheme({ bodyBackgroundColor: '#E6E6E6' }, true), { name: 'light', source: 'office' }); // Colorful
    assert.deepEqual(chooseTheme(null, true), { name: 'dark', source: 'system' });
    assert.deepEqual(chooseTheme({ bodyBackgroundColor: 'not a colour' }, false), { name: 'light', source: 'system' });
    assert.deepEqual(chooseTheme(undefined, false), { name: 'light', source: 'system' });
  });
});
