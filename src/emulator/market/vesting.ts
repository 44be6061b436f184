/**
 * Token vesting schedules: allocations with a TGE share, a cliff and monthly
 * linear unlocks. The schedule decides a vesting coin's circulating supply on
 * every day, its tokenomics, its allocations, its upcoming unlocks and its VC
 * pressure, so all of those agree.
 */
import { addMonths } from './calendar';
import type { Rng } from './prng';

export interface UnlockEvent {
  day: number;
  tokens: number;
}

export interface AllocationPlan {
  id: number;
  name: string;
  /** Tokens in the allocation. */
  tokens: number;
  /** False: no known schedule (untracked); counted as circulating from TGE, neither locked nor unlocked. */
  tracked: boolean;
  /** Held by investors (seed, private, strategic rounds). */
  investor: boolean;
  unlockType: 'cliff' | 'linear' | null;
  events: UnlockEvent[];
  /** Cumulative tokens after each event. */
  cumulative: number[];
}

export interface VestingPlan {
  total: number;
  tgeDay: number;
  allocations: AllocationPlan[];
  untracked: number;
  /** All tracked events merged by day (one entry per day) with cumulative unlocked tokens. */
  days: number[];
  amounts: number[];
  cumulative: number[];
  investorIds: number[];
  /** Investors' average entry price as a fraction of the TGE price. */
  investorCostFrac: number;
  /** ICO price as a fraction of the TGE price; null when there was no public sale. */
  icoPriceFrac: number | null;
  sourceUrls: string[];
}

interface Template {
  name: string;
  share: [number, number];
  tge: [number, number];
  cliff: [number, number];
  vest: [number, number];
  investor: boolean;
  p: number;
}

const TEMPLATES: readonly Template[] = [
  { name: 'Team', share: [0.12, 0.22], tge: [0, 0], cliff: [6, 12], vest: [24, 48], investor: false, p: 1 },
  { name: 'Seed Round', share: [0.03, 0.08], tge: [0, 0.1], cliff: [6, 12], vest: [12, 36], investor: true, p: 0.7 },
  { name: 'Private Sale', share: [0.08, 0.16], tge: [0, 0.15], cliff: [3, 12], vest: [12, 36], investor: true, p: 0.85 },
  { name: 'Strategic Round', share: [0.02, 0.06], tge: [0, 0.1], cliff: [6, 12], vest: [12, 24], investor: true, p: 0.4 },
  { name: 'Public Sale', share: [0.02, 0.08], tge: [0.25, 1], cliff: [0, 0], vest: [0, 6], investor: false, p: 0.6 },
  { name: 'Ecosystem Fund', share: [0.15, 0.3], tge: [0.02, 0.15], cliff: [0, 0], vest: [36, 72], investor: false, p: 1 },
  { name: 'Foundation', share: [0.08, 0.15], tge: [0, 0.1], cliff: [0, 12], vest: [36, 60], investor: false, p: 0.8 },
  { name: 'Community Airdrop', share: [0.04, 0.12], tge: [0.3, 0.6], cliff: [0, 0], vest: [6, 18], investor: false, p: 0.7 },
];

function schedule(tokens: number, tgeDay: number, tgeFrac: number, cliff: number, vest: number): UnlockEvent[] {
  const events: UnlockEvent[] = [];
  if (tgeFrac > 0) events.push({ day: tgeDay, tokens: tokens * tgeFrac });
  const rest = tokens * (1 - tgeFrac);
  if (rest > 0) {
    if (vest <= 0) events.push({ day: addMonths(tgeDay, Math.max(1, cliff)), tokens: rest });
    else for (let k = 0; k < vest; k++) events.push({ day: addMonths(tgeDay, Math.max(1, cliff) + k), tokens: rest / vest });
  }
  return events;
}

function cumulate(events: readonly UnlockEvent[]): number[] {
  let sum = 0;
  return events.map((e) => (sum += e.tokens));
}

