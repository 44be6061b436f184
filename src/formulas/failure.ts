/**
 * One place that turns any failure into the cell error a user sees. Messages
 * come from our own text and the client's (which never carries the key).
 */
import { FormulaError, invalidValue, notAvailable } from './cells';

interface ClientFailure {
  code: string;
  message: string;
  requiredPlan?: string;
}
const isClientFailure = (e: unknown): e is ClientFailure =>
  typeof e === 'object' && e !== null && typeof (e as ClientFailure).code === 'string' && typeof (e as ClientFailure).message === 'string';

/** Codes where the last good value may stand in: the data exists, the service did not answer now. */
export const TRANSIENT_CODES = new Set([
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
  'TIMEOUT',
  'NETWORK_ERROR',
  'MALFORMED_RESPONSE',
  'UNEXPECTED_RESPONSE',
  'PLAN_LIMIT_EXCEEDED',
  'BUDGET_EXCEEDED',
]);

export function toFormulaError(e: unknown, formula: string): FormulaError {
  if (e instanceof FormulaError) return e;
  if (!isClientFailure(e)) {
    return notAvailable(`${formula}: unexpected error${e instanceof Error ? `: ${e.message}` : ''}`, 'UNEXPECTED');
  }
  const transient = TRANSIENT_CODES.has(e.code);
  switch (e.code) {
    case 'UNKNOWN_COIN':
      return notAvailable(e.message, e.code);
    case 'NO_API_KEY':
    case 'API_KEY_MISSING':
      return notAvailable('No API key: open Crypto Data on the Home tab and add your key', e.code);
    case 'API_KEY_INVALID':
      return notAvailable('The API key was rejected: check it in the Crypto Data pane', e.code);
    case 'NO_ACTIVE_SUBSCRIPTION':
      return notAvailable('Your API key has no active subscription', e.code);
    case 'ENDPOINT_NOT_AVAILABLE':
      return notAvailable(
        `CRYPTO.${formula} needs the ${e.requiredPlan ?? 'a higher'} plan or higher; see your plan in the Crypto Data pane`,
        e.code,
      );
    case 'VALIDATION_ERROR':
      return invalidValue(e.message);
    case 'NOT_FOUND':
      return notAvailable(`No data: ${e.message}`, e.code);
    case 'BUDGET_EXCEEDED':
      return notAvailable(e.message, e.code, true);
    case 'ABORTED':
      return notAvailable('Canceled', e.code);
    case 'RATE_LIMIT_EXCEEDED':
      return notAvailable(`Rate limit reached (${e.message.replace(/\.$/, '')}); the next recalculation retries`, e.code, true);
    default:
      return notAvailable(
        transient ? `Market data unavailable (${e.code}): ${e.message.replace(/\.$/, '')}; the next recalculation retries` : e.message,
        e.code,
        transient,
      );
  }
}
