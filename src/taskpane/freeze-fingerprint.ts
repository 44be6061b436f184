/**
 * What a frozen range held, in short: a digest of its values as Excel gave
 * them back right after Convert to values wrote them, kept in the record so
 * that Restore formulas can tell "still what we wrote" from the user's newer
 * work without keeping the values in the workbook's settings (freeze.ts).
 */

/** Range.values' text for a cell it cannot give: every data type (entity, linked entity, web image...) reads so, as an error does. */
export const VALUE_ERROR = '#VALUE!';

/**
 * A short digest of a range's values (FNV-1a over their JSON, and their
 * shape): enough to tell "still the values we wrote" from "edited, or moved by
 * an inserted row" without keeping the values in the workbook's settings.
 */
export function fingerprint(values: readonly (readonly unknown[])[]): string {
  return digest(JSON.stringify(values), values);
}

function digest(text: string, values: readonly (readonly unknown[])[]): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${values.length}x${values[0]?.length ?? 0}:${h.toString(16)}`;
}

/** JSON with each object's keys in order: the same value reads the same whatever order a build gives its fields in. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : typeof v === 'object' && v !== null
      ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`
      : JSON.stringify(v) ?? 'null';

/** A data type in valuesAsJson where Range.values reads "#VALUE!" (an entity, a linked entity...), not the error itself. */
const isDataType = (value: unknown, json: unknown) =>
  value === VALUE_ERROR && typeof json === 'object' && json !== null && (json as { type?: unknown }).type !== 'Error';

/**
 * fingerprint() with each data type taken whole from Range.valuesAsJson
 * (ExcelApi 1.16), where Range.values reads "#VALUE!" for all of them
 * (learn.microsoft.com/javascript/api/excel/excel.entitycellvalue, basicValue):
 * one card tells from another. Every other cell is its Range.values value, so
 * a range without a data type digests as fingerprint() does. Whether Excel
 * gives a frozen card's JSON back the same after a save and reopen on every
 * build is a guess (keys are ordered here; nothing else is normalised): if it
 * does not, such a cell is left as "changed", never overwritten.
 */
export function typedFingerprint(values: readonly (readonly unknown[])[], json: readonly (readonly unknown[])[]): string {
  if (!values.some((row, i) => row.some((v, j) => isDataType(v, json[i]?.[j])))) return fingerprint(values);
  const cells = values.map((row, i) => `[${row.map((v, j) => (isDataType(v, json[i]?.[j]) ? canonical(json[i][j]) : JSON.stringify(v) ?? 'null')).join(',')}]`);
  return digest(`[${cells.join(',')}]`, values);
}
