/**
 * A record the service answered without fields the formulas need (a single
 * record, or an item of a list: api/read-data.ts lists their paths). Each such
 * field becomes a getter that throws MISSING_FIELD naming it and the endpoint,
 * so exactly the cells that read it fail, and every other field of the record
 * still reads. The getters are not enumerable: copying or serializing the
 * record skips them. FieldReader is the other side: code that builds one value
 * from many fields (a quote) reads each through it, so a missing one costs
 * only itself.
 */
import type { IncompleteItem } from '../api/read-data';
import { ApiError, hasCode } from './api-error';
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

/**
 * A reading's data with its missing fields guarded: the single record's, or
 * each list item's read without some (in place: the reading's own array). A
 * complete reading's data is returned as it is, untouched.
 */
export function guardReading(
  r: { data: unknown; missing?: readonly string[]; incomplete?: readonly IncompleteItem[] },
  endpoint: CanonicalRequest['name'],
  source: string,
): unknown {
  if (r.missing) return guardMissing(r.data as Record<string, unknown>, r.missing, endpoint, source);
  if (!r.incomplete) return r.data;
  const items = r.data as unknown[];
  for (const it of r.incomplete) items[it.index] = guardMissing(items[it.index] as Record<string, unknown>, it.missing, endpoint, source);
  return items;
}

/** How to read each field of a record, by the name it is noted under when absent. */
export type Getters<R> = Readonly<Record<string, (r: R) => unknown>>;

/**
 * Reads a record's fields through its table of getters (module-level
 * functions: a page of 250 quotes allocates none, and a getter passed is
 * cheaper than one looked up by name): each field, or null when the answer
 * left it out (its getter threw MISSING_FIELD), its name in the table then
 * noted in `missing`.
 */
export class FieldReader<R> {
  #missing: Set<string> | null = null;

  constructor(
    private readonly record: R,
    private readonly getters: Getters<R>,
  ) {}

  read<T>(get: (r: R) => T): T | null {
    try {
      return get(this.record);
    } catch (e) {
      if (!hasCode(e, 'MISSING_FIELD')) throw e;
      (this.#missing ??= new Set()).add(Object.keys(this.getters).find((k) => this.getters[k] === get) ?? 'data');
      return null;
    }
  }

  /** The names of the fields left out, or null when none was. */
  get missing(): ReadonlySet<string> | null {
    return this.#missing;
  }
}
