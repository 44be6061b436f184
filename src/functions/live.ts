/*
 * CRYPTO.LIVEPRICE: the one streaming function. The wiring only: Excel's
 * streaming invocation ↔ the runtime's PriceStream (src/formulas/live.ts), which
 * polls once for every cell. Deleting the cell (or editing its formula) calls
 * onCanceled, which unsubscribes; the poll loop stops with the last cell. New
 * settings build a new runtime with a new stream, and the cells move to it.
 */
import type { FormulaError } from '../formulas/cells';
import { toFormulaError } from '../formulas/failure';
import { liveCell } from '../formulas/live';
import { excelError, inPreview } from '../office/custom-functions';
import { getRuntime, onRuntimeChanged, type Runtime } from '../office/runtime';

// Custom enums (@customenum): the values Excel offers in AutoComplete for a choice argument; older builds ignore them and the argument takes text as before (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-custom-enums). The formulas still accept every spelling they list in their errors; test/custom-enums.test.ts keeps these lists and theirs in step. Values in double quotes: the generator reads them as JSON.

/**
 * Quote currencies: a suggestion list (SUGGESTED_CURRENCIES in src/formulas/args.ts); any code of the provider's fiat list is taken.
 * @customenum {string}
 */
enum LiveCurrency {
  /** US dollars (default) */
  USD = "USD",
  /** Euros */
  EUR = "EUR",
  /** British pounds, at today's rate from the fiat list */
  GBP = "GBP",
  /** Japanese yen, at today's rate from the fiat list */
  JPY = "JPY",
}

/**
 * A coin's price that keeps updating while the workbook is open (opt-in: it spends credits on every update).
 * @customfunction LIVEPRICE
 * @helpurl https://localhost:3000/help/liveprice.html
 * @param coin Coin id, slug, symbol or name, e.g. "bitcoin", "BTC" or 1.
 * @param [intervalSeconds] Seconds between updates, 1 to 86400 (default 60). Never faster than a quarter of your plan's daily credits or of your daily credit budget (the lower) affords, or than the live-data freshness setting.
 * @param [currency] "USD", "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate. Left out: the task pane's default currency (USD unless changed).
 * @param invocation Streaming invocation
 * @returns The price, updated in place.
 * @streaming
 */
export function livePrice(coin: any, intervalSeconds: any, currency: LiveCurrency, invocation: CustomFunctions.StreamingInvocation<number>): void {
  let canceled = false;
  let unsubscribe: (() => void) | null = null;
  // New settings build a new runtime (client, freshness, currency): the cell moves to its stream.
  let stopFollowing: (() => void) | null = null;
  invocation.onCanceled = () => {
    canceled = true;
    unsubscribe?.();
    unsubscribe = null;
    stopFollowing?.();
  };
  if (inPreview(invocation)) {
    invocation.setResult(excelError({ code: '#N/A', message: 'Press Enter to start streaming: the preview spends no credits' }));
    return;
  }
  const fail = (e: unknown) => {
    if (!canceled) invocation.setResult(excelError(toFormulaError(e, 'LIVEPRICE')));
  };
  const start = (rt: Runtime) => {
    if (canceled) return;
    unsubscribe?.();
    unsubscribe = null;
    // Through the calculation host: a bad argument or a failed poll is logged in the pane like any formula's,
    // the cell shows why, and settings changes still go through.
    unsubscribe = liveCell(
      rt.host,
      rt.stream,
      { coin, intervalSeconds, currency },
      rt.settings.defaultCurrency,
      (price) => !canceled && invocation.setResult(price),
      (err: FormulaError) => !canceled && invocation.setResult(excelError(err)),
    );
  };
  void getRuntime()
    .then((rt) => {
      start(rt);
      if (!canceled) stopFollowing = onRuntimeChanged(start);
    })
    .catch(fail);
}
