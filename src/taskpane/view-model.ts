/**
 * What the pane shows, computed from the client's data: the plan panel from
 * /v3/status, the workbook panel from the credit meter, the ambiguous symbols
 * and the error log. Pure (no DOM), so it is unit-testable.
 */
import type { AccountStatus, Ambiguity, MeterSnapshot } from '../client';
import type { ErrorLogEntry } from '../formulas/host';
import { isPlan } from '../api/endpoints';
import { nextUtcMidnight } from './format';
import { measuredCredits } from './formula-calls';

export interface CreditGauge {
  used: number;
  limit: number;
  remaining: number;
  /** used / limit, clamped to 0..1. */
  fraction: number;
  level: 'ok' | 'warn' | 'full';
}

export interface PlanView {
  plan: string;
  rateLimitPerMinute: number;
  /** null when the service reports no daily figures (an older /v3/status): nothing is derived from the monthly ones. */
  daily: CreditGauge | null;
  monthly: CreditGauge;
  /** Next UTC midnight: daily credits reset. */
  dailyResetAt: number;
  /** End of the credit period: monthly credits reset. */
  monthlyResetAt: number;
  periodStart: number;
}

export function gauge(used: number, limit: number, remaining: number): CreditGauge {
  const fraction = limit > 0 ? Math.min(1, Math.max(0, used / limit)) : used > 0 ? 1 : 0;
  return { used, limit, remaining, fraction, level: remaining <= 0 && limit > 0 ? 'full' : fraction >= 0.8 ? 'warn' : 'ok' };
}

export function planView(s: AccountStatus, nowMs: number): PlanView {
  const c = s.credits;
  return {
    // A name we know, not the server's text as it came (it is shown in the pane).
    plan: isPlan(s.plan) ? s.plan : 'Unknown plan',
    rateLimitPerMinute: s.rateLimitPerMinute,
    daily:
      c.dailyLimit !== null && c.dailyUsed !== null && c.dailyRemaining !== null
        ? gauge(c.dailyUsed, c.dailyLimit, c.dailyRemaining)
        : null,
    monthly: gauge(c.monthlyUsed, c.monthlyLimit, c.monthlyRemaining),
    dailyResetAt: nextUtcMidnight(nowMs),
    monthlyResetAt: Date.parse(s.currentPeriodEnd),
    periodStart: Date.parse(s.currentPeriodStart),
  };
}

/** What is left of the account's credits, in words: the daily figures where reported, else the monthly ones. */
export function creditsLeftText(s: AccountStatus, formatInt: (n: number) => string): string {
  const c = s.credits;
  if (c.dailyLimit !== null && c.dailyRemaining !== null) {
    return ` You have ${formatInt(c.dailyRemaining)} of ${formatInt(c.dailyLimit)} daily credits left.`;
  }
  return ` You have ${formatInt(c.monthlyRemaining)} of ${formatInt(c.monthlyLimit)} credits left this month.`;
}

/** The credits a refresh must fit in: today's where the service reports them, else the period's. */
export function creditsRemaining(s: AccountStatus | null): number | null {
  if (!s) return null;
  return s.credits.dailyRemaining ?? s.credits.monthlyRemaining;
}

export interface FormulaUsageRow {
  /** "CRYPTO.PRICE", or "Add-in (plan check, coin list)" for requests no formula made. */
  label: string;
  requests: number;
  credits: number;
}

export interface UsageView {
  credits: number;
  requests: number;
  cacheHits: number;
  sharedCalls: number;
  since: number;
  rows: FormulaUsageRow[];
}

/** The meter's name for requests made outside a formula (status, and whatever had no caller). */
export const NON_FORMULA_CALLER = 'client';

export function usageView(m: MeterSnapshot): UsageView {
  const rows = Object.entries(m.byCaller)
    .map(([caller, u]) => ({
      label: caller === NON_FORMULA_CALLER ? 'Add-in (plan check, coin list)' : `CRYPTO.${caller}`,
      requests: u.requests,
      credits: u.credits,
    }))
    .sort((a, b) => b.credits - a.credits || b.requests - a.requests || a.label.localeCompare(b.label));
  return { credits: m.credits, requests: m.requests, cacheHits: m.cacheHits, sharedCalls: m.sharedCalls, since: m.since, rows };
}

