/**
 * HISTORICAL's coalescer: many cells asking for different coins at the same
 * date (and currency) share one `historicalItem` request, which takes up to
 * the endpoint table's `currencyIds.max` ids. Loads made within a short window
 * (10 ms) are grouped per (date, currency) and sent as one request per group
 * of at most that many ids.
 *
 * - One per client (MarketClient owns it): a new client (another key, another
 *   session) never shares a batch with an old one.
 * - No result cache here: DataLoader's memoization is off; the response cache
 *   serves repeated requests (its canonical key includes the id list, so the
 *   same set of cells recalculated hits the cache; ids are sorted so the order
 *   of the cells does not matter). An item of a past day is asked again by the
 *   request it came in (#heldIn), whatever its cells' grouping this time: that
 *   answer is cached for a day, and a new grouping of the same cells paid a
 *   request per grouping (review 2026-11-27: history #2). Only the coins held by
 *   no such request are batched anew. The cache stays the one judge of freshness,
 *   of Refresh all data and of a key change; a held request out of the cache is
 *   asked again as it was.
 * - Every waiting cell settles: a failed request rejects each load of its
 *   group; a coin missing from the answer rejects its own load with NOT_FOUND;
 *   a 404 for a group is bisected so one coin without data at that date does
 *   not fail its neighbours.
 * - A coin whose item came but could not be read (read-data.ts sets it aside as
 *   rejected) fails with that item's reason, as every list consumer says it
 *   (api-error.ts unreadableItemError), not as "no data". An item without a
 *   readable id cannot be matched to a coin: the coins the answer left
 *   unmatched fail as an unreadable answer (theirs may be that item), not as
 *   "no data". Such an answer, still fresh in the response cache, is shared by
 *   the batches of its recalculation and asked again after it: a bad answer
 *   does not outlive its recalculation (bad-answer.ts).
 * - A cell's own cancellation settles that cell at once; the shared request
 *   carries no single cell's signal, so one canceled cell cannot fail the others:
 *   it stops when every cell that asked has gone (shared-work.ts).
 */
import DataLoader from 'dataloader';
import { LRUCache } from 'lru-cache';
import { ENDPOINTS, type ConvertCurrency } from '../api/endpoints';
import type { RejectedItem } from '../api/read-data';
import type { HistoricalItem } from '../api/records';
import { isoDay } from '../api/utc-day';
import { ApiError, hasCode, unreadableItemError } from './api-error';
import { askPastBadAnswer } from './bad-answer';
import { canonicalRequest, freshnessOf } from './canonical-request';
import { abortable } from './cancellation';
import { GatheringWork, liveWork, type SharedWork } from './shared-work';
import type { Answer, CallOptions, Requester } from './types';

export interface HistoricalKey {
  /** Epoch ms (start of the UTC day asked for). */
  date: number;
  currency: ConvertCurrency;
  id: number;
  /** Shown when the coin is missing from the answer. */
  name: string;
}

/** How long loads wait for company before the batch is sent. */
export const HISTORICAL_BATCH_WINDOW_MS = 10;
/** The endpoint's limit on currencyIds. */
export const HISTORICAL_MAX_IDS = ENDPOINTS.historicalItem.params.currencyIds.max;
/** How many items' requests #heldIn remembers (a bound, as every cache's). */
const HELD_MAX = 20_000;

/** An item's place in #heldIn: its date, currency and coin. */
const heldKey = (date: number, currency: ConvertCurrency, id: number) => `${date}|${currency}|${id}`;

/** A key as the loader sees it: with the work of its batch (stopped when every caller has gone). */
type Load = HistoricalKey & { caller: string | undefined; work: SharedWork };

/** The answer an item came in (its provenance); `charged` is shared by the items of one answer so its credit is counted once. */
export interface HistoricalAnswer {
  fetchedAt: number;
  stale: boolean;
  fromCache: boolean;
  charged: { done: boolean };
}

export class HistoricalBatcher {
  readonly #requester: Requester;
  readonly #loader: DataLoader<Load, HistoricalItem>;
  readonly #answers = new WeakMap<HistoricalItem, HistoricalAnswer>();
  /** The work of the batch being gathered: its callers are its waiters. */
  readonly #open = new GatheringWork();
  /** The sorted id list of the request each item of a past day came in (history freshness: cached for a day). */
  readonly #heldIn = new LRUCache<string, readonly number[]>({ max: HELD_MAX });

