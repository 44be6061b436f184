/**
 * The paging loops: how getPages follows an endpoint's pagination and
 * concatenates `data`, each endpoint as the endpoint table declares it.
 */
import { ENDPOINTS, pageSizeOf, type EndpointData, type EndpointName, type EndpointSpec } from '../api/endpoints';
import { DAY_MS, HOUR_MS } from '../api/utc-day';
import { hasCode } from './api-error';
import { canonicalRequest, type QueryInput } from './canonical-request';
import { joinPages, pagesToReread, rowKeyOf } from './list-pages';
import { toFetched, type Answer, type Fetched, type RequestOptions, type Requester } from './types';
import type { RejectedItem } from '../api/read-data';

export interface PagesOptions extends RequestOptions {
  maxItems?: number;
  /** Stop at the first item this rejects (and leave it out). */
  takeWhile?: (item: unknown) => boolean;
}

/**
 * A multi-page list whose pages disagreed even when read again (list-pages.ts):
 * `repeated` rows an earlier page already had were left out, and as many rows
 * may be missing from about `at` (the place of the first one left out). The
 * formula says so (MARKETS' last row); absent when the pages agreed.
 */
export interface ListMoved {
  repeated: number;
  at: number;
}

/** A paged list's answer: Fetched, and the pages' disagreement when there was one. */
export type PagedFetched<T> = Fetched<T> & { moved?: ListMoved };

/** Whether the list `f` (a getPages answer, through any wrapper) was read while it moved. */
export function listMoved(f: Fetched<unknown>): ListMoved | undefined {
  return (f as PagedFetched<unknown>).moved;
}

