/*
 * CRYPTO.COIN: a coin as an Excel data type. The JSDoc here becomes
 * functions.json (custom-functions-metadata-plugin); the work happens in
 * src/formulas/coin.ts through the calculation host. Function ids are stable
 * once shipped: Excel caches them.
 */
import { run } from '../office/custom-functions';

/**
 * Currencies: a suggestion list (SUGGESTED_CURRENCIES in src/formulas/args.ts); any code of the provider's fiat list is taken.
 * @customenum {string}
 */
enum CoinCurrency {
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
 * A coin as a data type: the cell shows its name; =A1.Price, =A1.[Market cap] read its fields; click it for its card. Costs what CRYPTO.PRICE costs. On Excel without data types for add-ins (CustomFunctionsRuntime 1.4), the coin's name as text.
 * @customfunction COIN
 * @helpurl https://localhost:3000/help/coin.html
 * @param coin A coin (id, slug, symbol or name, e.g. "bitcoin"), or a range of up to 100 coins: one data type per cell.
 * @param [currency] "USD", "EUR", or any currency code of the provider's fiat list ("GBP", "JPY"...), converted at today's rate. Left out: the task pane's default currency (USD unless changed).
 * @param invocation Invocation
 * @returns The coin as a data type, or one per coin of the range.
 * @cancelable
 * @requiresAddress
 */
export function coin(coin: any[][], currency?: CoinCurrency, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('COIN', invocation, [coin, currency]);
}
