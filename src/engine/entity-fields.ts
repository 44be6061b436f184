/**
 * `A1.Price`, `A1.[Market cap]`: a field of the data type (entity) in a cell.
 * Excel's #FIELD! when the cell holds no data type or the type has no such
 * field ("How to correct a #FIELD! error", support.microsoft.com); names in
 * any case.
 */
import { isEntityValue, isErrorValue, isFormattedNumber, xlError, type Value } from './values';

/** A cell reference, a dot, then a field name or a bracketed one: how @borgar/fx tokenizes `A1.Price` (a name) and `A1.[Market cap]` (a structured reference). */
const FIELD_ACCESS = /^(\$?[A-Z]{1,3}\$?\d+)\.(?:\[([^\]]+)\]|([^.[\]]+))$/i;

export function fieldAccess(text: string): { ref: string; field: string } | null {
  const m = FIELD_ACCESS.exec(text);
  return m ? { ref: m[1], field: (m[2] ?? m[3]).trim() } : null;
}

/** A property of an entity as a cell value (Excel.EntityPropertyType: a cell value object, or a plain value). */
function propertyValue(p: unknown, name: string): Value {
  if (p === null || p === undefined) return xlError('#FIELD!', `No value for ${name}`);
  if (typeof p === 'number' || typeof p === 'string' || typeof p === 'boolean') return p;
  if (isFormattedNumber(p) || isEntityValue(p)) return p;
  const o = p as { type?: unknown; basicValue?: unknown };
  if (o.type === 'WebImage') return xlError('#VALUE!', `${name} is an image: the preview shows no images in cells`);
  const b = o.basicValue;
  if (typeof b === 'number') return Number.isFinite(b) ? b : xlError('#NUM!');
  if (typeof b === 'string' || typeof b === 'boolean') return b;
  return xlError('#VALUE!', `${name} has no value a cell can show`);
}


/** The field `name` of the entity in one cell, or the error Excel gives. */
export function entityField(v: Value, name: string): Value {
  if (isErrorValue(v)) return v;
  if (!isEntityValue(v)) return xlError('#FIELD!', `${name}: the cell is not a data type`);
  const props = v.properties ?? {};
  const key = Object.keys(props).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return xlError('#FIELD!', `${v.text} has no field ${name}`);
  return propertyValue(props[key], name);
}
