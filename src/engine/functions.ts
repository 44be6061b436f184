/**
 * The worksheet functions the engine knows, by name: its own tables first
 * (aggregates, lookups, dynamic arrays, logic, dates, text to numbers, Treasury bills, ACCRINT), then @formulajs/formulajs for the rest.
 * A name in neither is #NAME? (the evaluator says which).
 */
import { ACCRUED_INTEREST } from './accrued-interest';
import { AGGREGATES } from './aggregates';
import { DATES } from './dates';
import { DYNAMIC_ARRAYS } from './dynamic-arrays';
import { formulajsDef } from './formulajs-functions';
import type { FunctionDef, FunctionTable } from './function-def';
import { LOGICAL } from './logical';
import { LOOKUP } from './lookup';
import { TEXT_CONVERSIONS } from './text-conversions';
import { TREASURY_BILLS } from './treasury-bills';

export type { Context, FunctionDef } from './function-def';

const OWN: FunctionTable = { ...AGGREGATES, ...LOOKUP, ...DYNAMIC_ARRAYS, ...LOGICAL, ...DATES, ...TEXT_CONVERSIONS, ...TREASURY_BILLS, ...ACCRUED_INTEREST };
const resolved = new Map<string, FunctionDef | null>();

/**
 * Names not to take from formulajs: Excel's own behaviour differs and no table here has them yet, or
 * (NETWORKDAYSINTL, WORKDAYINTL: formulajs's spellings of NETWORKDAYS.INTL and WORKDAY.INTL) Excel has
 * no such function, so a workbook using them is #NAME? in Excel and must be here too.
 */
const NOT_FROM_FORMULAJS = new Set(['LOOKUP', 'UNIQUE', 'SORT', 'AVERAGEA', 'MAXA', 'MINA', 'COUNTUNIQUE', 'NETWORKDAYSINTL', 'WORKDAYINTL']);

export function functionNamed(name: string): FunctionDef | undefined {
  if (Object.hasOwn(OWN, name)) return OWN[name];
  let d = resolved.get(name);
  if (d === undefined) {
    d = NOT_FROM_FORMULAJS.has(name) ? null : (formulajsDef(name) ?? null);
    resolved.set(name, d);
  }
  return d ?? undefined;
}
