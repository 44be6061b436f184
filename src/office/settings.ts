/**
 * The user's settings, kept per user on this machine (never in the workbook).
 */
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
  defaultCurrency: 'USD' | 'EUR';
  /** How old a live price may be before it is fetched again. */
  liveFreshnessSeconds: number;
  /** Credits a day after which formulas stop calling the API; null = no budget. */
  dailyCreditBudget: number | null;
  apiBaseUrl: string;
}

export const DEFAULT_SETTINGS: AddinSettings = {
  defaultCurrency: 'USD',
  liveFreshnessSeconds: 60,
  dailyCreditBudget: null,
  apiBaseUrl: DEFAULT_API_BASE_URL,
};

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

/** Clamp to what the add-in supports; an unusable value falls back to the default. */
export function normalizeSettings(s: AddinSettings): AddinSettings {
  const fresh = Number(s.liveFreshnessSeconds);
  const budget = s.dailyCreditBudget === null || (s.dailyCreditBudget as unknown) === '' ? null : Number(s.dailyCreditBudget);
  let base = String(s.apiBaseUrl || DEFAULT_API_BASE_URL).trim().replace(/\/+$/, '');
  try {
    const u = new URL(base);
    if (u.protocol !== 'https:' && u.hostname !== 'localhost' && u.hostname !== '127.0.0.1') base = DEFAULT_API_BASE_URL;
  } catch {
    base = DEFAULT_API_BASE_URL;
  }
  return {
    defaultCurrency: s.defaultCurrency === 'EUR' ? 'EUR' : 'USD',
    liveFreshnessSeconds: Number.isFinite(fresh) ? Math.min(3600, Math.max(15, Math.round(fresh))) : 60,
    dailyCreditBudget: budget !== null && Number.isFinite(budget) && budget >= 0 ? Math.floor(budget) : null,
    apiBaseUrl: base,
  };
}
