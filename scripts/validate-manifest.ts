/**
 * Validates Office add-in manifests against the schemas in test/manifest-schema,
 * with libxml2 compiled to WebAssembly (xmllint-wasm): no system xmllint, no
 * network (Office's own validator posts the file to a web service).
 *
 *   npm run validate [-- file.xml ...]     default: manifest.xml
 *
 * Exit 0 when every file is valid, 1 when one is not; each problem is printed
 * as `file:line: message`, libxml2's own words naming the element at fault.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { validateXML } from 'xmllint-wasm';

const SCHEMA_DIR = path.resolve(import.meta.dirname, '../test/manifest-schema');
const ROOT_SCHEMA = 'OfficeAppManifestV1_1.xsd';

export interface ManifestProblem {
  line: number | null;
  /** libxml2's message, e.g. "Schemas validity error : Element 'Bogus': This element is not expected. ..." */
  message: string;
}

export interface ManifestVerdict {
  valid: boolean;
  problems: ManifestProblem[];
}

function schemaFiles(): { fileName: string; contents: string }[] {
  // The root schema first; the ones it imports are preloaded under the names its
  // schemaLocation attributes use.
  const names = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.xsd'));
  return [ROOT_SCHEMA, ...names.filter((n) => n !== ROOT_SCHEMA)].map((fileName) => ({
    fileName,
    contents: readFileSync(path.join(SCHEMA_DIR, fileName), 'utf8'),
  }));
}

/** Validates one manifest's text; `fileName` only labels the problems. */
export async function validateManifest(xml: string, fileName = 'manifest.xml'): Promise<ManifestVerdict> {
  const [root, ...imports] = schemaFiles();
  const r = await validateXML({ xml: [{ fileName, contents: xml }], schema: [root], preload: imports });
  return {
    valid: r.valid,
    // Element names without their {namespace}: every one of them is the manifest's own.
    problems: r.errors.map((e) => ({ line: e.loc?.lineNumber ?? null, message: e.message.replace(/\{[^}]*\}/g, '').trim() })),
  };
}

/** One line per problem, as a terminal or a failed test shows it. */
export function formatProblems(fileName: string, v: ManifestVerdict): string {
  return v.problems.map((p) => `${fileName}:${p.line ?? '?'}: ${p.message}`).join('\n');
}

async function main(files: string[]): Promise<number> {
  let rc = 0;
  for (const f of files.length ? files : ['manifest.xml']) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      console.error(`validate-manifest: no such file: ${f}`);
      rc = 1;
      continue;
    }
    const v = await validateManifest(text, f);
    if (v.valid) console.log(`${f} validates`);
    else {
      console.error(formatProblems(f, v));
      rc = 1;
    }
  }
  return rc;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then((rc) => process.exit(rc));
}
