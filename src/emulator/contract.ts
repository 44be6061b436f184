/**
 * The seam between the emulator's HTTP layer (server.ts: keys, plans, strict
 * parameter validation from the endpoint table, credits, rate limits, faults,
 * CORS) and its synthetic market (market/: what the data is).
 *
 * The server has already checked the query against ENDPOINTS[name].params and
 * the key's plan before a handler runs; a handler only answers for the data.
 */
import type { EndpointName, Plan } from '../api/endpoints';

export interface HandlerRequest {
  /** The `{id}` path segment, when the endpoint has one (a decimal integer, checked by the server). */
  id?: number;
  /** Query parameters as sent (already validated against the endpoint table); defaults are NOT filled in. */
  query: Readonly<Record<string, string>>;
  /** The emulator's clock, epoch ms (fixed with --now, or a test's controlled clock). */
  now: number;
  /** The key's plan, for limits that depend on it (the sparkline's depth); absent in direct calls = no limit. */
  plan?: Plan;
}

export interface HandlerResult {
  data: unknown;
  /** For paginated endpoints: { page, pageSize, hasNextPage } (holders add blockchainId, snapshotDate). */
  meta?: Record<string, unknown>;
  /** For `buckets`-priced endpoints: how many items were returned (credits: 1 + 1 per 100 beyond 100). */
  buckets?: number;
}

/** The addressed resource does not exist: 404 NOT_FOUND. */
export class NotFoundError extends Error {}
/** Parameters that pass the table's checks but make no sense together (e.g. from after to): 400 VALIDATION_ERROR. */
export class InvalidRequestError extends Error {}

/** A request the key's plan does not reach (e.g. history deeper than the plan allows): 403 PLAN_LIMIT_EXCEEDED. */
export class PlanLimitError extends Error {}

export type Handler = (req: HandlerRequest) => HandlerResult;

/** Every endpoint but the account ones (status, ping), which the server answers itself. */
export type DataEndpointName = Exclude<EndpointName, 'status' | 'ping'>;

export interface MarketOptions {
  /** Same seed, same market: a value for a past date is the same in every run. */
  seed?: number;
}

export interface MarketDataSource {
  handlers: Record<DataEndpointName, Handler>;
}
