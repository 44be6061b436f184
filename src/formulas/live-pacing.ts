/**
 * How often LIVEPRICE's poller (price-stream.ts) may tick: the floor, the largest of:
 * - the client's live freshness: the client has no way to ask for a quote
 *   fresher than its cache, so a tick sooner than that would only re-read the
 *   cache (ticks are scheduled from the END of the previous one, so the cached
 *   page has always expired by the next tick);
 * - the plan's rate: streaming may use at most `rateShare` (¼) of the plan's
 *   requests per minute, given the requests one tick needs (one per markets
 *   page the subscribed coins sit on, one per unlisted coin);
 * - the daily credits: streaming may use at most `dailyShare` (¼) over 24 h
 *   of the plan's daily credits or of the user's daily credit budget
 *   (Settings), whichever is lower (a EUR page costs 2 credits). The budget is
 *   there to keep the workbook's other formulas answering: the README promises
 *   "a daily credit budget after which formulas stop calling the API and say
 *   so", and a stream paced by the plan alone (one credit a minute on Pro) spent
 *   a 50-credit budget in 50 minutes, after which every other formula was
 *   refused for the rest of the UTC day. With the budget in the pacing, three
 *   quarters of it stay for the rest of the workbook.
 * Each subscription is then polled no more often than max(its interval, floor).
 */
import { DAY_MS } from '../api/utc-day';
import { ENDPOINTS, creditCost, type ConvertCurrency } from '../api/endpoints';
import type { CallTarget } from '../client/call-client';
import { WINDOW_MS } from '../client/pacer';
import { dailyCreditsToPace, rateToPace } from '../client/plan-gate';
import { isApiCurrency } from './currency';
import { MAX_INTERVAL_SECONDS, type LiveArgs } from './live';

/** What the poller needs of the client (MarketClient has it): quotes, and the fiat list for other currencies, through a client bound to LIVEPRICE and the stream's signal. */
export interface LiveClient extends CallTarget {
  /** The pacer's requests/minute before /v3/status was read. */
  readonly rateLimitPerMinute?: number;
  /** The user's daily credit budget (MarketClient.dailyBudget; null or absent: none). */
  readonly dailyBudget?: number | null;
}

/**
 * The daily credits streaming takes its share of: the plan's (dailyCreditsToPace),
 * or the user's daily credit budget where that is lower (the budget protects the
 * workbook's other formulas: see the pacing rules above). 0: no credits to spend.
 */
export function creditsToPace(plan: Parameters<typeof dailyCreditsToPace>[0], budget: number | null): number {
  const daily = dailyCreditsToPace(plan);
  return budget === null ? daily : Math.min(daily, Math.max(0, budget));
}

/** The shares of the plan streaming may use, and the client's live freshness (PriceStreamOptions). */
export interface LivePacing {
  freshnessMs: number;
  rateShare: number;
  dailyShare: number;
}

/** A subscription as the pacing counts it: its key, arguments and the rank its last quote gave. */
export interface PacedSubscription {
  readonly key: string;
  readonly args: LiveArgs;
  readonly rank: number | null | undefined;
}

/** Requests and credits one tick over these subscriptions needs (estimated from the coins' ranks). */
export function tickCost(subs: Iterable<PacedSubscription>): { requests: number; credits: number } {
  const pages = new Set<string>();
  let requests = 0;
  let credits = 0;
  let fiatList = false;
  for (const s of subs) {
    // Other fiat currencies read the USD pages and the fiat list (1 request a tick).
    const convert: ConvertCurrency = s.args.currency === 'EUR' ? 'EUR' : 'USD';
    if (!isApiCurrency(s.args.currency) && !fiatList) {
      fiatList = true;
      requests++;
      credits += creditCost('fiatList', {});
    }
    if (s.rank === null) {
      requests++;
      credits += creditCost('profile', { convert }); // an unlisted coin: its profile
      continue;
    }
    const page = s.rank === undefined ? `?${s.key}` : `${convert}:${Math.floor((s.rank - 1) / ENDPOINTS.markets.pageSize)}`;
    if (pages.has(page)) continue;
    pages.add(page);
    requests++;
    credits += creditCost('markets', { convert });
  }
  return { requests, credits };
}

/** The shortest time between polls the plan affords for a tick of this cost (ms, whole seconds). */
export function pollFloorMs(client: LiveClient, pacing: LivePacing, tick: { requests: number; credits: number }): number {
  const plan = client.meter.snapshot().plan;
  const rpm = plan ? rateToPace(plan) : client.rateLimitPerMinute ?? rateToPace(null);
  const daily = creditsToPace(plan, client.dailyBudget ?? null);
  const { requests, credits } = tick;
  const rateFloor = rpm > 0 ? (Math.max(1, requests) * WINDOW_MS) / (rpm * pacing.rateShare) : Infinity;
  const creditFloor = daily > 0 ? (Math.max(1, credits) * DAY_MS) / (daily * pacing.dailyShare) : Infinity;
  const floor = Math.max(pacing.freshnessMs, rateFloor, creditFloor);
  return Number.isFinite(floor) ? Math.ceil(floor / 1000) * 1000 : MAX_INTERVAL_SECONDS * 1000;
}
