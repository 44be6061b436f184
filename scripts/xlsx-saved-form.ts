/**
 * A workbook's custom-function formulas in the form Excel saves them, so that
 * Excel binds them to the add-in when the file opens (written by a library,
 * `CRYPTO.PRICE(A4)` is reported to stay #NAME? after the add-in loads, even on
 * a forced recalculation: office-js#6611, #6395, #6355; Excel-Custom-Functions#108).
 * What Excel writes (the Excel-saved workbook of the public repro linked from
 * office-js#6611, described in test/fixtures/excel-saved-form.json):
 *
 * - the formula as `_xldudf_<NAMESPACE>_<NAME>(...)`, an array formula
 *   (`<f t="array" ref="A1">`) on a cell marked `cm="1"`, scalar functions too,
 *   with a cached value; cm="1" points at the dynamic-array cell metadata
 *   (XLDAPR, fDynamic="1") in xl/metadata.xml, which makes a table spill
 *   instead of opening as an implicit intersection (=@...);
 * - xl/webextensions/webextension1.xml naming the add-in, with a
 *   customFunctionIdList of the `_xldudf_` ids the workbook uses, and
 *   xl/webextensions/taskpanes.xml pointing at it, related from the package root.
 *
 * The cached value is #N/A ("no value yet": the file carries no market data of
 * its own) and the workbook asks for a full calculation on load
 * (calcPr fullCalcOnLoad, ECMA-376 Part 1, 18.2.2), because Excel does not
 * recalculate custom functions when a workbook opens (Excel-Custom-Functions#368).
 */
import { createHash } from 'node:crypto';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';

export const SHEET_PART = 'xl/worksheets/sheet1.xml';
export const WEBEXTENSION_PART = 'xl/webextensions/webextension1.xml';
export const TASKPANES_PART = 'xl/webextensions/taskpanes.xml';

const NS = {
  main: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  rel: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  pkgRel: 'http://schemas.openxmlformats.org/package/2006/relationships',
  dynamicArray: 'http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray',
  webextension: 'http://schemas.microsoft.com/office/webextensions/webextension/2010/11',
  taskpanes: 'http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11',
  drawing: 'http://schemas.openxmlformats.org/drawingml/2006/main',
};
export const CONTENT_TYPES = {
  metadata: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml',
  webextension: 'application/vnd.ms-office.webextension+xml',
  taskpanes: 'application/vnd.ms-office.webextensiontaskpanes+xml',
};
export const REL_TYPES = {
  metadata: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata',
  taskpanes: 'http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes',
  webextension: 'http://schemas.microsoft.com/office/2011/relationships/webextension',
};
/** The extension that carries the custom-function id list in a webextension part. */
export const CUSTOM_FUNCTION_IDS_EXT = '{7C84B067-C214-45C3-A712-C9D94CD141B2}';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const METADATA_XML =
  XML +
  `<metadata xmlns="${NS.main}" xmlns:xda="${NS.dynamicArray}">` +
  '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>' +
  '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>' +
  '<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>' +
  '</metadata>';

/**
 * Where the workbook says the add-in comes from: its webextension reference
 * (Microsoft: "Automatically open a task pane with a document", the storeType
 * table; [MS-OWEXML] 2.2.5 WebExtensionReference).
 */
export interface AddinReference {
  /** Registry: the manifest's <Id>; OMEX: the AppSource asset id (WA...); EXCatalog: the manifest's <Id>. */
  id: string;
  version: string;
  /** Registry: "developer"; OMEX: the AppSource locale ("en-US"); EXCatalog: "EXCatalog". */
  store: string;
  storeType: 'Registry' | 'OMEX' | 'EXCatalog';
}

export interface SavedFormOptions {
  /** The manifest's custom-functions namespace: CRYPTO. */
  namespace: string;
  /** Function name (as typed after the namespace) → its id in functions.json. */
  functionIds: ReadonlyMap<string, string>;
  addin: AddinReference;
  /** Seeds the webextension part's instance id, so the same workbook is written the same way twice. */
  instanceSeed: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const escapeXml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
/** Element text as Excel writes it: quotes stay quotes. */
const escapeText = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
const unescapeXml = (s: string) => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);

/** `CRYPTO.PRICE(` → `_xldudf_CRYPTO_PRICE(` everywhere in a formula (outside string literals); the names used. */
export function savedFormula(formula: string, namespace: string): { text: string; names: string[] } {
  const names: string[] = [];
  const call = new RegExp(`(^|[^A-Za-z0-9_.])${escapeRe(namespace)}\\.([A-Za-z0-9_.]+)\\s*\\(`, 'gi');
  // Split on string literals ("..." with "" escapes) so text that mentions CRYPTO.X( is left alone.
  const text = formula
    .split(/("(?:[^"]|"")*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(call, (_, before: string, name: string) => {
      names.push(name.toUpperCase());
      return `${before}_xldudf_${namespace.toUpperCase()}_${name.toUpperCase().replace(/\./g, '_')}(`;
    })))
    .join('');
  return { text, names };
}

/** A UUID-shaped id from a seed: Excel writes a fresh one per workbook; a fixed one keeps the file reproducible. */
function instanceId(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex').toUpperCase();
  return `{${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}}`;
}

