/**
 * The add-in's static pages (support, privacy, terms, what's new) share one
 * frame: the help style sheet, a navigation line and a footer. Built at build
 * time (webpack.config.js, ListingPagesPlugin); no script runs in them.
 */

export interface PagesConfig {
  /** Where people write for help: package.json config.support_email, or ADDIN_SUPPORT_EMAIL. */
  supportEmail: string;
  /** The API the add-in talks to, e.g. https://api.cryptorank.io. */
  apiOrigin: string;
  /** package.json version. */
  version: string;
  /** CHANGELOG.md's text, for the what's new page. */
  changelog: string;
}

export const PAGE_LINKS = [
  { file: 'help/index.html', label: 'Formula help' },
  { file: 'support.html', label: 'Support' },
  { file: 'privacy.html', label: 'Privacy' },
  { file: 'terms.html', label: 'Terms' },
  { file: 'whats-new.html', label: "What's new" },
] as const;

export const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A whole page; `depth` is how many folders below the package root it sits (help pages: 1). */
export function page(title: string, body: string, depth = 0, current?: string): string {
  const up = '../'.repeat(depth);
  const nav = PAGE_LINKS.map((l) =>
    l.file === current ? `<a href="${up}${l.file}" aria-current="page">${esc(l.label)}</a>` : `<a href="${up}${l.file}">${esc(l.label)}</a>`,
  ).join(' ');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${esc(title)}</title><link rel="stylesheet" href="${up}help/help.css"></head>` +
    `<body><header class="site"><nav aria-label="Crypto Market Data">${nav}</nav></header><main>${body}</main>` +
    `<footer class="site"><p>Crypto Market Data for Excel. Market data from <a href="https://cryptorank.io">CryptoRank</a>.</p></footer></body></html>\n`
  );
}
