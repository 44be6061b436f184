/**
 * Global figures: the global market, the derivatives snapshot, Fear & Greed, the
 * Altcoin Season Index and dominance. Charts have one point per UTC day at 00:00;
 * today's point is the current value (computed from the hour's snapshot).
 */
import {
  ALTCOIN_SEASON_BANDS, FEAR_GREED_BANDS, classify,
  type AltcoinIndexSnapshot, type ChartAltcoinIndex, type ChartDominance, type ChartFearGreed, type DerivativesSnapshot,
  type DominanceSnapshot, type FearGreedSnapshot, type GlobalMarket,
} from '../../api/records';
import { dayStart } from './calendar';
import { BTC_ID, type Market } from './context';
import { round2, usd } from './decimal';
import { gauss4, hash4, hashText, unit4 } from './prng';
import type { Snapshot } from './snapshot';
import type { Coin } from './universe';

const FG_KEY = hashText('fear-greed');

export function globalMarket(m: Market, snap: Snapshot): GlobalMarket {
  const t = m.dayTotals(snap.today, snap);
  return {
    totalMarketCap: usd(t.total),
    totalVolume24h: usd(snap.totalVolume),
    btcMarketCap: usd(t.btc),
    ethMarketCap: usd(t.eth),
    activeCurrencies: snap.traded.length,
    activeTickers: snap.traded.length * 25 + (hash4(m.seed, FG_KEY, 1, snap.today) % 2000),
    activeExchanges: 280 + (hash4(m.seed, FG_KEY, 2, snap.today) % 20),
    marketCapChangePercent24h: round2((snap.totalMcap / snap.totalMcap24hAgo - 1) * 100),
  };
}

export function derivatives(m: Market, snap: Snapshot): DerivativesSnapshot {
  const perp = round2(86 + 8 * unit4(m.seed, FG_KEY, 3, snap.H));
  return {
    totalOpenInterest: usd(snap.totalMcap * (0.03 + 0.015 * unit4(m.seed, FG_KEY, 4, snap.H))),
    totalVolume24h: usd(snap.totalVolume * (2.5 + unit4(m.seed, FG_KEY, 5, snap.H))),
    perpetualShare: perp,
    futuresShare: round2(100 - perp),
    activeDerivativesExchangesCount: 80 + (hash4(m.seed, FG_KEY, 6, snap.today) % 20),
  };
}

// ---------------------------------------------------------------- fear & greed

/** Integer 0-100 from the market factor's 10-day momentum plus noise. */
export function fearGreedValue(m: Market, d: number): number {
  const momentum = m.series.market(d) - m.series.market(d - 10);
  const v = 50 + 48 * Math.tanh(8 * momentum) + 6 * gauss4(m.seed, FG_KEY, 7, d);
  return Math.max(0, Math.min(100, Math.round(v)));
}

export function fearGreedPoint(m: Market, d: number): ChartFearGreed {
  const value = fearGreedValue(m, d);
  return { time: dayStart(d), value, classification: classify(FEAR_GREED_BANDS, value) as ChartFearGreed['classification'] };
}

/** The current reading [inv, code]: today's point as a snapshot. */
export function fearGreedSnapshot(m: Market, today: number): FearGreedSnapshot {
  const p = fearGreedPoint(m, today);
  return { currentValue: p.value, classification: p.classification };
}

// ---------------------------------------------------------------- altcoin season

/** The altcoin set: the 50 largest coins by anchor-day market cap, excluding BTC, stablecoins and ETF/derivative kinds. */
export function altcoinSet(m: Market): Coin[] {
  let set = m.memo.get('altcoin-set') as Coin[] | undefined;
  if (!set) {
    set = m.u.coins
      .filter((c) => c.lifecycle === 'traded' && c.id !== BTC_ID && !c.price!.stable && (c.type === 'coin' || c.type === 'token'))
      .sort((a, b) => b.anchorCap - a.anchorCap || a.id - b.id)
      .slice(0, 50);
    m.memo.set('altcoin-set', set);
  }
  return set;
}

/**
 * Day d: value = % of the set's coins (listed 90 days before d) whose 90-day return beats
 * Bitcoin's, rounded to an integer; altcoinsMarketCap = the set's market cap on d (listed coins).
 * For today the current prices are used.
 */
