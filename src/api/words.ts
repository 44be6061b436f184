/**
 * Lists in the words of a message, one wording for every layer: the client's
 * "Did you mean …?" and the formulas' allowed values read alike.
 */

/** "a", "a or b", "a, b or c". */
export function joinOr(xs: readonly string[]): string {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`;
}

/** Choices as a message names them: `"asc" or "desc"`. */
export const quotedOr = (xs: readonly string[]): string => joinOr(xs.map((x) => `"${x}"`));
