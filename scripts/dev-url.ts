/**
 * The development URL and the rule that moves it to another port: the sources
 * (manifest.xml, each @helpurl) name https://localhost:<package.json
 * config.dev_server_port>/; with DEV_SERVER_PORT set, every such URL names that
 * port instead. webpack.config.js applies the rule to what the dev server serves,
 * scripts/start.ts to the manifest it sideloads or tells you to upload (one rule,
 * so the two cannot disagree). And whether a server answers on a port: npm start
 * watches its dev server with it, the tests both servers.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { config: { dev_server_port: number } };

/** The port the sources' URLs name. */
export const DEFAULT_DEV_PORT = Number(pkg.config.dev_server_port);

/** The dev server's base URL on a port. */
export function devUrl(port: number): string {
  return `https://localhost:${port}/`;
}

/** The URL the sources name. */
export const SOURCE_DEV_URL = devUrl(DEFAULT_DEV_PORT);

/** Text from the sources with every development URL on the dev server's port. */
export function withDevPort(text: string, port: number): string {
  return text.split(SOURCE_DEV_URL).join(devUrl(port));
}

/** Whether something accepts connections on localhost:port (within 1.5 s). */
export function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: 'localhost' });
    socket.setTimeout(1500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}
