/** The EUR/USD rate series: one value per UTC day, the same everywhere EUR is used. */
import { valueNoise } from './noise';
import { gauss4, hashText } from './prng';

const KEY = hashText('eur-usd');

/** Euros per US dollar on day d. */
export function eurPerUsd(seed: number, d: number): number {
  return 0.92 * Math.exp(0.05 * valueNoise(seed, KEY, 1, d / 90) + 0.02 * valueNoise(seed, KEY, 2, d / 12) + 0.002 * gauss4(seed, KEY, 3, d));
}
