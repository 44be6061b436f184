/**
 * THE error vocabulary, from the service's codes to the words in a cell: one
 * row per code, read by every layer.
 *
 * - retry: another attempt may succeed (the service or the network failed): retry.ts, ApiError.retryable;
 * - lastGood: the last good value may stand in, marked stale: the response cache, the quote
 *   batcher, the calculation host (FormulaError.lastGood);
 * - fixKey: only the user can fix it (the plan gate), by adding a key (`add`), another key
 *   (`replace`) or renewing the subscription (`renew`); null when a key would not help;
 * - retryAfter: the answer's Retry-After header says when to ask again (the rate window's room,
 *   the outage's end): transport.ts reads the header for these rows only, retry.ts waits it out;
 * - pacer: what a failed attempt means for the rate pacer: `rate-limit`, the service's rate window
 *   refused it (the backoff holds every request, retry.ts; its slot is kept, sender.ts);
 *   `unreached`, it never reached the service (no HTTP answer: a fast failure gives its slot back
 *   whatever the plan); null, a fast failure gives its slot back while the plan is unknown;
 * - scope: what the failure costs: `item`, the one thing asked (a coin, an argument: its row
 *   of a QUOTE table, its coin in a quote batch), or `call`, the whole call (the service, the
 *   key, the plan: QUOTE fails whole so the host keeps the last good table);
 * - cell: Excel's error for it;
 * - say: the cell's message, from the error's own message and what it carries;
 * - tell: the client error's message for an error answer, from the service's words (scrubbed);
 * - words: the task pane's name for it in the list of recent errors (taskpane/error-words.ts);
 * - gone: what makes the pane drop it from that list: a key saved after it (`key`), the UTC day
 *   turning (`day`), the same formula answering again (`success`), or nothing (null).
 *
 * The pane's sentences for a failed key check or plan read (pane-sentences.ts, beside this
 * file) are chosen by these columns (paneCase), not by code: an outage code is said as one.
 *
 * What a new code needs:
 * - a client or formula code: its name in CLIENT_ERROR_CODES or FORMULA_ERROR_CODES, a row
 *   here, and its test in test/error-rules.test.ts;
 * - an API code (one the service sends): two rows, linked by the compiler: its row in
 *   API_ERROR_CODES (src/api/endpoints.ts: HTTP status, the service's message, `byStatus` if a
 *   bare answer of that status means it), whose key becomes an ErrorCode, so tsc then demands
 *   its row here; and its test. (src/api must not import src/client, so the status cannot move
 *   into this table.) Nothing else reads a code by name for retry, Retry-After, pacing or the
 *   pane's sentences: those follow the columns. Serving it from the emulator (chaos, bench)
 *   also needs a fault kind (src/emulator/faults.ts); tests can use harness/hostile-server.ts.
 * An unknown code from the service takes the row of the code its HTTP status means (codeForStatus).
 */
import { API_ERROR_CODES, ENDPOINTS, PLANS, isRouteMiss, type ApiErrorCode, type EndpointName, type Plan } from '../api/endpoints';

/** Codes the client itself produces (no HTTP response, or an unusable one). */
export const CLIENT_ERROR_CODES = [
  'NO_API_KEY',
  'UNKNOWN_COIN',
  'TIMEOUT',
  'NETWORK_ERROR',
  'MALFORMED_RESPONSE',
  'UNEXPECTED_RESPONSE',
  'ABORTED',
  'BUDGET_EXCEEDED',
  /** The answer lacks a field the formula needs ("The API answered without closingPrice"). */
  'MISSING_FIELD',
] as const;

/** Codes a formula raises itself, with no request behind them. */
export const FORMULA_ERROR_CODES = [
  /** A bad argument: #VALUE! naming it and the allowed values. */
  'INVALID_ARGUMENT',
  /** The coin has no market price. */
  'NOT_TRADED',
  /** The call ran out of time (src/formulas/call-deadline.ts). */
  'DEADLINE',
  /** A statistic the data does not define (too few days, a price that did not move): STATS. */
  'UNDEFINED',
  /** A value preview (the formula being typed) with no answer yet: the preview does not fetch. */
  'NOT_FETCHED',
  /** Anything else: a bug, said plainly. */
  'UNEXPECTED',
] as const;

