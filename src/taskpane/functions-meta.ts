/**
 * functions.json, read once: the formulas, their arguments and custom enums,
 * as Excel reads them from the manifest. Served beside the pane (the
 * production policy's connect-src allows the pane's own origin for it).
 */
import type { FunctionsJson } from './formula-builder';

let loading: Promise<FunctionsJson> | null = null;

export function functionsMeta(): Promise<FunctionsJson> {
  loading ??= fetch('functions.json', { cache: 'no-cache' })
    .then((r) => {
      if (!r.ok) throw new Error(`functions.json: HTTP ${r.status}`);
      return r.json() as Promise<FunctionsJson>;
    })
    .then((j) => {
      if (!Array.isArray(j?.functions)) throw new Error('functions.json: no functions');
      return j;
    })
    .catch((e: unknown) => {
      loading = null; // try again next time
      throw e;
    });
  return loading;
}
