/**
 * A hostile API server for tests: in front of the local API server, it
 * answers what a scenario says for the requests the scenario picks (a
 * redirect, an absurd Retry-After, an echoed key, a gzip bomb, 1e400, a page
 * longer than asked) and passes everything else through. Every request it sees
 * is logged with whether it carried a key, so a test can say where the key
 * went.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  /** Path and query. */
  url: string;
  /** The X-Api-Key header, if any. */
  key: string | null;
}

/** A scenario's answer: status, headers, body (text or bytes); null passes the request through. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** What the upstream answered, for scenarios that alter a real answer. */
export interface Upstream {
  status: number;
  text: string;
}

export type Scenario = (req: SeenRequest, upstream: () => Promise<Upstream>) => Answer | null | Promise<Answer | null>;

export interface HostileServer {
  url: string;
  seen: SeenRequest[];
  /** The scenario from now on (null: pass everything through). */
  play(s: Scenario | null): void;
  close(): Promise<void>;
}

export async function startHostileServer(upstreamUrl: string): Promise<HostileServer> {
  const seen: SeenRequest[] = [];
  let scenario: Scenario | null = null;
  const server = http.createServer((req, res) => {
    const key = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : null;
    const r: SeenRequest = { url: req.url ?? '/', key };
    seen.push(r);
    const upstream = async (): Promise<Upstream> => {
      const u = await fetch(upstreamUrl + r.url, { headers: key ? { 'X-Api-Key': key } : {} });
      return { status: u.status, text: await u.text() };
    };
    void (async () => {
      try {
        const played = scenario ? await scenario(r, upstream) : null;
        const answer: Answer = played ?? (await upstream().then((u) => ({ status: u.status, body: u.text, headers: { 'content-type': 'application/json' } })));
        res.writeHead(answer.status, answer.headers ?? { 'content-type': 'application/json' });
        res.end(answer.body ?? '');
      } catch {
        res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    play(s) {
      scenario = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A server that only records who reached it (the other origin of a redirect). */
export async function startWitness(): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '/', key: typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : null });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[],"status":{"usedCredits":0}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
