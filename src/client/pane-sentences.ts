/**
 * The task pane's sentences for a failed key check or plan read, beside the
 * error rules they are chosen by: a failure's row's columns (paneCase) pick
 * the sentence, so a new code is said by what its row says it is (an outage,
 * the rate limit, a key to fix), with no code named here.
 */
import { ERROR_RULES, errorRule, ruleCode } from './error-rules';

/**
 * Which of the pane's sentences a failure gets (taskpane/messages.ts), from its row's columns:
 * what fixes it (fixKey), the rate limit (pacer), an outage (retried, the last good value stands
 * in: INTERNAL_ERROR, TIMEOUT, a dropped connection, a new 5xx code), else said with its code.
 */
export type PaneCase = 'add' | 'replace' | 'renew' | 'rate-limit' | 'outage' | 'other';

export function paneCase(code: string, status?: number | null): PaneCase {
  const known = ruleCode(code, status);
  if (known === null) return 'other';
  const r = ERROR_RULES[known];
  if (r.fixKey !== null) return r.fixKey;
  if (r.pacer === 'rate-limit') return 'rate-limit';
  return r.retry && r.lastGood ? 'outage' : 'other';
}

/** What the pane knows of a failure it says: the error, and the API's host (never the key). */
export interface PaneFailure {
  code: string;
  status?: number | null;
  message: string;
  host: string;
}

export interface PaneSentence {
  tone: 'success' | 'warning' | 'error' | 'info';
  text: string;
}

/** "Network failure (NETWORK_ERROR)": the row's words and the code. */
const named = (f: PaneFailure) => `${errorRule(f.code, f.status).words} (${f.code})`;
const INVALID_KEY = {
  tone: 'error',
  save: false,
  text: 'Invalid API key: CryptoRank did not recognise it. Check that you copied the whole key. It was not saved.',
} as const;

/** Checking a key with /v3/status failed: what the pane says, and whether it keeps the key (only a rejected one is dropped). */
export const KEY_CHECK_SAYS: Readonly<Record<PaneCase, (f: PaneFailure) => PaneSentence & { save: boolean }>> = {
  add: () => INVALID_KEY,
  replace: () => INVALID_KEY,
  renew: () => ({
    tone: 'warning',
    save: true,
    text: 'No active subscription: the key is valid, but its CryptoRank plan is not active, so formulas cannot fetch data. Renew the plan on cryptorank.io. The key was saved.',
  }),
  'rate-limit': () => ({ tone: 'warning', save: true, text: 'Too many requests right now, so the key could not be checked. The key was saved; try again in a minute.' }),
  outage: (f) => ({
    tone: 'warning',
    save: true,
    text: `${named(f)}: the key could not be checked with ${f.host}. Check your connection or the API address in Settings. The key was saved but not verified.`,
  }),
  other: (f) => ({ tone: 'warning', save: true, text: `The key could not be checked (${f.code}): ${f.message} The key was saved but not verified.` }),
};

/** Reading the plan with a saved key failed: one line for the plan panel. */
export const PLAN_READ_SAYS: Readonly<Record<PaneCase, (f: PaneFailure) => PaneSentence>> = {
  add: () => ({ tone: 'info', text: 'No API key yet: add one above to see your plan and credits.' }),
  replace: () => ({ tone: 'error', text: 'Invalid API key: CryptoRank no longer accepts the saved key. Remove it and add a new one.' }),
  renew: () => ({ tone: 'error', text: 'No active subscription: renew your CryptoRank plan to use the formulas.' }),
  'rate-limit': () => ({ tone: 'warning', text: 'Too many requests right now: plan and credits will update in a minute.' }),
  outage: (f) => ({ tone: 'warning', text: `${named(f)}: no plan from ${f.host}. Plan and credits will update when it answers.` }),
  other: (f) => ({ tone: 'warning', text: `Could not read the plan (${f.code}): ${f.message}` }),
};
