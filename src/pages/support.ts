/** support.html: how to get a key, the common errors and their fix, whom to write to. */
import { esc, page, type PagesConfig } from './layout';
import { PLAN_FORMULAS } from './plans';

/** Messages people see, what they mean and what to do: the pane's and the formulas' wording. */
const COMMON_ERRORS: [shown: string, fix: string][] = [
  ['#N/A "No API key"', 'Open Crypto Data on the Home tab, paste your CryptoRank key and press Save.'],
  ['"Invalid API key" in the pane', 'CryptoRank did not recognise the key. Copy it again from your CryptoRank API dashboard (all of it) and save it again. A rejected key is not kept.'],
  ['"No active subscription"', 'The key is valid but its CryptoRank plan has lapsed. Renew the plan on cryptorank.io; the saved key works again without changes.'],
  ['#N/A naming a plan, e.g. "needs the Advanced plan"', 'The formula reads data your plan does not include. The message names the plan that does; formulas available on every plan keep working.'],
  ['#N/A naming a coin and "did you mean"', 'The coin was not found. Use the slug shown on cryptorank.io (e.g. "bitcoin") or the closest match the message suggests.'],
  ['#VALUE! listing allowed values', 'An argument is outside its allowed values, e.g. an interval of "daily", "weekly" or "monthly". Use one the message lists.'],
  ['"Too many requests" or a rate limit', 'The plan allows a number of requests per minute. The add-in waits and retries by itself and keeps the last good value; recalculate later if cells still say so.'],
  ['"Daily budget" reached', 'You set a daily credit budget in Settings. Formulas stop calling the API until 00:00 UTC; raise or clear the budget to continue today.'],
  ['"Network failure"', 'The API could not be reached. Check the connection, a proxy or firewall that blocks ' + '{api}' + ', and the API address in Settings (Advanced).'],
];

export function supportPage(cfg: PagesConfig): string {
  const api = new URL(cfg.apiOrigin).host;
  const rows = COMMON_ERRORS.map(([shown, fix]) => `<tr><th scope="row">${esc(shown)}</th><td>${esc(fix.replace('{api}', api))}</td></tr>`).join('');
  const body =
    `<h1>Support</h1>` +
    `<p>Crypto Market Data puts CryptoRank market data into Excel with <code>CRYPTO.*</code> formulas. Start here if something does not work.</p>` +
    `<h2 id="get-a-key">Get an API key</h2><ol>` +
    `<li>Create a free account at <a href="https://cryptorank.io/public-api">cryptorank.io/public-api</a>.</li>` +
    `<li>Copy your key from the API dashboard. The <b>Sandbox</b> plan is free: ${esc(PLAN_FORMULAS.Sandbox.summary)}</li>` +
    `<li>In Excel, <b>Home → Crypto Data</b>, paste the key and press <b>Save</b>. The pane checks it (free) and shows your plan and credits.</li>` +
    `<li>Type <code>=CRYPTO.PRICE("bitcoin")</code> in a cell.</li></ol>` +
    `<p>Paid plans add more data: ${PLAN_FORMULAS.paid.map((p) => `<b>${esc(p.plan)}</b> ${esc(p.adds)}`).join('; ')}. Plans are bought from CryptoRank, not in the add-in.</p>` +
    `<h2 id="errors">Common errors and their fix</h2><table><thead><tr><th scope="col">You see</th><th scope="col">What to do</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<p>Each formula's own page under <a href="help/index.html">Formula help</a> lists its arguments and errors. The task pane's <b>Recent errors</b> list shows the full message of each failed cell.</p>` +
    `<h2 id="contact">Contact</h2><p>Write to <a href="mailto:${esc(cfg.supportEmail)}">${esc(cfg.supportEmail)}</a>. Say which formula, what it showed and your Excel (Windows, Mac or web). Never send your API key: we never need it.</p>` +
    `<p>Version ${esc(cfg.version)}. <a href="whats-new.html">What's new</a>.</p>`;
  return page('Crypto Market Data: support', body, 0, 'support.html');
}
