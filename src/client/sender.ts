/**
 * One request sent: tries with retries (retry.ts), each an HTTP attempt
 * (transport.ts), paced (pacer.ts), metered (credit-meter.ts), within the
 * request deadline; a refusal of the endpoint is told to the plan gate. It
 * keeps the latest failure per caller: what a call that ran out of time tells
 * the user (formulas/call-deadline.ts).
 */
import { creditCost, type EndpointName } from '../api/endpoints';
import { ApiError, hasCode, routeUnavailable } from './api-error';
import { onAbort } from './cancellation';
import { errorRule } from './error-rules';
import type { CanonicalRequest } from './canonical-request';
import { MAP_MAX_DELAY_MS, type ResolvedOptions } from './client-options';
import { creditsToCount, type CreditMeter } from './credit-meter';
import type { Pacer } from './pacer';
import type { PlanGate } from './plan-gate';
import { withRetries } from './retry';
import { attempt, type AttemptResult } from './transport';
import type { AttemptFailure } from './types';

/**
 * Requests many cells wait on: the currency map (every text coin), /v3/status
 * (every request's pace) and a markets page (a column of prices). One failure
 * of these fails whole sheets, so they are tried until the request deadline,
 * closer together (client-options.ts MAP_MAX_RETRIES); tries nobody waits for
 * stop with their waiters (shared-work.ts). Under 80 % of dropped connections
 * a markets page's four tries all failed about one cold sheet in four.
 */
const SHARED = new Set<EndpointName>(['currencyMap', 'status', 'markets']);

/** An attempt failing within this long failed fast: no answer was worked on (retry.ts refundSlot). */
const FAST_FAILURE_MS = 2_000;

export interface SenderParts {
  options: ResolvedOptions;
  meter: CreditMeter;
  pacer: Pacer;
  gate: PlanGate;
  /** The response cache's generation now: a key change (or Refresh all data) moves it on. */
  generation(): number;
  /** The key as the key store holds it now. */
  readKey(): Promise<string | null>;
  /** Requests just sent that an answer's reading waits for, if any (transport.ts readAfter). */
  wireFirst?: () => Promise<void> | undefined;
}

/** A request without a key: not sent. */
export function noApiKey(name: EndpointName): ApiError {
  return new ApiError({ code: 'NO_API_KEY', message: 'No API key: add your CryptoRank API key in the task pane.', endpoint: name });
}

/** The key a request goes with, and the response cache's generation it was read in. */
export interface RequestKey {
  apiKey: string;
  generation: number;
}

export class Sender {
  readonly #o: SenderParts;
  /** The latest failed attempt per caller (formula), and the latest of the service's own (key '': retryable ones). */
  readonly #lastFailures = new Map<string, AttemptFailure>();

  constructor(parts: SenderParts) {
    this.#o = parts;
  }

  /**
   * The latest failed HTTP attempt (cancellations aside) for requests `caller` started, else the latest of the
   * service's (an outage, the rate limit, no connection: what any waiting request may have met).
   */
  lastFailure(caller?: string): AttemptFailure | null {
    return (caller !== undefined ? this.#lastFailures.get(caller) : undefined) ?? this.#lastFailures.get('') ?? null;
  }

  /** One request with retries, metered, within its deadline; an endpoint the service refused is told to the gate. */
  async send(cr: CanonicalRequest, caller: string | undefined, key: RequestKey, signal: AbortSignal): Promise<AttemptResult> {
    const bound = this.#bounded(signal);
    try {
      return await this.#attempts(cr, caller, key, bound.signal);
    } catch (e) {
      if (bound.expired()) {
        const last = this.lastFailure(caller);
        const why = last ? `; last failure: ${last.message.replace(/\.$/, '')}` : '';
        throw new ApiError({ code: 'TIMEOUT', message: `${cr.name}: no answer within ${Math.ceil(this.#o.options.requestDeadlineMs / 1000)} s, retries included${why}.`, endpoint: cr.name });
      }
      // An answer for the key of an older generation says nothing of today's key: an old key's 401, landing
      // after the user saved a valid one, locked the new key out (review 2026-11-27, as the learners: e5ce07c).
      if (key.generation === this.#o.generation()) {
        // Refused, or no such route (404 "Cannot GET"; a request for one id may be a coin that does not exist).
        if (hasCode(e, 'ENDPOINT_NOT_AVAILABLE') || (e instanceof ApiError && routeUnavailable(e) && cr.id === undefined)) this.#o.gate.refused(cr.name, e);
        this.#o.gate.failed(e);
      }
      throw e;
    } finally {
      bound.done();
    }
  }

  /** `signal`, aborted also when the request's deadline passes. */
  #bounded(signal: AbortSignal): { signal: AbortSignal; expired(): boolean; done(): void } {
    const c = new AbortController();
    let expired = false;
    const stop = onAbort(signal, () => c.abort());
    const t = setTimeout(() => {
      expired = true;
      c.abort();
    }, this.#o.options.requestDeadlineMs);
    return {
      signal: c.signal,
      expired: () => expired,
      done: () => {
        clearTimeout(t);
        stop();
      },
    };
  }

  /**
   * The key to send with now that the request's turn came, its generation gone (the plan, the pacer and backoff
   * may have held it for minutes): after Refresh all data, the same key; after "Remove key" or a new key, none:
   * the request is not sent (review 2026-11-27: queued requests went out with a key the user had removed).
   */
  async #keyAfterChange(cr: CanonicalRequest, apiKey: string): Promise<string> {
    const now = await this.#o.readKey();
    if (now === apiKey) return now;
    if (now === null) throw noApiKey(cr.name);
    throw new ApiError({ code: 'ABORTED', message: `${cr.name}: not sent, the API key changed while it waited.`, endpoint: cr.name });
  }

