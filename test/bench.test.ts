/**
 * Smoke tests of the benchmark harness (no timing assertions):
 * the minimum-credit derivation on a tiny workload, the naive client's one
 * request per cell, `--json` printing one parseable object, and the wait for
 * a quiet process before a cold fill is timed.
 *
 *   node --import tsx --test test/bench.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataEndpointName, Handler, MarketDataSource } from '../src/emulator/contract';
import { NotFoundError } from '../src/emulator/contract';
import { startEmulator, type Emulator } from '../src/emulator/server';
import { coverWindows, latencyBound, minimumCredits } from '../bench/minimum';
import { createNaiveClient, runNaive } from '../bench/naive-client';
import { replay, waves, type SeenRequest } from '../bench/floor';
import type { BenchCell } from '../bench/workloads';
import { isErrorOutcome } from '../bench/run';
import { quietProcess } from '../bench/trial';
import { Worker } from 'node:worker_threads';
import { recalculate } from '../src/cli/recalculation';
import { openSession } from '../src/cli/session';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('minimumCredits', () => {
  test('windows of 250 cover list places greedily, at any offset', () => {
    assert.deepEqual(coverWindows([0, 5, 249, 250, 600], 250), [0, 250, 600]);
    assert.deepEqual(coverWindows([10, 259], 250), [10]); // one window at offset 10, not two aligned pages
    assert.deepEqual(coverWindows([], 250), []);
  });

  test('a tiny workload: map + market windows + unlisted profiles + history buckets + pages', () => {
    const price = (coin: string | number, id: number, position: number | null): BenchCell => ({
      text: `=CRYPTO.PRICE(${typeof coin === 'number' ? coin : `"${coin}"`})`,
      formula: 'PRICE',
      coin,
      needs: [{ kind: 'quote', id, position, fields: ['price'] }],
    });
    const cells: BenchCell[] = [
      price('bitcoin', 1, 0),
      price(1, 1, 0), // the same coin again, by id: nothing more
      price('BTC', 1, 0),
      price('ethereum', 2, 1),
      price('deep', 9, 400), // places 1 and 401: two windows
      price(77, 77, null), // not listed: its profile
      {
        text: '=CRYPTO.OHLCV("bitcoin","2025-01-01","2025-12-31","daily",0)',
        formula: 'OHLCV',
        coin: 'bitcoin',
        needs: [{ kind: 'request', endpoint: 'candles', id: 1, query: { interval: 'day', from: 'a', to: 'b' }, buckets: 365 }],
      },
      { text: '=CRYPTO.BLOCKCHAINS()', formula: 'BLOCKCHAINS', needs: [{ kind: 'request', endpoint: 'blockchainList', query: {}, pages: 2 }] },
      { text: '=CRYPTO.BLOCKCHAINS()', formula: 'BLOCKCHAINS', needs: [{ kind: 'request', endpoint: 'blockchainList', query: {}, pages: 2 }] },
    ];
    const m = minimumCredits(cells);
    // 1 map + 4 scattered coins in one batch-by-ids list request (cheaper than 2 markets windows + 1 profile)
    // + (1 + ceil(265/100)) candles + 2 list pages
    assert.equal(m.credits, 1 + 1 + 4 + 2);
    assert.deepEqual(m.byEndpoint, {
      '/v3/currencies/map': 1,
      '/v3/currencies/list': 1,
      '/v3/currencies/{id}/historical': 4,
      '/v3/blockchains/list': 2,
    });
    assert.match(m.derivation, /= 8 credits/);
    assert.match(m.derivation, /status is free/);

    // A field the list lacks: markets windows and a profile instead.
    const highs = cells.map((c) => ({ ...c, needs: c.needs.map((n) => (n.kind === 'quote' ? { ...n, fields: ['high24h'] } : n)) }));
    const h = minimumCredits(highs);
    assert.equal(h.credits, 1 + 2 + 1 + 4 + 2);
    assert.equal(h.byEndpoint['/v3/currencies/markets'], 2);
    assert.equal(h.byEndpoint['/v3/currencies/{id}'], 1);
  });

  test('300 contiguous top coins: two markets windows beat three list batches', () => {
    const cells: BenchCell[] = Array.from({ length: 600 }, (_, i) => ({
      text: `=CRYPTO.PRICE(${(i % 300) + 1})`,
      formula: 'PRICE',
      coin: i % 2 === 0 ? (i % 300) + 1 : `coin-${i % 300}`,
      needs: [{ kind: 'quote', id: (i % 300) + 1, position: i % 300, fields: ['price'] }],
    }));
    const m = minimumCredits(cells);
    assert.equal(m.credits, 1 + 2);
    assert.deepEqual(m.byEndpoint, { '/v3/currencies/map': 1, '/v3/currencies/markets': 2 });
    // Without the markets route (the no-markets workload): the list by ids, 100 a request; the route is tried alongside the map.
    const without = minimumCredits(cells, { without: ['markets'] });
    assert.deepEqual(without.byEndpoint, { '/v3/currencies/map': 1, '/v3/currencies/list': 3 });
    assert.equal(latencyBound(cells, 50, { without: ['markets'] }).trips, 2);
    // An ambiguous symbol's other candidates are asked by id too (markets pages would have ranked them for free).
    const rivals = cells.map((c, i) => (i === 0 ? { ...c, needs: c.needs.map((n) => (n.kind === 'quote' ? { ...n, rivals: [9001] } : n)) } : c));
    assert.deepEqual(minimumCredits(rivals).byEndpoint, m.byEndpoint, 'free with the markets list');
    assert.deepEqual(minimumCredits(rivals, { without: ['markets'] }).byEndpoint, { '/v3/currencies/map': 1, '/v3/currencies/list': 4 });
    // A field the list does not carry: a profile per coin.
    const d7 = cells.map((c) => ({ ...c, needs: c.needs.map((n) => (n.kind === 'quote' ? { ...n, fields: ['percentChange.d7'] } : n)) }));
    assert.deepEqual(minimumCredits(d7, { without: ['markets'] }).byEndpoint, { '/v3/currencies/map': 1, '/v3/currencies/{id}': 300 });
  });

  test('ids only: no currency map; the latency bound counts dependent trips', () => {
    const cells: BenchCell[] = [{ text: '=CRYPTO.PRICE(1)', formula: 'PRICE', coin: 1, needs: [{ kind: 'quote', id: 1, position: 0, fields: ['price'] }] }];
    assert.equal(minimumCredits(cells).credits, 1);
    assert.equal(latencyBound(cells, 50).trips, 1); // markets page (status goes alongside: Sandbox endpoint)
    const text: BenchCell[] = [{ ...cells[0], coin: 'bitcoin' }];
    assert.equal(latencyBound(text, 50).ms, 50); // map ‖ the first markets page, which holds the coin
    const deeper: BenchCell[] = [...text, { ...text[0], coin: 'deep', needs: [{ kind: 'quote', id: 9, position: 250, fields: ['price'] }] }];
    assert.equal(latencyBound(deeper, 50).ms, 100); // map → the second page (its coins are known only from the map)
    assert.equal(latencyBound(text, 50, { without: ['markets'] }).ms, 100); // map ‖ markets tried (404) → the list
    const paged: BenchCell[] = [{ text: '=CRYPTO.BLOCKCHAINS()', formula: 'BLOCKCHAINS', needs: [{ kind: 'request', endpoint: 'blockchainList', query: {}, pages: 3 }] }];
    assert.equal(latencyBound(paged, 10).trips, 3); // page 1 → 2 → 3
    const advanced: BenchCell[] = [{ text: '=CRYPTO.TOKENOMICS("bitcoin")', formula: 'TOKENOMICS', coin: 'bitcoin', needs: [{ kind: 'request', endpoint: 'tokenomics', id: 1, query: {} }] }];
    assert.equal(latencyBound(advanced, 50).trips, 3); // status (plan check before an Advanced endpoint) → map → data
  });
});

// A two-coin market: enough for the naive client, built in no time.
function tinyMarket(): MarketDataSource {
  const coins = [
    { id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin' },
    { id: 2, slug: 'ethereum', symbol: 'ETH', name: 'Ethereum' },
  ];
  const handlers: Partial<Record<DataEndpointName, Handler>> = {
    currencyMap: () => ({ data: coins }),
    profile: ({ id }) => {
      const c = coins.find((x) => x.id === id);
      if (!c) throw new NotFoundError('Currency not found');
      return { data: { ...c, price: String(1000 * c.id) } };
    },
  };
  return { handlers: handlers as Record<DataEndpointName, Handler> };
}

describe('transport floor', () => {
  const req = (url: string, arrived: number, answered: number): SeenRequest => ({ method: 'GET', url, arrived, answered });

  test('waves: a request goes after the answers that had left before it arrived', () => {
    const seen = [
      req('/v3/currencies/markets?limit=250&offset=250', 96, 146),
      req('/v3/status', 0, 50),
      req('/v3/currencies/map', 1, 51),
      req('/v3/currencies/markets?limit=250', 94, 144),
      req('/v3/currencies/markets?limit=250&offset=500', 30, 80), // sent before any answer: the first wave, however late
    ];
    assert.deepEqual(
      waves(seen).map((w) => w.map((r) => r.url)),
      [
        ['/v3/status', '/v3/currencies/map', '/v3/currencies/markets?limit=250&offset=500'],
        ['/v3/currencies/markets?limit=250', '/v3/currencies/markets?limit=250&offset=250'],
      ],
    );
    // Pages of a paged history, each asked once the last arrived: one wave each.
    assert.equal(waves([req('/p1', 0, 10), req('/p2', 12, 22), req('/p3', 25, 35)]).length, 3);
    assert.deepEqual(waves([]), []);
  });

  test('replay: each wave after the last, every answer read and parsed', async () => {
    const em = await startEmulator({ latency: 40 });
    try {
      const ws = waves([req('/v3/currencies/map', 0, 40), req('/v3/currencies/markets?limit=5', 45, 85), req('/v3/currencies/markets?limit=5&offset=5', 46, 86)]);
      const ms = await replay(em.url, 'demo-pro', ws);
      assert.ok(ms >= 2 * 40, `two round trips of 40 ms at least: ${ms}`);
      const u = em.usage('demo-pro');
      assert.equal(u.requests, 3);
      assert.equal(u.byPath['/v3/currencies/markets'].requests, 2);
    } finally {
      await em.close();
    }
  });
});

describe('naive client', () => {
  const servers: Emulator[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  test('one request per cell, plus one currency map, no cache, no batching', async () => {
    const em = await startEmulator({ market: tinyMarket(), latency: 0 });
    servers.push(em);
    const cells = ['=CRYPTO.PRICE("bitcoin")', '=CRYPTO.PRICE("bitcoin")', '=CRYPTO.PRICE(2)', '=CRYPTO.PRICE("ETH")', '=CRYPTO.QUOTE("ethereum","marketCap",,0)'];
    const run = await runNaive(cells, { origin: em.url, key: 'demo-pro' });
    assert.equal(run.outcomes.filter((o) => !o.ok).length, 0, JSON.stringify(run.outcomes.filter((o) => !o.ok)));
    assert.equal(run.mapRequests, 1);
    assert.equal(run.requestsSent, cells.length + 1);
    const u = em.usage('demo-pro');
    assert.equal(u.requests, cells.length + 1);
    assert.equal(u.byPath['/v3/currencies/{id}'].requests, cells.length);
    assert.equal(u.byPath['/v3/currencies/map'].requests, 1);
    assert.equal(u.dailyUsed, cells.length + 1);
    assert.equal(run.outcomes[0].value, '1000');
  });

  test('cells with ids only need no map; a failed request is an error cell', async () => {
    const em = await startEmulator({ market: tinyMarket(), latency: 0 });
    servers.push(em);
    const naive = createNaiveClient({ origin: em.url, key: 'demo-pro' });
    const out = await Promise.all(['=CRYPTO.PRICE(1)', '=CRYPTO.PRICE(999)'].map((c) => naive.cell(c)));
    assert.equal(naive.mapRequests, 0);
    assert.equal(naive.requestsSent, 2);
    assert.equal(out[0].ok, true);
    assert.equal(out[1].ok, false);
    assert.equal(out[1].error, 'NOT_FOUND');
  });
});

describe('npm run bench -- --json', () => {
  test('prints one parseable object with the documented keys (tiny portfolio, no latency)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bench.ts', '--json', '--tiny', '--quiet', '--only', 'portfolio', '--latency', '0'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stdout.trim().split('\n').length, 1, 'one line of JSON on stdout');
    const report = JSON.parse(stdout) as { workloads: Record<string, Record<string, unknown>> };
    assert.deepEqual(Object.keys(report.workloads), ['portfolio']);
    const w = report.workloads.portfolio;
    for (const k of ['cells', 'requests', 'credits', 'creditsByEndpoint', 'minimumCredits', 'minimumDerivation', 'coldMs', 'warmMs', 'warmRequests', 'errorCells', 'peakMemoryMB', 'naive']) {
      assert.ok(k in w, `workloads.portfolio.${k}`);
    }
    assert.equal(w.cells, 12);
    // The transport floor was measured: the cold's requests in at least one wave, replayed.
    assert.equal(typeof w.floorMs, 'number');
    assert.ok((w.floorWaves as number) >= 1, `floorWaves ${String(w.floorWaves)}`);
    assert.equal(typeof w.coldVsFloor, 'number');
    // The thread's busy time is part of the fill's time, and some of it (every cell is calculated).
    assert.ok((w.coldBusyMs as number) > 0 && (w.coldBusyMs as number) <= (w.coldMs as number) + 1, `busy ${String(w.coldBusyMs)} of ${String(w.coldMs)} ms`);
    assert.equal(typeof w.minimumDerivation, 'string');
    assert.equal(typeof w.creditsByEndpoint, 'object');
    const naive = w.naive as Record<string, unknown>;
    for (const k of ['requests', 'credits', 'coldMs', 'errorCells']) assert.equal(typeof naive[k], 'number', `naive.${k}`);
    // naive: one profile per cell, plus the map
    assert.equal(naive.requests, 12 + 1);
  });
});

describe('recalculate (the CLI\'s, which the benchmark times)', () => {
  test('a formula that does not parse is an error cell the report counts; the others are calculated', async () => {
    const em = await startEmulator({});
    const session = await openSession({ key: 'demo-pro', apiUrl: em.url });
    try {
      const [broken, price, unknown] = await recalculate(session.host, ['=CRYPTO.PRICE("bitcoin"', '=CRYPTO.PRICE("bitcoin")', '=CRYPTO.NOPE()']);
      assert.ok('error' in broken && broken.error === '#PARSE!', JSON.stringify(broken));
      assert.deepEqual([broken, price, unknown].map(isErrorOutcome), [true, false, true]);
      assert.ok('value' in price && typeof price.value[0][0] === 'number' && price.value[0][0] > 0, JSON.stringify(price));
      assert.ok('error' in unknown && unknown.error === '#NAME?', JSON.stringify(unknown));
    } finally {
      await session.close();
      await em.close();
    }
  });
});

describe('a cold fill is timed from a quiet process (trial.ts quietProcess)', () => {
  test('it waits while another thread keeps a core busy, and goes once that thread stops', async () => {
    // A thread spinning until told to stop: the process is not quiet (process.cpuUsage counts every thread).
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const spinner = new Worker('const { workerData } = require("node:worker_threads"); while (Atomics.load(workerData, 0) === 0) {}', { eval: true, workerData: stop });
    try {
      await new Promise((r) => spinner.once('online', r));
      const quiet = quietProcess({ windowMs: 20, maxCpuShare: 0.1, maxWaitMs: 30_000 });
      await new Promise((r) => setTimeout(r, 300));
      Atomics.store(stop, 0, 1);
      const waited = await quiet;
      assert.ok(waited >= 300, `went after ${waited.toFixed(0)} ms, while the other thread was still busy`);
      assert.ok(waited < 30_000, 'went once the process was quiet, not at the cap');
    } finally {
      Atomics.store(stop, 0, 1);
      await spinner.terminate();
    }
  });

  test('it gives up at its cap when the process never quiets', async () => {
    const waited = await quietProcess({ windowMs: 20, maxCpuShare: -1, maxWaitMs: 100 });
    assert.ok(waited >= 100 && waited < 1_000, `${waited.toFixed(0)} ms`);
  });
});
