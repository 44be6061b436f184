/**
 * Supply records from the vesting schedules (vesting.ts): tokenomics, allocations,
 * VC pressure and upcoming unlocks. They agree with each other: the next unlock in
 * tokenomics is the coin's first upcoming-unlocks entry; unlocked + locked + untracked
 * = total supply; circulating supply = unlocked tracked + untracked tokens.
 *
 * "Upcoming" means unlock days strictly after today (today's unlocks are already circulating).
 */
import type { Tokenomics, UpcomingUnlock, VcPressure, VestingAllocation } from '../../api/records';
import { NotFoundError } from '../contract';
import { dayIso, dayStart } from './calendar';
import type { Market } from './context';
import { round2, round4, tokens, usd, wholeUsd } from './decimal';
import { firstOpen } from './profile';
import type { CoinState, Snapshot } from './snapshot';
import type { Coin } from './universe';
import { allocationUnlocked, unlockedTracked, unlocksAfter, type UnlockEvent, type VestingPlan } from './vesting';

/** Unlock figures shared by tokenomics and the upcoming unlocks list. */
function unlockFigures(s: CoinState | undefined, plan: VestingPlan, e: UnlockEvent) {
  const value = s ? Math.round(e.tokens * s.price) : null;
  return {
    value,
    percentOfMcap: s && value !== null && s.mcap > 0 ? round4((value / s.mcap) * 100) : null,
    percentOfSupply: round4((e.tokens / plan.total) * 100),
  };
}

export function tokenomics(snap: Snapshot, c: Coin): Tokenomics {
  const s = snap.states[c.index];
  const plan = c.vesting;
  const base = {
    totalSupply: s ? tokens(s.total) : plan ? tokens(plan.total) : null,
    maxSupply: s ? (s.max === null ? null : tokens(s.max)) : plan ? tokens(plan.total) : null,
    circulatingSupply: s ? tokens(s.circ) : null,
    circulatingPercent: s && s.total > 0 ? round4((s.circ / s.total) * 100) : null,
    fullyDilutedValuation: s ? usd(s.fdv) : null,
  };
  if (!plan) {
    return {
      ...base, totalUnlockedAmount: null, totalUnlockedPercent: null, totalLockedAmount: null, totalLockedPercent: null,
      untrackedAmount: null, untrackedPercent: null, nextUnlockDate: null, nextUnlockTokenAmount: null, nextUnlockValue: null,
      nextUnlockPercentOfMcap: null, nextUnlockPercentOfSupply: null, vestingSourceUrls: [],
    };
  }
  const trackedTotal = plan.total - plan.untracked;
  const unlocked = unlockedTracked(plan, snap.today);
  const locked = trackedTotal - unlocked;
  const pct = (x: number) => round4((x / plan.total) * 100);
  const next = unlocksAfter(plan, snap.today)[0];
  const f = next ? unlockFigures(s, plan, next) : null;
  return {
    ...base,
    totalUnlockedAmount: tokens(unlocked),
    totalUnlockedPercent: pct(unlocked),
    totalLockedAmount: tokens(locked),
    totalLockedPercent: pct(locked),
    untrackedAmount: tokens(plan.untracked),
    untrackedPercent: pct(plan.untracked),
    nextUnlockDate: next ? dayIso(next.day) : null,
    nextUnlockTokenAmount: next ? tokens(next.tokens) : null,
    nextUnlockValue: f && f.value !== null ? wholeUsd(f.value) : null,
    nextUnlockPercentOfMcap: f ? f.percentOfMcap : null,
    nextUnlockPercentOfSupply: f ? f.percentOfSupply : null,
    vestingSourceUrls: [...plan.sourceUrls],
  };
}

/**
 * Allocations of a vesting coin ([] without vesting data); untracked ones only with includeUntracked.
 * The next unlock's USD value is null for a coin not traded (no price), as the docs say of unlock values.
 */