export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];
export type FormulaErrorCode = (typeof FORMULA_ERROR_CODES)[number];
export type ErrorCode = ApiErrorCode | ClientErrorCode | FormulaErrorCode;

export type ExcelErrorCode = '#N/A' | '#VALUE!';

/** A cell error that carries no code (a table's cell): the pane's words by its Excel error. */
export const CELL_WORDS: Readonly<Record<ExcelErrorCode, string>> = { '#VALUE!': 'Argument not valid', '#N/A': 'No value' };

/** What a phrase may read of an error. */
export interface Failure {
  code: string;
  message: string;
  requiredPlan?: Plan;
  /** The endpoint that failed, where known (a client error): a plan refusal names its part (PLAN_FORMS). */
  endpoint?: string;
}

export interface ErrorRule {
  retry: boolean;
  lastGood: boolean;
  fixKey: 'add' | 'replace' | 'renew' | null;
  /**
   * Retry-After is read: RFC 6585 §4 (429: "how long to wait before making a new request") and
   * RFC 9110 §10.2.3 (503: "how long the service is expected to be unavailable"); a 500 or 502
   * is the same outage row, so its header is read too.
   */
  retryAfter: boolean;
  pacer: 'rate-limit' | 'unreached' | null;
  scope: 'item' | 'call';
  cell: ExcelErrorCode;
  /** The cell's message for this failure of `formula` (e.g. "PRICE"). */
  say(e: Failure, formula: string): string;
  /** The ApiError's message for an error answer of `endpoint`: `detail` is the service's message (or the table's). */
  tell(endpoint: string, detail: string, requiredPlan?: Plan): string;
  words: string;
  gone: 'key' | 'day' | 'success' | null;
}

// ---------------------------------------------------------------- phrases

const noStop = (s: string) => s.replace(/\.$/, '');

/**
 * "X needs the Basic plan or higher (why)": the one wording, for the client's errors and the cells.
 * Without a plan above the lowest to name (the service refused an endpoint the table gives every
 * plan, or one the key's plan has: the plan is a hint, the service the judge), "X is not
 * available in your plan", the service's own words [live].
 */
export function planNeeded(subject: string, plan: Plan | undefined, why?: string): string {
  const because = why ? ` (${why})` : '';
  if (plan === undefined || plan === PLANS[0]) return `${subject} is not available in your plan${because}`;
  return `${subject} needs the ${plan} plan or higher${because}`;
}

/**
 * A 404's words for the ApiError: a route the service does not have ("Cannot GET /v3/…?…", [live])
 * is said as such, the service's words kept (scrubbed by the transport) so the path asked shows.
 */
function notFoundTold(endpoint: string, detail: string): string {
  return isRouteMiss(detail) ? `${endpoint}: the service does not serve this route (${noStop(detail)}).` : `${endpoint}: ${noStop(detail)}.`;
}

/** A coin without a market price: "X has no market price (not traded)"; `what` names another field it lacks for that. */
export function notTradedMessage(name: string, what = 'market price'): string {
  return `${name} has no ${what} (not traded)`;
}

/**
 * The endpoints that serve only part of a formula, one whose other form needs a lower plan: a
 * refusal of one names that part, and the form that works, not the whole formula (review-r3 #9:
 * on Sandbox `FEARGREED("30D")` said "CRYPTO.FEARGREED needs the Basic plan", though
 * `FEARGREED()` works there). `lower` is the endpoint of the other form, whose plan is said.
 * The plans are the endpoint table's ([doc] api-notes: /v3/global/fear-greed and
 * /altcoin-index are Sandbox, their /chart Basic). test/plan-forms.test.ts runs every formula's
 * examples on the key of the plan it is listed under, so a formula with a higher-plan part
 * that is missing here fails there.
 */
export const PLAN_FORMS: Readonly<Partial<Record<EndpointName, { part: string; lower: EndpointName; lowerForm: string }>>> = {
  fearGreedChart: { part: 'history (with dates)', lower: 'fearGreed', lowerForm: 'the current reading (no dates)' },
  altcoinIndexChart: { part: 'history (with dates)', lower: 'altcoinIndex', lowerForm: 'the current reading (no dates)' },
};

