/**
 * Any failure to the cell error a user sees, by the one table of error rules
 * (client/error-rules.ts): its Excel error, its words, whether a last good
 * value may stand in and what it costs (scope). Messages come from our own text
 * and the client's (which never carries the key).
 */
import { ApiError } from '../client/api-error';
import { ERROR_RULES, errorRule, notTradedMessage, ruleCode } from '../client/error-rules';
import { FormulaError, formulaError } from './cells';

export function toFormulaError(e: unknown, formula: string): FormulaError {
  if (e instanceof FormulaError) return e;
  if (!(e instanceof ApiError)) return formulaError('UNEXPECTED', ERROR_RULES.UNEXPECTED.say({ code: 'UNEXPECTED', message: e instanceof Error ? e.message : '' }, formula));
  const rule = errorRule(e.code, e.status);
  // A code the service sent that we do not know is logged as the code its status means (the rule it follows).
  return new FormulaError(rule.cell, rule.say(e, formula), ruleCode(e.code, e.status) ?? undefined, rule.lastGood);
}

/** A coin without a market price (PRICE, LIVEPRICE), or without `what` for that reason (DATA): the one wording. */
export function notTraded(name: string, what?: string): FormulaError {
  return formulaError('NOT_TRADED', notTradedMessage(name, what));
}

/** What a failure costs: its own item (a coin's row of a table) or the whole call. */
export function scopeOf(err: FormulaError): 'item' | 'call' {
  return errorRule(err.apiCode).scope;
}
