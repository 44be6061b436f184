/**
 * A bad answer never outlives its recalculation: an answer the caller finds
 * bad (an empty first markets page, items that could not be read) that the
 * response cache still holds as fresh is asked again, once, past the cache,
 * but only once it is older than BAD_ANSWER_SHARED_MS. Younger, it stands:
 * Excel evaluates a recalculation's cells at once, and each batch reading it
 * again forced cost a request (and a credit) per reader; its readers share the
 * first reader's outcome. A fresh one from the service is the service's word
 * and stands. One rule for the markets pages (batch-fetch.ts), the list of
 * currencies (list-quotes.ts) and historical items (historical-batcher.ts).
 */
import type { CanonicalRequest } from './canonical-request';
import type { Answer, CallOptions, Requester } from './types';
import { within } from './clock';

/**
 * How long a bad answer is shared by its readers (ms). A recalculation's cells
 * come within a second or so (a slow fill's stragglers a little later); the
 * next one a user starts (an edit, Refresh) comes seconds later and asks again.
 * A reader past it re-asks once for everyone after it: at most one request per
 * this span, against one per reader before.
 */
export const BAD_ANSWER_SHARED_MS = 5_000;

/** Whether a bad answer fetched at `fetchedAt` (the requester's clock, as CacheEntry.fetchedAt is) still stands for its readers. */
export function badAnswerShared(requester: Requester, fetchedAt: number): boolean {
  return within(requester.now(), fetchedAt, BAD_ANSWER_SHARED_MS);
}

export async function askPastBadAnswer(requester: Requester, cr: CanonicalRequest, o: CallOptions, bad: (a: Answer) => boolean): Promise<Answer> {
  const a = await requester.request(cr, o);
  if (!a.fromCache || a.stale || !bad(a) || badAnswerShared(requester, a.entry.fetchedAt)) return a;
  return requester.request(cr, { ...o, force: true });
}
