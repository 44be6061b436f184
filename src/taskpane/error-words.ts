/**
 * The pane's recent errors in words, not codes, and which of them are gone:
 * a key problem once a key was saved after it, a spent budget once the UTC
 * day turned, an outage once the same formula answered again. The cell's own
 * message says the rest. Pure.
 */
import type { ErrorLogEntry } from '../formulas/host';

type Gone = 'key' | 'day' | 'success' | null;

/** One table: each code's words and what makes it go away. */
const WORDS: Record<string, { words: string; gone: Gone }> = {
  NO_API_KEY: { words: 'No API key', gone: 'key' },
  API_KEY_MISSING: { words: 'No API key', gone: 'key' },
  API_KEY_INVALID: { words: 'API key not accepted', gone: 'key' },
  NO_ACTIVE_SUBSCRIPTION: { words: 'No active subscription', gone: 'key' },
  ENDPOINT_NOT_AVAILABLE: { words: 'Not in your plan', gone: 'key' },
  PLAN_LIMIT_EXCEEDED: { words: 'Plan limit reached', gone: 'day' },
  BUDGET_EXCEEDED: { words: 'Daily credit budget reached', gone: 'day' },
  RATE_LIMIT_EXCEEDED: { words: 'Too many requests', gone: 'success' },
  INTERNAL_ERROR: { words: 'CryptoRank unavailable', gone: 'success' },
  NETWORK_ERROR: { words: 'Network failure', gone: 'success' },
  TIMEOUT: { words: 'No answer in time', gone: 'success' },
  DEADLINE: { words: 'No answer in time', gone: 'success' },
  MALFORMED_RESPONSE: { words: 'Unreadable answer', gone: 'success' },
  UNEXPECTED_RESPONSE: { words: 'Unexpected answer', gone: 'success' },
  MISSING_FIELD: { words: 'Data missing from the answer', gone: 'success' },
  UNKNOWN_COIN: { words: 'Unknown coin', gone: null },
  NOT_FOUND: { words: 'No such data', gone: null },
  NO_DATA: { words: 'No data', gone: null },
  NO_VALUE: { words: 'No value', gone: null },
  NOT_TRADED: { words: 'Not traded', gone: null },
  INVALID_ARGUMENT: { words: 'Argument not valid', gone: null },
  VALIDATION_ERROR: { words: 'Argument not valid', gone: null },
  ABORTED: { words: 'Cancelled', gone: 'success' },
  '#VALUE!': { words: 'Argument not valid', gone: null },
  '#N/A': { words: 'No value', gone: null },
};

export function errorWords(code: string): string {
  return WORDS[code]?.words ?? 'Error';
}

export interface ErrorContext {
  /** When a key was last saved (epoch ms), or null. */
  keySavedAt: number | null;
  now: number;
  /** When this formula last answered with fresh data, or null. */
  lastSuccess(formula: string): number | null;
}

const DAY = 86_400_000;

/** The entries whose cause is not known to be gone. */
export function currentErrors(list: readonly ErrorLogEntry[], ctx: ErrorContext): ErrorLogEntry[] {
  const today = Math.floor(ctx.now / DAY) * DAY;
  return list.filter((e) => {
    switch (WORDS[e.code]?.gone) {
      case 'key':
        return ctx.keySavedAt === null || e.time > ctx.keySavedAt;
      case 'day':
        return e.time >= today;
      case 'success': {
        const ok = ctx.lastSuccess(e.formula);
        return ok === null || ok < e.time;
      }
      default:
        return true;
    }
  });
}