export function allocations(snap: Snapshot, c: Coin, includeUntracked: boolean): VestingAllocation[] {
  const plan = c.vesting;
  if (!plan) return [];
  const s = snap.states[c.index];
  // Fully vested allocations leave floating-point residue (±1e-9 tokens); it is zero, not a share.
  const lockedOf = (a: VestingPlan['allocations'][number]) => {
    const locked = a.tokens - allocationUnlocked(a, snap.today);
    return locked > a.tokens * 1e-9 ? locked : 0;
  };
  const totalLocked = plan.allocations.filter((a) => a.tracked).reduce((sum, a) => sum + lockedOf(a), 0);
  return plan.allocations
    .filter((a) => a.tracked || includeUntracked)
    .map((a): VestingAllocation => {
      const common = { allocationId: a.id, allocationName: a.name, totalAmount: tokens(a.tokens), percentOfSupply: round4((a.tokens / plan.total) * 100) };
      if (!a.tracked) {
        return {
          ...common, groupDominance: null, isTracked: false, lockedPercent: null, unlockedPercent: null, unlockedAmount: null, lockedAmount: null,
          nextUnlockDate: null, nextUnlockTokenAmount: null, nextUnlockUsdAmount: null, vestingType: null, endDate: null,
        };
      }
      const locked = lockedOf(a);
      const next = a.events.find((e) => e.day > snap.today);
      const nextTokens = next ? next.tokens : null;
      return {
        allocationId: a.id,
        allocationName: a.name,
        groupDominance: totalLocked > 0 ? round4((locked / totalLocked) * 100) : 0,
        isTracked: true,
        lockedPercent: round4((locked / a.tokens) * 100),
        unlockedPercent: round4(((a.tokens - locked) / a.tokens) * 100),
        totalAmount: common.totalAmount,
        percentOfSupply: common.percentOfSupply,
        unlockedAmount: tokens(a.tokens - locked),
        lockedAmount: tokens(locked),
        nextUnlockDate: next ? dayIso(next.day) : null,
        nextUnlockTokenAmount: nextTokens === null ? null : tokens(nextTokens),
        nextUnlockUsdAmount: nextTokens === null || !s ? null : wholeUsd(nextTokens * s.price),
        // The docs' types [doc]: a cliff is a single non-linear unlock (the vesting events page's words).
        vestingType: a.unlockType === 'linear' ? 'linear' : 'nonlinear',
        endDate: a.events.length ? dayIso(a.events[a.events.length - 1].day) : null,
      };
    });
}

/**
 * VC pressure of a traded vesting coin; NotFoundError for coins without vesting/investor data
 * or not traded. dumpPressure from the investor tokens unlocking in the next 30 days as % of
 * circulating supply, weighted up when investors are in profit: <0.5 low, <2 moderate, <5 high, else very-high.
 */
export function vcPressure(m: Market, snap: Snapshot, c: Coin): VcPressure {
  const plan = c.vesting;
  const s = snap.states[c.index];
  if (!plan || !s) throw new NotFoundError(`no VC data for currency ${c.id}`);
  const investorTokens = plan.allocations.filter((a) => a.investor).reduce((sum, a) => sum + a.tokens, 0);
  const profit = round2(s.price / (firstOpen(m, c) * plan.investorCostFrac));
  const upcoming = unlocksAfter(plan, snap.today, (a) => a.investor);
  const next = upcoming[0];
  const next30 = upcoming.filter((e) => e.day <= snap.today + 30).reduce((sum, e) => sum + e.tokens, 0);
  const past30 = unlocksAfter(plan, snap.today - 30, (a) => a.investor).filter((e) => e.day <= snap.today).reduce((sum, e) => sum + e.tokens, 0);
  const circ = s.circ > 0 ? s.circ : 1;
  const score = ((next30 / circ) * 100) * (profit > 1 ? 1.5 : 0.7);
  const dumpPressure = score < 0.5 ? 'low' : score < 2 ? 'moderate' : score < 5 ? 'high' : 'very-high';
  return {
    dumpPressure,
    dominance: round4((investorTokens / plan.total) * 100),
    profit,
    nextUnlockDate: next ? dayIso(next.day) : null,
    unlock: next
      ? { date: dayIso(next.day), tokenAmount: tokens(next.tokens), usdAmount: wholeUsd(next.tokens * s.price), percentOfSupply: round4((next.tokens / plan.total) * 100) }
      : null,
    unlocked30d: round4((past30 / circ) * 100),
    circulatingSupply: tokens(s.circ),
    investors: plan.investorIds.map((id) => {
      const x = m.u.investorById.get(id)!;
      return { id: x.id, name: x.name, slug: x.slug, tier: x.tier, type: x.type };
    }),
    priceChangePercent24h: s.change.h24 === null ? null : round4(s.change.h24),
  };
}

