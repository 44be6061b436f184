/**
 * A data type passed where a coin is expected. The generated functions.json
 * sets allowCustomDataForDataTypeAny, so on CustomFunctionsRuntime 1.4 Excel
 * hands a data-type cell (Stocks, Currencies, an add-in's own entity) to an
 * `any` parameter as its object
 * (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts).
 * Its documented shape is Excel.EntityCellValue / LinkedEntityCellValue in
 * @types/office-js: { type: "Entity" | "LinkedEntity", text, properties:
 * { [name]: a cell value ({ type, basicValue }) }, provider?: { description } }.
 * Read tolerantly: property names in any case, property values as objects or
 * plain values, missing parts cost nothing but the fallback.
 */
import { invalidValue } from './cells';

/** How the add-in's own coin entity names itself and its properties (CRYPTO.COIN builds it with these). */
export const COIN_ENTITY = {
  provider: 'CryptoRank',
  id: 'ID',
  slug: 'Slug',
  symbol: 'Symbol',
  name: 'Name',
} as const;

type DataType = { type: string; text?: unknown; basicValue?: unknown; properties?: unknown; provider?: unknown };

const ENTITY_TYPES = new Set(['Entity', 'LinkedEntity']);

/** An object Excel passed for a cell (not a range, not an error): a data type. */
export const isDataType = (v: unknown): v is DataType =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { type?: unknown }).type === 'string';

const isEntity = (v: DataType) => ENTITY_TYPES.has(v.type);

/** A property's basic value, its name matched case-insensitively; prototype-safe. */
function property(v: DataType, name: string): unknown {
  const props = v.properties;
  if (typeof props !== 'object' || props === null) return undefined;
  const key = Object.keys(props).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return undefined;
  const p = (props as Record<string, unknown>)[key];
  return typeof p === 'object' && p !== null && 'basicValue' in p ? (p as { basicValue: unknown }).basicValue : p;
}

const text = (x: unknown): string | null => (typeof x === 'string' && x.trim() !== '' ? x.trim() : null);

function isOurs(v: DataType): boolean {
  const p = v.provider as { description?: unknown } | undefined;
  return typeof p === 'object' && p !== null && p.description === COIN_ENTITY.provider;
}

/** What the cell shows for a data type (an entity's text or name, a basic value's value), or null. */
export function dataTypeLabel(v: DataType): string | null {
  return text(v.text) ?? text(property(v, COIN_ENTITY.name)) ?? text(v.basicValue);
}

/** A short description for an error message: never the object's insides. */
export function describeDataType(v: DataType): string {
  const label = dataTypeLabel(v);
  const shown = label ? ` ${JSON.stringify(label.length > 40 ? `${label.slice(0, 40)}…` : label)}` : '';
  return isEntity(v) ? `a data type${shown} (${v.type})` : `a ${v.type} value${shown}`;
}

/**
 * The coin a data type stands for: one of ours by its id; any entity by its
 * slug, name, symbol or text (the coin resolver then says if no coin has it).
 */
export function coinFromDataType(v: DataType, name: string): string | number {
  if (isEntity(v)) {
    const id = isOurs(v) ? property(v, COIN_ENTITY.id) : undefined;
    if (typeof id === 'number' && Number.isInteger(id) && id > 0) return id;
    const named = text(property(v, COIN_ENTITY.slug)) ?? text(property(v, COIN_ENTITY.name)) ?? text(v.text) ?? text(property(v, COIN_ENTITY.symbol));
    if (named) return named;
  }
  throw invalidValue(`${name} must be a coin id, slug, symbol or name, or a coin data type; got ${describeDataType(v)}`);
}
