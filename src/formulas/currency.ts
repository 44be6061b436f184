/**
 * Any fiat currency: amounts the API gives in USD, converted at the current rate
 * of the fiat list (`/v3/fiat/list`, one cached request every cell shares).
 *
 * - USD and EUR keep the API's own `convert` where a formula used it before
 *   (quotes, markets, profiles): no extra credit, the API's own rate.
 * - Any other code (case-insensitive) is looked up in the fiat list; an unknown
 *   one is #VALUE! naming the codes the list has.
 * - Current values only. History (candles, the historical item, periodic
 *   returns) is never converted here: a past price at today's rate is wrong by
 *   however far the rate moved since (history.ts refuses with #VALUE!).
 *
 * What the list's `price` means stays a guess (see the fiatList row in
 * src/api/endpoints.ts): US dollars per one unit. It is read in usdPerUnit()
 * alone, so a correction is a one-line change.
 */
import { CONVERT_CURRENCIES, type ConvertCurrency } from '../api/endpoints';
import type { FiatItem, Profile } from '../api/records';
import type { Quote } from '../client';
import type { Fetched } from '../client/types';
import { formulaError, invalidValue } from './cells';

/**
 * Active ISO 4217 codes: to tell a currency typed where a history formula cannot take one from a
 * mistyped field name, without a request. Which of them the API can convert to is the fiat list's call.
 */
const ISO_4217 = new Set(
  ('AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY ' +
    'COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR ' +
    'IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR ' +
    'MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD ' +
    'SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF ' +
    'XPF YER ZAR ZMW ZWL').split(' '),
);
export const isIsoCurrency = (text: string): boolean => ISO_4217.has(text.trim().toUpperCase());

/** A quote in any currency: the client's Quote, its money fields in `currency`. */
export type MoneyQuote = Omit<Quote, 'currency'> & { currency: string };

/** Currencies the API converts to itself (`convert`). */
export const isApiCurrency = (code: string): code is ConvertCurrency => (CONVERT_CURRENCIES as readonly string[]).includes(code);

export interface FiatRate {
  /** ISO code, upper case. */
  code: string;
  name: string;
  /** US dollars one unit of the currency is worth now. */
  usdPerUnit: number;
}

/**
 * What the conversions need of the client: a client bound to its caller and
 * signal (a formula's ctx.client, src/client/call-client.ts; LIVEPRICE binds one per poll).
 */
export interface FiatClient {
  get(name: 'fiatList'): Promise<Fetched<FiatItem[]>>;
  quote(coin: string | number, opts: { currency?: ConvertCurrency }): Promise<Quote>;
}

/** guess: the list's `price` is USD per one unit (see the fiatList row in src/api/endpoints.ts). */
function usdPerUnit(item: FiatItem): number | null {
  const n = item.price === null ? NaN : Number(item.price);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The list by code, built once per answer (an answer is shared by every cell until it expires). */
const byCode = new WeakMap<readonly FiatItem[], Map<string, FiatItem>>();
function indexOf(list: readonly FiatItem[]): Map<string, FiatItem> {
  let m = byCode.get(list);
  if (!m) {
    m = new Map();
    // First item wins: a repeated code is the provider's mistake, not a second rate to pick from.
    for (const f of list) if (typeof f.symbol === 'string' && !m.has(f.symbol.trim().toUpperCase())) m.set(f.symbol.trim().toUpperCase(), f);
    byCode.set(list, m);
  }
  return m;
}

/** The current rate of `code` (upper case) from the fiat list; USD needs no request. */
export async function fiatRate(client: Pick<FiatClient, 'get'>, code: string): Promise<FiatRate> {
  if (code === 'USD') return { code, name: 'US Dollar', usdPerUnit: 1 };
  const res = await client.get('fiatList');
  const index = indexOf(res.data);
  const item = index.get(code);
  if (!item) {
    const known = [...new Set(['USD', 'EUR', ...[...index.keys()].sort()])].join(', ');
    throw invalidValue(`currency must be a code from the fiat list: ${known}; got "${code}"`);
  }
  const rate = usdPerUnit(item);
  if (rate === null) throw formulaError('MISSING_FIELD', `The fiat list has no usable rate for ${code} (${item.name})`);
  return { code, name: item.name, usdPerUnit: rate };
}

/** A USD amount in the currency of `rate`; null stays null. */
export const fromUsd = (usd: number | null, rate: FiatRate): number | null => (usd === null ? null : usd / rate.usdPerUnit);

/** A quote's money fields (price, market cap, volume, FDV, 24 h high and low) in the currency of `rate`. */
export function convertQuote(q: Quote, rate: FiatRate): MoneyQuote {
  if (rate.code === 'USD') return q;
  return {
    ...q,
    currency: rate.code,
    price: fromUsd(q.price, rate),
    marketCap: fromUsd(q.marketCap, rate),
    volume24h: fromUsd(q.volume24h, rate),
    fullyDilutedValuation: fromUsd(q.fullyDilutedValuation, rate),
    high24h: fromUsd(q.high24h, rate),
    low24h: fromUsd(q.low24h, rate),
  };
}

/** A decimal string from the API, converted; unparseable or null stays as it was. */
function decimalFromUsd(s: string | null, rate: FiatRate): string | null {
  if (s === null) return null;
  const n = Number(s);
  return Number.isFinite(n) ? String(n / rate.usdPerUnit) : s;
}

/** A profile's money fields: what convertProfile converts. */
const PROFILE_MONEY = ['price', 'volume24h', 'marketCap', 'fullyDilutedValuation'] as const;

/**
 * A USD profile's money fields in the currency of `rate`; high24hUsd and low24hUsd stay USD, as their names say.
 * Copied with its property descriptors, not spread: a field the answer left out is a non-enumerable getter that
 * throws MISSING_FIELD (client/missing-fields.ts), and it stays one, converted or not, so it costs its own cell.
 */
export function convertProfile(p: Profile, rate: FiatRate): Profile {
  if (rate.code === 'USD') return p;
  const fields = Object.getOwnPropertyDescriptors(p);
  for (const k of PROFILE_MONEY) {
    const d = fields[k];
    // A getter is a guarded field: reading it to convert would fail the whole record.
    if (d && 'value' in d) fields[k] = { ...d, value: decimalFromUsd(d.value as string | null, rate) };
  }
  return Object.defineProperties({}, fields) as Profile;
}

/**
 * One coin's quote in any currency: USD and EUR from the client's quote batcher
 * (the API converts EUR); any other currency is the USD quote, batched exactly
 * like PRICE's, converted at the fiat list's rate. Not async: thousands of cells
 * wait here at once.
 */
export function quoteIn(client: FiatClient, coin: string | number, code: string): Promise<MoneyQuote> {
  if (isApiCurrency(code)) return client.quote(coin, { currency: code });
  // Both asked at once; a bad currency is reported before the coin (it is the same for every cell).
  const quote = client.quote(coin, { currency: 'USD' });
  const rate = fiatRate(client, code);
  quote.catch(() => undefined); // settled through the chain below, or moot when the rate fails
  return rate.then((r) => quote.then((q) => convertQuote(q, r)));
}
