/**
 * The README's formula table, from the generated functions metadata and
 * docs/formula-examples/*.json. `node --import tsx scripts/formula-table.ts` prints it; a test
 * checks the README carries exactly this table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFunctionMetadata } from '../src/cli/metadata';
import { CATALOG } from '../src/formulas/catalog';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Example {
  formula: string;
  result: string;
}

export function loadExamples(): Record<string, Example[]> {
  const dir = path.join(root, 'docs/formula-examples');
  return Object.assign(
    {},
    ...readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, Example[]>),
  );
}

export async function formulaTable(): Promise<string> {
  // In the catalog's order: by area, as a user browses them.
  const order = Object.keys(CATALOG);
  const meta = [...(await loadFunctionMetadata())].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  const examples = loadExamples();
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = meta.map((f) => {
    const sig = `CRYPTO.${f.name}(${f.parameters.map((p) => (p.optional ? `[${p.name}]` : p.repeating ? `${p.name}...` : p.name)).join(', ')})`;
    const ex = examples[f.id]?.[0];
    return `| \`${cell(sig)}\` | ${cell(f.description)} | ${ex ? `\`${cell(ex.formula)}\`` : ''} |`;
  });
  return ['| Formula | What it returns | Example |', '|---|---|---|', ...rows].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.log(await formulaTable());
}