/** The filters and order both unlock lists take [doc]. */
export interface UnlocksFilter {
  daysAhead: number;
  minUsdAmount?: number;
  minPercentOfMcap?: number;
  sortBy: string;
  sortOrder: string;
}

export interface UnlocksQuery extends UnlocksFilter {
  page: number;
}

export const UNLOCKS_PAGE = 25;

/** The unlocks of the window that pass the filters, in the order asked (then soonest, then by coin id). */
function selected(m: Market, snap: Snapshot, q: UnlocksFilter): UpcomingUnlock[] {
  let rows = unlockEvents(m, snap, q.daysAhead);
  if (q.minUsdAmount !== undefined) rows = rows.filter((r) => r.value >= q.minUsdAmount!);
  if (q.minPercentOfMcap !== undefined) rows = rows.filter((r) => r.item.percentOfMcap >= q.minPercentOfMcap!);
  const dir = q.sortOrder === 'desc' ? -1 : 1;
  const key2 = (r: { item: UpcomingUnlock; value: number }) =>
    q.sortBy === 'usdAmount' ? r.value : q.sortBy === 'percentOfMcap' ? r.item.percentOfMcap : r.item.time;
  return [...rows].sort((a, b) => (key2(a) - key2(b)) * dir || a.item.time - b.item.time || a.item.id - b.item.id).map((r) => r.item);
}

/**
 * `/v3/token-unlocks/upcoming` [doc]: the same unlocks and filters as the list of 25
 * below, `limit` items from `offset`. Its meta is a guess (none documented): the
 * client follows pages while they are full.
 */
export function tokenUnlocks(m: Market, snap: Snapshot, offset: number, limit: number, q: UnlocksFilter): { data: UpcomingUnlock[]; meta: Record<string, unknown> } {
  const rows = selected(m, snap, q);
  return {
    data: rows.slice(offset, offset + limit),
    meta: { page: Math.floor(offset / limit) + 1, pageSize: limit, hasNextPage: offset + limit < rows.length },
  };
}

/** Traded vesting coins' unlocks in (today, today + daysAhead], one entry per coin and day, 25 a page. */
export function upcomingUnlocks(m: Market, snap: Snapshot, q: UnlocksQuery): { data: UpcomingUnlock[]; meta: Record<string, unknown> } {
  const rows = selected(m, snap, q);
  const from = (q.page - 1) * UNLOCKS_PAGE;
  return {
    data: rows.slice(from, from + UNLOCKS_PAGE),
    meta: { page: q.page, pageSize: UNLOCKS_PAGE, hasNextPage: from + UNLOCKS_PAGE < rows.length },
  };
}

/** Every unlock of the next `daysAhead` days, soonest first (then by coin id), with its USD value. */
function unlockEvents(m: Market, snap: Snapshot, daysAhead: number): { item: UpcomingUnlock; value: number }[] {
  const key = `unlocks|${daysAhead}`;
  let all = snap.memo.get(key) as { item: UpcomingUnlock; value: number }[] | undefined;
  if (!all) {
    all = [];
    for (const c of m.u.coins) {
      const s = snap.states[c.index];
      if (!c.vesting || !s) continue;
      for (const e of unlocksAfter(c.vesting, snap.today)) {
        if (e.day > snap.today + daysAhead) break;
        const f = unlockFigures(s, c.vesting, e);
        all.push({
          value: f.value!,
          item: {
            id: c.id,
            name: c.name,
            symbol: c.symbol,
            imageUrl: c.imageUrl,
            time: dayStart(e.day),
            unlockTokens: tokens(e.tokens),
            unlockValue: wholeUsd(f.value!),
            percentOfMcap: f.percentOfMcap ?? 0,
            percentOfSupply: f.percentOfSupply,
            price: s.price.toFixed(12),
            marketCap: wholeUsd(s.mcap),
            circulatingSupply: tokens(s.circ),
          },
        });
      }
    }
    snap.memo.set(key, all);
  }
  return all;
}
