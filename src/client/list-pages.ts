/**
 * One list from pages read at different times (getPages in paging.ts, offset-
 * and page-numbered lists): which row is which, which pages to read again, and
 * the joined list with every row once.
 *
 * Why: each page is its own cached request, so a multi-page list can join a page
 * cached by PRICE cells or an earlier formula with one fetched now. The service
 * re-ranks continuously (the emulator hourly), and a coin that moved across the
 * boundary in between showed twice while another was missing, with no sign
 * (review-r3 #12: MARKETS(500) after MARKETS(250) 30 s apart). A list answer
 * never holds a row twice (Bloomberg BDS, Excel's STOCKHISTORY neither), so a
 * repeat is the mark of pages of different moments.
 */
import type { RejectedItem } from '../api/read-data';
import type { EndpointName } from '../api/endpoints';
import type { Answer } from './types';

/**
 * Pages whose fetch times differ by more than this are of different moments.
 * guess: "a few seconds", the brief's figure; a read of up to 20 markets pages at
 * once (no pacing wait) lands well within it, and the live list's re-ranking is
 * not documented finer than "continuously".
 */
export const PAGE_SKEW_MS = 5_000;

/** What a row is filed under, per paged list; a list not here is joined as it comes. */
type RowKey = (item: unknown) => string | number | undefined;
const field = (name: string): RowKey => (x) => {
  const v = (x as Record<string, unknown> | null)?.[name];
  return typeof v === 'number' || typeof v === 'string' ? v : undefined;
};
// A coin can unlock on several days; one entry per coin and day (spec, "Currency upcoming token unlock
// item": "several events on the same day for one coin are aggregated into one entry").
const unlockKey: RowKey = (x) => {
  const id = field('id')(x);
  const time = field('time')(x);
  return id === undefined || time === undefined ? undefined : `${id}@${time}`;
};
const ROW_KEYS: Partial<Record<EndpointName, RowKey>> = {
  markets: field('id'),
  currencyList: field('id'),
  holders: field('address'),
  upcomingUnlocks: unlockKey,
  tokenUnlocks: unlockKey, // the same records (variants.ts renames currencyId/date)
};

export function rowKeyOf(name: EndpointName): RowKey | undefined {
  return ROW_KEYS[name];
}

/** The page's readable items (an answer whose data is no list: none). */
const itemsOf = (a: Answer): readonly unknown[] => (Array.isArray(a.entry.data) ? a.entry.data : []);

/**
 * The pages (indexes) to read again, bypassing the cache, so the list is of one
 * moment: a page served from the cache more than PAGE_SKEW_MS older than the
 * newest page, and, where a later page repeats a row of an earlier one, the older
 * of the two. Pages this call fetched are otherwise kept: reading them again
 * would be as far apart (the pacer's waits) and cost a credit each for nothing
 * seen wrong. Stale stand-ins are never asked again: their request just failed.
 */
export function pagesToReread(pages: readonly Answer[], keyOf: RowKey): Set<number> {
  const again = new Set<number>();
  const at = (i: number) => pages[i].entry.fetchedAt;
  const newest = Math.max(...pages.map((a) => a.entry.fetchedAt));
  pages.forEach((a, i) => {
    if (a.fromCache && !a.stale && at(i) < newest - PAGE_SKEW_MS) again.add(i);
  });
  const firstOn = new Map<string | number, number>();
  pages.forEach((a, j) => {
    for (const x of itemsOf(a)) {
      const k = keyOf(x);
      if (k === undefined) continue;
      const i = firstOn.get(k);
      if (i === undefined) firstOn.set(k, j);
      else if (i !== j) {
        const older = at(i) <= at(j) ? i : j;
        if (!pages[older].stale) again.add(older);
      }
    }
  });
  return again;
}

/** The joined list: readable items and unreadable ones at their places in it, and the rows left out as repeats. */
export interface JoinedPages {
  items: unknown[];
  rejected: RejectedItem[];
  /** Rows left out because an earlier page had them (0: none). */
  repeated: number;
  /** The place in the joined list of the first row left out (-1: none). */
  firstRepeatAt: number;
}

/**
 * The pages' items in page order, each row once (the first kept), the pages'
 * unreadable items at their places among them (RejectedItem.index: place in the
 * joined list). `takeWhile` ends the list at the first item it rejects.
 */
export function joinPages(pages: readonly Answer[], keyOf: RowKey | undefined, takeWhile?: (item: unknown) => boolean): JoinedPages {
  const out: JoinedPages = { items: [], rejected: [], repeated: 0, firstRepeatAt: -1 };
  const seen = new Set<string | number>();
  let place = 0;
  for (const a of pages) {
    const data = itemsOf(a);
    const bad = [...(a.entry.rejected ?? [])].sort((x, y) => x.index - y.index);
    let d = 0;
    let b = 0;
    // Positions in the page's answer: an unreadable item at its index, readable ones in order around them.
    for (let pos = 0; d < data.length || b < bad.length; pos++) {
      if (b < bad.length && (bad[b].index === pos || d >= data.length)) {
        out.rejected.push({ ...bad[b++], index: place++ });
        continue;
      }
      const x = data[d++];
      if (takeWhile && !takeWhile(x)) return out;
      const k = keyOf?.(x);
      if (k !== undefined) {
        if (seen.has(k)) {
          out.repeated++;
          if (out.firstRepeatAt < 0) out.firstRepeatAt = place;
          continue;
        }
        seen.add(k);
      }
      out.items.push(x);
      place++;
    }
  }
  return out;
}
