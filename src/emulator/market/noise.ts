/**
 * Smooth random functions of a day index (value noise): random values at knots,
 * smoothstep-interpolated, summed over octaves. Evaluable at any day in O(octaves),
 * so a coin's price on any past day is computed directly, never by stepping.
 */
import { unit4 } from './prng';

export interface Octave {
  period: number;
  amp: number;
}

/** One octave: knots every `period` days, values in [-1, 1]. */
export function valueNoise(seed: number, key: number, salt: number, x: number): number {
  const k = Math.floor(x);
  const t = x - k;
  const r0 = unit4(seed, key, salt, k) * 2 - 1;
  const r1 = unit4(seed, key, salt, k + 1) * 2 - 1;
  const s = t * t * (3 - 2 * t);
  return r0 + (r1 - r0) * s;
}

/** Sum of octaves at day `day`. */
export function fractalNoise(seed: number, key: number, octaves: readonly Octave[], day: number): number {
  let sum = 0;
  for (let i = 0; i < octaves.length; i++) {
    const o = octaves[i];
    sum += o.amp * valueNoise(seed, key, 101 + i, day / o.period);
  }
  return sum;
}
