/**
 * One place that turns any failure into the cell error a user sees. Messages
 * come from our own text and the client's (which never carries the key).
 */
import { errorRule } from '../client/api-error';
import { FormulaError, invalidValue, notAvailable } from './cells';

interface ClientFailure {
  code: string;
  message: string;
  requiredPlan?: string;
}
const isClientFailure = (e: unknown): e is ClientFailure =>
  typeof e === 'object' && e !== null && typeof (e as ClientFailure).code === 'string' && typeof (e as ClientFailure).message === 'string';

export function toFormulaError(e: unknown, formula: string): FormulaError {
  if (e instanceof FormulaError) return e;
  if (!isClientFailure(e)) {
    return notAvailable(`${formula}: unexpected error${e instanceof Error ? `: ${e.message}` : ''}`, 'UNEXPECTED');
  }
  // From the one table of error rules: whether the last good value may stand in, and whether the condition passes.
  const rule = errorRule(e.code, (e as { status?: number | null }).status);
  const lastGood = rule.lastGood;
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
      return notAvailable(e.message, e.code, lastGood);
    case 'ABORTED':
      return notAvailable('Canceled', e.code);
    case 'MISSING_FIELD':
      // "The API answered without price (bitcoin, /v3/currencies/markets)": the field and where, as the client wrote it.
      return notAvailable(e.message, e.code, lastGood);
    case 'RATE_LIMIT_EXCEEDED':
      return notAvailable(`Rate limit reached (${e.message.replace(/\.$/, '')}); the next recalculation retries`, e.code, lastGood);
    default:
      return notAvailable(
        rule.transient ? `Market data unavailable (${e.code}): ${e.message.replace(/\.$/, '')}; the next recalculation retries` : e.message,
        e.code,
        lastGood,
      );
  }
}
