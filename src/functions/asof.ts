/*
 * CRYPTO.ASOF: where the answer in a cell came from (when fetched, fresh,
 * cached or stale, the endpoint, its credits, its error). Thin documented
 * wrapper (JSDoc → functions.json); the work happens in src/formulas/provenance.ts.
 */
import { run } from '../office/custom-functions';

// Custom enums (@customenum): the values Excel offers in AutoComplete (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-custom-enums); the formula takes them in any case.

/**
 * Fields of CRYPTO.ASOF.
 * @customenum {string}
 */
enum AsOfField {
  /** When the answer was fetched, UTC (default) */
  fetchedAt = "fetchedAt",
  /** fresh, cached, stale (the last good value after a failure) or no data */
  status = "status",
  /** The API endpoints that answered */
  endpoint = "endpoint",
  /** Credits the answer cost (0 from the cache) */
  credits = "credits",
  /** The error, if the last attempt failed */
  error = "error",
  /** Every field as a table */
  all = "all",
}

/**
 * When and where the answer in a cell came from: the fetch time (UTC) of a CRYPTO formula's answer, or its status, endpoint, credits or error.
 * @customfunction ASOF
 * @helpurl https://localhost:3000/help/asof.html
 * @param cell A cell with a CRYPTO formula, or any cell of its spilled table, e.g. B2. Recalculates when that answer arrives.
 * @param [field] fetchedAt (default: a UTC date and time), status (fresh, cached, stale or no data), endpoint, credits, error, or all for a Field/Value table.
 * @param invocation Invocation
 * @returns When the answer was fetched, or the field asked for.
 * @cancelable
 * @requiresParameterAddresses
 */
export function asOf(cell: any[][], field?: AsOfField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  // Excel names the cell the first argument points at (requiresParameterAddresses); the answer kept for it is looked up there.
  const at = invocation?.parameterAddresses?.[0] ?? null;
  return run('ASOF', invocation, [cell, field, at]);
}
