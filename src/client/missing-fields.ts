/**
 * A single record the service answered without fields the formulas need
 * (api/read-data.ts lists their paths). Each such field becomes a getter that
 * throws MISSING_FIELD naming it and the endpoint, so exactly the cells that
 * read it fail, and every other field of the record still reads. The getters
 * are not enumerable: copying or serializing the record skips them.
 */
import { ApiError } from './api-error';
import type { CanonicalRequest } from './canonical-request';

export function guardMissing(
  record: Record<string, unknown>,
  paths: readonly string[],
  endpoint: CanonicalRequest['name'],
  source: string,
): Record<string, unknown> {
  const root: Record<string, unknown> = { ...record };
  const copies = new Set<unknown>([root]); // copied once: a second copy would drop the getters (not enumerable)
  for (const path of paths) {
    const keys = path.split('.');
    let parent: Record<string, unknown> | null = root;
    // Copies along the path: the answer's own objects stay as they came.
    for (const k of keys.slice(0, -1)) {
      const child: unknown = parent[k];
      if (typeof child !== 'object' || child === null) {
        parent = null;
        break;
      }
      if (copies.has(child)) {
        parent = child as Record<string, unknown>;
        continue;
      }
      const copy = (Array.isArray(child) ? [...child] : { ...child }) as Record<string, unknown>;
      copies.add(copy);
      parent[k] = copy;
      parent = copy;
    }
    if (!parent) continue; // an ancestor is missing: its own path guards it
    Object.defineProperty(parent, keys[keys.length - 1], {
      enumerable: false,
      configurable: true,
      get() {
        throw new ApiError({ code: 'MISSING_FIELD', message: `The API answered without ${path} (${source})`, endpoint });
      },
    });
  }
  return root;
}