/** A plan refusal in a cell: the formula, or the part of it that was refused and the form that works. */
function planRefusal(e: Failure, formula: string): string {
  const form = e.endpoint !== undefined && Object.hasOwn(PLAN_FORMS, e.endpoint) ? PLAN_FORMS[e.endpoint as EndpointName] : undefined;
  if (!form) return planNeeded(`CRYPTO.${formula}`, e.requiredPlan);
  const lowerPlan = ENDPOINTS[form.lower].plan;
  const works = lowerPlan === PLANS[0] ? 'works on every plan' : `works on the ${lowerPlan} plan or higher`;
  return `${planNeeded(`CRYPTO.${formula}'s ${form.part}`, e.requiredPlan)}; ${form.lowerForm} ${works}`;
}

const asIs = (e: Failure) => e.message;
/** The service or the network failed: it passes by itself, and the cell says a recalculation retries. */
const outageSaid = (e: Failure) => `Market data unavailable (${e.code}): ${noStop(e.message)}; the next recalculation retries`;

// ---------------------------------------------------------------- the table

type Defaults = 'cell' | 'scope' | 'fixKey' | 'retryAfter' | 'pacer' | 'tell' | 'gone';
type Row = Omit<ErrorRule, Defaults> & Partial<Pick<ErrorRule, Defaults>>;
const told = (endpoint: string, detail: string) => `${endpoint}: ${noStop(detail)}.`;
const row = (r: Row): ErrorRule => ({ cell: '#N/A', scope: 'call', fixKey: null, retryAfter: false, pacer: null, tell: told, gone: null, ...r });
const keyTold = (_: string, detail: string) => `${noStop(detail)}. Check the API key in the task pane.`;
/** The service or the network failed: gone once the formula answers again. */
const outage = (words: string) => row({ retry: true, lastGood: true, retryAfter: true, say: outageSaid, words, gone: 'success' });
const NO_KEY = row({
  retry: false, lastGood: false, fixKey: 'add', say: () => 'No API key: open Crypto Data on the Home tab and add your key', tell: keyTold, words: 'No API key', gone: 'key',
});

export const ERROR_RULES: Readonly<Record<ErrorCode, ErrorRule>> = {
  // API codes (spec and [doc])
  VALIDATION_ERROR: row({ retry: false, lastGood: false, scope: 'item', cell: '#VALUE!', say: asIs, words: 'Argument not valid' }),
  API_KEY_MISSING: NO_KEY,
  API_KEY_INVALID: row({
    retry: false, lastGood: false, fixKey: 'replace', say: () => 'The API key was rejected: check it in the Crypto Data pane', tell: keyTold, words: 'API key not accepted', gone: 'key',
  }),
  NO_ACTIVE_SUBSCRIPTION: row({
    retry: false,
    lastGood: false,
    fixKey: 'renew',
    say: () => 'Your API key has no active subscription',
    tell: (_, detail) => `${noStop(detail)}. The API key has no active subscription.`,
    words: 'No active subscription',
    gone: 'key',
  }),
  ENDPOINT_NOT_AVAILABLE: row({
    retry: false,
    lastGood: false,
    say: (e, formula) => `${planRefusal(e, formula)}; see your plan in the Crypto Data pane`,
    // The live words ("Endpoint is not available in your plan") say what planNeeded says: not repeated.
    tell: (endpoint, detail, plan) => `${planNeeded(endpoint, plan, /^endpoint is not available (in|for) your plan\.?$/i.test(detail) ? undefined : detail)}.`,
    words: 'Not in your plan',
    gone: 'key',
  }),
  /** Credits or depth over the plan: the credits come back with the next day or period. */
  PLAN_LIMIT_EXCEEDED: row({ retry: false, lastGood: true, say: outageSaid, words: 'Plan limit reached', gone: 'day' }),
  /** No data for the thing asked (a coin, a date): that thing's alone. */
  NOT_FOUND: row({ retry: false, lastGood: false, scope: 'item', say: (e) => `No data: ${e.message}`, tell: notFoundTold, words: 'No such data' }),
  RATE_LIMIT_EXCEEDED: row({
    retry: true, lastGood: true, retryAfter: true, pacer: 'rate-limit', say: (e) => `Rate limit reached (${noStop(e.message)}); the next recalculation retries`, words: 'Too many requests', gone: 'success',
  }),
  INTERNAL_ERROR: outage('CryptoRank unavailable'),
  // client codes
  NO_API_KEY: NO_KEY,
  UNKNOWN_COIN: row({ retry: false, lastGood: false, scope: 'item', say: asIs, words: 'Unknown coin' }),
  TIMEOUT: outage('No answer in time'),
  /** A connection that failed with no HTTP answer (guess: it never reached the service's rate limit). */
  NETWORK_ERROR: { ...outage('Network failure'), pacer: 'unreached' },
  MALFORMED_RESPONSE: outage('Unreadable answer'),
  /** An answer of the wrong shape: asking again gives the same answer, but the last good one is still right. */
  UNEXPECTED_RESPONSE: row({ retry: false, lastGood: true, say: outageSaid, words: 'Unexpected answer', gone: 'success' }),
  /** "The API answered without price (bitcoin, /v3/currencies/markets)": the field and where, as the client wrote it. */
  MISSING_FIELD: row({ retry: false, lastGood: true, scope: 'item', say: asIs, words: 'Data missing from the answer', gone: 'success' }),
  BUDGET_EXCEEDED: row({ retry: false, lastGood: true, say: asIs, words: 'Daily credit budget reached', gone: 'day' }),
  ABORTED: row({ retry: false, lastGood: false, say: () => 'Canceled', words: 'Canceled', gone: 'success' }),
  // formula codes
  INVALID_ARGUMENT: row({ retry: false, lastGood: false, scope: 'item', cell: '#VALUE!', say: asIs, words: 'Argument not valid' }),
  NOT_TRADED: row({ retry: false, lastGood: false, scope: 'item', say: asIs, words: 'Not traded' }),
  DEADLINE: row({ retry: false, lastGood: true, say: asIs, words: 'No answer in time', gone: 'success' }),
  /** The data is there but does not define the statistic: the coin's own cell, and no older value stands in for it. */
  UNDEFINED: row({ retry: false, lastGood: false, scope: 'item', say: asIs, words: 'Not defined for this data' }),
  NOT_FETCHED: row({ retry: false, lastGood: false, say: asIs, words: 'Not fetched in the preview', gone: 'success' }),
  UNEXPECTED: row({ retry: false, lastGood: false, say: (e, formula) => `${formula}: unexpected error${e.message ? `: ${e.message}` : ''}`, words: 'Unexpected error' }),
};

