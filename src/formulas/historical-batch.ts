/**
 * HISTORICAL's coalescer: many cells asking for different coins at the same
 * date (and currency) share one `historicalItem` request, which takes up to 100
 * currency ids. Loads made within a short window (10 ms) are grouped per
 * (date, currency) and sent as one request per group of at most 100 ids.
 *
 * - One coalescer per client (WeakMap): a new client (another key, another
 *   session) never shares a batch with an old one.
 * - No result cache here: DataLoader's memoization is off; the client's
 *   response cache serves repeated requests (its canonical key includes the id
 *   list, so the same set of cells recalculated hits the cache; ids are sorted
 *   so the order of the cells does not matter).
 * - Every waiting cell settles: a failed request rejects each load of its
 *   group; a coin missing from the answer rejects its own load with #N/A; a
 *   404 for a group is bisected so one coin without data at that date does
 *   not fail its neighbours.
 * - A cell's own cancellation settles that cell at once; the shared request
 *   carries no single cell's signal, so one canceled cell cannot fail the others.
 */
import DataLoader from 'dataloader';
import type { MarketClient } from '../client';
import { creditCost } from '../api/endpoints';
import { noteFetch, untracked } from './answer-tracking';
import type { HistoricalItem } from '../api/records';
import { notAvailable } from './cells';

export type HistoricalCurrency = 'USD' | 'EUR';

export interface HistoricalKey {
  /** Epoch ms (start of the UTC day asked for). */
  date: number;
  currency: HistoricalCurrency;
  id: number;
  /** Shown when the coin is missing from the answer. */
  name: string;
  caller: string;
}

/** How long loads wait for company before the batch is sent. */
export const HISTORICAL_BATCH_WINDOW_MS = 10;
/** The endpoint's limit on currencyIds. */
export const HISTORICAL_MAX_IDS = 100;

const loaders = new WeakMap<MarketClient, DataLoader<HistoricalKey, HistoricalItem>>();
/** Each item's answer (fetch time, freshness), for the provenance of the cells it serves; the first cell is charged its credit. */
const answerOf = new WeakMap<HistoricalItem, { fetchedAt: number; stale: boolean; fromCache: boolean; charged: { done: boolean } }>();

function loaderFor(client: MarketClient): DataLoader<HistoricalKey, HistoricalItem> {
  let loader = loaders.get(client);
  if (!loader) {
    loader = new DataLoader<HistoricalKey, HistoricalItem>((keys) => loadBatch(client, keys), {
      cache: false,
      batchScheduleFn: (callback) => setTimeout(callback, HISTORICAL_BATCH_WINDOW_MS),
    });
    loaders.set(client, loader);
  }
  return loader;
}

async function loadBatch(client: MarketClient, keys: readonly HistoricalKey[]): Promise<(HistoricalItem | Error)[]> {
  const results: (HistoricalItem | Error)[] = new Array(keys.length);
  const groups = new Map<string, number[]>();
  keys.forEach((k, i) => {
    const g = `${k.date}|${k.currency}`;
    const list = groups.get(g);
    if (list) list.push(i);
    else groups.set(g, [i]);
  });
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      const { date, currency, caller } = keys[indexes[0]];
      const ids = [...new Set(indexes.map((i) => keys[i].id))].sort((a, b) => a - b);
      const chunks: number[][] = [];
      for (let start = 0; start < ids.length; start += HISTORICAL_MAX_IDS) chunks.push(ids.slice(start, start + HISTORICAL_MAX_IDS));
      const answers = new Map<number, HistoricalItem | Error>();
      await Promise.all(chunks.map((chunk) => fetchIds(client, date, currency, caller, chunk, answers)));
      for (const i of indexes) {
        results[i] = answers.get(keys[i].id)
          ?? notAvailable(`No historical data for ${keys[i].name} on ${new Date(date).toISOString().slice(0, 10)}`, 'NOT_FOUND');
      }
    }),
  );
  return results;
}

const errorCode = (e: unknown) => (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : null);

/**
 * One request for `ids`; its items go into `answers`. The service answers 404
 * for the whole request when any one coin has no data at that date (e.g. listed
 * later), so a 404 for several ids is split in halves until the coins without
 * data are isolated: the others still get their values, at a few extra requests.
 */
async function fetchIds(
  client: MarketClient, date: number, currency: HistoricalCurrency, caller: string, ids: number[],
  answers: Map<number, HistoricalItem | Error>,
): Promise<void> {
  try {
    const res = await client.get('historicalItem', {
      query: { date: new Date(date).toISOString(), currencyIds: ids.join(','), convert: currency === 'USD' ? undefined : currency },
      caller,
    });
    const charged = { done: res.fromCache || res.stale };
    for (const item of res.data) {
      answers.set(item.id, item);
      answerOf.set(item, { fetchedAt: res.fetchedAt, stale: res.stale, fromCache: res.fromCache, charged });
    }
  } catch (e) {
    // A single coin without data: left unanswered, its cell says so by name.
    if (errorCode(e) === 'NOT_FOUND' && ids.length === 1) return;
    if (errorCode(e) === 'NOT_FOUND') {
      const half = Math.ceil(ids.length / 2);
      await Promise.all([
        fetchIds(client, date, currency, caller, ids.slice(0, half), answers),
        fetchIds(client, date, currency, caller, ids.slice(half), answers),
      ]);
      return;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    for (const id of ids) answers.set(id, err);
  }
}

/** The historical item of one coin at a date, coalesced with every other load in the window. */
export function loadHistorical(client: MarketClient, key: HistoricalKey, signal?: AbortSignal): Promise<HistoricalItem> {
  // One coalescer for the client, whichever evaluation's view of it asks (provenance.ts).
  const load = loaderFor(untracked(client)).load(key).then((item) => {
    const a = answerOf.get(item);
    if (a) {
      noteFetch(client, { endpoint: 'historicalItem', fetchedAt: a.fetchedAt, stale: a.stale, fromCache: a.fromCache || a.charged.done, credits: a.charged.done ? 0 : creditCost('historicalItem', {}) });
      a.charged.done = true;
    }
    return item;
  });
  if (!signal) return load;
  if (signal.aborted) {
    load.catch(() => undefined);
    return Promise.reject(notAvailable('Canceled', 'ABORTED'));
  }
  return new Promise<HistoricalItem>((resolve, reject) => {
    const onAbort = () => reject(notAvailable('Canceled', 'ABORTED'));
    signal.addEventListener('abort', onAbort, { once: true });
    load.then(
      (item) => {
        signal.removeEventListener('abort', onAbort);
        resolve(item);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
