/**
 * Counts what this client did: HTTP requests and the credits the API reported
 * for them (status.usedCredits), per endpoint and per caller (a batched or
 * shared request belongs to the caller that triggered it), cache hits and
 * shared calls, plus the plan figures from /v3/status. Dispatches 'change'
 * after updates (once for those of the same moment). Holds no key.
 *
 * The daily budget uses `creditsToday`: credits spent since the current UTC
 * day began (by the client clock), by this client and by earlier ones on this
 * machine today (daily-spend.ts keeps the figure beside the key). It knows
 * nothing of other machines on the same account; /v3/status's dailyUsed does.
 */
import type { AccountStatus } from '../api/records';
import { statusRecord } from './status-record';
import { dayOf } from '../api/utc-day';

export interface MeterSnapshot {
  requests: number;
  credits: number;
  cacheHits: number;
  sharedCalls: number;
  byEndpoint: Record<string, { requests: number; credits: number }>;
  byCaller: Record<string, { requests: number; credits: number }>;
  plan: AccountStatus | null;
  since: number;
}

export const DEFAULT_CALLER = 'client';

export class CreditMeter extends EventTarget {
  readonly #now: () => number;
  #s: MeterSnapshot;
  #day = -1;
  #dayCredits = 0;

  constructor(now: () => number = Date.now) {
    super();
    this.#now = now;
    this.#s = this.#empty();
  }

  snapshot(): MeterSnapshot {
    const s = this.#s;
    const copy = (r: Record<string, { requests: number; credits: number }>) =>
      Object.fromEntries(Object.entries(r).map(([k, x]) => [k, { ...x }]));
    return {
      ...s,
      byEndpoint: copy(s.byEndpoint),
      byCaller: copy(s.byCaller),
      plan: s.plan ? statusRecord(s.plan) : null,
    };
  }

  /** Start counting again (the plan is kept; the daily budget ledger too). */
  reset(): void {
    const plan = this.#s.plan;
    this.#s = this.#empty();
    this.#s.plan = plan;
    this.#changed();
  }

  /** Credits this client spent since the current UTC day started. */
  creditsToday(): number {
    return this.today() === this.#day ? this.#dayCredits : 0;
  }

  /** Credits spent earlier on `day` (UTC days since the epoch) by other sessions on this machine: counted toward today's. */
  addEarlierToday(day: number, credits: number): void {
    if (!Number.isFinite(credits) || credits <= 0 || day !== this.today()) return;
    this.#addToday(credits);
  }

  /** The UTC day (days since the epoch) creditsToday() counts. */
  today(): number {
    return dayOf(this.#now());
  }

  recordRequest(endpoint: string, caller: string | undefined, credits: number): void {
    const s = this.#s;
    const c = Number.isFinite(credits) && credits > 0 ? credits : 0;
    s.requests++;
    s.credits += c;
    add(s.byEndpoint, endpoint, c);
    add(s.byCaller, caller ?? DEFAULT_CALLER, c);
    this.#addToday(c);
  }

  /** Count `credits` toward today's, starting the count afresh when the UTC day has turned since the last. */
  #addToday(credits: number): void {
    const day = this.today();
    if (day !== this.#day) {
      this.#day = day;
      this.#dayCredits = 0;
    }
    this.#dayCredits += credits;
    this.#changed();
  }

  recordCacheHit(): void {
    this.#s.cacheHits++;
    this.#changed();
  }

  recordSharedCall(): void {
    this.#s.sharedCalls++;
    this.#changed();
  }

  setPlan(plan: AccountStatus | null): void {
    this.#s.plan = plan ? statusRecord(plan) : null;
    this.#changed();
  }

  #empty(): MeterSnapshot {
    return { requests: 0, credits: 0, cacheHits: 0, sharedCalls: 0, byEndpoint: {}, byCaller: {}, plan: null, since: this.#now() };
  }

  #changeQueued = false;

  /** One 'change' for every update of the moment: a warm recalculation records thousands of cache hits at once. */
  #changed(): void {
    if (this.#changeQueued) return;
    this.#changeQueued = true;
    queueMicrotask(() => {
      this.#changeQueued = false;
      this.dispatchEvent(new Event('change'));
    });
  }
}

function add(r: Record<string, { requests: number; credits: number }>, k: string, credits: number): void {
  const e = (r[k] ??= { requests: 0, credits: 0 });
  e.requests++;
  e.credits += credits;
}

/**
 * What one answer's status.usedCredits may count, as a multiple of what the
 * endpoint table says that request costs (creditCost). Generous, because the
 * table's costs are partly inventory and guesses (api-notes, "Plans, rate
 * limits, credits": "[guess: scales]") and a service that really charges more
 * should be believed; bounded, because one answer reporting 1e15 (finite, so
 * valid) was counted, persisted, and refused every metered request with
 * BUDGET_EXCEEDED until UTC midnight, across reloads (review finding F5).
 */
export const REPORTED_CREDITS_FACTOR = 10;

/**
 * The credits to count for one answer: the reported figure when it is within
 * REPORTED_CREDITS_FACTOR times the table's cost, else the table's cost (the
 * request was answered, so it cost something; the figure is not believed).
 * Non-finite or negative figures count nothing, as recordRequest has it.
 */
export function creditsToCount(reported: number, tableCost: number): number {
  if (!Number.isFinite(reported) || reported <= 0) return 0;
  return reported <= tableCost * REPORTED_CREDITS_FACTOR ? reported : tableCost;
}

/** "1 credit", "2 credits": the one wording of a credit count in messages; `format` writes the number (default: as is). */
export function creditsPhrase(n: number, format: (n: number) => string = String): string {
  return `${format(n)} credit${n === 1 ? '' : 's'}`;
}

/**
 * Whether spending `cost` more today goes past a daily budget (null: none):
 * the plan gate refuses such a request, a refresh on open does not start.
 */
export function overBudget(budget: number | null, spentToday: number, cost: number): budget is number {
  return budget !== null && spentToday + cost > budget;
}
