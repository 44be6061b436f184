/**
 * The "current" market for one clock hour: every listed coin's price, 24h figures,
 * percent changes, supply, market cap and rank, plus the totals. Built once per hour
 * bucket (cached) so a markets page is only a slice of precomputed, sorted states.
 */
import type { Lifecycle } from './universe';
import { dayIndex, hourIndex, hourStart, periodStart, dayStart } from './calendar';
import { eurPerUsd } from './fx';
import { HI, LO, VOL, type PriceSeries } from './series';
import type { Coin, Universe } from './universe';

export interface PercentChanges {
  h24: number | null;
  d7: number | null;
  d30: number | null;
  m3: number | null;
  ytd: number | null;
}

export interface CoinState {
  coin: Coin;
  price: number;
  /** Price at the end of the hour bucket 24 h before the current one (null before listing). */
  price24hAgo: number | null;
  change: PercentChanges;
  high24h: number;
  low24h: number;
  volume24h: number;
  circ: number;
  /** Circulating supply on the day 24 h ago (for the 24h market cap change). */
  circ24hAgo: number;
  total: number;
  max: number | null;
  mcap: number;
  fdv: number;
  rank: number | null;
}

export interface Snapshot {
  /** Hour bucket index (from EPOCH) and its start. */
  H: number;
  hourStartMs: number;
  today: number;
  /** Hour within today of the current bucket. */
  hour: number;
  /** Effective lifecycle per coin index. */
  lifecycle: Lifecycle[];
  /** State of each traded, listed coin, by coin index. */
  states: (CoinState | undefined)[];
  /** Ranked coins (traded, listed, not ETF), rank order. */
  ranked: CoinState[];
  /** All traded coins: ranked ones, then unranked (ETFs) by id. */
  traded: CoinState[];
  /** Sum of ranked coins' market caps now and 24 h ago (same coins, price and supply then). */
  totalMcap: number;
  totalMcap24hAgo: number;
  totalVolume: number;
  /** EUR per USD today. */
  eur: number;
  /** Memo for derived, per-snapshot results (sorted orders, built pages). */
  memo: Map<string, unknown>;
}

const pct = (ref: number | null, cur: number): number | null => (ref === null || ref === 0 ? null : (cur / ref - 1) * 100);

/** Effective lifecycle on day `today`: a traded coin not listed yet is `scheduled`. */
export function effectiveLifecycle(c: Coin, today: number): Lifecycle {
  if (c.lifecycle === 'traded' && (c.startDay === null || c.startDay > today)) return 'scheduled';
  return c.lifecycle;
}

export function buildSnapshot(u: Universe, series: PriceSeries, now: number): Snapshot {
  const H = hourIndex(now);
  const today = Math.floor(H / 24);
  const hour = H - today * 24;
  const states: (CoinState | undefined)[] = new Array(u.coins.length);
  const lifecycle: Lifecycle[] = u.coins.map((c) => effectiveLifecycle(c, today));
  const yearStartDay = dayIndex(periodStart(dayStart(today), 'year'));
  const listed: CoinState[] = [];
  for (const c of u.coins) {
    if (lifecycle[c.index] !== 'traded') continue;
    const start = c.startDay!;
    const price = series.priceAtHour(c, H);
    const at = (hoursBack: number): number | null => {
      const h = H - hoursBack;
      return Math.floor(h / 24) >= start ? series.priceAtHour(c, h) : null;
    };
    const price24hAgo = at(24);
    const todayPath = series.dayPath(c, today);
    let hi = -Infinity;
    let lo = Infinity;
    let vol = 0;
    for (let i = 0; i <= hour; i++) {
      if (todayPath[HI + i] > hi) hi = todayPath[HI + i];
      if (todayPath[LO + i] < lo) lo = todayPath[LO + i];
      vol += todayPath[VOL + i];
    }
    if (hour < 23 && today - 1 >= start) {
      const y = series.dayPath(c, today - 1);
      for (let i = hour + 1; i < 24; i++) {
        if (y[HI + i] > hi) hi = y[HI + i];
        if (y[LO + i] < lo) lo = y[LO + i];
        vol += y[VOL + i];
      }
    }
    const circ = series.circ(c, today);
    const total = series.totalSupply(c, today);
    const max = series.maxSupply(c);
    const ytdRef = yearStartDay >= start ? series.close(c, yearStartDay - 1) : null;
    const s: CoinState = {
      coin: c,
      price,
      price24hAgo,
      change: { h24: pct(price24hAgo, price), d7: pct(at(24 * 7), price), d30: pct(at(24 * 30), price), m3: pct(at(24 * 90), price), ytd: pct(ytdRef, price) },
      high24h: hi,
      low24h: lo,
      volume24h: vol,
      circ,
      circ24hAgo: series.circ(c, Math.floor((H - 24) / 24)),
      total,
      max,
      mcap: price * circ,
      fdv: price * (max ?? total),
      rank: null,
    };
    states[c.index] = s;
    listed.push(s);
  }
  const ranked = listed.filter((s) => s.coin.type !== 'etf').sort((a, b) => b.mcap - a.mcap || a.coin.id - b.coin.id);
  ranked.forEach((s, i) => (s.rank = i + 1));
  const unranked = listed.filter((s) => s.coin.type === 'etf').sort((a, b) => a.coin.id - b.coin.id);
  let totalMcap = 0;
  let totalMcap24hAgo = 0;
  let totalVolume = 0;
  for (const s of ranked) {
    totalMcap += s.mcap;
    totalVolume += s.volume24h;
    totalMcap24hAgo += (s.price24hAgo ?? s.price) * s.circ24hAgo;
  }
  return {
    H,
    hourStartMs: hourStart(H),
    today,
    hour,
    lifecycle,
    states,
    ranked,
    traded: [...ranked, ...unranked],
    totalMcap,
    totalMcap24hAgo,
    totalVolume,
    eur: eurPerUsd(u.seed, today),
    memo: new Map(),
  };
}
