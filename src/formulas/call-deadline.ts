/**
 * One deadline per formula call, covering everything the call waits for:
 * the coin map, pacing under the rate limit, retries and their backoff, every
 * page of paged history. When it passes, the call settles (the host serves the
 * last good value, else #N/A saying what failed) and its work is cancelled, so
 * no cell stays #BUSY! however the service fails.
 *
 * The same 45 s bound each client request has (DEFAULT_REQUEST_DEADLINE_MS):
 * under the ~60 s after which some Office hosts fail a custom function's fetch,
 * and room for two of the client's 20 s attempts.
 */
import { DEFAULT_REQUEST_DEADLINE_MS, type AttemptFailure } from '../client/client';
import { notAvailable, type FormulaError } from './cells';

export const CALL_DEADLINE_MS = DEFAULT_REQUEST_DEADLINE_MS;

/** What the client can say about why a call is still waiting. */
export interface WaitDiagnosis {
  lastFailure(caller?: string): AttemptFailure | null;
  readonly queuedForRate: number;
  readonly rateLimitPerMinute: number;
}

/** The #N/A of a call that ran out of time: what failed (or what it waited for), and that a recalculation retries. */
export function deadlineError(ms: number, startedAt: number, client: WaitDiagnosis, formula?: string): FormulaError {
  const f = client.lastFailure(formula);
  const why =
    f && f.at >= startedAt
      ? `last failure: ${f.message.replace(/\.$/, '')}`
      : client.queuedForRate > 0
        ? `requests are queued under the plan's limit of ${client.rateLimitPerMinute} a minute`
        : 'the service did not answer';
  return notAvailable(`No answer within ${Math.ceil(ms / 1000)} s (${why}); the next recalculation retries`, 'DEADLINE', true);
}

/**
 * Settles as `work` does, or when `ms` have passed rejects with `expired()`
 * and calls `stop()` (work nobody waits for any more is cancelled). Not async:
 * thousands of calls wait here at once.
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, expired: () => FormulaError, stop: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(expired());
      stop();
    }, ms);
    work.then(
      (x) => {
        clearTimeout(timer);
        resolve(x);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
