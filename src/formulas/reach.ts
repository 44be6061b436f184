/**
 * How far back a history formula's answer reaches, and what the cell says when the range asked
 * is not covered: never a silent partial or empty answer. One rule per case:
 *
 * | case                                                              | the cell                                            |
 * |-------------------------------------------------------------------|-----------------------------------------------------|
 * | SPARKLINE: start before the plan's documented depth, plan known   | #N/A naming the reach, no request (sparklineReach)  |
 * | SPARKLINE: the plan is not one the table knows                    | sent; a 403 PLAN_LIMIT_EXCEEDED → the same #N/A     |
 * | OHLCV hourly: the answer starts later than asked (another UTC day) | #N/A naming the reach the answer shows              |
 * |   and the coin's history does not (checked: firstDailyCandle)      |                                                     |
 * | OHLCV hourly: the first candle is on the start's UTC day           | the answer (the reach counts hours, a start is a day)|
 * | OHLCV: 403 PLAN_LIMIT_EXCEEDED                                    | #N/A with the service's words and the way out       |
 * | OHLCV/SPARKLINE: the whole range before the coin's history        | #N/A "no bitcoin candles between A and B; its       |
 * |                                                                   | history starts D" (one 1-credit request finds D)    |
 * | HISTORICAL: no item for a day before the coin's history           | #N/A "no Bitcoin data on A; its history starts D"   |
 * |                                                                   | (the same request, made on that failure only)       |
 * | the range starts before the coin's history and ends after it      | partial: from its first candle, as STOCKHISTORY     |
 * | OHLCV daily/weekly/monthly: the answer starts later than asked     | partial, read as the history start (see below)      |
 * | the range ends after now                                          | up to the current, incomplete candle                |
 *
 * Why these:
 * - The plan is a hint; the service is the judge. Only the price-and-volume chart's depth is
 *   documented per plan (CHART_DEPTH_DAYS, [doc]); it alone is refused before a request. The
 *   hourly candles' depth is not documented: the request goes as asked, and the answer shows
 *   where the service's hours start. guess: the daily candles (`/historical`) have no plan depth;
 *   if the service cut them, a later first candle would read as the coin's history start.
 * - A start before a coin's first day: Excel's STOCKHISTORY takes start_date as "the earliest date
 *   for which data is retrieved" and answers the days it has (support.microsoft.com/office,
 *   "STOCKHISTORY function"); OHLCV does the same, and its help page says so. A start before the
 *   plan's reach is another thing: the data exists and the key cannot have it, so a partial
 *   answer would pass for the whole series. That is #N/A with the way out.
 */
import { dayOf, isoDay } from '../api/utc-day';
import { chartDepthDays, chartReachStart } from '../api/endpoints';
import type { Candle } from '../api/records';
import { isDepthLimit } from '../client/api-error';
import { formulaError } from './cells';
import type { FormulaContext } from './formula-context';


/** "30 days", "1 year", "2 years", "the full history". */
export function depthWords(days: number): string {
  if (days === Infinity) return 'the full history';
  if (days >= 365 && days % 365 === 0) return days === 365 ? '1 year' : `${days / 365} years`;
  return `${days} day${days === 1 ? '' : 's'}`;
}

/** The plan /v3/status named, when the client has read it. */
export function planName(ctx: FormulaContext): string | undefined {
  return ctx.client.meter.snapshot().plan?.plan;
}

// ---------------------------------------------------------------- SPARKLINE (documented depth)

/** The sparkline's points at an interval, in words. */
const pointsOf = (interval: string) => (interval === '1d' ? 'Daily points' : '5m, 15m and 1h points');

/** The #N/A of a sparkline range deeper than the plan: the reach, from which day, and the way out. */
export function sparklineReachMessage(plan: string, interval: string, now: number): string {
  const days = chartDepthDays(plan, interval);
  if (days === null) {
    return `CRYPTO.SPARKLINE: the service refused a range this deep on this key (how far back it reaches depends on the plan); ask for a later start${interval === '1d' ? '' : ' or the 1d interval'}`;
  }
  const daily = chartDepthDays(plan, '1d');
  const wayOut = interval === '1d' || daily === null ? 'ask for a later start' : `ask for a later start, or the 1d interval (${depthWords(daily)} on this plan)`;
  return `CRYPTO.SPARKLINE: ${pointsOf(interval)} reach back ${depthWords(days)} on the ${plan} plan (from ${isoDay(chartReachStart(days, now))}); ${wayOut}`;
}

/** Refuses, before a request, a sparkline start deeper than the plan's documented reach; a plan the table does not know goes to the service. */
export function checkSparklineReach(plan: string | undefined, interval: string, start: number, now: number): void {
  const days = plan ? chartDepthDays(plan, interval) : null;
  if (plan && days !== null && start < chartReachStart(days, now)) throw formulaError('PLAN_LIMIT_EXCEEDED', sparklineReachMessage(plan, interval, now));
}

// ---------------------------------------------------------------- OHLCV (depth judged from the answer)

export type CandleInterval = 'day' | 'week' | 'month' | 'hour';
const CANDLES: Record<CandleInterval, string> = { day: 'daily candles', week: 'weekly candles', month: 'monthly candles', hour: 'hourly candles' };

/** The query of a reach check (below): one candle. */
const ONE = '1';

/**
 * Whether a request is one of this module's checks on an answer that did not cover its range
 * (a single candle from the start asked): made only after such an answer, so the builder's dry
 * run, whose answers are all empty, ends there rather than pricing it (taskpane/builder-dry-run.ts).
 */
export function isReachCheck(endpoint: string, query: Readonly<Record<string, unknown>> | undefined): boolean {
  return (endpoint === 'candles' || endpoint === 'ohlcv') && query?.limit === ONE;
}

