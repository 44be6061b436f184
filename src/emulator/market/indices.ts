/**
 * Global figures: the global market, the derivatives snapshot, Fear & Greed, the
 * Altcoin Season Index and dominance. Charts have one point per UTC day at 00:00;
 * today's point is the current value (computed from the hour's snapshot).
 */
import {
  ALTCOIN_SEASON_BANDS, FEAR_GREED_BANDS, classify,
  type ChartAltcoinIndex, type ChartDominance, type ChartFearGreed, type DerivativesSnapshot, type GlobalMarket,
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

// ---------------------------------------------------------------- dominance

export type DominanceAsset = 'btc' | 'eth' | 'usdt' | 'others';

/** dominance = the asset's market cap / total market cap x 100, 2 decimals; others = 100 - the three (rounded). */
export function dominancePoint(m: Market, snap: Snapshot, d: number, asset: DominanceAsset): ChartDominance {
  const t = m.dayTotals(d, snap);
  const share = (x: number) => round2((x / t.total) * 100);
  const value = asset === 'btc' ? share(t.btc) : asset === 'eth' ? share(t.eth) : asset === 'usdt' ? share(t.usdt)
    : round2(100 - share(t.btc) - share(t.eth) - share(t.usdt));
  return { time: dayStart(d), dominance: value };
}
