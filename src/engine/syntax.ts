/**
 * Formula text to a syntax tree, through @borgar/fx (MIT): Excel's grammar
 * (operators and their precedence, references and ranges, `A1#` spill
 * references, array constants, omitted arguments, LET), parsed once per
 * distinct text: a sheet repeats its formulas and recalculates them often.
 */
import { parse, tokenize, type AstExpression } from '@borgar/fx';

export type Node = AstExpression;

export class FormulaSyntaxError extends Error {}

const cache = new Map<string, Node | FormulaSyntaxError>();
/** Emptied when full: a plain Map is looked up once per evaluation, and an LRU's bookkeeping costs more than a rare re-parse. */
const MAX_CACHED = 20_000;

/** The tree of a formula given with or without its leading "="; throws FormulaSyntaxError. */
export function syntaxTree(formula: string): Node {
  let t = cache.get(formula);
  if (t === undefined) {
    if (cache.size >= MAX_CACHED) cache.clear();
    t = parseOnce(formula);
    cache.set(formula, t);
  }
  if (t instanceof FormulaSyntaxError) throw t;
  return t;
}

function parseOnce(formula: string): Node | FormulaSyntaxError {
  const text = formula.startsWith('=') ? formula : `=${formula}`;
  if (text.trim() === '=') return new FormulaSyntaxError('The formula is empty');
  try {
    return parse(tokenize(text, { mergeRefs: true, negativeNumbers: true, withLocation: false }), { permitArrayCalls: true });
  } catch (e) {
    return new FormulaSyntaxError(`There's a problem with this formula: ${e instanceof Error ? e.message : String(e)}`);
  }
}
