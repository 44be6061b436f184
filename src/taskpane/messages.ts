/**
 * Which message the pane shows for an outcome: checking a key, reading the
 * plan, refreshing. Pure: codes in, text out. Messages never include the key.
 */
import { isPlan } from '../api/endpoints';
import { ApiError } from '../client/api-error';
import { hostOf } from './format';

export type Tone = 'success' | 'warning' | 'error' | 'info';

export interface Message {
  tone: Tone;
  text: string;
}

export interface KeyCheckOutcome extends Message {
  /** Whether the key is kept: a key the API rejected is not. */
  save: boolean;
  /** A short label for the kind of outcome (tests and logs): 'ok', 'invalid', 'inactive', 'network', 'rate-limit', 'other'. */
  kind: 'ok' | 'invalid' | 'inactive' | 'network' | 'rate-limit' | 'other';
}

/** The client's code; anything else that failed is UNEXPECTED (a `code` on another object is not read). */
const codeOf = (e: unknown): string => (e instanceof ApiError ? e.code : 'UNEXPECTED');
/** Any error's words (Office's errors among them): read where present. */
const textOf = (e: unknown): string => {
  const m = (e as { message?: unknown } | null)?.message;
  return typeof m === 'string' ? m : String(e);
};

/** The key was checked with /v3/status: what to say and whether to keep it. */
export function keyCheckOutcome(result: { plan: string; rateLimitPerMinute: number } | { error: unknown }, apiBaseUrl: string): KeyCheckOutcome {
  if (!('error' in result)) {
    return {
      kind: 'ok',
      tone: 'success',
      save: true,
      // The plan's name only when it is one we know: the server's text is not quoted (issue #22).
      text: `Key saved. It works: ${isPlan(result.plan) ? `${result.plan} plan` : 'a plan this add-in does not know by name'}, ${result.rateLimitPerMinute} requests per minute.`,
    };
  }
  const code = codeOf(result.error);
  switch (code) {
    case 'API_KEY_INVALID':
    case 'API_KEY_MISSING':
    case 'NO_API_KEY':
      return {
        kind: 'invalid',
        tone: 'error',
        save: false,
        text: 'Invalid API key: CryptoRank did not recognise it. Check that you copied the whole key. It was not saved.',
      };
    case 'NO_ACTIVE_SUBSCRIPTION':
      return {
        kind: 'inactive',
        tone: 'warning',
        save: true,
        text: 'No active subscription: the key is valid, but its CryptoRank plan is not active, so formulas cannot fetch data. Renew the plan on cryptorank.io. The key was saved.',
      };
    case 'NETWORK_ERROR':
    case 'TIMEOUT':
      return {
        kind: 'network',
        tone: 'warning',
        save: true,
        text: `Network failure: could not reach ${hostOf(apiBaseUrl)} to check the key${code === 'TIMEOUT' ? ' (no answer in time)' : ''}. Check your connection or the API address in Settings. The key was saved but not verified.`,
      };
    case 'RATE_LIMIT_EXCEEDED':
      return {
        kind: 'rate-limit',
        tone: 'warning',
        save: true,
        text: 'Too many requests right now, so the key could not be checked. The key was saved; try again in a minute.',
      };
    default:
      return {
        kind: 'other',
        tone: 'warning',
        save: true,
        text: `The key could not be checked (${code}): ${textOf(result.error)} The key was saved but not verified.`,
      };
  }
}

/** Reading the plan failed (with a saved key): one line for the plan panel. */
export function statusErrorMessage(error: unknown, apiBaseUrl: string): Message {
  const code = codeOf(error);
  switch (code) {
    case 'NO_API_KEY':
    case 'API_KEY_MISSING':
      return { tone: 'info', text: 'No API key yet: add one above to see your plan and credits.' };
    case 'API_KEY_INVALID':
      return { tone: 'error', text: 'Invalid API key: CryptoRank no longer accepts the saved key. Remove it and add a new one.' };
    case 'NO_ACTIVE_SUBSCRIPTION':
      return { tone: 'error', text: 'No active subscription: renew your CryptoRank plan to use the formulas.' };
    case 'NETWORK_ERROR':
    case 'TIMEOUT':
      return { tone: 'warning', text: `Network failure: could not reach ${hostOf(apiBaseUrl)}. Plan and credits will update when it answers.` };
    default:
      return { tone: 'warning', text: `Could not read the plan (${code}): ${textOf(error)}` };
  }
}

export function refreshDoneMessage(scope: 'workbook' | 'sheet', inExcel: boolean, error?: unknown): Message {
  if (error !== undefined) {
    return { tone: 'error', text: `Cache cleared, but Excel could not recalculate: ${textOf(error)}` };
  }
  if (!inExcel) {
    return {
      tone: 'info',
      text: 'Cache cleared. Not running inside Excel, so nothing was recalculated: formulas fetch fresh data the next time they calculate.',
    };
  }
  return scope === 'workbook'
    ? { tone: 'success', text: 'Cache cleared and every CRYPTO formula in the workbook is recalculating with fresh data.' }
    : { tone: 'success', text: 'Cache cleared and the active sheet is recalculating with fresh data.' };
}