export interface AmbiguityRow {
  input: string;
  chosen: string;
  alternatives: string;
}

const coin = (c: { name: string; symbol: string | null; slug: string }) => `${c.name}${c.symbol ? ` (${c.symbol})` : ''}`;

/** Newest first, one row per input (a symbol resolved twice shows once). */
export function ambiguityRows(list: readonly Ambiguity[], max = 20): AmbiguityRow[] {
  const seen = new Set<string>();
  const rows: AmbiguityRow[] = [];
  for (const a of [...list].sort((x, y) => y.at - x.at)) {
    const k = a.input.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    const alts = a.alternatives.filter((x) => x.id !== a.chosen.id);
    rows.push({
      input: a.input,
      chosen: `${coin(a.chosen)}, id ${a.chosen.id}`,
      alternatives: alts.length
        ? alts.slice(0, 3).map(coin).join(', ') + (alts.length > 3 ? ` and ${alts.length - 3} more` : '')
        : '',
    });
    if (rows.length >= max) break;
  }
  return rows;
}

export interface ErrorRow {
  time: number;
  formula: string;
  code: string;
  message: string;
}

/** host.errors() is newest first already; keep that order, cap the length. */
export function errorRows(list: readonly ErrorLogEntry[], max = 20): ErrorRow[] {
  return list.slice(0, max).map((e) => ({ time: e.time, formula: `CRYPTO.${e.formula}`, code: e.code, message: e.message }));
}

// ---------------------------------------------------------------- refresh cost

/** Where the pane was when "Refresh all data" last ran: the meter it used and its credits then. */
export interface RefreshMark {
  since: number;
  credits: number;
}

export interface RefreshEstimate {
  /** Credits a full recalculation is expected to spend (a guess from what was spent). */
  credits: number;
  /** How the guess was made, shown to the user. */
  basis: string;
  /** Ask before refreshing. */
  confirm: boolean;
}

/** More than this many credits and the pane asks first. */
export const CONFIRM_ABOVE_CREDITS = 5;

/**
 * A full recalculation after the cache is dropped fetches again what this
 * workbook's formulas fetched. The meter knows what they spent: since the last
 * "Refresh all data" (exactly one full recalculation, plus later edits) or, the
 * first time, since the workbook opened (an upper bound when it recalculated
 * several times). The client has no estimate method of its own.
 */
export function estimateRefresh(m: MeterSnapshot, mark: RefreshMark | null, dailyRemaining?: number | null): RefreshEstimate {
  const sameMeter = mark !== null && mark.since === m.since && mark.credits <= m.credits;
  const credits = sameMeter ? m.credits - mark.credits : m.credits;
  const basis = sameMeter
    ? 'what the formulas spent since the last refresh'
    : 'what the formulas spent since the workbook opened';
  const overDaily = typeof dailyRemaining === 'number' && credits > dailyRemaining;
  return { credits, basis, confirm: credits > CONFIRM_ABOVE_CREDITS || overDaily };
}

/**
 * Refreshing only the CRYPTO cells (after a new key, a new default currency):
 * the same rule as Refresh all data, with the estimate from what the formulas
 * spent this session or, when they spent nothing yet, what the workbook's last
 * refresh spent (a document setting) or one credit a distinct formula.
 */
export function cellRefreshEstimate(m: MeterSnapshot, formulas: number, lastRefresh: number | null, dailyRemaining?: number | null): RefreshEstimate {
  const spent = estimateRefresh(m, null, dailyRemaining);
  if (spent.credits > 0) return spent;
  // A saved 0 measured nothing, as for the refresh on open (measuredCredits).
  const measured = measuredCredits(lastRefresh);
  const credits = measured ?? formulas;
  const overDaily = typeof dailyRemaining === 'number' && credits > dailyRemaining;
  return {
    credits,
    basis: measured !== null ? "what this workbook's last refresh spent" : 'one credit a CRYPTO formula',
    confirm: credits > CONFIRM_ABOVE_CREDITS || overDaily,
  };
}

/** A number that changes when the client spent something (not on cache hits or its own status reads). */
export function spendSignature(m: MeterSnapshot): string {
  const statusRequests = m.byEndpoint.status?.requests ?? 0;
  return `${m.since}:${m.credits}:${m.requests - statusRequests}`;
}
