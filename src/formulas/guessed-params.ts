/**
 * A query parameter whose name is a guess (endpoints.ts marks them), refused by
 * the service: the live service answers an unknown one with 400
 * VALIDATION_ERROR "property X should not exist", once per name, joined by "; "
 * (api-notes, [live]). Not the user's mistake: the formula says what this
 * service lacks (#N/A), as VESTING's includeUntracked does (supply.ts), not
 * VALIDATION_ERROR's #VALUE! naming a parameter the user never typed (review-r3 #19).
 */
import { hasCode } from '../client/api-error';

/** Whether `e` is the service refusing the parameter `param`: its name (refusedName) or a value of it. */
export const refusedGuess = (e: unknown, param: string): boolean =>
  hasCode(e, 'VALIDATION_ERROR') && new RegExp(`\\b${param}\\b`).test(e.message);

/**
 * Whether `e` refuses the NAME `param` ("property limit should not exist"), not one value of it: the live
 * class-validator wording names the parameter for a bad value too ("limit must not be greater than 50"), and
 * only a refused name holds for later requests (refused-guesses.ts; review 2026-11-27: one refused value
 * made every later GAINERS past 20, DOMINANCE of another asset or SEARCH skip a request the service takes).
 */
export const refusedName = (e: unknown, param: string): boolean =>
  hasCode(e, 'VALIDATION_ERROR') && new RegExp(`\\bproperty ${param} should not exist\\b`).test(e.message);

/**
 * Whether `e` refuses a VALUE of `param` ("limit must not be greater than 50"), not its name: the user's to
 * change, so the cell says the service's words (#VALUE!), not that the service lacks the parameter.
 */
export const refusedValue = (e: unknown, param: string): boolean => refusedGuess(e, param) && !refusedName(e, param);
