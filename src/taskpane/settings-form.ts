/**
 * The settings form's values (strings from inputs) to AddinSettings, with
 * messages for what cannot be used. Pure.
 */
import type { AddinSettings } from '../office/settings';

export interface SettingsFormValues {
  defaultCurrency: string;
  liveFreshnessSeconds: string;
  dailyCreditBudget: string;
  apiBaseUrl: string;
}

export type SettingsFormResult = { ok: true; settings: AddinSettings } | { ok: false; errors: Partial<Record<keyof SettingsFormValues, string>> };

export const FRESHNESS_MIN = 15;
export const FRESHNESS_MAX = 3600;

export function toFormValues(s: AddinSettings): SettingsFormValues {
  return {
    defaultCurrency: s.defaultCurrency,
    liveFreshnessSeconds: String(s.liveFreshnessSeconds),
    dailyCreditBudget: s.dailyCreditBudget === null ? '' : String(s.dailyCreditBudget),
    apiBaseUrl: s.apiBaseUrl,
  };
}

export function parseSettingsForm(v: SettingsFormValues, fallbackBaseUrl: string): SettingsFormResult {
  const errors: Partial<Record<keyof SettingsFormValues, string>> = {};
  const currency = v.defaultCurrency.trim().toUpperCase();
  if (currency !== 'USD' && currency !== 'EUR') errors.defaultCurrency = 'Choose USD or EUR.';

  const freshText = v.liveFreshnessSeconds.trim();
  const fresh = Number(freshText);
  if (freshText === '' || !Number.isInteger(fresh) || fresh < FRESHNESS_MIN || fresh > FRESHNESS_MAX) {
    errors.liveFreshnessSeconds = `Enter whole seconds from ${FRESHNESS_MIN} to ${FRESHNESS_MAX}.`;
  }

  const budgetText = v.dailyCreditBudget.trim();
  const budget = budgetText === '' ? null : Number(budgetText);
  if (budget !== null && (!Number.isInteger(budget) || budget < 0)) {
    errors.dailyCreditBudget = 'Enter a whole number of credits, or leave it empty for no budget.';
  }

  // The client adds /v3 to every path: accept the address with or without it.
  let base = v.apiBaseUrl.trim().replace(/\/+$/, '').replace(/\/v3$/i, '') || fallbackBaseUrl;
  try {
    const u = new URL(base);
    const local = u.hostname === 'localhost' || u.hostname === '127.0.0.1';
    if (u.protocol !== 'https:' && !(local && u.protocol === 'http:')) errors.apiBaseUrl = 'Use an https:// address (http:// only for localhost).';
    else if (u.username || u.password || u.search || u.hash) errors.apiBaseUrl = 'Enter only the address, without credentials, ? or #.';
    else base = u.origin + u.pathname.replace(/\/+$/, '');
  } catch {
    errors.apiBaseUrl = 'Enter a full address, e.g. https://api.cryptorank.io';
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    settings: {
      defaultCurrency: currency as 'USD' | 'EUR',
      liveFreshnessSeconds: fresh,
      dailyCreditBudget: budget,
      apiBaseUrl: base,
    },
  };
}