export function webextensionXml(addin: AddinReference, customFunctionIds: readonly string[], seed: string): string {
  const ids = customFunctionIds.map((id) => `<we:customFunctionIds>${escapeText(id)}</we:customFunctionIds>`).join('');
  return (
    XML +
    `<we:webextension xmlns:we="${NS.webextension}" id="${instanceId(seed)}">` +
    `<we:reference id="${escapeXml(addin.id)}" version="${escapeXml(addin.version)}" store="${escapeXml(addin.store)}" storeType="${addin.storeType}"/>` +
    '<we:alternateReferences/><we:properties/><we:bindings/>' +
    `<we:snapshot xmlns:r="${NS.rel}"/>` +
    `<we:extLst><a:ext xmlns:a="${NS.drawing}" uri="${CUSTOM_FUNCTION_IDS_EXT}"><we:customFunctionIdList>${ids}</we:customFunctionIdList></a:ext></we:extLst>` +
    '</we:webextension>'
  );
}

/** The pane is not opened by the workbook (visibility 0): catalog add-ins may not open themselves. */
const TASKPANES_XML =
  XML +
  `<wetp:taskpanes xmlns:wetp="${NS.taskpanes}"><wetp:taskpane dockstate="right" visibility="0" width="350" row="0">` +
  `<wetp:webextensionref xmlns:r="${NS.rel}" r:id="rId1"/></wetp:taskpane></wetp:taskpanes>`;
const TASKPANES_RELS =
  XML + `<Relationships xmlns="${NS.pkgRel}"><Relationship Id="rId1" Type="${REL_TYPES.webextension}" Target="webextension1.xml"/></Relationships>`;

function addOverride(types: string, part: string, contentType: string): string {
  return types.replace('</Types>', `<Override PartName="/${part}" ContentType="${contentType}"/></Types>`);
}
function addRelationship(rels: string, id: string, type: string, target: string): string {
  return rels.replace('</Relationships>', `<Relationship Id="${id}" Type="${type}" Target="${target}"/></Relationships>`);
}

/**
 * The workbook (one sheet, as write-excel-file writes it) with every formula
 * that calls the add-in in Excel's saved form, and the parts naming the add-in.
 * Returns the bytes and the `_xldudf_` ids used.
 */
export function toSavedForm(xlsx: Uint8Array, opts: SavedFormOptions): { bytes: Uint8Array; customFunctionIds: string[] } {
  const files = unzipSync(xlsx);
  const used = new Set<string>();
  const sheet = strFromU8(files[SHEET_PART]).replace(/<c r="([A-Z]+\d+)"([^>]*)><f>([^<]*)<\/f>(?:<v>[^<]*<\/v>)?<\/c>/g, (whole, ref: string, attrs: string, f: string) => {
    const { text, names } = savedFormula(unescapeXml(f), opts.namespace);
    if (names.length === 0) return whole;
    for (const n of names) {
      const id = opts.functionIds.get(n);
      if (!id) throw new Error(`${ref}: ${opts.namespace}.${n} is not a function of the add-in`);
      used.add(`_xldudf_${opts.namespace.toUpperCase()}_${id.toUpperCase().replace(/\./g, '_')}`);
    }
    const plainAttrs = attrs.replace(/\s+t="[^"]*"/, '');
    return `<c r="${ref}"${plainAttrs} t="e" cm="1"><f t="array" ref="${ref}">${escapeText(text)}</f><v>#N/A</v></c>`;
  });
  if (used.size === 0) return { bytes: xlsx, customFunctionIds: [] };
  const customFunctionIds = [...used].sort();
  files[SHEET_PART] = strToU8(sheet);
  files['xl/metadata.xml'] = strToU8(METADATA_XML);
  files[WEBEXTENSION_PART] = strToU8(webextensionXml(opts.addin, customFunctionIds, opts.instanceSeed));
  files[TASKPANES_PART] = strToU8(TASKPANES_XML);
  files['xl/webextensions/_rels/taskpanes.xml.rels'] = strToU8(TASKPANES_RELS);

  let types = strFromU8(files['[Content_Types].xml']);
  types = addOverride(types, 'xl/metadata.xml', CONTENT_TYPES.metadata);
  types = addOverride(types, TASKPANES_PART, CONTENT_TYPES.taskpanes);
  types = addOverride(types, WEBEXTENSION_PART, CONTENT_TYPES.webextension);
  files['[Content_Types].xml'] = strToU8(types);
  files['xl/_rels/workbook.xml.rels'] = strToU8(addRelationship(strFromU8(files['xl/_rels/workbook.xml.rels']), 'rIdDynamicArrays', REL_TYPES.metadata, 'metadata.xml'));
  files['_rels/.rels'] = strToU8(addRelationship(strFromU8(files['_rels/.rels']), 'rIdWebExtensions', REL_TYPES.taskpanes, TASKPANES_PART));

  const workbook = strFromU8(files['xl/workbook.xml']);
  if (!/<calcPr\s*\/>/.test(workbook)) throw new Error('xl/workbook.xml: no empty <calcPr/> to mark for a full calculation on load');
  files['xl/workbook.xml'] = strToU8(workbook.replace(/<calcPr\s*\/>/, '<calcPr fullCalcOnLoad="1"/>'));
  // A fixed time in the zip entries: the same workbook gives the same bytes.
  const mtime = new Date('2024-01-01T00:00:00Z');
  const fixed: Zippable = Object.fromEntries(Object.entries(files).map(([k, v]): [string, [Uint8Array, { mtime: Date }]] => [k, [v, { mtime }]]));
  return { bytes: zipSync(fixed), customFunctionIds };
}
