/**
 * The handler per data endpoint: read the query (defaults from the endpoint table),
 * take the hour's snapshot, call the domain module.
 *
 * Ranges: `to` defaults to now and is clamped to now; `from` after (clamped) `to` is an
 * InvalidRequestError. Charts (fear & greed, altcoin index, dominance, TVL) have one point
 * per day from the day containing `from` to the day containing `to`; the TVL chart's optional
 * `from` defaults to 30 days before `to`. Hourly OHLCV covers at most the last 720 hour
 * buckets (30 days, guess: no public page gives the hourly candles' depth): an earlier `from`
 * is moved forward, silently (the client must notice: src/formulas/reach.ts). The sparkline's
 * depth is the documented table (CHART_DEPTH_DAYS): a deeper `from` is 403 PLAN_LIMIT_EXCEEDED
 * ([doc]: "a history range deeper than the plan allows").
 */
import type { DataEndpointName, Handler, HandlerRequest, HandlerResult } from '../contract';
import { InvalidRequestError, PlanLimitError } from '../contract';
import { chartDepthDays, chartReachStart } from '../../api/endpoints';
import { DAY, HOUR, dayIndex, hourIndex, type Period } from './calendar';
import { candleList, hourlyCandles, periodBars, sparkline, type SparkInterval } from './candles';
import { blockchain, blockchainList, blockchainMap, chainOf, tvlChange, tvlChart } from './chains';
import type { Market } from './context';
import { price as fmtPrice, round4 } from './decimal';
import { fiatList } from './fx';
import { historicalItems } from './history';
import { holders, holdersSummary } from './holders';
import {
  altcoinPoint, altcoinSnapshot, derivatives, dominancePoint, dominanceSnapshot, fearGreedPoint, fearGreedSnapshot, globalMarket,
  type DominanceGroup,
} from './indices';
import { currencyList, currencyMap, gainersLosers, markets, search, trending } from './listings';
import { contracts, performance, profile } from './profile';
import { allocations, tokenomics, tokenUnlocks, upcomingUnlocks, vcPressure, type UnlocksFilter } from './supply';
import { boolParam, idsParam, intParam, numberParam, param, timeParam } from './query';

/** [from, to] in epoch ms with to clamped to now; InvalidRequestError when from > to. */
function range(name: DataEndpointName, req: HandlerRequest, defaultSpanMs?: number): [number, number] {
  const to = Math.min(timeParam(name, req.query, 'to') ?? req.now, req.now);
  const from = timeParam(name, req.query, 'from') ?? to - (defaultSpanMs ?? 30 * DAY);
  if (from > to) throw new InvalidRequestError('from must not be after to');
  return [from, to];
}

function dailyChart<T>(name: DataEndpointName, req: HandlerRequest, point: (d: number) => T): HandlerResult {
  const [from, to] = range(name, req);
  const out: T[] = [];
  for (let d = Math.max(0, dayIndex(from)); d <= dayIndex(to); d++) out.push(point(d));
  return { data: out, buckets: out.length };
}

/** The window, filters and order both unlock lists take [doc]. */
function unlocksFilter(n: 'upcomingUnlocks' | 'tokenUnlocks', req: HandlerRequest): UnlocksFilter {
  const q = req.query;
  return {
    daysAhead: intParam(n, q, 'daysAhead')!,
    minUsdAmount: intParam(n, q, 'minUsdAmount'),
    minPercentOfMcap: numberParam(n, q, 'minPercentOfMcap'),
    sortBy: param(n, q, 'sortBy')!,
    sortOrder: param(n, q, 'sortOrder')!,
  };
}

