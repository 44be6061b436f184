/**
 * Refresh when the workbook opens (opt-in per workbook): whether to, and what
 * to say. Excel shows a workbook's saved values on open and does not call
 * non-volatile custom functions again (Excel-Custom-Functions#368,
 * office-js#1567); with the option on, the add-in loads with the workbook
 * (Office.addin.setStartupBehavior) and recalculates its CRYPTO cells, within
 * the daily budget and what the account has left today, as Refresh all data
 * would: nobody is there to confirm a larger spend, so ticking the box is the
 * consent and the limits still hold. Pure.
 */
import { creditsPhrase, overBudget } from '../client';
import { measuredCredits, unmeasuredCredits } from './formula-calls';
import type { Message } from './messages';

export interface OpenRefreshInput {
  enabled: boolean;
  hasKey: boolean;
  /** The workbook's distinct CRYPTO formulas (their text). */
  formulas: readonly string[];
  /** Credits the last refresh of this workbook spent (a document setting), when measured. */
  lastCredits: number | null;
  /** The daily credit budget (Settings); null: none. */
  budget: number | null;
  /** Credits this add-in spent today (UTC). */
  spentToday: number;
  /** What the account has left today (/v3/status), when known. */
  dailyRemaining: number | null;
}

export type OpenRefreshDecision =
  | { refresh: true; credits: number; basis: string }
  | { refresh: false; reason: 'off' | 'no-formulas' | 'no-key' | 'budget' | 'account'; message: Message | null };

export function openRefreshDecision(i: OpenRefreshInput): OpenRefreshDecision {
  if (!i.enabled) return { refresh: false, reason: 'off', message: null };
  if (i.formulas.length === 0) return { refresh: false, reason: 'no-formulas', message: null };
  if (!i.hasKey) {
    return { refresh: false, reason: 'no-key', message: { tone: 'warning', text: 'Not refreshed when the workbook opened: there is no API key on this computer. Cells show the values saved with the workbook.' } };
  }
  // A saved 0 measured nothing (measuredCredits); nor is any refresh free.
  const measured = measuredCredits(i.lastCredits);
  const estimate = Math.max(1, measured ?? unmeasuredCredits(i.formulas));
  const basis = measured !== null ? 'what the last refresh of this workbook spent' : 'its formulas, prices sharing pages (the first refresh measures it)';
  if (overBudget(i.budget, i.spentToday, estimate)) {
    const left = Math.max(0, i.budget - i.spentToday);
    return {
      refresh: false,
      reason: 'budget',
      message: {
        tone: 'warning',
        text: `Not refreshed when the workbook opened: it would spend about ${creditsPhrase(estimate)} and your daily budget has ${creditsPhrase(left)} left. Cells show the values saved with the workbook; raise the budget in Settings or press Refresh all data.`,
      },
    };
  }
  if (i.dailyRemaining !== null && estimate > i.dailyRemaining) {
    return {
      refresh: false,
      reason: 'account',
      message: {
        tone: 'warning',
        text: `Not refreshed when the workbook opened: it would spend about ${creditsPhrase(estimate)} and your plan has ${creditsPhrase(i.dailyRemaining)} left today. Cells show the values saved with the workbook.`,
      },
    };
  }
  return { refresh: true, credits: estimate, basis };
}

/** What the pane says after a refresh on open. */
export function openRefreshDone(cells: number, error?: unknown): Message {
  if (error !== undefined) return { tone: 'error', text: `Refresh when the workbook opened failed: ${error instanceof Error ? error.message : String(error)}` };
  return { tone: 'success', text: `Refreshed ${cells} CRYPTO ${cells === 1 ? 'cell' : 'cells'} when the workbook opened.` };
}
