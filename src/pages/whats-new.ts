/** whats-new.html: CHANGELOG.md as a page (marked, at build time: nothing of it ships in a bundle). */
import { marked } from 'marked';
import { page, type PagesConfig } from './layout';

export function whatsNewPage(cfg: PagesConfig): string {
  // The changelog's own "# Changelog" title gives way to the page's.
  const md = cfg.changelog.replace(/^# .*\n/, '');
  return page("Crypto Market Data: what's new", `<h1>What's new</h1>${marked.parse(md, { async: false, gfm: true })}`, 0, 'whats-new.html');
}
