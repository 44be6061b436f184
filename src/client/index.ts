/** The shared API client: cached, shared, paced, retried, validated. */
export { MarketClient, DEFAULT_FRESHNESS_MS, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_RETRIES, DEFAULT_MAX_CACHE_ENTRIES, DEFAULT_BATCH_WINDOW_MS, PERSIST_DELAY_MS } from './client';
export type { ClientOptions, Fetched, RequestOptions } from './client';
export { ApiError, CLIENT_ERROR_CODES, ERROR_RULES, allowsStaleFallback, errorRule } from './api-error';
export type { ErrorRule } from './api-error';
export type { CoinRef, Ambiguity } from './coin-ref';
export { describeCoin } from './coin-ref';
export type { Quote } from './quote';
export { quoteFromMarketItem } from './quote';
export { CreditMeter } from './credit-meter';
export type { MeterSnapshot } from './credit-meter';
export { MemoryKeyStore } from './key-store';
export type { KeyStore } from './key-store';
export { MemoryKvStore } from './kv-store';
export type { KvStore } from './kv-store';
export { freshnessOf } from './canonical-request';
export type { Sleep } from './clock';
export type { AccountStatus } from '../api/records';
export type { ConvertCurrency, EndpointName, EndpointData, Freshness, Plan } from '../api/endpoints';