  #attempts(cr: CanonicalRequest, caller: string | undefined, key: RequestKey, signal: AbortSignal): Promise<AttemptResult> {
    const o = this.#o.options;
    /** The request's turn came after its key went (#keyAfterChange): the slot was not used. */
    let unsent = false;
    return withRetries(
      async (sig) => {
        let apiKey = key.apiKey;
        if (key.generation !== this.#o.generation()) {
          try {
            apiKey = await this.#keyAfterChange(cr, apiKey);
          } catch (e) {
            unsent = true;
            throw e;
          }
        }
        try {
          const r = await attempt({
            baseUrl: o.baseUrl, request: cr, apiKey, fetch: o.fetch, timeoutMs: o.timeoutMs, maxBytes: o.maxResponseBytes, signal: sig, now: o.now, keyPlan: this.#o.gate.plan?.plan, readAfter: this.#o.wireFirst,
          });
          this.#o.meter.recordRequest(cr.name, caller, creditsToCount(r.usedCredits, creditCost(cr.name, cr.query, itemsIn(r))));
          return r;
        } catch (e) {
          if (!hasCode(e, 'ABORTED')) {
            this.#o.meter.recordRequest(cr.name, caller, 0);
            const failure = { code: e instanceof ApiError ? e.code : 'UNEXPECTED', message: e instanceof Error ? e.message : String(e), at: o.now() };
            // Another cell's refusal of its own input (a 404, a 400) is no reason this one waited: the fallback for
            // every caller keeps the service's failures only (review 2026-11-27, formulas #3).
            if (e instanceof ApiError && e.retryable) this.#lastFailures.set('', failure);
            if (caller !== undefined) this.#lastFailures.set(caller, failure);
          }
          throw e;
        }
      },
      // /v3/status goes ahead of the queue: a re-ask after a failed one (STATUS_RETRY_MS) would
      // otherwise wait behind every request queued at the lowest plan's rate, and so would the
      // requests that need the plan first (each page of paged history).
      {
        // Requests many cells wait on get more tries, closer together (SHARED).
        maxRetries: SHARED.has(cr.name) ? Math.max(o.maxRetries, o.sharedMaxRetries) : o.maxRetries,
        maxDelayMs: SHARED.has(cr.name) ? MAP_MAX_DELAY_MS : undefined,
        pacer: this.#o.pacer,
        sleep: o.sleep,
        now: o.now,
        random: o.random,
        signal,
        first: cr.name === 'status',
        // While the plan is unknown the pacer runs at the lowest plan's rate; a fast failure (a 500,
        // a dropped connection) gives its slot back, so a cold start under heavy faults is not
        // paced into its deadline by attempts that failed at once (issue #22). A connection that
        // failed with no HTTP answer gives it back whatever the plan: guess: it never reached the
        // service's rate limit (a 500 did, so it keeps its slot once the plan's rate is known).
        // Which failure is which is the row's `pacer` column (error-rules.ts).
        refundSlot: (e, ms) => {
          if (unsent) return true;
          const pacer = errorRule(e.code, e.status).pacer;
          return e.retryable && pacer !== 'rate-limit' && ms < FAST_FAILURE_MS && (this.#o.gate.plan === null || pacer === 'unreached');
        },
        // A granted slot goes to /v3/status when its re-ask is due: requests queued before it was
        // due would otherwise take every slot of the next window ahead of it.
        yieldSlot: cr.name === 'status' ? undefined : () => this.#o.gate.reaskIfDue(),
      },
    );
  }
}

/** The items an answer returned, read or not: what a `buckets` endpoint charges by (creditCost). */
function itemsIn(r: AttemptResult): number {
  return (Array.isArray(r.data) ? r.data.length : 0) + (r.rejected?.length ?? 0);
}
