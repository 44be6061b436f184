/**
 * Which message the pane shows for an outcome: checking a key, reading the
 * plan, refreshing. Pure: codes in, text out. Messages never include the key.
 * A failure's sentence is its error row's (client/pane-sentences.ts KEY_CHECK_SAYS,
 * PLAN_READ_SAYS), chosen by the row's columns (paneCase), not by code here.
 */
import { isPlan } from '../api/endpoints';
import { ApiError } from '../client/api-error';
import { KEY_CHECK_SAYS, PLAN_READ_SAYS, paneCase, type PaneCase, type PaneFailure, type PaneSentence } from '../client/pane-sentences';
import { hostOf } from './format';

export type Tone = PaneSentence['tone'];

export interface Message {
  tone: Tone;
  text: string;
}

export type KeyCheckKind = 'ok' | 'invalid' | 'inactive' | 'outage' | 'rate-limit' | 'other';

export interface KeyCheckOutcome extends Message {
  /** Whether the key is kept: a key the API rejected is not. */
  save: boolean;
  /** A short label for the kind of outcome (tests and logs). */
  kind: KeyCheckKind;
}

const KIND: Readonly<Record<PaneCase, KeyCheckKind>> = {
  add: 'invalid',
  replace: 'invalid',
  renew: 'inactive',
  'rate-limit': 'rate-limit',
  outage: 'outage',
  other: 'other',
};

/** Any error's words (Office's errors among them): read where present. */
const textOf = (e: unknown): string => {
  const m = (e as { message?: unknown } | null)?.message;
  return typeof m === 'string' ? m : String(e);
};

/** The client's code and status; anything else that failed is UNEXPECTED (a `code` on another object is not read). */
function failureOf(e: unknown, apiBaseUrl: string): PaneFailure {
  const host = hostOf(apiBaseUrl);
  return e instanceof ApiError ? { code: e.code, status: e.status, message: textOf(e), host } : { code: 'UNEXPECTED', message: textOf(e), host };
}

/** The key was checked with /v3/status: what to say and whether to keep it. */
export function keyCheckOutcome(result: { plan: string; rateLimitPerMinute: number } | { error: unknown }, apiBaseUrl: string): KeyCheckOutcome {
  if (!('error' in result)) {
    return {
      kind: 'ok',
      tone: 'success',
      save: true,
      // The plan's name only when it is one we know: the server's text is not quoted (issue #22).
      text: `Key saved. It works: ${isPlan(result.plan) ? `${result.plan} plan` : 'a plan this add-in does not know by name'}, ${result.rateLimitPerMinute} requests per minute.`,
    };
  }
  const f = failureOf(result.error, apiBaseUrl);
  const c = paneCase(f.code, f.status);
  const said = KEY_CHECK_SAYS[c](f);
  return { kind: KIND[c], tone: said.tone, save: said.save, text: said.text };
}

/** Reading the plan failed (with a saved key): one line for the plan panel. */
export function statusErrorMessage(error: unknown, apiBaseUrl: string): Message {
  const f = failureOf(error, apiBaseUrl);
  return PLAN_READ_SAYS[paneCase(f.code, f.status)](f);
}

export function refreshDoneMessage(scope: 'workbook' | 'sheet', inExcel: boolean, error?: unknown): Message {
  if (error !== undefined) {
    return { tone: 'error', text: `Cache cleared, but Excel could not recalculate: ${textOf(error)}` };
  }
  if (!inExcel) {
    return {
      tone: 'info',
      text: 'Cache cleared. Not running inside Excel, so nothing was recalculated: formulas fetch fresh data the next time they calculate.',
    };
  }
  return scope === 'workbook'
    ? { tone: 'success', text: 'Cache cleared and every CRYPTO formula in the workbook is recalculating with fresh data.' }
    : { tone: 'success', text: 'Cache cleared and the active sheet is recalculating with fresh data.' };
}
