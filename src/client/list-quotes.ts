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
 * A coin whose item came but could not be read (api/read-data.ts sets it
 * aside as rejected) is answered with that item's error, for it alone: not
 * "not in the list", which would ask its profile (a credit) and lose the reason.
 */
import DataLoader from 'dataloader';
import { ENDPOINTS } from '../api/endpoints';
import type { RejectedItem } from '../api/read-data';
import type { CurrencyListItem } from '../api/records';
import { type ApiError, unreadableItemError } from './api-error';
import { askPastBadAnswer } from './bad-answer';
import { canonicalRequest } from './canonical-request';
import { quoteFromListItem, type Quote } from './quote';
import { QUIET_MS, whenQuiet } from './quiet';
import { SharedWork } from './shared-work';
import type { Answer, Requester } from './types';

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

/** A coin's quote from the list, with its answer's fetch time. */
export interface ListQuote {
  quote: Quote;
  fetchedAt: number;
  stale: boolean;
}

/** A coin whose item the list answered but could not be read: why (api-error.ts unreadableItemError). */
export interface UnreadableListItem {
  unreadable: ApiError;
}

/** What the list says of a coin: its quote, its unreadable item, or null (the list did not have it). */
export type ListResult = ListQuote | UnreadableListItem | null;

export interface ListQuotesSource {
  requester: Requester;
  /** Whether a quote batch is still gathering coins (its ids are about to come). */
  gathering(): boolean;
  /** Every coin's quote an answer brought, whoever asked (the quote batcher keeps them). */
  onQuote?(q: ListQuote): void;
}

export class ListQuotes {
  readonly #src: ListQuotesSource;
  readonly #loader: DataLoader<ListKey, ListResult, ListKey>;
  #asked = 0;

  constructor(src: ListQuotesSource) {
    this.#src = src;
    this.#loader = new DataLoader<ListKey, ListResult, ListKey>((keys) => this.#batch(keys), {
      cache: false,
      batchScheduleFn: (send) => whenQuiet(send, { asked: () => this.#asked, busy: () => this.#src.gathering(), quietMs: QUIET_MS, maxMs: MAX_GATHER_MS }),
    });
  }

  /** Rejects only when the coin's request failed; an item that could not be read is its UnreadableListItem. */
  load(key: ListKey): Promise<ListResult> {
    this.#asked++;
    return this.#loader.load(key);
  }

  /** Every id gathered, LIST_IDS a request (chunked here, not by DataLoader: ids that come while a full batch waits join the last one). */
  async #batch(keys: readonly ListKey[]): Promise<(ListResult | Error)[]> {
    const ids = [...new Set(keys.map((k) => k.id))].sort((a, b) => a - b);
    // The requests stop only when every asker has gone.
    const work = new SharedWork();
    for (const k of keys) work.join(k.signal);
    const answers = new Map<number, ListQuote | UnreadableListItem | Error>();
    const chunks: number[][] = [];
    for (let i = 0; i < ids.length; i += LIST_IDS) chunks.push(ids.slice(i, i + LIST_IDS));
    await Promise.all(
      chunks.map(async (chunk) => {
        try {
          const a = await this.#ask(chunk, keys[0].caller, work.signal);
          for (const it of a.entry.data as readonly CurrencyListItem[]) {
            const q: ListQuote = { quote: quoteFromListItem(it, a.entry.timestamp), fetchedAt: a.entry.fetchedAt, stale: a.stale };
            answers.set(it.id, q);
            this.#src.onQuote?.(q);
          }
          // An item that came but could not be read is its coin's error, not "not in the list" (a profile, its reason lost).
          for (const bad of rejectedOf(a)) if (bad.id !== null && !answers.has(bad.id)) answers.set(bad.id, { unreadable: unreadableItemError(bad, 'currencyList') });
        } catch (e) {
          const err = e instanceof Error ? e : new Error(String(e));
          for (const id of chunk) answers.set(id, err);
        }
      }),
    );
    return keys.map((k) => answers.get(k.id) ?? null);
  }

  /** The list's answer for `ids`; one with items that could not be read is not served from the cache past its recalculation (bad-answer.ts). */
  #ask(ids: readonly number[], caller: string | undefined, signal: AbortSignal): Promise<Answer> {
    const cr = canonicalRequest('currencyList', undefined, { currencyIds: ids.join(',') });
    return askPastBadAnswer(this.#src.requester, cr, { caller, signal }, (a) => rejectedOf(a).length > 0);
  }
}

const rejectedOf = (a: Answer): readonly RejectedItem[] => a.entry.rejected ?? [];
