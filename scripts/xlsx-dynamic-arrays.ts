/**
 * Marks formulas in an .xlsx as dynamic arrays, so Excel spills them instead
 * of opening them as implicit intersections (=@...). SpreadsheetML keeps that
 * in cell metadata: the cell's cm="1" points at a cellMetadata entry of type
 * XLDAPR (dynamic array properties, fDynamic="1") in xl/metadata.xml, and its
 * formula is written as an array formula anchored at the cell.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

const METADATA_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">' +
  '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>' +
  '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>' +
  '<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>' +
  '</metadata>';
const CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml';
const REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata';

export const SHEET_PART = 'xl/worksheets/sheet1.xml';

/** The workbook with the formulas in `anchors` (cell addresses of its first sheet) made dynamic arrays. */
export function markDynamicArrays(xlsx: Uint8Array, anchors: readonly string[]): Uint8Array {
  if (anchors.length === 0) return xlsx;
  const files = unzipSync(xlsx);
  let sheet = strFromU8(files[SHEET_PART]);
  for (const a of anchors) {
    const cell = new RegExp(`<c r="${a}"([^>]*)><f>`);
    if (!cell.test(sheet)) throw new Error(`${SHEET_PART}: no formula in ${a}`);
    sheet = sheet.replace(cell, `<c r="${a}"$1 cm="1"><f t="array" ref="${a}">`);
  }
  files[SHEET_PART] = strToU8(sheet);
  files['xl/metadata.xml'] = strToU8(METADATA_XML);
  const types = strFromU8(files['[Content_Types].xml']);
  files['[Content_Types].xml'] = strToU8(types.replace('</Types>', `<Override PartName="/xl/metadata.xml" ContentType="${CONTENT_TYPE}"/></Types>`));
  const rels = strFromU8(files['xl/_rels/workbook.xml.rels']);
  files['xl/_rels/workbook.xml.rels'] = strToU8(rels.replace('</Relationships>', `<Relationship Id="rIdDynamicArrays" Type="${REL_TYPE}" Target="metadata.xml"/></Relationships>`));
  return zipSync(files);
}
