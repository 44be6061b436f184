/**
 * The Content-Security-Policy every page of the add-in carries, as a
 * <meta http-equiv> tag (webpack.config.js puts it first in each page's head):
 * the package goes to any static host, and many cannot set response headers.
 * A meta policy cannot carry frame-ancestors, report-uri or sandbox; Office
 * frames the pane anyway, so none of them is wanted.
 *
 * Scripts come only from the add-in's own origin and the hosts Office.js needs;
 * connections go only to the add-in's own origin (its functions.json), the
 * configured API and Office.js's own telemetry.
 * Inline styles are allowed because Office's own script for Excel on the web
 * sets them (OfficeDev/office-js#1687); inline scripts, eval, plugins and other
 * hosts are not. Microsoft publishes no list of the hosts Office.js needs
 * (office-js#1005 asks for one, open since 2019); these are the ones that
 * issue reports and that the pinned Office.js (@microsoft/office-js) names
 * (the origins below).
 */
// Reading a policy is shared with the pane, which reads its own (src/taskpane/content-policy.ts).
import { parsePolicy, type Policy } from '../src/taskpane/content-policy';

export { parsePolicy, type Policy };

/** Office.js and the host scripts it loads next to itself (excel-web-16.00.js ...): the CDN the catalog requires (certification policy 1120.1). */
export const OFFICE_CDN_ORIGIN = 'https://appsforoffice.microsoft.com';
/** office.js loads ajax/3.5/MicrosoftAjax.js from here on some paths (office-js#1005; the string is in the npm copy's office.js). */
export const MICROSOFT_AJAX_ORIGIN = 'https://ajax.aspnetcdn.com';
/**
 * Office.js's telemetry (Aria) posts to browser.pipe.aria.microsoft.com and regional
 * collectors (us, eu, de, jp, au, tb, pf .pipe.aria.microsoft.com in the npm copy's
 * host scripts; office-js#1005).
 */
export const OFFICE_TELEMETRY_ORIGIN = 'https://*.pipe.aria.microsoft.com';
/*
 * Not allowed: alcdn.msauth.net and graph.microsoft.com, which Office.js reaches
 * only for Office's single sign-on (MSAL), which the add-in does not use.
 */
export const OFFICE_SCRIPT_ORIGINS = [OFFICE_CDN_ORIGIN, MICROSOFT_AJAX_ORIGIN];
export const DEFAULT_API_ORIGIN = 'https://api.cryptorank.io';
/** The development build also talks to the local API server and the dev server's live reload. */
const DEV_CONNECT = ['http://localhost:*', 'http://127.0.0.1:*', 'ws://localhost:*', 'wss://localhost:*'];

export function contentPolicy(opts: { apiOrigin: string; dev: boolean }): Policy {
  return {
    'default-src': ["'self'"],
    // The development build loads Office.js from the CDN too when sideloaded into Excel.
    'script-src': ["'self'", ...OFFICE_SCRIPT_ORIGINS],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    // 'self': the pane's formula builder reads functions.json, the add-in's own metadata, as Excel does.
    'connect-src': opts.dev ? ["'self'", ...DEV_CONNECT, OFFICE_TELEMETRY_ORIGIN] : ["'self'", new URL(opts.apiOrigin).origin, OFFICE_TELEMETRY_ORIGIN],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'none'"],
  };
}

export const policyText = (p: Policy) =>
  Object.entries(p)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');

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
