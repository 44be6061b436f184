/**
 * CRYPTO.COIN: a coin as an Excel data type (coin-entity.ts shapes it). It
 * reads the quote PRICE reads, through the same batched markets request
 * (client/quote-batcher.ts), so a column of COIN cells costs what a column of
 * PRICE cells costs, and COIN, PRICE and QUOTE cells of the same coins share
 * their requests. On CustomFunctionsRuntime 1.4 the cell holds the entity; on
 * older runtimes the coin's name as text (cells.ts, workbookCell).
 *
 * Over a range it spills one entity per cell, the range's shape kept (a blank
 * stays blank), at most MAX_COIN_ENTITIES: Excel limits a custom function's
 * payload to 5 MB (office-js#4654, where entity arguments fail at scale) and
 * large arrays of entities have been reported stuck on the web (office-js#3129).
 */
import { coinArg, currencyArg, flatCells, type Arg } from './args';
import { EMPTY, invalidValue, type Cell, type Grid } from './cells';
import { coinEntity } from './coin-entity';
import { fiatRate, isApiCurrency, quoteIn } from './currency';
import { scopeOf, toFormulaError } from './failure';
import type { Catalog, FormulaContext } from './formula-context';

/** The most entities one COIN formula spills. */
export const MAX_COIN_ENTITIES = 100;

/** The coins as a grid of the range's shape (a single value is 1x1). */
function coinGrid(coins: Arg): Arg[][] {
  if (!Array.isArray(coins)) return [[coins]];
  const rows = (coins as unknown[]).map((r) => (Array.isArray(r) ? r : [r]));
  return rows.length === 0 || rows[0].length === 0 ? [[null]] : rows;
}

// Not async: a column of COIN cells waits at once. A quote the client holds fresh answers without a promise.
function coin(ctx: FormulaContext, coins: Arg, currency: Arg): Grid | Promise<Grid> {
  const grid = coinGrid(coins);
  const cells = flatCells(grid);
  if (cells.every((x) => x === null)) throw invalidValue('coin is required: a coin id, slug, symbol or name, or a range of them, e.g. "bitcoin"');
  if (cells.length > MAX_COIN_ENTITIES) {
    throw invalidValue(`coin takes at most ${MAX_COIN_ENTITIES} coins (Excel limits how many data types one formula returns); got ${cells.length}: split the range, or use CRYPTO.QUOTE for a table`);
  }
  const cur = currencyArg(currency, ctx.settings.defaultCurrency);
  if (cells.length === 1) {
    const input = coinArg(grid[0][0]);
    const known = isApiCurrency(cur) ? ctx.client.quoteNow(input, { currency: cur }) : undefined;
    return known ? [[coinEntity(known)]] : quoteIn(ctx.client, input, cur).then((q) => [[coinEntity(q)]]);
  }
  return spill(ctx, grid, cur);
}

async function spill(ctx: FormulaContext, grid: Arg[][], cur: string): Promise<Grid> {
  // An unknown currency fails the formula, not each cell (the rate is then cached for the cells).
  if (!isApiCurrency(cur)) await fiatRate(ctx.client, cur);
  // Every coin asked at once: the client batches them into few requests.
  return Promise.all(
    grid.map((row) =>
      Promise.all(
        row.map(async (input): Promise<Cell> => {
          if (flatCells(input)[0] === null) return EMPTY;
          try {
            return coinEntity(await quoteIn(ctx.client, coinArg(input), cur));
          } catch (e) {
            // One coin's problem (unknown, bad input) is its cell's error; the service's or the key's fails the formula (the last good spill stays).
            const err = toFormulaError(e, ctx.caller);
            if (scopeOf(err) === 'call') throw err;
            return err.toCell();
          }
        }),
      ),
    ),
  );
}

export const coinFormulas: Catalog = { COIN: coin };
