/**
 * Fiat exchange rates: one value per UTC day and currency, the same everywhere a
 * currency is used. EUR/USD is the series the API's own `convert=EUR` uses
 * (snapshot.eur, the historical item); the fiat list (`/v3/fiat/list`) quotes
 * every currency from these series, EUR from that very one, so a price the API
 * converts to EUR and a price converted with the list's EUR rate agree.
 */
import type { FiatItem } from '../../api/records';
import { price as fmtPrice } from './decimal';
import { valueNoise } from './noise';
import { gauss4, hashText } from './prng';

const KEY = hashText('eur-usd');

/** Euros per US dollar on day d. */
export function eurPerUsd(seed: number, d: number): number {
  return 0.92 * Math.exp(0.05 * valueNoise(seed, KEY, 1, d / 90) + 0.02 * valueNoise(seed, KEY, 2, d / 12) + 0.002 * gauss4(seed, KEY, 3, d));
}

/**
 * The fiat list: id, name, slug, ISO code (the list's `symbol`, a guess) and units per US dollar
 * around 2025 (a level, not a forecast). Ids are ours: the provider's are not public.
 */
export const FIATS: readonly { id: number; name: string; slug: string; code: string; perUsd: number }[] = [
  { id: 1, name: 'US Dollar', slug: 'us-dollar', code: 'USD', perUsd: 1 },
  { id: 2, name: 'Euro', slug: 'euro', code: 'EUR', perUsd: 0.92 },
  { id: 3, name: 'British Pound', slug: 'british-pound', code: 'GBP', perUsd: 0.78 },
  { id: 4, name: 'Japanese Yen', slug: 'japanese-yen', code: 'JPY', perUsd: 150 },
  { id: 5, name: 'Swiss Franc', slug: 'swiss-franc', code: 'CHF', perUsd: 0.88 },
  { id: 6, name: 'Canadian Dollar', slug: 'canadian-dollar', code: 'CAD', perUsd: 1.37 },
  { id: 7, name: 'Australian Dollar', slug: 'australian-dollar', code: 'AUD', perUsd: 1.52 },
  { id: 8, name: 'New Zealand Dollar', slug: 'new-zealand-dollar', code: 'NZD', perUsd: 1.66 },
  { id: 9, name: 'Chinese Yuan', slug: 'chinese-yuan', code: 'CNY', perUsd: 7.2 },
  { id: 10, name: 'Hong Kong Dollar', slug: 'hong-kong-dollar', code: 'HKD', perUsd: 7.8 },
  { id: 11, name: 'Singapore Dollar', slug: 'singapore-dollar', code: 'SGD', perUsd: 1.34 },
  { id: 12, name: 'South Korean Won', slug: 'south-korean-won', code: 'KRW', perUsd: 1370 },
  { id: 13, name: 'Indian Rupee', slug: 'indian-rupee', code: 'INR', perUsd: 84 },
  { id: 14, name: 'Brazilian Real', slug: 'brazilian-real', code: 'BRL', perUsd: 5.4 },
  { id: 15, name: 'Mexican Peso', slug: 'mexican-peso', code: 'MXN', perUsd: 18.5 },
  { id: 16, name: 'Swedish Krona', slug: 'swedish-krona', code: 'SEK', perUsd: 10.5 },
  { id: 17, name: 'Norwegian Krone', slug: 'norwegian-krone', code: 'NOK', perUsd: 10.8 },
  { id: 18, name: 'Danish Krone', slug: 'danish-krone', code: 'DKK', perUsd: 6.9 },
  { id: 19, name: 'Polish Zloty', slug: 'polish-zloty', code: 'PLN', perUsd: 3.9 },
  { id: 20, name: 'Czech Koruna', slug: 'czech-koruna', code: 'CZK', perUsd: 23 },
  { id: 21, name: 'Turkish Lira', slug: 'turkish-lira', code: 'TRY', perUsd: 34 },
  { id: 22, name: 'South African Rand', slug: 'south-african-rand', code: 'ZAR', perUsd: 18.2 },
  { id: 23, name: 'United Arab Emirates Dirham', slug: 'uae-dirham', code: 'AED', perUsd: 3.6725 },
  { id: 24, name: 'Ukrainian Hryvnia', slug: 'ukrainian-hryvnia', code: 'UAH', perUsd: 41 },
  { id: 25, name: 'Indonesian Rupiah', slug: 'indonesian-rupiah', code: 'IDR', perUsd: 16_000 },
  { id: 26, name: 'Nigerian Naira', slug: 'nigerian-naira', code: 'NGN', perUsd: 1_550 },
];

/**
 * Units of `code` per US dollar on day d: EUR is eurPerUsd itself; USD is 1; the others move
 * around their level with their own smooth noise. null for a code the list does not have.
 */
export function perUsd(seed: number, code: string, d: number): number | null {
  if (code === 'USD') return 1;
  if (code === 'EUR') return eurPerUsd(seed, d);
  const f = FIATS.find((x) => x.code === code);
  if (!f) return null;
  const key = hashText(`fiat-${code}`);
  return f.perUsd * Math.exp(0.06 * valueNoise(seed, key, 1, d / 90) + 0.02 * valueNoise(seed, key, 2, d / 12) + 0.002 * gauss4(seed, key, 3, d));
}

/**
 * `/v3/fiat/list` on day d: `price` is US dollars per one unit (the add-in's guess of the real
 * service's meaning, see src/api/endpoints.ts), so EUR's price is 1 / the day's eurPerUsd, the rate
 * `convert=EUR` uses that day.
 */
export function fiatList(seed: number, d: number): FiatItem[] {
  return FIATS.map((f) => ({ id: f.id, name: f.name, slug: f.slug, symbol: f.code, price: fmtPrice(1 / perUsd(seed, f.code, d)!, 12) }));
}
