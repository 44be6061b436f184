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
 * 3. A record still failing is described by its first problem, naming the
 *    field ("The API answered without closingPrice"). In a list it costs that
 *    item only: it is set aside as rejected, with its id where it has one, and
 *    the other items are read as usual. A single record (with `partial`) whose
 *    only problems are missing fields is read as it is, with those fields'
 *    paths listed as `missing`: they cost only the cells that read them.
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

export type DataReading =
  | { ok: true; data: unknown; rejected: RejectedItem[] | null; missing?: string[] }
  | { ok: false; field: string; message: string; missing: boolean };

/** The parts of a valibot schema this reads (public properties of valibot 1.x). */
interface Node {
  type: string;
  entries?: Readonly<Record<string, Node>>;
  item?: Node;
  wrapped?: Node;
}

/** `partial`: a single record missing only some fields is still read (see 3. above). */
export function readData(schema: v.GenericSchema, answer: unknown, variant?: Variant, answerVariant?: AnswerVariant, partial = false): DataReading {
  const whole = strictly(schema, answer);
  if (whole) return whole;
  const raw = answerVariant ? answerVariant(answer) : answer;
  const node = schema as unknown as Node;
  if (node.type === 'array' && node.item && Array.isArray(raw)) return readItems(node.item as unknown as v.GenericSchema, raw, variant);
  return readRecord(schema, raw, variant, partial);
}

function readItems(item: v.GenericSchema, raw: readonly unknown[], variant?: Variant): DataReading {
  const data: unknown[] = [];
  let rejected: RejectedItem[] | null = null;
  for (let i = 0; i < raw.length; i++) {
    const x = raw[i];
    const r = readRecord(item, x, variant);
    if (r.ok) data.push(r.data);
    else (rejected ??= []).push({ index: i, id: idOf(x), label: labelOf(x), field: r.field, message: r.message, missing: r.missing });
  }
  return { ok: true, data, rejected };
}

function readRecord(schema: v.GenericSchema, raw: unknown, variant?: Variant, partial = false): DataReading {
  const plain = strictly(schema, raw);
  if (plain) return plain;
  const adapted = variant && isRecord(raw) ? variant(raw) : raw;
  const candidate = withNulls(schema as unknown as Node, adapted);
  const r = validate(schema, candidate);
  if (r.success) return { ok: true, data: r.output, rejected: null };
  const missing = partial && isRecord(candidate) ? missingPaths(r.issues) : null;
  if (missing) return { ok: true, data: candidate, rejected: null, missing };
  return { ok: false, ...describe(r.issues) };
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