/**
 * The first daily candle at or after `from` (one request of one candle, 1 credit): where a coin's history starts when
 * it starts later. null: none. Cached a day, as reference data (canonical-request.ts freshnessOf): the day it finds does
 * not move (review 2026-11-27: history #5).
 */
async function firstDailyCandle(ctx: FormulaContext, id: number, from: number): Promise<number | null> {
  const res = await ctx.client.get('candles', { id, query: { from: new Date(from).toISOString(), limit: ONE } });
  return res.data[0]?.time ?? null;
}

/**
 * The first hourly candle the service gives from `from` on (1 credit): where its hours start for this key. null: none.
 * Kept an hour (canonical-request.ts freshnessOf, class `window`): live, a cell asking hours before the reach paid it
 * on every recalculation a minute apart; the reach moves an hour per hour (review 2026-11-27: hourly reach check).
 */
async function firstHourlyCandle(ctx: FormulaContext, id: number, from: number): Promise<number | null> {
  const res = await ctx.client.get('ohlcv', { id, query: { from: new Date(from).toISOString(), limit: ONE } });
  return res.data[0]?.time ?? null;
}

const WAY_OUT = 'ask for a later start or a daily interval';

/** "hourly candles reach back 30 days on the Pro plan (from 2026-02-13); ask for …". */
export function hourlyReachMessage(plan: string | undefined, firstHour: number, now: number): string {
  const days = dayOf(now) - dayOf(firstHour);
  return `Hourly candles reach back ${depthWords(days)} on ${plan ? `the ${plan} plan` : 'this key'} (from ${isoDay(firstHour)}); ${WAY_OUT}`;
}

/** "no bitcoin candles between 1990-01-01 and 1990-02-01; its history starts 2013-04-28". */
export function noHistoryMessage(name: string, span: { start: number; end: number }, historyStart: number | null): string {
  const between = `No ${name} candles between ${isoDay(span.start)} and ${isoDay(span.end - 1)}`;
  return historyStart === null ? `${between}; the service has none from ${isoDay(span.start)} on` : `${between}; its history starts ${isoDay(historyStart)}`;
}

/**
 * HISTORICAL found no item for `day` (NOT_FOUND): when the coin's daily history starts later,
 * the cell says when, as OHLCV's does (one 1-credit request, on this failure only); else the
 * service's own "no data" stands.
 */
export async function noHistoricalDay(ctx: FormulaContext, coin: { id: number; name: string }, day: number, notFound: unknown): Promise<never> {
  const start = await firstDailyCandle(ctx, coin.id, day).catch(() => null);
  if (start !== null && dayOf(start) > dayOf(day)) throw formulaError('NOT_FOUND', `No ${coin.name} data on ${isoDay(day)}; its history starts ${isoDay(start)}`);
  throw notFound;
}

/**
 * Checks that candles answered for `span` cover it as the rule table above says; throws the
 * #N/A when they do not. `rows` oldest first. Costs a request only when the answer starts later
 * than asked (or is empty) and the reason is not plain from the answer.
 */
export async function checkCandleReach(
  ctx: FormulaContext,
  coin: { id: number; name: string },
  interval: CandleInterval,
  span: { start: number; end: number },
  rows: readonly Candle[],
): Promise<void> {
  const first = rows[0]?.time;
  // The candle containing the start opens at or before it.
  if (first !== undefined && first <= span.start) return;
  if (interval === 'hour' && first !== undefined && dayOf(first) === dayOf(span.start)) return;
  // Daily and longer candles starting later: the coin's first period (STOCKHISTORY's partial answer).
  if (interval !== 'hour' && first !== undefined) return;
  const historyStart = await firstDailyCandle(ctx, coin.id, span.start);
  if (historyStart === null || historyStart >= span.end) throw formulaError('NOT_FOUND', noHistoryMessage(coin.name, span, historyStart));
  if (interval !== 'hour') throw formulaError('NOT_FOUND', `No ${CANDLES[interval]} for ${coin.name} from ${isoDay(span.start)} to ${isoDay(span.end - 1)}`);
  // Hourly: its hours start on or after the coin's first day: the history start, a partial answer.
  if (first !== undefined && dayOf(first) <= dayOf(historyStart)) return;
  const firstHour = first ?? (await firstHourlyCandle(ctx, coin.id, span.start));
  if (firstHour === null || firstHour < span.start) {
    // The coin has history there and this key gets none of its hours: the key's reach, as below.
    throw formulaError('PLAN_LIMIT_EXCEEDED', `No hourly candles for ${coin.name} between ${isoDay(span.start)} and ${isoDay(span.end - 1)} on this key, though its history starts ${isoDay(historyStart)}; ${WAY_OUT}`);
  }
  throw formulaError('PLAN_LIMIT_EXCEEDED', hourlyReachMessage(planName(ctx), firstHour, ctx.now()));
}

/** The service refused a candle range as deeper than the plan (403 PLAN_LIMIT_EXCEEDED, [doc]): said with the way out. */
export function candleRefusal(e: unknown, interval: CandleInterval, ctx: FormulaContext): unknown {
  // A credit limit is PLAN_LIMIT_EXCEEDED too: its own words already say so.
  if (!isDepthLimit(e)) return e;
  const plan = planName(ctx);
  return formulaError('PLAN_LIMIT_EXCEEDED', `${CANDLES[interval][0].toUpperCase()}${CANDLES[interval].slice(1)} do not reach back that far on ${plan ? `the ${plan} plan` : 'this key'} (the service: ${e.message.replace(/^[A-Za-z]+: /, '').replace(/\.$/, '')}); ${interval === 'hour' ? WAY_OUT : 'ask for a later start'}`);
}
