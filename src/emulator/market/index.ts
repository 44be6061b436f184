/**
 * The emulator's synthetic market: deterministic from a seed, answering every data
 * endpoint of the endpoint table (see ../contract.ts). Choices are documented in README.md
 * beside this file and at the top of each module.
 */
import type { MarketDataSource, MarketOptions } from '../contract';
import { Market } from './context';
import { createHandlers } from './handlers';

/** The seed used when none is given. */
export const DEFAULT_SEED = 20250601;

export function createMarket(opts: MarketOptions = {}): MarketDataSource {
  const market = new Market(opts.seed ?? DEFAULT_SEED);
  return { handlers: createHandlers(market) };
}

export { Market } from './context';
export { BTC_ID, ETH_ID, USDT_ID } from './context';
