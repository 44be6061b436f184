/**
 * functions.json as the build generates it: the same generator
 * (custom-functions-metadata) over the same files (every file in src/functions),
 * so the CLI checks arguments exactly as Excel would be told to.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { generateCustomFunctionsMetadata } from 'custom-functions-metadata/lib/generate.js';

export interface ParameterMeta {
  name: string;
  description?: string;
  type: 'any' | 'number' | 'string' | 'boolean';
  dimensionality?: 'scalar' | 'matrix';
  optional?: boolean;
  repeating?: boolean;
}
export interface FunctionMeta {
  id: string;
  name: string;
  description: string;
  helpUrl?: string;
  parameters: ParameterMeta[];
  result: { type?: string; dimensionality?: 'scalar' | 'matrix' };
  options?: { stream?: boolean; cancelable?: boolean; volatile?: boolean };
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FUNCTIONS_DIR = path.join(root, 'src/functions');

export function functionFiles(): string[] {
  return readdirSync(FUNCTIONS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => path.join(FUNCTIONS_DIR, f));
}

let cached: Promise<FunctionMeta[]> | null = null;

export function loadFunctionMetadata(): Promise<FunctionMeta[]> {
  cached ??= (async () => {
    const result = await generateCustomFunctionsMetadata(functionFiles(), false);
    if (result.errors.length) throw new Error(`functions metadata: ${result.errors.join('; ')}`);
    return (JSON.parse(result.metadataJson) as { functions: FunctionMeta[] }).functions;
  })();
  return cached;
}
