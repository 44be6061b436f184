/**
 * Holders snapshots (traded tokens with a contract; native coins such as bitcoin and
 * ethereum have none). Balances are generated once per coin as integer shares of the
 * total supply in units of 0.0001 %, so that every sum is exact: the concentration buckets
 * sum to 100, top100Share = the five top buckets = the top-100 holders' percentOfSupply.
 * Holders are on the coin's home chain (first contract); the snapshot is dated today 00:00 UTC.
 */
import { HOLDER_BUCKETS, HOLDER_TIERS, type HolderItem, type HoldersSummary } from '../../api/records';
import { dayIso } from './calendar';
import type { Market } from './context';
import { round2, tokens, usd } from './decimal';
import { makeAddress } from './names';
import { Rng, hashText, mix32 } from './prng';
import type { Snapshot } from './snapshot';
import type { Coin } from './universe';

/** Units of percent: 1 unit = 0.0001 %, the whole supply = 1,000,000 units. */
const UNITS = 1_000_000;
const LISTED = 1000;
export const HOLDERS_PAGE = 100;

interface HolderRow {
  address: string;
  label: string | null;
  isContract: boolean;
  units: number;
}

interface HoldersData {
  rows: HolderRow[];
  holdersCount: number;
  tiers: number[];
}

const LABELS = ['Binance Hot Wallet', 'Coinbase Custody', 'Uniswap V3 Pool', 'Token Bridge', 'Staking Contract', 'Team Vesting', 'Treasury Multisig', 'OKX Wallet'];

function generate(m: Market, c: Coin): HoldersData {
  const rng = new Rng(mix32(m.seed ^ hashText(`holders:${c.id}`)));
  const kind = m.u.chainById.get(c.homeChainId!)!.kind;
  const alpha = rng.range(0.6, 1.3);
  const weights: number[] = [];
  for (let i = 1; i <= LISTED; i++) weights.push(Math.pow(i, -alpha) * (1 + 0.25 * rng.next()));
  weights.sort((a, b) => b - a);
  const top = rng.int(200_000, 900_000); // top-100 share, units
  const wTop = weights.slice(0, 100).reduce((a, b) => a + b, 0);
  const units = weights.map((w) => Math.floor((top * w) / wTop));
  const top100 = units.slice(0, 100).reduce((a, b) => a + b, 0);
  units[0] += top - top100;
  // the tail (ranks 101..1000) continues the curve, capped so it fits outside the top 100
  const tail = units.slice(100).reduce((a, b) => a + b, 0);
  const room = (UNITS - top) * 0.8;
  if (tail > room) for (let i = 100; i < LISTED; i++) units[i] = Math.floor((units[i] * room) / tail);
  for (let i = 100; i < LISTED; i++) units[i] = Math.min(units[i], units[99]);
  const rows: HolderRow[] = units.map((u, i) => {
    const isContract = i < 30 ? rng.chance(0.35) : rng.chance(0.1);
    const label = i < 20 && rng.chance(0.5) ? rng.pick(LABELS) : null;
    const address = makeAddress(rng, kind);
    return { address: kind === 'evm' ? address.toLowerCase() : address, label, isContract, units: u };
  });
  const holdersCount = rng.int(2_000, 2_500_000);
  const shares = [0.0001, 0.0005, 0.003, 0.02, 0.08, 0.2];
  const tiers = shares.map((s) => Math.max(1, Math.round(holdersCount * s * rng.range(0.6, 1.4))));
  tiers.push(holdersCount - tiers.reduce((a, b) => a + b, 0));
  return { rows, holdersCount, tiers };
}

/** Generated holders per coin, in a bounded cache (64 coins) held by the market. */
function data(m: Market, c: Coin): HoldersData | null {
  if (!c.holders) return null;
  let cache = m.memo.get('holders') as Map<number, HoldersData> | undefined;
  if (!cache) m.memo.set('holders', (cache = new Map()));
  let d = cache.get(c.id);
  if (!d) {
    d = generate(m, c);
    if (cache.size >= 64) cache.delete(cache.keys().next().value!);
    cache.set(c.id, d);
  }
  return d;
}

export function holders(m: Market, snap: Snapshot, c: Coin, page: number): { data: HolderItem[]; meta: Record<string, unknown> } {
  const d = data(m, c);
  const s = snap.states[c.index];
  if (!d || !s) return { data: [], meta: { page, pageSize: HOLDERS_PAGE, hasNextPage: false, blockchainId: null, snapshotDate: null } };
  const listed = Math.min(d.holdersCount, LISTED);
  const from = (page - 1) * HOLDERS_PAGE;
  const items = d.rows.slice(from, Math.min(from + HOLDERS_PAGE, listed)).map((r, i) => {
    const amount = (r.units / UNITS) * s.total;
    return {
      rank: from + i + 1,
      address: r.address,
      label: r.label,
      isContract: r.isContract,
      amount: tokens(amount),
      percentOfSupply: r.units / 10_000,
      value: usd(amount * s.price),
    };
  });
  return {
    data: items,
    meta: { page, pageSize: HOLDERS_PAGE, hasNextPage: from + HOLDERS_PAGE < listed, blockchainId: c.homeChainId, snapshotDate: dayIso(snap.today) },
  };
}

const BUCKET_RANGES: [number, number][] = [[0, 5], [5, 10], [10, 25], [25, 50], [50, 100]];

export function holdersSummary(m: Market, snap: Snapshot, c: Coin): HoldersSummary {
  const d = data(m, c);
  const s = snap.states[c.index];
  if (!d || !s) {
    return {
      blockchainId: null, snapshotDate: null, holdersCount: null, totalSupply: null, top100Share: null,
      walletsShare: null, contractsShare: null, concentration: [], tierDistribution: [],
    };
  }
  const bucketUnits = BUCKET_RANGES.map(([a, b]) => d.rows.slice(a, b).reduce((sum, r) => sum + r.units, 0));
  const top = bucketUnits.reduce((a, b) => a + b, 0);
  bucketUnits.push(UNITS - top);
  const walletUnits = d.rows.slice(0, 100).filter((r) => !r.isContract).reduce((sum, r) => sum + r.units, 0);
  const walletsShare = round2((walletUnits / top) * 100);
  const tierPercents = d.tiers.map((n) => round2((n / d.holdersCount) * 100));
  tierPercents[6] = round2(100 - tierPercents.slice(0, 6).reduce((a, b) => a + b, 0));
  return {
    blockchainId: c.homeChainId,
    snapshotDate: dayIso(snap.today),
    holdersCount: d.holdersCount,
    totalSupply: tokens(s.total),
    top100Share: top / 10_000,
    walletsShare,
    contractsShare: round2(100 - walletsShare),
    concentration: HOLDER_BUCKETS.map((bucket, i) => {
      const amount = (bucketUnits[i] / UNITS) * s.total;
      return { bucket, amount: tokens(amount), percentOfSupply: bucketUnits[i] / 10_000, value: usd(amount * s.price) };
    }),
    tierDistribution: HOLDER_TIERS.map((tier, i) => ({ tier, holdersCount: d.tiers[i], holdersPercent: tierPercents[i] })),
  };
}
