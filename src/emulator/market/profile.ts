/**
 * One coin's records: profile, contracts, performance (ATH/ATL over the daily series).
 */
import type { CurrencyContract, Performance, Profile } from '../../api/records';
import { dayIso } from './calendar';
import type { Market } from './context';
import { price as fmtPrice, round2, round4, tokens, usd } from './decimal';
import { categoryOf } from './listings';
import type { Snapshot } from './snapshot';
import type { Coin } from './universe';

const r4 = (x: number | null): number | null => (x === null ? null : round4(x));

/** Standard deviation of the last 30 complete days' log returns, in % per day; null with fewer than 2 returns. */
export function volatility30d(m: Market, c: Coin, today: number): number | null {
  const from = Math.max(c.startDay!, today - 30);
  const rets: number[] = [];
  for (let d = from; d < today; d++) rets.push(m.series.logClose(c, d) - m.series.logClose(c, d - 1));
  if (rets.length < 2) return null;
  const mean = rets.reduce((a, b) => a + b, 0) / rets.length;
  const variance = rets.reduce((a, b) => a + (b - mean) ** 2, 0) / (rets.length - 1);
  return round4(Math.sqrt(variance) * 100);
}

export function profile(m: Market, snap: Snapshot, c: Coin, fx: number): Profile {
  const s = snap.states[c.index];
  const money = (x: number) => usd(x * fx);
  return {
    id: c.id,
    slug: c.slug,
    symbol: c.symbol,
    name: c.name,
    rank: s?.rank ?? null,
    type: c.type,
    lifecycle: snap.lifecycle[c.index],
    category: categoryOf(m, c),
    tags: c.tagIds.map((id) => ({ ...m.u.tagById.get(id)! })),
    imageUrl: c.imageUrl,
    description: c.description,
    listingDate: c.listingDate,
    links: c.links.map((l) => ({ ...l })),
    price: s ? fmtPrice(s.price * fx) : null,
    pricePercentChange: s
      ? { h24: r4(s.change.h24), d7: r4(s.change.d7), d30: r4(s.change.d30), m3: r4(s.change.m3), ytd: r4(s.change.ytd) }
      : { h24: null, d7: null, d30: null, m3: null, ytd: null },
    volume24h: s ? money(s.volume24h) : null,
    marketCap: s ? money(s.mcap) : null,
    volMcapRatio: s && s.mcap > 0 ? round4(s.volume24h / s.mcap) : null,
    volatility: s ? volatility30d(m, c, snap.today) : null,
    high24hUsd: s ? fmtPrice(s.high24h) : null,
    low24hUsd: s ? fmtPrice(s.low24h) : null,
    fullyDilutedValuation: s ? money(s.fdv) : null,
    circulatingPercent: s && s.total > 0 ? round4((s.circ / s.total) * 100) : null,
    circulatingSupply: s ? tokens(s.circ) : null,
    totalSupply: s ? tokens(s.total) : null,
    maxSupply: s && s.max !== null ? tokens(s.max) : null,
  };
}

export function contracts(m: Market, c: Coin): CurrencyContract[] {
  return c.contracts.map((k) => {
    const chain = m.u.chainById.get(k.chainId)!;
    return {
      blockchainId: chain.id,
      blockchainSlug: chain.slug,
      blockchainName: chain.name,
      address: k.address,
      decimals: k.decimals,
      explorerUrl: chain.explorerUrl,
    };
  });
}

/** Price at the coin's first open (TGE price for vesting coins). */
export const firstOpen = (m: Market, c: Coin): number => m.series.close(c, c.startDay! - 1);

/** ATH = max daily high, ATL = min daily low, over every day from the first to today (today's partial candle included). */
export function performance(m: Market, snap: Snapshot, c: Coin): Performance {
  const s = snap.states[c.index];
  const empty: Performance = {
    slug: c.slug, athPriceUsd: null, athDate: null, atlPriceUsd: null, atlDate: null, athMarketCapUsd: null,
    fromAthPercent: null, fromAtlPercent: null, vcAvgRoi: null, icoRoi: null,
  };
  if (!s) return empty;
  let ath = -Infinity;
  let athDay = 0;
  let atl = Infinity;
  let atlDay = 0;
  for (let d = c.startDay!; d <= snap.today; d++) {
    const b = m.series.dayBar(c, d, d === snap.today ? snap.hour : 23);
    if (b.h > ath) {
      ath = b.h;
      athDay = d;
    }
    if (b.l < atl) {
      atl = b.l;
      atlDay = d;
    }
  }
  const plan = c.vesting;
  const tge = firstOpen(m, c);
  return {
    slug: c.slug,
    athPriceUsd: fmtPrice(ath),
    athDate: dayIso(athDay),
    atlPriceUsd: fmtPrice(atl),
    atlDate: dayIso(atlDay),
    athMarketCapUsd: usd(ath * m.series.circ(c, athDay)),
    fromAthPercent: round2((s.price / ath - 1) * 100),
    fromAtlPercent: round2((s.price / atl - 1) * 100),
    vcAvgRoi: plan ? round2((s.price / (tge * plan.investorCostFrac) - 1) * 100) : null,
    icoRoi: plan && plan.icoPriceFrac !== null ? round2((s.price / (tge * plan.icoPriceFrac) - 1) * 100) : null,
  };
}
