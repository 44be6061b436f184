/*
 * Builds the add-in: functions.js + functions.json (generated from JSDoc by
 * custom-functions-metadata-plugin), the task pane page (which also loads the
 * functions bundle: one shared runtime), the help pages, icons and manifest;
 * the support, privacy, terms and what's new pages, a Content-Security-Policy
 * in every page, and (production) the package check of docs/publishing.md.
 *
 *   npm run build       production: URLs rewritten to ADDIN_PUBLIC_URL, Office.js from Microsoft's CDN,
 *                       API base https://api.cryptorank.io
 *   npm run build:dev   development: https://localhost:<DEV_SERVER_PORT, default 3000>, Office.js from
 *                       Microsoft's CDN (what runs in Excel, sideloaded too, must load it from there; the
 *                       npm copy's README: for development tooling only), demo data from the local API
 *                       server (proxied at /v3 by the dev server). ADDIN_OFFICE_JS=local loads the npm
 *                       copy instead, served at /office-js: for the tests and the browser preview only.
 */
import CopyWebpackPlugin from 'copy-webpack-plugin';
import CustomFunctionsMetadataPlugin from 'custom-functions-metadata-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';
import { tsImport } from 'tsx/esm/api';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
/** The development URL and its port rule, shared with scripts/start.ts (the manifest it sideloads). */
const devUrls = await tsImport('./scripts/dev-url.ts', import.meta.url);
/** The development URL the sources name (manifest.xml, each @helpurl); rewritten when DEV_SERVER_PORT differs. */
const DEV_URL = devUrls.SOURCE_DEV_URL;
const PROD_URL = (process.env.ADDIN_PUBLIC_URL || 'https://crypto-addin.example.com/').replace(/\/?$/, '/');
const OFFICE_CDN = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';
/** Every file in src/functions declares custom functions (the Excel glue lives in src/office). */
const FUNCTION_FILES = readdirSync(path.join(here, 'src/functions'))
  .filter((f) => f.endsWith('.ts'))
  .sort()
  .map((f) => `./src/functions/${f}`);

// ---- publishing (issue #16): listing pages, content policy, package check. Build-time TypeScript through tsx.
const pages = await tsImport('./src/pages/index.ts', import.meta.url);
const csp = await tsImport('./scripts/content-policy.ts', import.meta.url);
const API_ORIGIN = new URL(process.env.ADDIN_API_URL || csp.DEFAULT_API_ORIGIN).origin;
const SUPPORT_EMAIL = process.env.ADDIN_SUPPORT_EMAIL || pkg.config.support_email;

/** support.html, privacy.html, terms.html and whats-new.html (from CHANGELOG.md), next to the task pane. */
class ListingPagesPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('ListingPages', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'ListingPages', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const changelogFile = path.join(here, 'CHANGELOG.md');
        compilation.fileDependencies.add(changelogFile);
        const cfg = { supportEmail: SUPPORT_EMAIL, apiOrigin: API_ORIGIN, version: pkg.version, changelog: readFileSync(changelogFile, 'utf8') };
        for (const [file, html] of Object.entries(pages.listingPages(cfg))) compilation.emitAsset(file, new webpack.sources.RawSource(html));
      });
    });
  }
}

/** Every HTML page the build emits, whoever made it, gets the Content-Security-Policy first in its head. */
class ContentPolicyPlugin {
  constructor(policy) {
    this.policy = policy;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('ContentPolicy', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'ContentPolicy', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT - 1 }, (assets) => {
        for (const name of Object.keys(assets)) {
          if (!name.endsWith('.html')) continue;
          let html;
          try {
            html = csp.withPolicy(assets[name].source().toString(), this.policy);
          } catch (e) {
            throw new Error(`${name}: ${e.message}`);
          }
          compilation.updateAsset(name, new webpack.sources.RawSource(html));
        }
      });
    });
  }
}
/**
 * Production only: the written package is checked against the rules in
 * scripts/package-check.ts (also run by test/build.test.ts); a broken rule fails
 * the build, so what reaches dist/ can be published as it is.
 */
class PackageCheckPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('PackageCheck', async (compilation) => {
      const check = await tsImport('./scripts/package-check.ts', import.meta.url);
      const problems = await check.checkPackage(compiler.outputPath, check.specFromEnv(here));
      for (const p of problems) compilation.errors.push(new webpack.WebpackError(`package check [${p.rule}]: ${p.message}`));
      if (!process.env.ADDIN_PUBLIC_URL) {
        compilation.warnings.push(new webpack.WebpackError(`package check: built for the placeholder host ${PROD_URL}; set ADDIN_PUBLIC_URL to publish`));
      }
    });
  }
}
// ---- end publishing

/** Rewrites development URLs in emitted text assets (manifest, functions.json) to the production host. */
class RewriteUrlsPlugin {
  constructor(from, to, test) {
    Object.assign(this, { from, to, test });
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('RewriteUrls', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'RewriteUrls', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE }, (assets) => {
        for (const name of Object.keys(assets)) {
          if (!this.test.test(name)) continue;
          const text = assets[name].source().toString();
          compilation.updateAsset(name, new webpack.sources.RawSource(text.split(this.from).join(this.to)));
        }
      });
    });
  }
}

/** One help page per function (its @helpurl) and an index, from functions.json and docs/formula-examples/*.json. */
class HelpPagesPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('HelpPages', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'HelpPages', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const meta = compilation.getAsset('functions.json');
        if (!meta) return;
        const { functions } = JSON.parse(meta.source.source().toString());
        const examplesDir = path.join(here, 'docs/formula-examples');
        compilation.contextDependencies.add(examplesDir);
        const examples = Object.assign(
          {},
          ...readdirSync(examplesDir)
            .filter((f) => f.endsWith('.json'))
            .map((f) => JSON.parse(readFileSync(path.join(examplesDir, f), 'utf8'))),
        );
        const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
        const page = (title, body) => pages.page(title, body, 1);
        const areasFile = path.join(here, 'src/help/areas.json');
        compilation.fileDependencies.add(areasFile);
        const { areas, oneValueOrTable } = JSON.parse(readFileSync(areasFile, 'utf8'));
        const byId = new Map(functions.map((f) => [f.id, f]));
        for (const f of functions) helpPage(f);
        function helpPage(f) {
          const file = `${f.id.toLowerCase()}.html`;
          const params = (f.parameters || [])
            .map((p) => `<tr><td><code>${esc(p.name)}</code>${p.optional ? ' <em>(optional)</em>' : ''}${p.repeating ? ' <em>(repeating)</em>' : ''}</td><td>${esc(p.description)}</td></tr>`)
            .join('');
          const ex = (examples[f.id] || [])
            .map((e) => `<li><code>${esc(e.formula)}</code><br>${esc(e.result)}</li>`)
            .join('');
          const signature = `CRYPTO.${f.name}(${(f.parameters || []).map((p) => (p.optional ? `[${p.name}]` : p.name)).join(', ')})`;
          const names = (f.parameters || []).map((p) => p.name);
          // Each claim holds for this function only; test/help-pages.test.ts checks them against what it returns.
          const result = oneValueOrTable[f.id] ?? (f.result?.dimensionality === 'matrix' ? 'A table that spills into neighbouring cells.' : 'One value.');
          const coin = names.some((n) => n === 'coin' || n === 'coins') ? 'an unknown coin (with the closest match), ' : '';
          const dates = names.some((n) => n === 'start' || n === 'end' || n === 'date')
            ? `<h2>Dates</h2><p>An Excel date (<code>DATE(2024,3,15)</code> or a cell holding one), ISO text (<code>"2024-03-15"</code>), or a period: <code>"2024"</code>, <code>"2024Q1"</code>, <code>"2024-03"</code>, or a look-back from now: <code>"30D"</code>, <code>"12W"</code>, <code>"6M"</code>, <code>"1Y"</code>. A period given alone as a start means that whole period; as a single date it means its first day. Dates are UTC days.</p>`
            : '';
          // A blank cell is null on the web and newer builds, 0 on older desktop builds (office-js#4702, #5262, #1951; src/formulas/args.ts).
          // Where 0 is a value the two cannot be told apart: headers' 0 (no header row) and OHLCV's fields' 0 (STOCKHISTORY's Date column).
          const headersRule =
            'its 0 hides the header row, as in STOCKHISTORY, so a blank <code>headers</code> cell shows the header row in Excel on the web and newer desktop builds and hides it on older desktop builds. Type 1 or 0 to have the same everywhere.';
          const fieldsRule =
            "its 0 is STOCKHISTORY's Date column, so a blank <code>fields</code> cell is no column in Excel on the web and newer desktop builds (with no other field: the default columns) and a Date column on older desktop builds (alone: a table of dates only). Leave blank cells out of <code>fields</code>, and name the columns (\"close\" or 1), to have the same everywhere.";
          const headersBlank = !names.includes('headers')
            ? ''
            : f.id === 'OHLCV'
              ? ` <code>headers</code> and <code>fields</code> are the exceptions. <code>headers</code>: ${headersRule} <code>fields</code>: ${fieldsRule}`
              : ` <code>headers</code> is the exception: ${headersRule}`;
          const blanks =
            `<h2>Blank cells</h2><p>An argument that points at a blank cell arrives as empty in Excel on the web and newer desktop builds, and as 0 in older desktop builds. A 0 where no 0 is a value (a coin, a date, a text choice, a field name) is read as not given, so the blank means the same on both; a blank among a range of coins keeps an empty row.${headersBlank}</p>`;
          const body =
            `<p><a href="index.html">All formulas</a></p><h1><code>${esc(signature)}</code></h1><p>${esc(f.description)}</p>` +
            `<h2>Arguments</h2><table>${params || '<tr><td colspan="2">None</td></tr>'}</table>` +
            `<h2>Result</h2><p>${esc(result)}</p>${dates}` +
            `<h2>Examples</h2><ul>${ex}</ul>` +
            blanks +
            `<h2>Errors</h2><p><code>#N/A</code> with a message: ${coin}a plan that lacks this data, no API key, or the service unavailable with no earlier value. <code>#VALUE!</code>: an argument outside its allowed values, which the message lists.</p>`;
          compilation.emitAsset(`help/${file}`, new webpack.sources.RawSource(page(`CRYPTO.${f.name}`, body)));
        }
        const item = (id) => {
          const f = byId.get(id);
          return f ? `<li><a href="${f.id.toLowerCase()}.html"><code>CRYPTO.${esc(f.name)}</code></a>: ${esc(f.description)}</li>` : '';
        };
        const listed = new Set(areas.flatMap((a) => a.functions));
        const unlisted = functions.filter((f) => !listed.has(f.id)).map((f) => f.id);
        const sections = [...areas, ...(unlisted.length ? [{ title: 'More', intro: '', functions: unlisted }] : [])]
          .map((a) => `<h3>${esc(a.title)}</h3>${a.intro ? `<p>${esc(a.intro)}</p>` : ''}<ul>${a.functions.map(item).join('')}</ul>`)
          .join('');
        const index =
          `<h1>Crypto Market Data for Excel</h1><p>Formulas that put CryptoRank market data into cells. Open <b>Crypto Data</b> on the Home tab to add your API key (a free Sandbox key is available from CryptoRank).</p>` +
          `<h2>Formulas</h2>${sections}` +
          `<h2>Support</h2><p><a href="../support.html">Support</a> (getting a key, common errors, contact), <a href="../privacy.html">privacy policy</a>, <a href="../terms.html">terms of use</a>, <a href="../whats-new.html">what's new</a>.</p>`;
        compilation.emitAsset('help/index.html', new webpack.sources.RawSource(page('Crypto Market Data: help', index)));
      });
    });
  }
}

