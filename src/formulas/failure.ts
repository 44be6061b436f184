/**
 * Any failure to the cell error a user sees, by the one table of error rules
 * (client/error-rules.ts): its Excel error, its words, whether a last good
 * value may stand in and what it costs (scope). Messages come from our own text
 * and the client's (which never carries the key).
 */
import { ApiError } from '../client/api-error';
import { ERROR_RULES, errorRule, notTradedMessage, type FormulaErrorCode } from '../client/error-rules';
import { FormulaError } from './cells';

export function toFormulaError(e: unknown, formula: string): FormulaError {
  if (e instanceof FormulaError) return e;
  if (!(e instanceof ApiError)) return formulaError('UNEXPECTED', ERROR_RULES.UNEXPECTED.say({ code: 'UNEXPECTED', message: e instanceof Error ? e.message : '' }, formula));
  const rule = errorRule(e.code, e.status);
  return new FormulaError(rule.cell, rule.say(e, formula), e.code, rule.lastGood);
}

/** An error a formula raises itself, with its row's Excel error and last-good rule. */
export function formulaError(code: FormulaErrorCode, message: string): FormulaError {
  const rule = ERROR_RULES[code];
  return new FormulaError(rule.cell, message, code, rule.lastGood);
}

/** A coin without a market price: the one wording (PRICE, LIVEPRICE). */
export function notTraded(name: string): FormulaError {
  return formulaError('NOT_TRADED', notTradedMessage(name));
}

/** What a failure costs: its own item (a coin's row of a table) or the whole call. */
export function scopeOf(err: FormulaError): 'item' | 'call' {
  return errorRule(err.apiCode).scope;
}
