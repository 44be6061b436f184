/**
 * Reads an answer's `data` into the record the formulas use: tolerant at the
 * boundary, strict inside.
 *
 * 1. The strict in-place check (validate.ts): the spec's shape passes as it
 *    is, uncopied. This is the common case and the benchmark's path.
 * 2. Otherwise, the whole answer's documented variant, if any (variants.ts),
 *    then per record (per item of a list): the endpoint's documented variant
 *    adapter, then every missing nullable field as null
 *    (a missing optional field is an empty cell), then the strict check again.
 *    Only the records that fail the strict check take this path.
 * 3. A record still failing is described by its first problem, naming the
 *    field ("The API answered without closingPrice"). With `partial`, a record
 *    whose only problems are missing fields is read as it is, with those
 *    fields' paths listed as `missing` (for a list, per item: `incomplete`):
 *    they cost only the cells that read them.
 * 4. In a list, an item that cannot be read costs that item only: it is set
 *    aside as rejected, with its id where it has one, and the other items are
 *    read as usual. An item stays unreadable, missing fields or not, without
 *    what it is filed under (FILED_UNDER: its id, names, and place in the list
 *    or series, which the client indexes, sorts and pages by) or a field its
 *    endpoint names as `needed` (a markets item's price: a quote is its price).
 *    A nullable one of these is never missing: it is null (2.).
 * Extra fields are ignored throughout (the schemas are not strict objects).
 */
import * as v from 'valibot';
import { checkInPlace, validate } from './validate';
import type { AnswerVariant, Variant } from './variants';

/** An item of a list answer that could not be read. */
export interface RejectedItem {
  /** Position in the answer's list. */
  index: number;
  /** The item's coin or record id, when it carried one. */
  id: number | null;
  /** Its slug or name, when it carried one (for messages). */
  label: string | null;
  /** The dot path of the missing or wrong field. */
  field: string;
  /** "The API answered without price". */
  message: string;
  /** Whether the field was absent (rather than of the wrong type). */
  missing: boolean;
  /** The endpoint's path, for the error log (set by the transport). */
  source?: string;
}

/** An item of a list read without some fields (rule 3): its place in `data`, and those fields' paths. */
export interface IncompleteItem {
  index: number;
  missing: string[];
}

export type DataReading =
  | { ok: true; data: unknown; rejected: RejectedItem[] | null; missing?: string[]; incomplete?: IncompleteItem[] }
  | { ok: false; field: string; message: string; missing: boolean };

/**
 * What a list item is filed under (rule 4): its id (`currencyId` before the
 * unlocks variant renames it), its names (the currency map indexes slug,
 * symbol and name; messages name an item by them), and its place (trending and
 * holders sort by rank, series by time or date, paging by time).
 */
export const FILED_UNDER: ReadonlySet<string> = new Set(['id', 'currencyId', 'slug', 'symbol', 'name', 'rank', 'time', 'date']);

/** The parts of a valibot schema this reads (public properties of valibot 1.x). */
interface Node {
  type: string;
  entries?: Readonly<Record<string, Node>>;
  item?: Node;
  wrapped?: Node;
}

/**
 * `partial`: a record missing only some fields is still read (rules 3, 4);
 * `needed`: fields a list item cannot go without besides FILED_UNDER.
 */
export function readData(
  schema: v.GenericSchema,
  answer: unknown,
  variant?: Variant,
  answerVariant?: AnswerVariant,
  partial = false,
  needed: readonly string[] = [],
): DataReading {
  const whole = strictly(schema, answer);
  if (whole) return whole;
  const raw = answerVariant ? answerVariant(answer) : answer;
  const node = schema as unknown as Node;
  if (node.type === 'array' && node.item && Array.isArray(raw)) {
    return readItems(node.item as unknown as v.GenericSchema, raw, variant, partial ? (path) => FILED_UNDER.has(path) || needed.includes(path) : null);
  }
  return readRecord(schema, raw, variant, partial ? () => false : null);
}

/** Which missing top-level fields a record cannot go without; null: none may be missing. */
type Required = ((path: string) => boolean) | null;

