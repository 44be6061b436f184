/**
 * The user's settings, kept per user on this machine (never in the workbook),
 * and THE rules for them: the form (taskpane/settings-form.ts) says what breaks
 * them, and what is stored or loaded is brought within them.
 */
import { CONVERT_CURRENCIES, DEFAULT_FRESHNESS_MS, type ConvertCurrency } from '../api/endpoints';
import type { KvStore } from '../client';

/** Set by webpack: the official API in production, the local API server in development. */
declare const __DEFAULT_API_BASE_URL__: string;
declare const __DEMO_DATA__: boolean;

export const OFFICIAL_API_BASE_URL = 'https://api.cryptorank.io';
/** Development builds use the page's own origin, where the dev server proxies /v3 to the local API server. */
export const DEFAULT_API_BASE_URL: string =
  typeof __DEFAULT_API_BASE_URL__ !== 'string'
    ? OFFICIAL_API_BASE_URL
    : __DEFAULT_API_BASE_URL__ || (typeof location !== 'undefined' ? location.origin : OFFICIAL_API_BASE_URL);
/** True in the development build, which talks to the local API server's demo data. */
export const DEMO_BUILD: boolean = typeof __DEMO_DATA__ === 'boolean' ? __DEMO_DATA__ : false;

export interface AddinSettings {
  defaultCurrency: ConvertCurrency;
  /** How old a live price may be before it is fetched again. */
  liveFreshnessSeconds: number;
  /** Credits a day after which formulas stop calling the API; null = no budget. */
  dailyCreditBudget: number | null;
  apiBaseUrl: string;
}

/** What each setting may be. */
export const SETTINGS_RULES = {
  /** The currencies the API converts to (the endpoint table's `convert`). */
  currencies: CONVERT_CURRENCIES,
  /** Whole seconds; the default is the live freshness of the endpoint table. */
  liveFreshnessSeconds: { min: 15, max: 3600, default: DEFAULT_FRESHNESS_MS.live / 1000 },
} as const;

export const DEFAULT_SETTINGS: AddinSettings = {
  defaultCurrency: 'USD',
  liveFreshnessSeconds: SETTINGS_RULES.liveFreshnessSeconds.default,
  dailyCreditBudget: null,
  apiBaseUrl: DEFAULT_API_BASE_URL,
};

/** A currency as typed (any case), or null when it is not one of ours. */
export function readCurrency(text: string): ConvertCurrency | null {
  const c = text.trim().toUpperCase();
  return (SETTINGS_RULES.currencies as readonly string[]).includes(c) ? (c as ConvertCurrency) : null;
}

/** A budget as typed: null for none (empty), a whole number of credits, or NaN when it is neither. */
export function readBudget(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isInteger(n) && n >= 0 ? n : NaN;
}

/**
 * The API address as typed, with or without /v3 (the client adds it to every
 * path): https, or http for this machine only; no credentials, query or
 * fragment. Empty is `fallback`.
 */
export function readApiBaseUrl(text: string, fallback: string): { url: string } | { error: string } {
  const base = text.trim().replace(/\/+$/, '').replace(/\/v3$/i, '') || fallback;
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    return { error: 'Enter a full address, e.g. https://api.cryptorank.io' };
  }
  const local = u.hostname === 'localhost' || u.hostname === '127.0.0.1';
  if (u.protocol !== 'https:' && !(local && u.protocol === 'http:')) return { error: 'Use an https:// address (http:// only for localhost).' };
  if (u.username || u.password || u.search || u.hash) return { error: 'Enter only the address, without credentials, ? or #.' };
  return { url: u.origin + u.pathname.replace(/\/+$/, '') };
}

const ENTRY = 'settings';

export async function loadSettings(store: KvStore): Promise<AddinSettings> {
  const raw = await store.get(ENTRY);
  if (!raw) return { ...DEFAULT_SETTINGS };
  try {
    return normalizeSettings({ ...DEFAULT_SETTINGS, ...(JSON.parse(raw) as Partial<AddinSettings>) });
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export async function saveSettings(store: KvStore, settings: AddinSettings): Promise<AddinSettings> {
  const clean = normalizeSettings(settings);
  await store.set(ENTRY, JSON.stringify(clean));
  return clean;
}

/** Within SETTINGS_RULES: a number out of range is clamped (whole), anything else unusable is the default. */
export function normalizeSettings(s: AddinSettings): AddinSettings {
  const { min, max } = SETTINGS_RULES.liveFreshnessSeconds;
  const fresh = Number(s.liveFreshnessSeconds);
  const rawBudget: unknown = s.dailyCreditBudget;
  const budget = rawBudget === null || rawBudget === undefined || rawBudget === '' ? null : readBudget(String(Math.floor(Number(rawBudget))));
  const base = readApiBaseUrl(String(s.apiBaseUrl ?? ''), DEFAULT_API_BASE_URL);
  return {
    defaultCurrency: readCurrency(String(s.defaultCurrency ?? '')) ?? DEFAULT_SETTINGS.defaultCurrency,
    liveFreshnessSeconds: Number.isFinite(fresh) ? Math.min(max, Math.max(min, Math.round(fresh))) : DEFAULT_SETTINGS.liveFreshnessSeconds,
    dailyCreditBudget: budget !== null && Number.isFinite(budget) ? budget : null,
    apiBaseUrl: 'url' in base ? base.url : DEFAULT_API_BASE_URL,
  };
}
