/** Every static page of the package that is not generated from functions.json: file name to HTML. */
import type { PagesConfig } from './layout';
import { privacyPage } from './privacy';
import { supportPage } from './support';
import { termsPage } from './terms';
import { whatsNewPage } from './whats-new';

export type { PagesConfig } from './layout';
export { page, esc, PAGE_LINKS } from './layout';
export { PLAN_LINES } from './plans';

export function listingPages(cfg: PagesConfig): Record<string, string> {
  return {
    'support.html': supportPage(cfg),
    'privacy.html': privacyPage(cfg),
    'terms.html': termsPage(cfg),
    'whats-new.html': whatsNewPage(cfg),
  };
}
