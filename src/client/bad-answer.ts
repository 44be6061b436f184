/**
 * A bad answer never outlives itself in the cache: an answer the caller finds
 * bad (an empty first markets page, items that could not be read) that the
 * response cache still holds as fresh is asked again, once, past the cache.
 * A fresh one from the service is the service's word and stands. One rule for
 * the markets pages (batch-fetch.ts), the list of currencies (list-quotes.ts)
 * and historical items (historical-batcher.ts).
 */
import type { CanonicalRequest } from './canonical-request';
import type { Answer, CallOptions, Requester } from './types';

export async function askPastBadAnswer(requester: Requester, cr: CanonicalRequest, o: CallOptions, bad: (a: Answer) => boolean): Promise<Answer> {
  const a = await requester.request(cr, o);
  if (!a.fromCache || a.stale || !bad(a)) return a;
  return requester.request(cr, { ...o, force: true });
}