function readItems(item: v.GenericSchema, raw: readonly unknown[], variant: Variant | undefined, required: Required): DataReading {
  const data: unknown[] = [];
  let rejected: RejectedItem[] | null = null;
  let incomplete: IncompleteItem[] | null = null;
  for (let i = 0; i < raw.length; i++) {
    const x = raw[i];
    const r = readRecord(item, x, variant, required);
    if (!r.ok) (rejected ??= []).push({ index: i, id: idOf(x), label: labelOf(x), field: r.field, message: r.message, missing: r.missing });
    else {
      if (r.missing) (incomplete ??= []).push({ index: data.length, missing: r.missing });
      data.push(r.data);
    }
  }
  return incomplete ? { ok: true, data, rejected, incomplete } : { ok: true, data, rejected };
}

function readRecord(schema: v.GenericSchema, raw: unknown, variant: Variant | undefined, required: Required): DataReading {
  const plain = strictly(schema, raw);
  if (plain) return plain;
  const adapted = variant && isRecord(raw) ? variant(raw) : raw;
  const candidate = withNulls(schema as unknown as Node, adapted);
  const r = validate(schema, candidate);
  if (r.success) return { ok: true, data: r.output, rejected: null };
  const missing = required && isRecord(candidate) ? missingPaths(r.issues) : null;
  if (!required || !missing) return { ok: false, ...describe(r.issues) };
  // However complete the rest, an item without what it is filed under is unreadable (rule 4).
  const key = r.issues.find((i) => required(v.getDotPath(i) ?? ''));
  if (key) return { ok: false, ...describe([key]) };
  return { ok: true, data: candidate, rejected: null, missing };
}

/** The dot paths of the missing fields, when every problem is a missing field; else null. */
function missingPaths(issues: readonly v.BaseIssue<unknown>[]): string[] | null {
  const paths = new Set<string>();
  for (const i of issues) {
    const path = v.getDotPath(i);
    if (i.input !== undefined || !path) return null;
    paths.add(path);
  }
  return paths.size > 0 ? [...paths] : null;
}

/**
 * The strict check: in place (validate.ts), the record as it is; valibot's own
 * parse for a schema not checkable in place. null when it fails (no issues are
 * built: the reading goes on).
 */
function strictly(schema: v.GenericSchema, x: unknown): { ok: true; data: unknown; rejected: null } | null {
  const inPlace = checkInPlace(schema, x);
  if (inPlace !== null) return inPlace ? { ok: true, data: x, rejected: null } : null;
  const r = v.safeParse(schema, x);
  return r.success ? { ok: true, data: r.output, rejected: null } : null;
}

/** The first problem, in words a cell can show. */
export function describe(issues: readonly v.BaseIssue<unknown>[]): { field: string; message: string; missing: boolean } {
  const first = issues[0];
  const field = (first && v.getDotPath(first)) || 'data';
  const missing = first?.input === undefined;
  return {
    field,
    missing,
    message: missing
      ? `The API answered without ${field}`
      : `The API answered ${field} in an unexpected form (${expectation(first)})`,
  };
}

/**
 * What the field should have been, never what was received: valibot's own
 * message quotes the value, and a server's value may be anything (the key it
 * echoed, a 400-digit number).
 */
export function expectation(issue: v.BaseIssue<unknown> | undefined): string {
  if (!issue) return 'invalid';
  return issue.expected ? `expected ${issue.expected}` : `invalid ${issue.kind}`;
}

/** `x` with every missing nullable field set to null, at any depth; copies only what changes. */
function withNulls(s: Node, x: unknown): unknown {
  if (s.type === 'nullable' || s.type === 'optional') return x === null || x === undefined || !s.wrapped ? x : withNulls(s.wrapped, x);
  if (s.type === 'array' && s.item && Array.isArray(x)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < x.length; i++) {
      const y = withNulls(s.item, x[i]);
      if (y !== x[i]) (out ??= [...x])[i] = y;
    }
    return out ?? x;
  }
  if (s.type === 'object' && s.entries && isRecord(x)) {
    let out: Record<string, unknown> | null = null;
    for (const [k, e] of Object.entries(s.entries)) {
      const present = k in x && x[k] !== undefined;
      const y = present ? withNulls(e, x[k]) : e.type === 'nullable' ? null : undefined;
      if (y !== x[k] && (present || y !== undefined)) (out ??= { ...x })[k] = y;
    }
    return out ?? x;
  }
  return x;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function idOf(x: unknown): number | null {
  if (!isRecord(x)) return null;
  const id = x.id ?? x.currencyId;
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
}

function labelOf(x: unknown): string | null {
  if (!isRecord(x)) return null;
  const l = x.slug ?? x.name;
  return typeof l === 'string' ? l : null;
}
