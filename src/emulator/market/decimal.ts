/**
 * Number formatting for the API's decimal strings (no exponent, trailing zeros
 * trimmed) and rounding of percentages.
 */

function trim(s: string): string {
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** Fixed decimals, trailing zeros trimmed; never exponent notation. */
export function fixed(x: number, decimals: number): string {
  if (!Number.isFinite(x)) throw new Error(`cannot format ${x}`);
  if (Math.abs(x) >= 1e21) return BigInt(Math.round(x)).toString();
  return trim(x.toFixed(Math.max(0, Math.min(100, decimals))));
}

/** About `sig` significant digits, at least 2 decimals, at most 20 (prices, including tiny ones like PEPE). */
export function price(x: number, sig = 10): string {
  if (x === 0) return '0';
  const mag = Math.floor(Math.log10(Math.abs(x)));
  return fixed(x, Math.max(2, Math.min(20, sig - 1 - mag)));
}

/** USD amounts (market caps, volumes, TVL): cents. */
export const usd = (x: number): string => fixed(x, 2);
/** Whole dollars. */
export const wholeUsd = (x: number): string => fixed(Math.round(x), 0);
/** Token amounts: up to 6 decimals. */
export const tokens = (x: number): string => fixed(x, 6);

export const round = (x: number, decimals: number): number => {
  const f = 10 ** decimals;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
};
export const round2 = (x: number): number => round(x, 2);
export const round4 = (x: number): number => round(x, 4);
