/**
 * USD quotes from `/v3/currencies/list?currencyIds=`, for a key without the
 * markets list (refused, or no such route: issue #21). The endpoint takes at
 * most 100 ids a request [code: production callers batch by 100; the endpoint
 * table's limit] and charges one credit whatever their number, so ids are
 * gathered across the quote batcher's batches: requests go out once no quote
 * batch is still gathering or reading markets pages (whose refusal sends its
 * coins here), and a portfolio costs its minimum (bench: the no-markets
 * workload).
 * The coin resolver asks here too (the ranks of an ambiguous symbol's
 * candidates): its ids join the same requests.
 */
import DataLoader from 'dataloader';
import { ENDPOINTS } from '../api/endpoints';
import type { CurrencyListItem } from '../api/records';
import { canonicalRequest } from './canonical-request';
import { quoteFromListItem, type Quote } from './quote';
import { QUIET_MS, whenQuiet } from './quiet';
import { SharedWork } from './shared-work';
import type { Requester } from './types';

/** Coins per request: the endpoint table's currencyIds limit. */
export const LIST_IDS = ENDPOINTS.currencyList.params.currencyIds.max;
/** The longest a request waits for more ids (ms): a steady stream of coins does not hold it back. */
const MAX_GATHER_MS = 50;

export interface ListKey {
  id: number;
  caller: string | undefined;
  /** The asker's signal: the request stops when every asker has gone (none: stays to the end). */
  signal?: AbortSignal;
}

/** A coin's quote from the list, with its answer's fetch time (null: the list did not have it). */
export interface ListQuote {
  quote: Quote;
  fetchedAt: number;
  stale: boolean;
}

export interface ListQuotesSource {
  requester: Requester;
  /** Whether a quote batch is still gathering coins (its ids are about to come). */
  gathering(): boolean;
  /** Every coin's quote an answer brought, whoever asked (the quote batcher keeps them). */
  onQuote?(q: ListQuote): void;
}

export class ListQuotes {
  readonly #src: ListQuotesSource;
  readonly #loader: DataLoader<ListKey, ListQuote | null, ListKey>;
  #asked = 0;

  constructor(src: ListQuotesSource) {
    this.#src = src;
    this.#loader = new DataLoader<ListKey, ListQuote | null, ListKey>((keys) => this.#batch(keys), {
      cache: false,
      batchScheduleFn: (send) => whenQuiet(send, { asked: () => this.#asked, busy: () => this.#src.gathering(), quietMs: QUIET_MS, maxMs: MAX_GATHER_MS }),
    });
  }

  load(key: ListKey): Promise<ListQuote | null> {
    this.#asked++;
    return this.#loader.load(key);
  }

  /** Every id gathered, LIST_IDS a request (chunked here, not by DataLoader: ids that come while a full batch waits join the last one). */
  async #batch(keys: readonly ListKey[]): Promise<(ListQuote | null | Error)[]> {
    const ids = [...new Set(keys.map((k) => k.id))].sort((a, b) => a - b);
    // The requests stop only when every asker has gone.
    const work = new SharedWork();
    for (const k of keys) work.join(k.signal);
    const answers = new Map<number, ListQuote | Error>();
    const chunks: number[][] = [];
    for (let i = 0; i < ids.length; i += LIST_IDS) chunks.push(ids.slice(i, i + LIST_IDS));
    await Promise.all(
      chunks.map(async (chunk) => {
        try {
          const a = await this.#src.requester.request(canonicalRequest('currencyList', undefined, { currencyIds: chunk.join(',') }), { caller: keys[0].caller, signal: work.signal });
          for (const it of a.entry.data as readonly CurrencyListItem[]) {
            const q: ListQuote = { quote: quoteFromListItem(it, a.entry.timestamp), fetchedAt: a.entry.fetchedAt, stale: a.stale };
            answers.set(it.id, q);
            this.#src.onQuote?.(q);
          }
        } catch (e) {
          const err = e instanceof Error ? e : new Error(String(e));
          for (const id of chunk) answers.set(id, err);
        }
      }),
    );
    return keys.map((k) => answers.get(k.id) ?? null);
  }
}
