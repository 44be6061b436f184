/**
 * Money the API gives in USD only, beside formulas that answer in the workbook's
 * default currency (PRICE, MARKETS, PROFILE): labelled "(USD)" where that default
 * is not USD, so a sheet mixing them sees which number is which (review-r3 #1:
 * PROFILE(mcap)/GLOBAL(totalMarketCap) in a EUR workbook read 57.7 % for 63.2 %).
 *
 * The one rule for OHLCV, RETURNS, SPARKLINE, TVL, STATS' vwap, the movers, GLOBAL,
 * DERIVATIVES, ALTSEASON and BLOCKCHAIN(S): as it is in a USD workbook (STOCKHISTORY's
 * plain "Close", which lookups by header match), "Close (USD)" in any other. Its own
 * module so that global.ts and history.ts (which imports global.ts) share it without an
 * import cycle (test/import-graph.test.ts).
 */
import { scalar, type Arg } from './args';
import type { FormulaContext } from './formula-context';

type Settings = Pick<FormulaContext['settings'], 'defaultCurrency'>;

/** A USD money header: as it is in a USD workbook (lookups by header match), "Price (USD)" in any other. */
export function usdHeader(header: string, settings: Settings): string {
  return settings.defaultCurrency === 'USD' ? header : `${header} (USD)`;
}

/**
 * The Field column's label of a Field/Value table (GLOBAL, DERIVATIVES, BLOCKCHAIN): a USD
 * money field as usdHeader says ("totalMarketCap (USD)"), any other field by its name.
 */
export function usdFieldLabel(usdFields: ReadonlySet<string>, settings: Settings): (field: string) => string {
  return (field) => (usdFields.has(field) ? usdHeader(field, settings) : field);
}

/**
 * A field argument, typed plain ("totalMarketCap") or taken from a table's Field column
 * ("totalMarketCap (USD)", e.g. =GLOBAL(A2)): the plain name, which the one-field form takes.
 */
export function plainFieldArg(v: Arg): Arg {
  const s = scalar(v);
  return typeof s === 'string' ? s.replace(/\s*\(USD\)\s*$/i, '') : v;
}
