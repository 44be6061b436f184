/** privacy.html: what the add-in keeps, where, what it sends and to whom. It must stay true of the code: test/pages.test.ts checks the storage entries it names. */
import { esc, page, type PagesConfig } from './layout';

/**
 * Storage entries the add-in writes (src/office/storage.ts, settings.ts, the
 * client's coin map), as the page names them; `key` matches the entry's storage
 * name, so test/production-pane.test.ts can hold the page to what is stored.
 */
export const STORED = [
  { name: 'apiKey', what: 'Your CryptoRank API key.', key: /^crypto-addin:apiKey$/ },
  { name: 'settings', what: 'Your settings: default currency, how fresh live prices must be, a daily credit budget, the API address.', key: /^crypto-addin:settings$/ },
  { name: 'credits spent today', what: 'The number of credits the add-in spent on this computer today (UTC) and the day, so your daily credit budget holds across restarts.', key: /credits-today(:v\d+)?$/ },
  { name: 'coin map and ranks', what: 'The public list of coins (ids, names, symbols, ranks), so a workbook opens without downloading it again.', key: /(currency-map|coin-ranks)(:v\d+)?$/ },
] as const;

export function privacyPage(cfg: PagesConfig): string {
  const api = new URL(cfg.apiOrigin).host;
  const stored = STORED.map((s) => `<li><b>${esc(s.name)}</b>: ${esc(s.what)}</li>`).join('');
  const body =
    `<h1>Privacy policy</h1>` +
    `<p>Crypto Market Data for Excel ("the add-in") has no server and no account of its own. This page says what it keeps, where, and what it sends.</p>` +
    `<h2>What is stored, and where</h2>` +
    `<p>On your computer only, for your user, in the add-in's own storage (Office's add-in storage in Excel; the browser's local storage when the pane is opened in a browser):</p><ul>${stored}</ul>` +
    `<p>Your API key is never written into a workbook, a formula, a document setting, a URL or a log, and the task pane shows it only masked. <b>Remove key</b> in the pane deletes it.</p>` +
    `<p>Workbooks contain what you type and what you ask the pane to write: the formulas and the values Excel shows, the <b>CRYPTO log</b> and <b>Snapshots</b> sheets when you ask for them, and a few settings of the add-in saved inside the workbook (whether it refreshes when the workbook opens and what its last refresh spent, the formulas of cells converted to values, the cells a snapshot logs). None of them holds your key. What the pane lists (credits spent, recent errors, where each answer came from) is kept in memory and gone when Excel closes.</p>` +
    `<h2>What is sent, and to whom</h2>` +
    `<p>Only to the CryptoRank API at <b>${esc(api)}</b>, over HTTPS: the requests your formulas need (coin ids, currencies, dates, periods) with your API key in a request header, and a free status request that reads your plan and credits. CryptoRank's own privacy policy covers what it does with requests: <a href="https://cryptorank.io/privacy-policy">cryptorank.io/privacy-policy</a>.</p>` +
    `<p>The add-in's pages, scripts and images are downloaded from the host that serves the add-in; Office's JavaScript library comes from Microsoft's CDN. Every page of the add-in carries a content security policy that lets it connect to ${esc(api)} and to the add-in's own host (for its list of formulas) only.</p>` +
    `<h2>No telemetry</h2>` +
    `<p>The add-in sends no analytics, usage data, crash reports or cookies, and includes no advertising or tracking code. Microsoft Office itself may collect diagnostic data under Microsoft's privacy statement.</p>` +
    `<h2>Contact</h2><p>Questions: <a href="mailto:${esc(cfg.supportEmail)}">${esc(cfg.supportEmail)}</a>.</p>`;
  return page('Crypto Market Data: privacy policy', body, 0, 'privacy.html');
}