/** A schedule for `total` tokens starting at `tgeDay`; allocation ids are coinId * 100 + k. */
export function makeVestingPlan(rng: Rng, coinId: number, slug: string, total: number, tgeDay: number, investorPool: readonly number[]): VestingPlan {
  const chosen: { t: Template; share: number }[] = [];
  for (const t of TEMPLATES) if (rng.chance(t.p)) chosen.push({ t, share: rng.range(t.share[0], t.share[1]) });
  if (!chosen.some((c) => c.t.investor)) chosen.splice(1, 0, { t: TEMPLATES[2], share: rng.range(0.08, 0.16) });
  let sum = chosen.reduce((a, c) => a + c.share, 0);
  const untrackedShare = rng.range(0.03, 0.12);
  const scale = (1 - untrackedShare) / sum;
  const allocations: AllocationPlan[] = chosen.map((c, k) => {
    const tokens = total * c.share * scale;
    const tge = rng.range(c.t.tge[0], c.t.tge[1]);
    const cliff = rng.int(c.t.cliff[0], c.t.cliff[1]);
    const vest = rng.int(c.t.vest[0], c.t.vest[1]);
    const events = schedule(tokens, tgeDay, tge, cliff, vest);
    return {
      id: coinId * 100 + k + 1,
      name: c.t.name,
      tokens,
      tracked: true,
      investor: c.t.investor,
      unlockType: vest > 0 ? 'linear' : 'cliff',
      events,
      cumulative: cumulate(events),
    };
  });
  sum = allocations.reduce((a, x) => a + x.tokens, 0);
  const untracked = total - sum;
  allocations.push({
    id: coinId * 100 + 99, name: 'Treasury', tokens: untracked, tracked: false, investor: false, unlockType: null, events: [], cumulative: [],
  });
  // merge tracked events by day
  const byDay = new Map<number, number>();
  for (const a of allocations) for (const e of a.events) byDay.set(e.day, (byDay.get(e.day) ?? 0) + e.tokens);
  const days = [...byDay.keys()].sort((a, b) => a - b);
  const amounts = days.map((d) => byDay.get(d)!);
  let acc = 0;
  const cumulative = amounts.map((x) => (acc += x));
  const investorIds: number[] = [];
  const n = rng.int(2, 8);
  while (investorIds.length < n) {
    const id = rng.pick(investorPool);
    if (!investorIds.includes(id)) investorIds.push(id);
  }
  const hasPublic = allocations.some((a) => a.name === 'Public Sale');
  return {
    total,
    tgeDay,
    allocations,
    untracked,
    days,
    amounts,
    cumulative,
    investorIds,
    investorCostFrac: rng.range(0.05, 0.7),
    icoPriceFrac: hasPublic ? rng.range(0.2, 1.2) : null,
    sourceUrls: [`https://docs.${slug}.io/tokenomics`, `https://${slug}.io/blog/token-distribution`].slice(0, rng.int(1, 2)),
  };
}

/** Index of the last element <= x in a sorted array, or -1. */
export function lastAtOrBefore(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

/** Tracked tokens unlocked by the end of day d (events on day d included). */
export function unlockedTracked(plan: VestingPlan, d: number): number {
  const i = lastAtOrBefore(plan.days, d);
  return i < 0 ? 0 : plan.cumulative[i];
}

/** Tokens of one allocation unlocked by the end of day d. */
export function allocationUnlocked(a: AllocationPlan, d: number): number {
  const i = lastAtOrBefore(a.events.map((e) => e.day), d);
  return i < 0 ? 0 : a.cumulative[i];
}

/** Circulating supply at the end of day d: unlocked tracked tokens plus the untracked ones (from TGE). */
export function vestingCirculating(plan: VestingPlan, d: number): number {
  if (d < plan.tgeDay) return 0;
  return plan.untracked + unlockedTracked(plan, d);
}

/** Unlock days after day d (strictly later), aggregated per day, for the allocations matching `which`. */
export function unlocksAfter(plan: VestingPlan, d: number, which: (a: AllocationPlan) => boolean = () => true): UnlockEvent[] {
  const byDay = new Map<number, number>();
  for (const a of plan.allocations) {
    if (!a.tracked || !which(a)) continue;
    for (const e of a.events) if (e.day > d) byDay.set(e.day, (byDay.get(e.day) ?? 0) + e.tokens);
  }
  return [...byDay.entries()].sort((x, y) => x[0] - y[0]).map(([day, tokens]) => ({ day, tokens }));
}
