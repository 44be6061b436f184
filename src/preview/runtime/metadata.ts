/**
 * The parts of functions.json (the metadata Excel reads from the manifest's
 * Functions.Metadata.Url) that decide how a function is called.
 */

export interface ParameterMetadata {
  name: string;
  type?: 'any' | 'number' | 'string' | 'boolean';
  dimensionality?: 'scalar' | 'matrix';
  optional?: boolean;
  repeating?: boolean;
}

export interface FunctionMetadata {
  id: string;
  name: string;
  parameters: ParameterMetadata[];
  result?: { type?: string; dimensionality?: 'scalar' | 'matrix' };
  options?: {
    stream?: boolean;
    cancelable?: boolean;
    volatile?: boolean;
    requiresAddress?: boolean;
    requiresParameterAddresses?: boolean;
  };
}

export interface FunctionsJson {
  functions: FunctionMetadata[];
}

/** Excel matches ids case-insensitively; functions.json spells them in capitals. */
export const idKey = (id: string) => id.toUpperCase();

export function indexMetadata(json: FunctionsJson): Map<string, FunctionMetadata> {
  if (!json || !Array.isArray(json.functions)) throw new Error('functions.json has no "functions" array');
  return new Map(json.functions.map((f) => [idKey(f.id), f]));
}
