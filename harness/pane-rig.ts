/**
 * The browser rig the pane and preview tests and the benchmark's browser
 * workload stand on, assembled in one place: a build of the bundle, a local
 * API server (the emulator), the pane server serving the build with /v3
 * proxied to it, and Chromium; pages opened in their own contexts; all of it
 * closed in the reverse order by close().
 *
 * Clocks: the browser tests run on the wall clock, never the frozen instant
 * (harness/instant.ts): the page's code reads the browser's own clock. See
 * harness/README.md.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { startEmulator, type Emulator, type EmulatorOptions } from '../src/emulator/server';
import { launchBrowser } from './browser';
import { developmentBuild } from './dev-build';
import { startPaneServer, type PaneServer } from './pane-server';

export interface PaneRigOptions {
  /**
   * The bundle served: a development build under this name (its private
   * directory, harness/dev-build.ts) that must hold these files; or a function
   * that builds one and answers its directory (the production build).
   */
  build: { name: string; files: readonly string[] } | (() => Promise<string>);
  /** The local API server's options (rate limit, latency, dialect …). */
  emulator?: Omit<EmulatorOptions, 'now' | 'clock'>;
  /**
   * The API server's clock. 'wall' (default): it runs with the machine's.
   * 'held': stopped at the wall-clock time the rig starts (after the build),
   * so a test moves the market on by `em.clock.advance`, while the page's own
   * clock runs on (a few minutes apart at most, within any freshness rule).
   */
  clock?: 'wall' | 'held';
  /**
   * Proxy the pane server's /v3 to the API server (default). false: the pages
   * call the API's own origin (the production build), which the test routes.
   */
  proxyApi?: boolean;
  /**
   * Record each page error as its message, a new line and its stack, to say
   * where a failing test's error came from (the task pane test). Default: the
   * message alone.
   */
  errorStacks?: boolean;
}

export interface PageOptions {
  /** Default 1400 × 900 (a browser window; Office's task pane is about 350 px wide). */
  viewport?: { width: number; height: number };
  /** More of the context's options (colour scheme, forced colours, bypassCSP …); they override the defaults. */
  context?: BrowserContextOptions;
  /** Run on the new context and page before anything loads: saved settings (addInitScript), routes, listeners. */
  prepare?: (context: BrowserContext, page: Page) => Promise<void>;
}

export interface OpenOptions extends PageOptions {
  /** Another server's origin to load from (default the rig's pane server). */
  site?: string;
  /** How long the page may take to mark itself ready (body[data-ready="true"]), ms; false: do not wait. Default 30 s. */
  readyMs?: number | false;
}

export interface PaneRig {
  em: Emulator;
  server: PaneServer;
  browser: Browser;
  /** The directory the pane server serves. */
  dist: string;
  /** Uncaught errors of every page the rig opened, in order (with their stacks if errorStacks). */
  pageErrors: string[];
  /** A page in a new context (en-US, UTC, as in the tests' Excel), nothing loaded; its errors recorded in pageErrors. */
  newPage(opts?: PageOptions): Promise<Page>;
  /** newPage, then `path` (e.g. "taskpane.html", "index.html?template=blank") loaded and, unless told, ready. */
  openPage(path: string, opts?: OpenOptions): Promise<Page>;
  /** Closes the contexts, the browser, the pane server and the API server; again, waits for the first close. */
  close(): Promise<void>;
}

export const READY = 'body[data-ready="true"]';

export async function paneRig(opts: PaneRigOptions): Promise<PaneRig> {
  const closers: (() => Promise<unknown>)[] = [];
  // Once: a second close() (a test's own after hook beside usePaneRig's) waits for the first.
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const c of closers.reverse()) await c().catch(() => {});
    })());
  try {
    const build = opts.build;
    const dist = await (typeof build === 'function' ? build() : developmentBuild(build.name, [...build.files]));
    const em = await startEmulator({ ...opts.emulator, ...(opts.clock === 'held' ? { now: Date.now() } : {}) });
    closers.push(() => em.close());
    const server = await startPaneServer({ apiTarget: opts.proxyApi === false ? null : em.url, distDir: dist });
    closers.push(() => server.close());
    const browser = await launchBrowser();
    closers.push(() => browser.close());
    const contexts: BrowserContext[] = [];
    // Before the browser: a context closes with it, but one closed first ends its pages cleanly.
    closers.push(async () => {
      for (const c of contexts) await c.close().catch(() => {});
    });
    const pageErrors: string[] = [];

    const newPage = async (o: PageOptions = {}): Promise<Page> => {
      const context = await browser.newContext({ viewport: o.viewport ?? { width: 1400, height: 900 }, locale: 'en-US', timezoneId: 'UTC', ...o.context });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(opts.errorStacks ? `${e.message}\n${e.stack ?? ''}` : e.message));
      await o.prepare?.(context, page);
      return page;
    };

    const openPage = async (path: string, o: OpenOptions = {}): Promise<Page> => {
      const page = await newPage(o);
      await page.goto(`${o.site ?? server.url}/${path.replace(/^\//, '')}`);
      if (o.readyMs !== false) await page.waitForSelector(READY, { timeout: o.readyMs ?? 30_000 });
      return page;
    };

    return { em, server, browser, dist, pageErrors, newPage, openPage, close };
  } catch (e) {
    await close();
    throw e;
  }
}
