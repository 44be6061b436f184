/**
 * CRYPTO.ASOF(cell, [field]): where the answer shown in a cell came from, read
 * from the calculation host's provenance (provenance.ts): when it was fetched
 * (UTC), whether it is fresh, reused from the cache or stale (the last good
 * value after a failure), which endpoint answered, its credits, its error.
 */
import { fieldArg, type Arg } from './args';
import { DateCell, DATE_FORMATS, formulaError, invalidValue, toSerial, type Cell, type FormulaResult } from './cells';
import type { Catalog, FormulaContext } from './formula-context';
import { FRESHNESS_WORDS, type Provenance } from './provenance';

export const ASOF_FIELDS = ['fetchedAt', 'status', 'endpoint', 'credits', 'error'] as const;
export type AsOfField = (typeof ASOF_FIELDS)[number];
/** ASOF's field argument: one field, or "all" for the Field/Value table. */
const ASOF_CHOICES = [...ASOF_FIELDS, 'all'] as const;

/** One field of a provenance, or all of them as a Field/Value table. */
export function asOfCells(p: Provenance, field: AsOfField | null): FormulaResult {
  const endpoints = [...new Set(p.fetches.map((f) => f.endpoint))].join(', ');
  const fetched: Cell = p.fetchedAt === null ? '' : new DateCell(toSerial(p.fetchedAt), `${DATE_FORMATS.dateTime}:ss`);
  const values: Record<AsOfField, Cell> = {
    fetchedAt: fetched,
    status: FRESHNESS_WORDS[p.freshness],
    endpoint: endpoints,
    credits: p.credits,
    error: p.error ? p.error.message : '',
  };
  if (field) {
    if (field === 'fetchedAt' && p.fetchedAt === null) {
      throw formulaError('NOT_FOUND', p.error ? `No answer was fetched: ${p.error.message}` : 'This CRYPTO cell fetched nothing (its answer needs no request)');
    }
    // A 1x1 grid, not a scalar: ASOF is declared a matrix function (its table), and Excel holds a custom
    // function to its declared dimensionality (office-js#2486: a 2-D answer from a scalar one is #VALUE!).
    return [[values[field]]];
  }
  const labels: Record<AsOfField, string> = {
    fetchedAt: 'Fetched at (UTC)',
    status: 'Status',
    endpoint: 'Endpoint',
    credits: 'Credits',
    error: 'Error',
  };
  return [['Field', 'Value'], ...ASOF_FIELDS.map((f) => [labels[f], values[f]])];
}

/** The top-left cell of a reference: "Sheet1!B2:G30" → "Sheet1!B2". */
const firstCell = (address: string) => address.replace(/:[^!]*$/, '');

/**
 * CRYPTO.ASOF(cell, [field]): when the answer shown at `cell` (a CRYPTO
 * formula's cell or a cell of its spill) was fetched, whether it is fresh,
 * reused from the cache or stale (the last good value after a failure), which
 * endpoint answered, its credits, its error. The glue passes the cell's
 * address (requiresParameterAddresses) as the third argument; the reference
 * itself makes Excel recalculate ASOF when that cell's answer arrives.
 */
function asof(ctx: FormulaContext, cell: Arg, field: Arg, address: Arg): Promise<FormulaResult> {
  const f = fieldArg(field, ASOF_CHOICES) ?? 'fetchedAt';
  let p: Provenance | null | undefined;
  if (typeof address === 'string' && address.includes('!')) {
    const at = firstCell(address);
    p = ctx.provenance?.at(at);
    if (!p) {
      return Promise.reject(
        formulaError('NOT_FOUND', `No CRYPTO answer at ${at} since the add-in started: ASOF knows the answers fetched in this session (refresh the cell to fetch it); a LIVEPRICE cell is not tracked (Excel shares one stream between its cells)`),
      );
    }
  } else {
    // A value, not a cell (a nested call): the most recent answer equal to it.
    const given = Array.isArray(cell) ? cell.flat(2) : [cell];
    if (given.length === 0 || given.every((x) => x === null || x === undefined || x === '')) {
      return Promise.reject(invalidValue('cell must be a cell with a CRYPTO formula, or a cell it spills into, e.g. =CRYPTO.ASOF(B2)'));
    }
    p = ctx.provenance?.byValue(cell);
    if (!p) return Promise.reject(formulaError('NOT_FOUND', 'No CRYPTO answer with this value since the add-in started: point ASOF at the cell, e.g. =CRYPTO.ASOF(B2)'));
  }
  try {
    return Promise.resolve(asOfCells(p, f === 'all' ? null : f));
  } catch (e) {
    return Promise.reject(e);
  }
}

export const asofFormulas: Catalog = { ASOF: asof };
