/**
 * What the browser tests measure on a rendered page: the contrast of every
 * visible text against what is behind it (WCAG 2 AA), and horizontal overflow.
 */
import type { Page } from 'playwright-core';
import { contrastRatio, over, parseColor } from '../../src/taskpane/contrast';

export interface TextSample {
  what: string;
  text: string;
  color: string;
  /** Backgrounds from the element outwards to the root, as computed. */
  backgrounds: string[];
  fontSize: number;
  fontWeight: number;
}

/**
 * Every visible piece of text in the page with its colour and the backgrounds
 * behind it: text nodes by their element, and the values of inputs and selects.
 * Disabled controls are exempt from WCAG's contrast rule, and so left out.
 */
export function textSamples(page: Page): Promise<TextSample[]> {
  // No named inner functions here: the callback is serialised into the page.
  return page.evaluate(() => {
    const out: TextSample[] = [];
    for (const e of Array.from(document.querySelectorAll('body *'))) {
      const h = e as HTMLElement;
      if (!h.checkVisibility?.() || h.closest('[aria-disabled="true"], :disabled, .sr-only, option')) continue;
      const own = Array.from(h.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('').trim();
      const value = h instanceof HTMLInputElement || h instanceof HTMLSelectElement ? h.value : '';
      const text = own || value;
      if (!text) continue;
      const cs = getComputedStyle(h);
      const backgrounds: string[] = [];
      for (let x: Element | null = h; x; x = x.parentElement) backgrounds.push(getComputedStyle(x).backgroundColor);
      out.push({
        what: `${h.tagName.toLowerCase()}${h.id ? `#${h.id}` : ''}${h.className && typeof h.className === 'string' ? `.${h.className.split(' ').join('.')}` : ''}`,
        text: text.slice(0, 40),
        color: cs.color,
        backgrounds,
        fontSize: parseFloat(cs.fontSize),
        fontWeight: Number(cs.fontWeight),
      });
    }
    return out;
  });
}

/** WCAG 2 AA: 4.5:1 for text, 3:1 for large text (24 px, or 18.66 px bold). */
export function contrastFailures(samples: TextSample[]): string[] {
  const canvas = parseColor('#ffffff')!;
  return samples.flatMap((s) => {
    let bg = canvas;
    for (const b of [...s.backgrounds].reverse()) {
      const c = parseColor(b);
      if (c && c[3] > 0) bg = over(c, bg);
    }
    const fg = over(parseColor(s.color)!, bg);
    const ratio = contrastRatio(fg, bg);
    const large = s.fontSize >= 24 || (s.fontSize >= 18.66 && s.fontWeight >= 700);
    const need = large ? 3 : 4.5;
    return ratio >= need ? [] : [`${s.what} "${s.text}": ${ratio.toFixed(2)}:1 (${s.color} on ${bg.slice(0, 3).join(',')}), needs ${need}:1`];
  });
}

/** Horizontal overflow: the page's scroll width and the elements sticking out to the right. */
export function overflow(page: Page) {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const wide = Array.from(document.querySelectorAll('body *'))
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .map((e) => ({ e: `${e.tagName}#${e.id}.${e.className}`, right: e.getBoundingClientRect().right }))
      .filter((x) => x.right > w + 0.5);
    return { w, scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 5) };
  });
}
