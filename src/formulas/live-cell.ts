/**
 * A LIVEPRICE cell in a streaming host (Excel's glue, src/functions/live.ts):
 * its arguments checked (live.ts), subscribed to the shared PriceStream
 * (price-stream.ts). Pure: the host and the stream are handed in.
 */
import type { ConvertCurrency } from '../api/endpoints';
import type { Arg } from './args';
import type { FormattedCell, FormulaError } from './cells';
import { markStale } from './provenance';
import { LIVE_CALLER, liveArgs, type LiveArgs } from './live';
import type { PriceStream } from './price-stream';

/** What a LIVEPRICE cell needs of the calculation host: its error log (CalculationHost.report), and whether stale values are marked. */
export interface LiveHost {
  report(formula: string, e: unknown, servedLastGood?: boolean): FormulaError;
  readonly settings?: { markStale?: boolean };
}

/** What a LIVEPRICE cell shows: the price, or a stale one marked "(stale)" (a number format) where the host marks them. */
export type LiveValue = number | FormattedCell;

/**
 * A LIVEPRICE cell: its arguments checked, subscribed to the shared stream.
 * Every failure (a bad argument, an unknown coin, an outage) goes through the
 * calculation host, so it reaches the pane's error log like every formula's.
 * A stale price is marked as the host marks every stale value (settings.markStale).
 * Returns the unsubscribe.
 */
export function liveCell(
  host: LiveHost,
  stream: PriceStream,
  raw: { coin: Arg; intervalSeconds: Arg; currency: Arg },
  defaultCurrency: ConvertCurrency,
  onValue: (value: LiveValue) => void,
  onError: (err: FormulaError) => void,
): () => void {
  let args: LiveArgs;
  try {
    args = liveArgs(raw.coin, raw.intervalSeconds, raw.currency, defaultCurrency);
  } catch (e) {
    onError(host.report(LIVE_CALLER, e));
    return () => undefined;
  }
  const mark = host.settings?.markStale === true;
  return stream.subscribe(
    args,
    (price, quote, failure) => {
      // The failure behind a price now standing stale, once: in the pane's log as every other formula's, saying
      // the last good value stands in as PRICE's entries do (review 2026-11-27).
      if (failure) host.report(LIVE_CALLER, failure, true);
      onValue(quote.stale && mark ? (markStale(price) as FormattedCell) : price);
    },
    (err) => onError(host.report(LIVE_CALLER, err)),
  );
}