/** Start of the candle after the one opening at `time` (UTC; weeks are 7 days, months calendar months). */
function nextPeriodStart(interval: string, time: number): number {
  if (interval === 'hour') return time + HOUR_MS;
  if (interval === 'week') return time + 7 * DAY_MS;
  if (interval === 'month') {
    const d = new Date(time);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return time + DAY_MS;
}

/** An item of a time series. */
type Timed = { time: number };

/** The items of `page` whose time is not held yet (one per time, the first), now held. */
function unheld(page: readonly Timed[], held: Set<number>): Timed[] {
  const out: Timed[] = [];
  for (const x of page) {
    if (held.has(x.time)) continue;
    held.add(x.time);
    out.push(x);
  }
  return out;
}

/** The latest time in `page` (−Infinity when empty). */
function newestTime(page: readonly Timed[]): number {
  let t = Number.NEGATIVE_INFINITY;
  for (const x of page) if (x.time > t) t = x.time;
  return t;
}

/**
 * An unreadable item of a time series, by its readable neighbours in the answer as it came: the times of the
 * one just before it in time and the one just after (undefined at the answer's ends). It goes after every item
 * at or before `after`: the earlier neighbour's time, else just before the later one's.
 */
type PlacedByTime<R> = { r: R; earlier?: number; later?: number; after: number };

/**
 * A page's unreadable items, each placed between its readable neighbours in the answer as it came. Its index in
 * the answer is no place once the items are sorted oldest first: a page newest first put its #N/A row beside the
 * wrong dates (review 2026-11-27: history #5). Ties come out in time order.
 */
function placedByTime<R extends { index: number }>(page: readonly Timed[], bad: readonly R[]): PlacedByTime<R>[] {
  const rising = page.length < 2 || page[0].time <= page[page.length - 1].time;
  const placed = [...bad].sort((a, b) => a.index - b.index).map((r, k): PlacedByTime<R> => {
    const prev = page[r.index - k - 1]?.time; // r.index - k: the readable items before it
    const next = page[r.index - k]?.time;
    // Both: the earlier in time (an answer out of order still places it between them); one: by the page's direction.
    const [earlier, later] = prev !== undefined && next !== undefined ? [Math.min(prev, next), Math.max(prev, next)] : rising ? [prev, next] : [next, prev];
    const after = earlier ?? (later === undefined ? Number.POSITIVE_INFINITY : later - 0.5);
    return { r, earlier, later, after };
  });
  return rising ? placed : placed.reverse();
}

/** `placed`'s items with their index among `sorted` (oldest first) and each other, as table() inserts them. */
function indexedByTime<R>(sorted: readonly Timed[], placed: readonly PlacedByTime<R>[]): R[] {
  let j = 0;
  return [...placed].sort((a, b) => a.after - b.after).map(({ r, after }, i) => {
    while (j < sorted.length && sorted[j].time <= after) j++;
    return { ...r, index: j + i };
  });
}

/**
 * One answer's unreadable items (`rejected`, indexed in `page` as it came) with their index among `sorted`,
 * its readable items oldest first, as table() inserts them: SPARKLINE and RETURNS sort their points as getPages
 * sorts candles, and a newest-first answer put the #N/A row beside the wrong times (review 2026-11-27: history #5).
 * `keep`: whether an item belongs, told its neighbours' times (RETURNS leaves out a period its neighbours show
 * outside the range).
 */
export function rejectedAmongSorted<R extends { index: number }>(
  page: readonly Timed[],
  rejected: readonly R[],
  sorted: readonly Timed[],
  keep: (earlier: number | undefined, later: number | undefined) => boolean = () => true,
): R[] {
  return indexedByTime(sorted, placedByTime(page, rejected).filter((p) => keep(p.earlier, p.later)));
}

/** getPages never reads more pages than this. */
const MAX_PAGES = 200;

/**
 * Follows pagination as the endpoint table declares it (`paging`) and
 * concatenates `data`: offset-paged lists by offset/limit=pageSize,
 * page-numbered endpoints by `page` until meta.hasNextPage is false, time
 * series by moving `from` past the last item while pages are full. Other
 * endpoints: one request. `maxItems` caps the result; `takeWhile` stops at the
 * first item it rejects (a list sorted by the thing it tests).
 *
 * Offset- and page-numbered lists come out of one moment (list-pages.ts): each
 * row once, and pages of different ages (a page cached by PRICE cells beside one
 * fetched now) or repeating each other's rows read again once, bypassing the
 * cache; `moved` says when they still disagreed.
 */
export async function getPages<N extends EndpointName>(
  client: Requester,
  name: N,
  req: PagesOptions,
): Promise<PagedFetched<EndpointData<N>>> {
  const asked = { caller: req.caller, signal: req.signal };
  const once = async () => toFetched<EndpointData<N>>(await client.request(canonicalRequest(name, req.id, req.query), asked));
  const spec: EndpointSpec = ENDPOINTS[name];
  const params: Readonly<Record<string, unknown>> = spec.params;
  const max = req.maxItems ?? Number.POSITIVE_INFINITY;
  const base: QueryInput = { ...req.query };
  const answers: Answer[] = [];
  const items: unknown[] = [];
  const rejected: RejectedItem[] = [];
  /** The list's pages (offset- and page-numbered), in order: each one's query and where its answer is in `answers`. */
  const pages: { query: QueryInput; answer: number }[] = [];
  /**
   * Items the pages carried so far, read or not (before repeats are left out): whether `maxItems` is reached.
   * An unreadable item is a row of the output (below), so it counts: MARKETS(250) with one on its page read
   * a second page for nothing (review 2026-11-27, lists #2).
   */
  let readSoFar = 0;
  const step = async (query: QueryInput): Promise<number | null> => {
    const a = await client.request(canonicalRequest(name, req.id, query), asked);
    answers.push(a);
    if (!Array.isArray(a.entry.data)) return null;
    pages.push({ query, answer: answers.length - 1 });
    const data = a.entry.data as unknown[];
    const until = req.takeWhile ? data.findIndex((x) => !req.takeWhile!(x)) : -1;
    if (until >= 0) stopped = true;
    const carried = data.length + (a.entry.rejected?.length ?? 0);
    readSoFar += until >= 0 ? until : carried;
    return carried;
  };
  let stopped = false;
  if (spec.paging === 'offset') {
    const pageSize = pageSizeOf(spec);
    const maxOffset = (params.offset as { max?: number } | undefined)?.max ?? Number.POSITIVE_INFINITY;
    let offset = Number(base.offset ?? 0);
    for (let i = 0; i < MAX_PAGES && readSoFar < max && offset <= maxOffset; i++) {
      const count = await step({ ...base, offset, limit: pageSize });
      if (count === null || count < pageSize || stopped) break;
      offset += pageSize;
    }
  } else if (spec.paging === 'page') {
    const pageSize = pageSizeOf(spec);
    let page = Number(base.page ?? 1);
    for (let i = 0; i < MAX_PAGES && readSoFar < max; i++) {
      const got = await step({ ...base, page });
      const meta = answers[answers.length - 1].entry.meta;
      const hasNext = typeof meta?.hasNextPage === 'boolean' ? meta.hasNextPage : (got ?? 0) >= pageSize;
      if (got === null || !hasNext || stopped) break;
      page++;
    }
  } else if (spec.paging === 'time') {
    // Time series: while pages are full, the next page starts at the period after
    // the newest item, and stops once that is past `to` (or now: the server refuses
    // a `from` in the future). No order within a page is documented, so a page is
    // placed by its newest item, not its last: a page newest first moved `from` one
    // period a page, the same candles came again for 200 pages and later ones were
    // never reached (review; test/time-paging.test.ts). Times already held are
    // skipped, and the candles come out oldest first, as the formulas read them.
    const limitDefault = (params.limit as { default?: number }).default ?? 0;
    const limit = Number(base.limit ?? limitDefault);
    const to = canonicalRequest(name, req.id, base).query.to;
    const end = Math.min(to === undefined ? Number.POSITIVE_INFINITY : Number(to), client.now());
    const interval = String(base.interval ?? (params.interval as { default?: string } | undefined)?.default ?? 'day');
    let from = base.from;
    let newest = Number.NEGATIVE_INFINITY;
    const held = new Set<number>();
    const unreadable: PlacedByTime<RejectedItem>[] = [];
    for (let i = 0; i < MAX_PAGES && items.length < max; i++) {
      const a = await client.request(canonicalRequest(name, req.id, { ...base, from }), asked);
      answers.push(a);
      const page = a.entry.data as Timed[];
      const fresh = unheld(page, held);
      const carried = a.entry.rejected?.length ?? 0;
      items.push(...fresh);
      unreadable.push(...placedByTime(page, a.entry.rejected ?? []));
      if (page.length + carried < limit || fresh.length + carried === 0) break;
      const pageNewest = newestTime(page);
      // A page reaching no later than the one before it would ask the same `from` again.
      if (pageNewest <= newest) break;
      newest = pageNewest;
      from = nextPeriodStart(interval, newest);
      if (from > end) break;
    }
    (items as Timed[]).sort((x, y) => x.time - y.time);
    rejected.push(...indexedByTime(items as Timed[], unreadable));
  } else {
    return once();
  }
  if (answers.length === 0) return once();
  let moved: ListMoved | undefined;
  if (spec.paging !== 'time') {
    // One moment's list: pages of different ages, or repeating each other, read again once (list-pages.ts).
    const keyOf = rowKeyOf(name);
    const again = keyOf && pages.length > 1 ? pagesToReread(pages.map((p) => answers[p.answer]), keyOf) : new Set<number>();
    await Promise.all(
      [...again].map(async (i) => {
        const p = pages[i];
        try {
          const a = await client.request(canonicalRequest(name, req.id, p.query), { ...asked, force: true });
          // A stand-in for a failed read, or no list: the page as read first stands (a repeat left is said below).
          if (!a.stale && Array.isArray(a.entry.data)) answers[p.answer] = a;
        } catch (e) {
          if (hasCode(e, 'ABORTED')) throw e;
        }
      }),
    );
    const joined = joinPages(pages.map((p) => answers[p.answer]), keyOf, req.takeWhile);
    items.push(...joined.items);
    rejected.push(...joined.rejected);
    if (joined.repeated > 0 && joined.firstRepeatAt < max) moved = { repeated: joined.repeated, at: joined.firstRepeatAt };
  }
  const last = answers[answers.length - 1];
  const out: PagedFetched<EndpointData<N>> = {
    data: (Array.isArray(last.entry.data) ? items.slice(0, max) : last.entry.data) as EndpointData<N>,
    meta: last.entry.meta,
    stale: answers.some((a) => a.stale),
    fetchedAt: Math.min(...answers.map((a) => a.entry.fetchedAt)),
    fromCache: answers.every((a) => a.fromCache),
  };
  // Cells reading the same pages in flight share their charge: the first is charged the list's credits, the others
  // read it as another cell's answer (Fetched.charged; review 2026-11-27: supply #1, for lists read page by page).
  const fresh = answers.filter((a) => !a.fromCache && !a.stale);
  if (fresh.length > 0 && fresh.every((a) => a.charged)) out.charged = fresh[0].charged;
  // Unreadable items count toward maxItems as the rows they will be shown as.
  const kept = rejected.filter((r) => r.index < max);
  if (kept.length > 0) {
    out.rejected = kept;
    out.data = (out.data as unknown[]).slice(0, Math.max(0, max - kept.length)) as EndpointData<N>;
  }
  if (moved) out.moved = moved;
  return out;
}