export function createHandlers(m: Market): Record<DataEndpointName, Handler> {
  const snap = (req: HandlerRequest) => m.snapshot(req.now);
  return {
    currencyMap: () => ({ data: currencyMap(m) }),
    categories: () => ({ data: m.u.categories.map((c) => ({ ...c })) }),
    tags: () => ({ data: m.u.tags.map((t) => ({ ...t })) }),
    search: (req) => ({ data: search(m, snap(req), param('search', req.query, 'query') ?? '') }),
    currencyList: (req) => currencyList(m, snap(req), intParam('currencyList', req.query, 'page')!, idsParam('currencyList', req.query, 'currencyIds')),
    fiatList: (req) => ({ data: fiatList(m.seed, snap(req).today) }),
    markets: (req) => {
      const n = 'markets';
      const q = req.query;
      return markets(m, snap(req), {
        offset: intParam(n, q, 'offset')!,
        limit: intParam(n, q, 'limit')!,
        sortBy: param(n, q, 'sortBy')!,
        sortOrder: param(n, q, 'sortOrder')!,
        category: intParam(n, q, 'category'),
        tag: intParam(n, q, 'tag'),
        ecosystem: intParam(n, q, 'ecosystem'),
        lifecycle: param(n, q, 'lifecycle')!,
        convert: param(n, q, 'convert')!,
        sparkline: param(n, q, 'include') === 'sparkline7d',
      });
    },
    profile: (req) => {
      const s = snap(req);
      return { data: profile(m, s, m.coin(req.id), param('profile', req.query, 'convert') === 'EUR' ? s.eur : 1) };
    },
    contracts: (req) => ({ data: contracts(m, m.coin(req.id)) }),
    tokenomics: (req) => ({ data: tokenomics(snap(req), m.coin(req.id)) }),
    performance: (req) => ({ data: performance(m, snap(req), m.coin(req.id)) }),
    sparkline: (req) => {
      const n = 'sparkline';
      const s = snap(req);
      const interval = param(n, req.query, 'interval') as SparkInterval;
      // guess: without `from`, the last 7 days (168 hourly points at 1h)
      const [from, to] = range(n, req, 7 * DAY - HOUR);
      const depth = chartDepthDays(req.plan, interval) ?? Infinity;
      // guess: the words (the code is [doc]).
      if (from < chartReachStart(depth, req.now)) {
        throw new PlanLimitError(`Sparkline history deeper than the ${req.plan} plan allows (${depth} days at ${interval})`);
      }
      return { data: sparkline(m.series, m.coin(req.id), s, from, to, interval, param(n, req.query, 'sortOrder') === 'desc') };
    },
    trending: (req) => ({ data: trending(m, snap(req)) }),
    gainersLosers: (req) => {
      const n = 'gainersLosers';
      return { data: gainersLosers(m, snap(req), param(n, req.query, 'type')!, param(n, req.query, 'period')!, intParam(n, req.query, 'limit')!) };
    },
    derivatives: (req) => ({ data: derivatives(m, snap(req)) }),

    candles: (req) => {
      const c = m.coin(req.id);
      const [from, to] = range('candles', req);
      const interval = param('candles', req.query, 'interval') as Period;
      const data = candleList(m.series, c, interval, from, to, intParam('candles', req.query, 'limit')!, snap(req));
      return { data, buckets: data.length };
    },
    ohlcv: (req) => {
      const c = m.coin(req.id);
      const s = snap(req);
      const [from, to] = range('ohlcv', req);
      if (c.startDay === null || c.startDay > s.today) return { data: [], buckets: 0 };
      const data = hourlyCandles(m.series, c, Math.max(hourIndex(from), s.H - 719), hourIndex(to), intParam('ohlcv', req.query, 'limit')!);
      return { data, buckets: data.length };
    },
    returns: (req) => {
      const c = m.coin(req.id);
      const s = snap(req);
      const p = param('returns', req.query, 'period') ?? 'monthly';
      const period: Period = p === 'yearly' ? 'year' : p === 'quarterly' ? 'quarter' : 'month';
      const { bars } = periodBars(m.series, c, period, 0, req.now, Number.MAX_SAFE_INTEGER, s);
      return {
        data: bars.map(({ time, bar }) => ({
          date: new Date(time).toISOString(),
          closingPrice: fmtPrice(bar.c),
          pricePercentChange: round4(((bar.c - bar.o) / bar.o) * 100),
        })),
      };
    },
    historicalItem: (req) => {
      const n = 'historicalItem';
      const date = timeParam(n, req.query, 'date')!;
      return { data: historicalItems(m, snap(req), req.now, date, idsParam(n, req.query, 'currencyIds')!, param(n, req.query, 'convert')!) };
    },

    holders: (req) => holders(m, snap(req), m.coin(req.id), intParam('holders', req.query, 'page')!),
    holdersSummary: (req) => ({ data: holdersSummary(m, snap(req), m.coin(req.id)) }),
    vestingAllocations: (req) => ({ data: allocations(snap(req), m.coin(req.id), boolParam('vestingAllocations', req.query, 'includeUntracked')) }),
    vcPressure: (req) => ({ data: vcPressure(m, snap(req), m.coin(req.id)) }),
    upcomingUnlocks: (req) => {
      const n = 'upcomingUnlocks';
      return upcomingUnlocks(m, snap(req), { page: intParam(n, req.query, 'page')!, ...unlocksFilter(n, req) });
    },

    tokenUnlocks: (req) => {
      const n = 'tokenUnlocks';
      return tokenUnlocks(m, snap(req), intParam(n, req.query, 'offset')!, intParam(n, req.query, 'limit')!, unlocksFilter(n, req));
    },

    globalMarket: (req) => ({ data: globalMarket(m, snap(req)) }),
    fearGreed: (req) => ({ data: fearGreedSnapshot(m, snap(req).today) }),
    fearGreedChart: (req) => dailyChart('fearGreedChart', req, (d) => fearGreedPoint(m, d)),
    altcoinIndex: (req) => ({ data: altcoinSnapshot(m, snap(req)) }),
    altcoinIndexChart: (req) => {
      const s = snap(req);
      return dailyChart('altcoinIndexChart', req, (d) => altcoinPoint(m, s, d));
    },
    dominance: (req) => ({ data: dominanceSnapshot(m, snap(req)) }),
    dominanceChart: (req) => {
      const s = snap(req);
      const group = param('dominanceChart', req.query, 'group') as DominanceGroup;
      return dailyChart('dominanceChart', req, (d) => dominancePoint(m, s, d, group));
    },

    blockchainMap: () => ({ data: blockchainMap(m) }),
    blockchainList: (req) => ({ data: blockchainList(m, snap(req)), meta: { page: 1, pageSize: 100, hasNextPage: false } }),
    blockchain: (req) => ({ data: blockchain(m, snap(req), chainOf(m, req.id)) }),
    tvlChange: (req) => ({ data: tvlChange(m, chainOf(m, req.id), snap(req).today, param('tvlChange', req.query, 'period')!) }),
    tvlChart: (req) => {
      const c = chainOf(m, req.id);
      const [from, to] = range('tvlChart', req);
      const data = tvlChart(m, c, Math.max(0, dayIndex(from)), dayIndex(to));
      return { data, buckets: data.length };
    },

    personsMap: () => ({ data: m.u.persons.map((p) => ({ id: p.id, name: p.name, slug: p.slug })) }),
  };
}
