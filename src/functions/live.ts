/*
 * CRYPTO.LIVEPRICE: the one streaming function. The wiring only: Excel's
 * streaming invocation ↔ the runtime's PriceStream (src/formulas/price-stream.ts), which
 * polls once for every cell. Deleting the cell (or editing its formula) calls
 * onCanceled, which unsubscribes; the poll loop stops with the last cell. New
 * settings build a new runtime with a new stream, and the cells move to it.
 *
 * No @requiresAddress, so no provenance for CRYPTO.ASOF: a streaming function's
 * address needs `requiresStreamAddress` (custom-functions-metadata writes it for
 * @requiresAddress with @streaming; Office-Addin-Scripts#884, office-js#6499),
 * and Excel reuses one stream for every cell with the same arguments
 * (office-js-docs-pr#5664, docs/preview-runtime.md), so the one address it gave
 * would name one of those cells and leave the others unknown. A stale price is
 * shown in the cell instead ("(stale)", liveResult).
 */
import type { FormulaError } from '../formulas/cells';
import { toFormulaError } from '../formulas/failure';
import { liveCell, type LiveValue } from '../formulas/live-cell';
import { excelError, inPreview, toExcel } from '../office/custom-functions';
import { getRuntime, onRuntimeChanged, type Runtime } from '../office/runtime';
import { formattedNumbersSupported } from '../office/workbook-traits';

/**
 * A LIVEPRICE cell's value as Excel takes it (toExcel, as every formula's): a
 * price the stream could not refresh is a formatted number showing "(stale)"
 * after it on CustomFunctionsRuntime 1.4, the plain number elsewhere.
 */
export function liveResult(value: LiveValue): unknown {
  // A price holds no date: the workbook's date system plays no part.
  return toExcel(value, { formattedNumbers: formattedNumbersSupported(), dateSystem: '1900' });
}

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
// StreamingInvocation<any>, not <number>: a stale price goes to the cell as a formatted number marked "(stale)"
// (liveResult), an object a result typed number may refuse; PRICE's result is untyped for the same reason (market.ts).
export function livePrice(coin: any, intervalSeconds: any, currency: LiveCurrency, invocation: CustomFunctions.StreamingInvocation<any>): void {
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
      (value) => !canceled && invocation.setResult(liveResult(value)),
      (err: FormulaError) => !canceled && invocation.setResult(excelError(err)),
    );
  };
  // Followed from the call on, not from the first runtime's load: settings applied while it loaded told their
  // new runtime to the cells listening then, and this one went on to the old, disposed stream, polling with the
  // old client (review 2026-11-27: entities #4). A runtime a change brought is not replaced by the older one.
  let moved = false;
  stopFollowing = onRuntimeChanged((rt) => {
    moved = true;
    start(rt);
  });
  void getRuntime()
    .then((rt) => {
      if (!moved) start(rt);
    })
    .catch(fail);
}