  constructor(requester: Requester) {
    this.#requester = requester;
    this.#loader = new DataLoader<Load, HistoricalItem>((keys) => this.#batch(keys), {
      cache: false,
      batchScheduleFn: (callback) =>
        setTimeout(() => {
          this.#open.sent();
          callback();
        }, HISTORICAL_BATCH_WINDOW_MS),
    });
  }

  /** The historical item of one coin at a date, coalesced with every other load in the window. */
  load(key: HistoricalKey, o: CallOptions = {}): Promise<HistoricalItem> {
    const work = this.#open.current();
    work.join(o.signal);
    const load = this.#loader.load({ ...key, caller: o.caller, work });
    if (o.signal?.aborted) load.catch(() => undefined); // settled for the others; this caller has left
    return o.settlesItself ? load : abortable(load, o.signal);
  }

  /** The answer `item` came in, for the provenance of the cells it serves. */
  answerOf(item: HistoricalItem): HistoricalAnswer | undefined {
    return this.#answers.get(item);
  }

  async #batch(keys: readonly Load[]): Promise<(HistoricalItem | Error)[]> {
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
        const work = liveWork(indexes.map((i) => keys[i].work));
        const ids = [...new Set(indexes.map((i) => keys[i].id))].sort((a, b) => a - b);
        // Items already held: their own request again (one per request, however many of its coins are here); the rest anew.
        const held = new Map<string, readonly number[]>();
        const rest: number[] = [];
        for (const id of ids) {
          const list = this.#heldIn.get(heldKey(date, currency, id));
          if (list) held.set(list.join(','), list);
          else rest.push(id);
        }
        const chunks: (readonly number[])[] = [...held.values()];
        for (let start = 0; start < rest.length; start += HISTORICAL_MAX_IDS) chunks.push(rest.slice(start, start + HISTORICAL_MAX_IDS));
        const answers = new Map<number, HistoricalItem | Error>();
        const asked: Asked = { date, currency, caller, signal: work.signal, names: new Map(indexes.map((i) => [keys[i].id, keys[i].name])) };
        await Promise.all(chunks.map((chunk) => this.#fetchIds(asked, chunk, answers)));
        for (const i of indexes) {
          results[i] = answers.get(keys[i].id)
            ?? new ApiError({ code: 'NOT_FOUND', message: `no historical data for ${keys[i].name} on ${isoDay(date)}`, endpoint: 'historicalItem' });
        }
      }),
    );
    return results;
  }

  /**
   * One request for `ids`; its items go into `answers`, and the reasons of the
   * coins whose item could not be read. The service answers 404
   * for the whole request when any one coin has no data at that date (e.g. listed
   * later), so a 404 for several ids is split in halves until the coins without
   * data are isolated: the others still get their values, at a few extra requests.
   */
  async #fetchIds(asked: Asked, ids: readonly number[], answers: Map<number, HistoricalItem | Error>): Promise<void> {
    const { date, currency, caller, signal } = asked;
    try {
      const query = { date: new Date(date).toISOString(), currencyIds: ids.join(','), convert: currency === 'USD' ? undefined : currency };
      const cr = canonicalRequest('historicalItem', undefined, query);
      // One with unreadable items is not served past its recalculation from the cache, which keeps a past day's for a day (bad-answer.ts).
      const a = await askPastBadAnswer(this.#requester, cr, { caller, signal }, (x) => unreadable(x, ids, asked).size > 0);
      const unread = unreadable(a, ids, asked);
      const answer: HistoricalAnswer = { fetchedAt: a.entry.fetchedAt, stale: a.stale, fromCache: a.fromCache, charged: { done: a.fromCache || a.stale } };
      // Today's items are live (a minute): a request per grouping is what they cost anyway, so only a past day's are
      // remembered; and not an answer with unreadable items, which is asked again past the cache (bad-answer.ts).
      const keep = unread.size === 0 && freshnessOf(cr, this.#requester.now()) === 'history';
      for (const item of a.entry.data as HistoricalItem[]) {
        answers.set(item.id, item);
        this.#answers.set(item, answer);
        if (keep && ids.includes(item.id)) this.#heldIn.set(heldKey(date, currency, item.id), ids);
      }
      for (const [id, e] of unread) answers.set(id, e);
    } catch (e) {
      // A single coin without data: left unanswered, its cell says so by name.
      if (hasCode(e, 'NOT_FOUND') && ids.length === 1) return;
      if (hasCode(e, 'NOT_FOUND')) {
        const half = Math.ceil(ids.length / 2);
        await Promise.all([
          this.#fetchIds(asked, ids.slice(0, half), answers),
          this.#fetchIds(asked, ids.slice(half), answers),
        ]);
        return;
      }
      const err = e instanceof Error ? e : new Error(String(e));
      for (const id of ids) answers.set(id, err);
    }
  }
}

/** What a group's requests share: its date, currency, asker and the names of its coins (for messages). */
interface Asked {
  date: number;
  currency: ConvertCurrency;
  caller: string | undefined;
  signal: AbortSignal;
  names: ReadonlyMap<number, string>;
}


/**
 * The asked coins of `a` without a readable item, and why: a coin whose item was set aside
 * (matched by id) has that item's error; while the answer also holds an item without a readable
 * id, every other coin left without an item may be that one's, so it fails as an unreadable
 * answer naming it. A coin simply left out is not here: no data (#batch).
 */
function unreadable(a: Answer, ids: readonly number[], asked: Asked): Map<number, ApiError> {
  const out = new Map<number, ApiError>();
  const rejected: readonly RejectedItem[] = a.entry.rejected ?? [];
  if (rejected.length === 0) return out;
  const read = new Set((a.entry.data as HistoricalItem[]).map((x) => x.id));
  const open = new Set(ids.filter((id) => !read.has(id)));
  for (const r of rejected) {
    if (r.id !== null && open.has(r.id) && !out.has(r.id)) out.set(r.id, unreadableItemError(r, 'historicalItem'));
  }
  const unplaced = rejected.find((r) => r.id === null);
  if (unplaced) {
    for (const id of open) if (!out.has(id)) out.set(id, unplacedError(asked.names.get(id) ?? `id ${id}`, asked.date, unplaced));
  }
  return out;
}

/** A coin left without an item when the answer held one that names no coin: the item's reason, said as an unreadable answer for this coin. */
function unplacedError(name: string, date: number, r: RejectedItem): ApiError {
  const item = unreadableItemError(r, 'historicalItem');
  return new ApiError({ code: 'UNEXPECTED_RESPONSE', message: `no readable historical item for ${name} on ${isoDay(date)}: ${item.message}`, endpoint: 'historicalItem' });
}
