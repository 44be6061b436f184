/**
 * Blockchains: market figures and TVL.
 *
 * Market cap rule: every ranked coin counts towards exactly ONE chain, its home chain (the
 * chain it is native to, else the chain of its first contract); a chain's marketCap is the
 * sum of the current market caps of its home coins, and marketCapDominance is its share of
 * the sum over all chains (2 decimals). volume24h is the home coins' 24h volume times the
 * chain's DEX share; gainersVsLosers counts home coins up/down over 24h.
 *
 * TVL: one value per chain per UTC day (0 before the chain launched); today's value is the
 * current one. totalTvl = the sum over all chains that day.
 */
import type { Blockchain, BlockchainListItem, BlockchainMapItem, BlockchainTvlChange, ChartTvl } from '../../api/records';
import { NotFoundError } from '../contract';
import { ANCHOR_DAY, dayStart } from './calendar';
import type { Market } from './context';
import { round2, round4, usd } from './decimal';
import { fractalNoise } from './noise';
import type { Snapshot } from './snapshot';
import type { Chain } from './universe';

interface ChainFigures {
  mcap: number;
  volume: number;
  gainers: number;
  losers: number;
}

function figures(m: Market, snap: Snapshot): { byChain: Map<number, ChainFigures>; total: number } {
  const key = 'chain-figures';
  const hit = snap.memo.get(key) as { byChain: Map<number, ChainFigures>; total: number } | undefined;
  if (hit) return hit;
  const byChain = new Map<number, ChainFigures>(m.u.chains.map((c) => [c.id, { mcap: 0, volume: 0, gainers: 0, losers: 0 }]));
  for (const s of snap.ranked) {
    const home = s.coin.homeChainId;
    if (home === null) continue;
    const f = byChain.get(home)!;
    f.mcap += s.mcap;
    f.volume += s.volume24h;
    const ch = s.change.h24 ?? 0;
    if (ch > 0) f.gainers++;
    else if (ch < 0) f.losers++;
  }
  let total = 0;
  for (const f of byChain.values()) total += f.mcap;
  const out = { byChain, total };
  snap.memo.set(key, out);
  return out;
}

export function chainOf(m: Market, id: number | undefined): Chain {
  const c = id === undefined ? undefined : m.u.chainById.get(id);
  if (!c) throw new NotFoundError(`blockchain ${id} not found`);
  return c;
}

export function blockchainMap(m: Market): BlockchainMapItem[] {
  return m.u.chains.map((c) => ({ id: c.id, slug: c.slug, name: c.name }));
}

function listItem(m: Market, snap: Snapshot, c: Chain): BlockchainListItem {
  const { byChain, total } = figures(m, snap);
  const f = byChain.get(c.id)!;
  return {
    id: c.id,
    slug: c.slug,
    name: c.name,
    symbol: c.symbol,
    nativeCurrencyId: c.nativeCoinId,
    explorerUrl: c.explorerUrl,
    marketCap: usd(f.mcap),
    marketCapDominance: total > 0 ? round2((f.mcap / total) * 100) : null,
  };
}

/** All chains, largest market cap first. */
export function blockchainList(m: Market, snap: Snapshot): BlockchainListItem[] {
  const { byChain } = figures(m, snap);
  return [...m.u.chains]
    .sort((a, b) => byChain.get(b.id)!.mcap - byChain.get(a.id)!.mcap || a.id - b.id)
    .map((c) => listItem(m, snap, c));
}

export function blockchain(m: Market, snap: Snapshot, c: Chain): Blockchain {
  const f = figures(m, snap).byChain.get(c.id)!;
  return {
    ...listItem(m, snap, c),
    imageUrl: c.imageUrl,
    volume24h: usd(f.volume * c.dexShare),
    gainersVsLosers: { gainers: f.gainers, losers: f.losers },
  };
}

const TVL_OCTAVES = [{ period: 365, amp: 1 }, { period: 60, amp: 0.5 }, { period: 10, amp: 0.15 }];

/** TVL of chain c on day d (USD; 0 before launch). */
export function tvl(m: Market, c: Chain, d: number): number {
  if (d < c.launchDay) return 0;
  const y = (d - ANCHOR_DAY) / 365.25;
  const noise = fractalNoise(m.seed, 9000 + c.id, TVL_OCTAVES, d) - fractalNoise(m.seed, 9000 + c.id, TVL_OCTAVES, ANCHOR_DAY);
  const ramp = Math.min(1, (d - c.launchDay + 30) / 365);
  return c.tvl * ramp * Math.exp(0.9 * m.series.marketMove(d) + 0.3 * noise + (y < 0 ? 0.6 * y : 0.05 * y));
}

export function totalTvl(m: Market, d: number): number {
  let t = 0;
  for (const c of m.u.chains) t += tvl(m, c, d);
  return t;
}

export function tvlChart(m: Market, c: Chain, fromDay: number, toDay: number): ChartTvl[] {
  const out: ChartTvl[] = [];
  for (let d = fromDay; d <= toDay; d++) out.push({ time: dayStart(d), totalTvl: usd(totalTvl(m, d)), tvl: usd(tvl(m, c, d)) });
  return out;
}

const PERIOD_DAYS: Record<string, number> = { '1d': 1, '7d': 7, '30d': 30, '90d': 90, '1y': 365 };

/** (tvl today / tvl n days ago - 1) x 100, 4 decimals; null when the earlier value is 0. Matches the chart's points. */
export function tvlChange(m: Market, c: Chain, today: number, period: string): BlockchainTvlChange {
  const before = tvl(m, c, today - PERIOD_DAYS[period]);
  return { tvlChange: before > 0 ? round4((tvl(m, c, today) / before - 1) * 100) : null };
}
