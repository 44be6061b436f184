/**
 * The Content-Security-Policy every page of the add-in carries, as a
 * <meta http-equiv> tag (webpack.config.js puts it first in each page's head):
 * the package goes to any static host, and many cannot set response headers.
 * A meta policy cannot carry frame-ancestors, report-uri or sandbox; Office
 * frames the pane anyway, so none of them is wanted.
 *
 * Scripts come only from the add-in's own origin and Office's CDN; connections
 * go only to the configured API. Inline styles are allowed because Office's own
 * script for Excel on the web sets them (OfficeDev/office-js#1687); inline
 * scripts, eval, plugins and other hosts are not.
 */

export const OFFICE_CDN_ORIGIN = 'https://appsforoffice.microsoft.com';
export const DEFAULT_API_ORIGIN = 'https://api.cryptorank.io';
/** The development build also talks to the local API server and the dev server's live reload. */
const DEV_CONNECT = ['http://localhost:*', 'http://127.0.0.1:*', 'ws://localhost:*', 'wss://localhost:*'];

export type Policy = Record<string, string[]>;

export function contentPolicy(opts: { apiOrigin: string; dev: boolean }): Policy {
  return {
    'default-src': ["'self'"],
    'script-src': opts.dev ? ["'self'"] : ["'self'", OFFICE_CDN_ORIGIN],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': opts.dev ? ["'self'", ...DEV_CONNECT] : [new URL(opts.apiOrigin).origin],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'none'"],
  };
}

export const policyText = (p: Policy) =>
  Object.entries(p)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');

export function parsePolicy(text: string): Policy {
  const out: Policy = {};
  for (const part of text.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name.toLowerCase()] = values;
  }
  return out;
}

/** The tag, first thing after <head> (a policy only governs what comes after it). */
export const policyMeta = (p: Policy) => `<meta http-equiv="Content-Security-Policy" content="${policyText(p)}">`;

export function withPolicy(html: string, p: Policy): string {
  if (!/<head>/i.test(html)) throw new Error('a page without <head>: no place for its Content-Security-Policy');
  return html.replace(/<head>/i, (h) => `${h}${policyMeta(p)}`);
}

/** The policy of a page: the content of its first CSP meta tag, if it comes before any script or style. */
export function pagePolicy(html: string): { policy: Policy | null; problem?: string } {
  const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/gi)];
  if (metas.length === 0) return { policy: null, problem: 'no Content-Security-Policy meta tag' };
  if (metas.length > 1) return { policy: null, problem: 'more than one Content-Security-Policy meta tag' };
  const at = metas[0].index!;
  const firstLoad = html.search(/<(script|link|style)\b/i);
  if (firstLoad !== -1 && firstLoad < at) return { policy: null, problem: 'the Content-Security-Policy comes after a script or style sheet' };
  return { policy: parsePolicy(metas[0][1]) };
}
