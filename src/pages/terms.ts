/** terms.html: the terms of use of the add-in (not of CryptoRank's API, which has its own). */
import { esc, page, type PagesConfig } from './layout';

export function termsPage(cfg: PagesConfig): string {
  const body =
    `<h1>Terms of use</h1>` +
    `<p>These terms cover Crypto Market Data for Excel ("the add-in"), version ${esc(cfg.version)}. Installing or using it means you accept them.</p>` +
    `<h2>The add-in and the data</h2>` +
    `<p>The add-in is free software under the MIT License. It is a tool that fetches market data from CryptoRank with <em>your</em> API key. The data, its accuracy, its availability and your CryptoRank plan are CryptoRank's, under <a href="https://cryptorank.io/terms-of-use">CryptoRank's terms</a>. Paid plans are bought from CryptoRank; the add-in sells nothing.</p>` +
    `<h2>Not advice</h2>` +
    `<p>Nothing the add-in shows is financial, investment or tax advice. Market data can be late, incomplete or wrong; check it before you rely on it.</p>` +
    `<h2>Your responsibilities</h2>` +
    `<ul><li>Keep your API key to yourself; you are responsible for the credits spent with it.</li><li>Use the data within your CryptoRank plan's terms, including any limits on redistribution.</li></ul>` +
    `<h2>No warranty</h2>` +
    `<p>The add-in is provided "as is", without warranty of any kind. To the extent the law allows, its authors are not liable for any loss arising from its use, including credits spent, decisions made on its data or the data being unavailable.</p>` +
    `<h2>Changes</h2><p>These terms may change with a new version; <a href="whats-new.html">What's new</a> says when they did.</p>` +
    `<h2>Contact</h2><p><a href="mailto:${esc(cfg.supportEmail)}">${esc(cfg.supportEmail)}</a></p>`;
  return page('Crypto Market Data: terms of use', body, 0, 'terms.html');
}
