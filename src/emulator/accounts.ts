/**
 * The emulator's accounts: demo keys, their plans, and credit usage per UTC day
 * and per monthly credit period. One key is one account (the live service counts
 * credits per user account; each demo key stands for its own user).
 *
 * - Day: the UTC calendar day of the emulator clock; daily usage resets at 00:00Z.
 * - Credit period: the UTC calendar month of the emulator clock (starts on the 1st
 *   at 00:00Z, ends on the 1st of the next month); monthly usage resets then.
 */
import { PLAN_LIMITS, type Plan } from '../api/endpoints';
import { dayOf, isoDay } from '../api/utc-day';
import type { Credits } from '../api/records';

/** Demo keys: one per plan, plus one without an active subscription (plan null). */
export const DEMO_KEYS: Readonly<Record<string, Plan | null>> = {
  'demo-sandbox': 'Sandbox',
  'demo-basic': 'Basic',
  'demo-advanced': 'Advanced',
  'demo-pro': 'Pro',
  'demo-inactive': null,
};

export interface PathUsage {
  /** Successful (charged) requests to this endpoint path, e.g. `/v3/currencies/{id}`. */
  requests: number;
  credits: number;
}

export interface UsageSnapshot {
  key: string;
  plan: Plan | null;
  /** Credits used on the current UTC day. */
  dailyUsed: number;
  /** Credits used in the current credit period (UTC month). */
  monthlyUsed: number;
  /** Successful requests (free ones included) since start or the last reset. */
  requests: number;
  /** Error responses answered to this key (they cost nothing). */
  errors: number;
  /** Successful requests and credits per endpoint path template. */
  byPath: Record<string, PathUsage>;
  /** Current UTC day, `YYYY-MM-DD`. */
  day: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
}

interface AccountState {
  plan: Plan | null;
  /** Whole UTC days since the epoch of the current day (credit periods start on a day boundary). */
  dayNumber: number;
  day: string;
  dailyUsed: number;
  periodStart: number;
  monthlyUsed: number;
  requests: number;
  errors: number;
  byPath: Map<string, PathUsage>;
}

/** The credit period holding `ms`: the UTC calendar month. */
export function creditPeriod(ms: number): { start: number; end: number } {
  const d = new Date(ms);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { start, end };
}

export class Accounts {
  private readonly states = new Map<string, AccountState>();

  constructor(keys: Readonly<Record<string, Plan | null>> = DEMO_KEYS) {
    for (const [key, plan] of Object.entries(keys)) this.add(key, plan);
  }

  /** Add (or replace) a key. `plan: null` makes a key without an active subscription. */
  add(key: string, plan: Plan | null): void {
    this.states.set(key, {
      plan, dayNumber: NaN, day: '', dailyUsed: 0, periodStart: NaN, monthlyUsed: 0, requests: 0, errors: 0, byPath: new Map(),
    });
  }

  has(key: string): boolean {
    return this.states.has(key);
  }

  keys(): string[] {
    return [...this.states.keys()];
  }

  /** The key's plan; null when it has no active subscription; undefined when unknown. */
  plan(key: string): Plan | null | undefined {
    return this.states.get(key)?.plan;
  }

  private state(key: string, now: number): AccountState {
    const s = this.states.get(key);
    if (!s) throw new Error(`unknown key ${key}`);
    const dayNumber = dayOf(now);
    if (s.dayNumber !== dayNumber) {
      s.dayNumber = dayNumber;
      s.day = isoDay(now);
      s.dailyUsed = 0;
      const { start } = creditPeriod(now);
      if (s.periodStart !== start) {
        s.periodStart = start;
        s.monthlyUsed = 0;
      }
    }
    return s;
  }

  /** The Credits record of /v3/status. Keys without a plan have zero limits. */
  credits(key: string, now: number): Credits {
    const s = this.state(key, now);
    const limits = s.plan ? PLAN_LIMITS[s.plan] : { dailyCredits: 0, monthlyCredits: 0 };
    return {
      dailyLimit: limits.dailyCredits,
      dailyUsed: s.dailyUsed,
      dailyRemaining: Math.max(0, limits.dailyCredits - s.dailyUsed),
      monthlyLimit: limits.monthlyCredits,
      monthlyUsed: s.monthlyUsed,
      monthlyRemaining: Math.max(0, limits.monthlyCredits - s.monthlyUsed),
    };
  }

  /**
   * Which limit `cost` more credits would exceed, if any. A request that would
   * take usage above the daily (or monthly) limit is refused; one that reaches it
   * exactly is allowed.
   */
  wouldExceed(key: string, now: number, cost: number): 'daily' | 'monthly' | null {
    const c = this.credits(key, now);
    if (c.dailyUsed + cost > c.dailyLimit) return 'daily';
    if (c.monthlyUsed + cost > c.monthlyLimit) return 'monthly';
    return null;
  }

  /** Account a successful request. */
  charge(key: string, now: number, path: string, credits: number): void {
    const s = this.state(key, now);
    s.dailyUsed += credits;
    s.monthlyUsed += credits;
    s.requests += 1;
    const p = s.byPath.get(path) ?? { requests: 0, credits: 0 };
    p.requests += 1;
    p.credits += credits;
    s.byPath.set(path, p);
  }

  /** Count an error answered to a known key (costs nothing). */
  noteError(key: string): void {
    const s = this.states.get(key);
    if (s) s.errors += 1;
  }

  usage(key: string, now: number): UsageSnapshot {
    const s = this.state(key, now);
    const { start, end } = creditPeriod(now);
    return {
      key,
      plan: s.plan,
      dailyUsed: s.dailyUsed,
      monthlyUsed: s.monthlyUsed,
      requests: s.requests,
      errors: s.errors,
      byPath: Object.fromEntries([...s.byPath].map(([k, v]) => [k, { ...v }])),
      day: s.day,
      currentPeriodStart: new Date(start).toISOString(),
      currentPeriodEnd: new Date(end).toISOString(),
    };
  }

  /** Test hook: set the current day's and/or period's usage (e.g. to reach the daily limit). */
  setUsage(key: string, now: number, patch: { dailyUsed?: number; monthlyUsed?: number }): void {
    const s = this.state(key, now);
    if (patch.dailyUsed !== undefined) s.dailyUsed = patch.dailyUsed;
    if (patch.monthlyUsed !== undefined) s.monthlyUsed = patch.monthlyUsed;
  }

  /** Forget usage of one key, or of all keys. */
  reset(key?: string): void {
    for (const [k, s] of this.states) {
      if (key !== undefined && k !== key) continue;
      this.add(k, s.plan);
    }
  }
}