/** Whether `code` names a row (own keys only: "constructor" is not an error code). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_RULES, code);
}

/**
 * The API code a bare HTTP status means (no error body, or a code we do not
 * know): the one marked `byStatus` for that status in the endpoint table's
 * API_ERROR_CODES, else, for any other 5xx, the one marked for 500 (the
 * service failed: an outage); null when the status alone says nothing more (a
 * 403 may be any of three codes). `codes` is the table (a test passes one with
 * a row of its own).
 */
export function codeForStatus(status: number | null | undefined): ApiErrorCode | null;
export function codeForStatus<C extends string>(status: number | null | undefined, codes: Readonly<Record<C, StatusRow>>): C | null;
export function codeForStatus(status: number | null | undefined, codes: Readonly<Record<string, StatusRow>> = API_ERROR_CODES): string | null {
  if (status === null || status === undefined) return null;
  const marked = (s: number) => Object.entries(codes).find(([, c]) => c.byStatus === true && c.status === s)?.[0] ?? null;
  // The status's own row first; any other 5xx is the outage row of 500.
  return marked(status) ?? (status >= 500 ? marked(500) : null);
}

/** What codeForStatus reads of a row of API_ERROR_CODES. */
interface StatusRow {
  status: number;
  byStatus?: boolean;
}

/** A code nobody knows, on a status that says nothing more: the service answered; show its words. */
const UNKNOWN_ANSWER = row({ retry: false, lastGood: false, say: asIs, words: 'Error' });

/** The row a code reads: its own, else the code its HTTP status means; null when neither is known. */
export function ruleCode(code: string | null | undefined, status?: number | null): ErrorCode | null {
  return isErrorCode(code) ? code : codeForStatus(status);
}

/** The rule of a code; an unknown code takes the rule of what its HTTP status means. */
export function errorRule(code: string | null | undefined, status?: number | null): ErrorRule {
  const known = ruleCode(code, status);
  return known ? ERROR_RULES[known] : UNKNOWN_ANSWER;
}
