/**
 * LIVEPRICE: the one opt-in streaming formula. Its arguments, checked here
 * for every caller, and its answer outside a streaming host. In Excel the cell
 * streams instead: live-cell.ts subscribes it to the runtime's PriceStream
 * (price-stream.ts), the one poller that serves every LIVEPRICE cell.
 */
import type { ConvertCurrency } from '../api/endpoints';
import { quoteIn } from './currency';
import { coinArg, currencyArg, intArg, type Arg } from './args';
import { notTraded } from './failure';
import type { Catalog, FormulaContext } from './formula-context';

export const LIVE_CALLER = 'LIVEPRICE';
export const DEFAULT_INTERVAL_SECONDS = 60;
export const MIN_INTERVAL_SECONDS = 1;
export const MAX_INTERVAL_SECONDS = 86_400;

export interface LiveArgs {
  coin: string | number;
  /** USD, EUR (the API converts) or any code of the fiat list (converted at its rate: currency.ts). */
  currency: string;
  intervalSeconds: number;
}

/** LIVEPRICE's arguments, checked; a bad one is #VALUE! naming what is allowed. */
export function liveArgs(coin: Arg, intervalSeconds: Arg, currency: Arg, defaultCurrency: ConvertCurrency): LiveArgs {
  return {
    coin: coinArg(coin),
    intervalSeconds: intArg(intervalSeconds, 'intervalSeconds', MIN_INTERVAL_SECONDS, MAX_INTERVAL_SECONDS, DEFAULT_INTERVAL_SECONDS),
    currency: currencyArg(currency, defaultCurrency),
  };
}

// ---------------------------------------------------------------- LIVEPRICE outside Excel

/** Outside a streaming host (CLI, tests, benchmark) LIVEPRICE answers the current price once. */
async function livePriceOnce(ctx: FormulaContext, coin: Arg, intervalSeconds: Arg, currency: Arg): Promise<number> {
  const a = liveArgs(coin, intervalSeconds, currency, ctx.settings.defaultCurrency);
  const q = await quoteIn(ctx.client, a.coin, a.currency);
  if (q.price === null) throw notTraded(q.name);
  return q.price;
}

export const liveFormulas: Catalog = {
  LIVEPRICE: livePriceOnce,
};
