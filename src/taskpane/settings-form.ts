/**
 * The settings form's values (strings from inputs) to AddinSettings, with
 * messages for what cannot be used. Pure.
 */
import { SETTINGS_RULES, readApiBaseUrl, readBudget, readCurrency, type AddinSettings } from '../office/settings';

export interface SettingsFormValues {
  defaultCurrency: string;
  liveFreshnessSeconds: string;
  dailyCreditBudget: string;
  apiBaseUrl: string;
}

export type SettingsFormResult = { ok: true; settings: AddinSettings } | { ok: false; errors: Partial<Record<keyof SettingsFormValues, string>> };

export const FRESHNESS_MIN = SETTINGS_RULES.liveFreshnessSeconds.min;
export const FRESHNESS_MAX = SETTINGS_RULES.liveFreshnessSeconds.max;

export function toFormValues(s: AddinSettings): SettingsFormValues {
  return {
    defaultCurrency: s.defaultCurrency,
    liveFreshnessSeconds: String(s.liveFreshnessSeconds),
    dailyCreditBudget: s.dailyCreditBudget === null ? '' : String(s.dailyCreditBudget),
    apiBaseUrl: s.apiBaseUrl,
  };
}

/** The form's values against the rules of office/settings.ts: settings, or a message per field that breaks them. */
export function parseSettingsForm(v: SettingsFormValues, fallbackBaseUrl: string): SettingsFormResult {
  const errors: Partial<Record<keyof SettingsFormValues, string>> = {};
  const currency = readCurrency(v.defaultCurrency);
  if (currency === null) errors.defaultCurrency = `Choose ${SETTINGS_RULES.currencies.join(' or ')}.`;

  const freshText = v.liveFreshnessSeconds.trim();
  const fresh = Number(freshText);
  if (freshText === '' || !Number.isInteger(fresh) || fresh < FRESHNESS_MIN || fresh > FRESHNESS_MAX) {
    errors.liveFreshnessSeconds = `Enter whole seconds from ${FRESHNESS_MIN} to ${FRESHNESS_MAX}.`;
  }

  const budget = readBudget(v.dailyCreditBudget);
  if (budget !== null && Number.isNaN(budget)) {
    errors.dailyCreditBudget = 'Enter a whole number of credits, or leave it empty for no budget.';
  }

  const base = readApiBaseUrl(v.apiBaseUrl, fallbackBaseUrl);
  if ('error' in base) errors.apiBaseUrl = base.error;

  if (currency === null || 'error' in base || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    settings: { defaultCurrency: currency, liveFreshnessSeconds: fresh, dailyCreditBudget: budget, apiBaseUrl: base.url },
  };
}

/**
 * The host the key would go to for the first time: a new API address off the
 * build's default origin. The pane asks before saving it, so the key is never
 * sent to a host the user did not agree to (issue #22). The question is asked
 * in the pane, not in a dialog: Microsoft Learn, "Use the Office dialog API in
 * Office Add-ins" (overlapping UI is discouraged; avoid opening a dialog from a
 * task pane unless the scenario requires it).
 */
export function hostNeedingConsent(next: string, current: string, defaultUrl: string): string | null {
  const origin = (u: string) => new URL(u).origin;
  if (origin(next) === origin(current) || origin(next) === origin(defaultUrl)) return null;
  return new URL(next).host;
}
