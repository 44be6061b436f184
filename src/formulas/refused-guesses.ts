/**
 * Guessed parameter names (guessed-params.ts) the service refused in this session. A formula with
 * a way around a refused name takes it at once next time, not after another request the service
 * refuses again: SEARCH, refused its `query`, asked the search once per cell before the currency
 * map answered (a wasted request and its wait, per cell).
 *
 * Per calculation host (one per session, host.ts hands it to every evaluation's context), so another
 * session, or the next test, knows nothing of it, and the record goes with its session. Not forgotten
 * on a key change or "Refresh all data": those change the plan (the plan gate forgets its refusals,
 * client/plan-gate.ts), and a parameter's name is the service's, not the plan's [guess].
 */
import type { EndpointName } from '../api/endpoints';
import type { ApiError } from '../client/api-error';
import { refusedName } from './guessed-params';

const keyOf = (endpoint: EndpointName, param: string) => `${endpoint} ${param}`;

/** "endpoint param" -> the service's refusal (its words give a formula's note). */
export class RefusedGuesses {
  readonly #refused = new Map<string, ApiError>();

  remember(endpoint: EndpointName, param: string, e: ApiError): void {
    this.#refused.set(keyOf(endpoint, param), e);
  }

  before(endpoint: EndpointName, param: string): ApiError | undefined {
    return this.#refused.get(keyOf(endpoint, param));
  }
}

/** What this reads of a formula's context (formula-context.ts; not imported: it names this file's class). */
type Remembering = { refusedGuesses?: RefusedGuesses };

/**
 * `ask()` sends the guessed name `param` to `endpoint`: it is not sent again once the service
 * refused it this session (the refusal is the answer, at once), and a refusal of the name now is
 * remembered. A refused value ("limit must not be greater than 50") is this call's alone: the next
 * value may be taken (refusedName). Whatever the caller does with a refusal is as before.
 */
export async function askGuessed<T>(ctx: Remembering, endpoint: EndpointName, param: string, ask: () => Promise<T>): Promise<T> {
  const before = ctx.refusedGuesses?.before(endpoint, param);
  if (before) throw before;
  try {
    return await ask();
  } catch (e) {
    if (refusedName(e, param)) ctx.refusedGuesses?.remember(endpoint, param, e as ApiError);
    throw e;
  }
}
