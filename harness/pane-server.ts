/**
 * A tiny static server for the task pane tests: dist/ at /, the local Office.js
 * copy at /office-js (as the dev server serves it), and /v3 proxied to an
 * emulator (as the dev server proxies it). Plain node:http on 127.0.0.1.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST_DIR = path.join(root, 'dist');
export const OFFICE_JS_DIR = path.join(root, 'node_modules/@microsoft/office-js/dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.xml': 'application/xml; charset=utf-8',
};

export interface PaneServer {
  /** e.g. http://127.0.0.1:53123 */
  url: string;
  port: number;
  /** Where /v3 goes now (an emulator's origin); null answers 502. */
  setApiTarget(origin: string | null): void;
  /** Requests proxied to /v3 since start. */
  readonly proxied: number;
  /** Their paths (no query), in order: a test can tell the pane's free /v3/status reads from data requests. */
  readonly proxiedPaths: readonly string[];
  close(): Promise<void>;
}

function serveFile(res: http.ServerResponse, dir: string, rel: string): void {
  const file = path.join(dir, rel);
  if (!file.startsWith(dir + path.sep)) {
    res.writeHead(403).end();
    return;
  }
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(size),
    'Cache-Control': 'no-store',
  });
  createReadStream(file).pipe(res);
}

export async function startPaneServer(opts: { apiTarget?: string | null; distDir?: string } = {}): Promise<PaneServer> {
  const dist = opts.distDir ?? DIST_DIR;
  let target = opts.apiTarget ?? null;
  const proxiedPaths: string[] = [];
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://localhost');
    const p = decodeURIComponent(u.pathname);
    if (p === '/v3' || p.startsWith('/v3/')) {
      proxiedPaths.push(p);
      if (!target) {
        res.writeHead(502, { 'Content-Type': 'text/plain' }).end('no API target');
        return;
      }
      const up = new URL(req.url ?? '/', target);
      const headers = { ...req.headers, host: up.host };
      const preq = http.request(up, { method: req.method, headers }, (pres) => {
        res.writeHead(pres.statusCode ?? 502, pres.headers);
        pres.pipe(res);
      });
      preq.on('error', () => {
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
        res.end('upstream error');
      });
      req.pipe(preq);
      return;
    }
    if (p.startsWith('/office-js/')) return serveFile(res, OFFICE_JS_DIR, p.slice('/office-js/'.length));
    return serveFile(res, dist, p === '/' ? 'taskpane.html' : p.slice(1));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    setApiTarget(origin) {
      target = origin;
    },
    get proxied() {
      return proxiedPaths.length;
    },
    proxiedPaths,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