export function altcoinPoint(m: Market, snap: Snapshot, d: number): ChartAltcoinIndex {
  const priceOn = (c: Coin, day: number): number => (day >= snap.today ? snap.states[c.index]!.price : m.series.close(c, day));
  const btc = m.coin(BTC_ID);
  const btcReturn = priceOn(btc, d) / m.series.close(btc, d - 90);
  let n = 0;
  let beat = 0;
  let cap = 0;
  for (const c of altcoinSet(m)) {
    if (c.startDay! > d || (d >= snap.today && !snap.states[c.index])) continue;
    const p = priceOn(c, d);
    cap += p * m.series.circ(c, Math.min(d, snap.today));
    if (c.startDay! > d - 90) continue;
    n++;
    if (p / m.series.close(c, d - 90) > btcReturn) beat++;
  }
  const value = n === 0 ? 50 : Math.round((100 * beat) / n);
  return {
    time: dayStart(d),
    value,
    altcoinsMarketCap: usd(cap),
    classification: classify(ALTCOIN_SEASON_BANDS, value) as ChartAltcoinIndex['classification'],
  };
}

/**
 * The current reading [doc]: today's value and classification, the highest and
 * lowest daily value of the last 365 days (the earliest day on a tie) and the
 * values 1, 7 and 30 days ago.
 */
export function altcoinSnapshot(m: Market, snap: Snapshot): AltcoinIndexSnapshot {
  const key = `altcoin-snapshot|${snap.H}`;
  const held = snap.memo.get(key) as AltcoinIndexSnapshot | undefined;
  if (held) return held;
  const today = altcoinPoint(m, snap, snap.today);
  let high = today;
  let low = today;
  for (let d = snap.today - 364; d < snap.today; d++) {
    const p = altcoinPoint(m, snap, d);
    if (p.value > high.value || (p.value === high.value && p.time < high.time)) high = p;
    if (p.value < low.value || (p.value === low.value && p.time < low.time)) low = p;
  }
  const out: AltcoinIndexSnapshot = {
    currentValue: today.value,
    classification: today.classification,
    yearlyHighValue: high.value,
    yearlyHighDate: new Date(high.time).toISOString(),
    yearlyLowValue: low.value,
    yearlyLowDate: new Date(low.time).toISOString(),
    yesterdayValue: altcoinPoint(m, snap, snap.today - 1).value,
    lastWeekValue: altcoinPoint(m, snap, snap.today - 7).value,
    lastMonthValue: altcoinPoint(m, snap, snap.today - 30).value,
  };
  snap.memo.set(key, out);
  return out;
}

// ---------------------------------------------------------------- dominance

export type DominanceGroup = 'btc' | 'eth' | 'usdt' | 'others';

/** dominance = the group's market cap / total market cap x 100, 2 decimals; others = 100 - BTC - ETH (rounded), as in the snapshot. */
export function dominancePoint(m: Market, snap: Snapshot, d: number, group: DominanceGroup): ChartDominance {
  const t = m.dayTotals(d, snap);
  const share = (x: number) => round2((x / t.total) * 100);
  const value = group === 'btc' ? share(t.btc) : group === 'eth' ? share(t.eth) : group === 'usdt' ? share(t.usdt)
    : round2(100 - share(t.btc) - share(t.eth));
  return { time: dayStart(d), dominance: value };
}

/** The snapshot [inv, code]: BTC, ETH and others now, and how much BTC's and ETH's shares changed over 24 h, in percent of themselves. */
export function dominanceSnapshot(m: Market, snap: Snapshot): DominanceSnapshot {
  const now = (g: DominanceGroup) => dominancePoint(m, snap, snap.today, g).dominance;
  const dayAgo = (g: DominanceGroup) => dominancePoint(m, snap, snap.today - 1, g).dominance;
  const change = (g: DominanceGroup) => round2((now(g) / dayAgo(g) - 1) * 100);
  return {
    btcDominance: now('btc'),
    btcDominanceChangePercent24h: change('btc'),
    ethDominance: now('eth'),
    ethDominanceChangePercent24h: change('eth'),
    othersDominance: now('others'),
  };
}