/**
 * Development only: the preview workbook (src/preview, docs/preview-runtime.md), served at the
 * dev server's root. preview-pane.html is the task pane page with the preview host where
 * Office.js would be; none of it is part of the production dist/.
 */
const previewEntries = (dev) =>
  dev ? { 'preview-host': './src/preview/host/index.ts', preview: './src/preview/workbook/index.ts' } : {};
const previewPages = (dev) =>
  dev
    ? [
        new HtmlWebpackPlugin({
          filename: 'preview-pane.html',
          template: './src/taskpane/taskpane.html',
          chunks: ['functions', 'taskpane'],
          templateParameters: { officeJs: 'preview-host.js', demo: true, plans: pages.PLAN_LINES },
        }),
        new HtmlWebpackPlugin({ filename: 'index.html', template: './src/preview/index.html', chunks: ['preview'] }),
      ]
    : [];

export default async (env, options) => {
  const dev = options.mode === 'development';
  const emulatorPort = Number(process.env.EMULATOR_PORT || pkg.config.emulator_port);
  const devServerPort = Number(process.env.DEV_SERVER_PORT || pkg.config.dev_server_port);
  const devUrl = devUrls.devUrl(devServerPort);
  const officeJs = dev && process.env.ADDIN_OFFICE_JS === 'local' ? 'office-js/office.js' : OFFICE_CDN;
  // Excel needs HTTPS with a trusted dev certificate (office-addin-dev-certs); a plain
  // browser demo on Linux runs over HTTP (DEV_HTTPS=false), where no certificate can be trusted without sudo.
  const https = Boolean(env?.WEBPACK_SERVE) && process.env.DEV_HTTPS !== 'false';
  const httpsOptions = https ? await (await import('office-addin-dev-certs')).getHttpsServerOptions() : undefined;
  return {
    // Source maps ship only when asked for (ADDIN_SOURCE_MAPS=1); the package check enforces it.
    devtool: dev || /^(1|true|yes)$/i.test(process.env.ADDIN_SOURCE_MAPS ?? '') ? 'source-map' : false,
    entry: {
      functions: FUNCTION_FILES,
      // The pane shares the functions bundle's modules (one runtime, client and cache), not copies of them.
      taskpane: { import: './src/taskpane/taskpane.ts', dependOn: 'functions' },
      ...previewEntries(dev),
    },
    output: { path: path.join(here, 'dist'), filename: '[name].js', clean: true },
    resolve: { extensions: ['.ts', '.js'] },
    module: {
      rules: [
        { test: /\.ts$/, exclude: /node_modules/, // Type checking is tsc --noEmit's job (npm test); the bundle only needs transpiling.
        use: { loader: 'ts-loader', options: { transpileOnly: true, compilerOptions: { noEmit: false, sourceMap: dev } } } },
        { test: /\.css$/, type: 'asset/resource', generator: { filename: '[name][ext]' } },
      ],
    },
    performance: { maxAssetSize: 400_000, maxEntrypointSize: 400_000 },
    plugins: [
      new CustomFunctionsMetadataPlugin({ output: 'functions.json', input: FUNCTION_FILES }),
      new webpack.DefinePlugin({
        __DEFAULT_API_BASE_URL__: JSON.stringify(dev ? '' : API_ORIGIN),
        __DEMO_DATA__: JSON.stringify(dev),
      }),
      new HtmlWebpackPlugin({
        filename: 'taskpane.html',
        template: './src/taskpane/taskpane.html',
        chunks: ['functions', 'taskpane'],
        templateParameters: { officeJs, demo: dev, plans: pages.PLAN_LINES },
      }),
      new CopyWebpackPlugin({
        patterns: [
          { from: 'assets/*.png', to: 'assets/[name][ext]' },
          { from: 'src/help/help.css', to: 'help/help.css' },
          { from: 'manifest.xml', to: 'manifest.xml' },
        ],
      }),
      new HelpPagesPlugin(),
      ...previewPages(dev),
      new ListingPagesPlugin(),
      new ContentPolicyPlugin(csp.contentPolicy({ apiOrigin: API_ORIGIN, dev })),
      ...(dev ? [] : [new RewriteUrlsPlugin(DEV_URL, PROD_URL, /^(manifest\.xml|functions\.json|help\/.*\.html)$/)]),
      // The manifest and help URLs follow the dev server's port.
      ...(dev && devUrl !== DEV_URL ? [new RewriteUrlsPlugin(DEV_URL, devUrl, /^(manifest\.xml|functions\.json|help\/.*\.html)$/)] : []),
      ...(dev ? [] : [new PackageCheckPlugin()]),
    ],
    devServer: {
      port: devServerPort,
      host: 'localhost',
      headers: { 'Access-Control-Allow-Origin': '*' },
      server: https ? { type: 'https', options: httpsOptions } : 'http',
      // The npm copy of Office.js, for ADDIN_OFFICE_JS=local builds (the tests and the browser preview).
      static: [{ directory: path.join(here, 'node_modules/@microsoft/office-js/dist'), publicPath: '/office-js', watch: false }],
      // /help without its slash would serve the index with links resolving one level up.
      setupMiddlewares: (middlewares) => [
        { name: 'help-slash', middleware: (req, res, next) => (req.url === '/help' ? res.redirect(301, '/help/') : next()) },
        ...middlewares,
      ],
      // The demo talks to the local API server through the dev server: same origin, no mixed content.
      proxy: [{ context: ['/v3'], target: `http://127.0.0.1:${emulatorPort}` }],
    },
  };
};
