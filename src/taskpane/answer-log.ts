/**
 * "Write log to sheet": the recent answers (the calculation host's provenance
 * log) as rows of a sheet: time, address, formula, endpoint, fetched at, fresh
 * or stale, credits, error. Times are Excel serials in the workbook's date
 * system, formatted as dates. Pure.
 */
import { FRESHNESS_WORDS, type Provenance } from '../formulas/provenance';

export const LOG_SHEET = 'CRYPTO log';
export const LOG_HEADER = ['Time (UTC)', 'Address', 'Formula', 'Endpoint', 'Fetched at (UTC)', 'Status', 'Credits', 'Error'] as const;
export const LOG_FORMATS: (string | null)[] = ['yyyy-mm-dd hh:mm:ss', null, null, null, 'yyyy-mm-dd hh:mm:ss', null, '0', null];

/** An argument as a formula would write it. */
function argText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return `"${v.replace(/"/g, '""')}"`;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (Array.isArray(v)) {
    const flat = v.flat(2).filter((x) => x !== null && x !== undefined && x !== '');
    return flat.length === 1 ? argText(flat[0]) : `{${flat.map(argText).join(';')}}`;
  }
  return typeof v === 'number' ? String(v) : '';
}

/** The formula rebuilt from the arguments it got, where the cell's own text is not known. */
export function callText(p: Pick<Provenance, 'formula' | 'args'>): string {
  const args = p.args.map(argText);
  while (args.length > 0 && args[args.length - 1] === '') args.pop();
  return `=CRYPTO.${p.formula}(${args.join(',')})`;
}

/**
 * Newest first: one row per evaluation and calling cell. `formulaAt` gives a
 * cell's formula text where the workbook was read; `serial` turns an instant
 * into the workbook's date serial.
 */
export function logRows(entries: readonly Provenance[], formulaAt: (address: string) => string | undefined, serial: (ms: number) => number): unknown[][] {
  const rows: unknown[][] = [[...LOG_HEADER]];
  for (const p of entries) {
    const addresses = p.addresses.length > 0 ? p.addresses : [''];
    for (const a of addresses) {
      rows.push([
        serial(p.time),
        a,
        (a && formulaAt(a)) || callText(p),
        [...new Set(p.fetches.map((f) => f.endpoint))].join(', '),
        p.fetchedAt === null ? '' : serial(p.fetchedAt),
        FRESHNESS_WORDS[p.freshness],
        p.credits,
        p.error ? p.error.message : '',
      ]);
    }
  }
  return rows;
}
