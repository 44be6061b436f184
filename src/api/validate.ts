/**
 * Validates an API answer against its valibot schema without copying it.
 *
 * valibot's parse builds a new output object for every object and array it
 * checks. For a markets page (250 items of about 30 objects each) that copy is
 * a megabyte, and in a 10,000-cell recalculation those copies were a fifth of
 * everything allocated: the garbage collector ran more often and copied more
 * on the critical path. When a schema only checks (no transforms, defaults or
 * fallbacks), the copy equals the input less any keys the schema does not
 * name, which nothing reads. So such schemas are compiled once into a
 * predicate that reads the answer in place.
 *
 * The schemas stay the one source of truth: a schema using anything the
 * compiler does not know, and every answer the predicate rejects, goes to
 * v.safeParse, so results and error messages are valibot's own.
 */
import * as v from 'valibot';

type Predicate = (x: unknown) => boolean;

/** The parts of a valibot schema or pipe item that the compiler reads (public properties of valibot 1.x). */
interface Node {
  kind: string;
  type: string;
  pipe?: readonly Node[];
  entries?: Readonly<Record<string, Node>>;
  item?: Node;
  wrapped?: Node;
  options?: readonly unknown[];
  requirement?: unknown;
  default?: unknown;
  fallback?: unknown;
}

const compiled = new WeakMap<object, Predicate | null>();

function predicateFor(schema: object): Predicate | null {
  let p = compiled.get(schema);
  if (p === undefined) {
    p = compile(schema as Node);
    compiled.set(schema, p);
  }
  return p;
}

/** v.safeParse's result; the output is the input itself when the in-place check passes. */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.SafeParseResult<S> {
  const ok = predicateFor(schema);
  if (ok !== null && ok(input)) return { typed: true, success: true, output: input as v.InferOutput<S>, issues: undefined };
  return v.safeParse(schema, input);
}

/**
 * The in-place check alone: true or false, or null when the schema is not
 * checkable in place (then only validate() can say). For callers that go on
 * to their own reading when the strict check fails, so valibot's issues are
 * not built for nothing.
 */
export function checkInPlace(schema: v.GenericSchema, input: unknown): boolean | null {
  const ok = predicateFor(schema);
  return ok === null ? null : ok(input);
}

/** Whether the in-place check covers this schema (tests use it to keep the hot schemas covered). */
export function checksInPlace(schema: v.GenericSchema): boolean {
  return predicateFor(schema) !== null;
}

/** A predicate that accepts exactly what valibot accepts unchanged; null when the schema could change or default a value. */
function compile(s: Node): Predicate | null {
  if ('fallback' in s && s.fallback !== undefined) return null;
  if (s.pipe) return compilePipe(s.pipe);
  switch (s.type) {
    case 'string':
      return (x) => typeof x === 'string';
    case 'number':
      return (x) => typeof x === 'number' && !Number.isNaN(x);
    case 'boolean':
      return (x) => typeof x === 'boolean';
    case 'unknown':
    case 'any':
      return () => true;
    case 'picklist': {
      const options = s.options ?? [];
      return (x) => options.includes(x);
    }
    case 'nullable': {
      const inner = s.default === undefined && s.wrapped ? compile(s.wrapped) : null;
      return inner && ((x) => x === null || inner(x));
    }
    case 'optional': {
      const inner = s.default === undefined && s.wrapped ? compile(s.wrapped) : null;
      return inner && ((x) => x === undefined || inner(x));
    }
    case 'array': {
      const item = s.item ? compile(s.item) : null;
      // Every index, as valibot reads them (every() would skip holes).
      return (
        item &&
        ((x) => {
          if (!Array.isArray(x)) return false;
          for (let i = 0; i < x.length; i++) if (!item(x[i])) return false;
          return true;
        })
      );
    }
    case 'object':
      return s.entries ? compileObject(s.entries) : null;
    default:
      return null;
  }
}

function compileObject(entries: Readonly<Record<string, Node>>): Predicate | null {
  const keys = Object.keys(entries);
  const checks: Predicate[] = [];
  for (const k of keys) {
    const c = compile(entries[k]);
    if (!c) return null;
    checks.push(c);
  }
  // valibot lets only optional keys be missing (ours have no defaults: compile() refused those).
  const mayBeMissing = keys.map((k) => entries[k].type === 'optional');
  // One read per key: `in` only for a value that reads undefined (present as undefined, or missing).
  return (x) => {
    if (!x || typeof x !== 'object') return false;
    const o = x as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) {
      const value = o[keys[i]];
      if (value === undefined && !(keys[i] in o)) {
        if (!mayBeMissing[i]) return false;
      } else if (!checks[i](value)) {
        return false;
      }
    }
    return true;
  };
}

function compilePipe(pipe: readonly Node[]): Predicate | null {
  const steps: Predicate[] = [];
  for (const item of pipe) {
    if (item.kind === 'metadata') continue;
    let step: Predicate | null = null;
    if (item.kind === 'schema') step = compile(item);
    else if (item.kind === 'validation') step = compileAction(item);
    if (!step) return null; // transformations change the value: valibot must produce it
    steps.push(step);
  }
  return chain(steps);
}

/**
 * Steps in order, as one predicate. Pipes here are short (a type and a check or
 * two), and a markets page is some 10,000 values: the short ones are written
 * out, where a loop over an array of closures cost a third more per page.
 */
function chain(steps: readonly Predicate[]): Predicate {
  const [a, b, c] = steps;
  switch (steps.length) {
    case 0:
      return () => true;
    case 1:
      return a;
    case 2:
      return (x) => a(x) && b(x);
    case 3:
      return (x) => a(x) && b(x) && c(x);
    default: {
      const rest = chain(steps.slice(2));
      return (x) => a(x) && b(x) && rest(x);
    }
  }
}

function compileAction(a: Node): Predicate | null {
  const req = a.requirement;
  switch (a.type) {
    case 'regex':
      return req instanceof RegExp ? (x) => req.test(x as string) : null;
    case 'finite':
      return (x) => Number.isFinite(x);
    case 'integer':
    case 'check':
      return typeof req === 'function' ? (x) => Boolean((req as (y: unknown) => unknown)(x)) : null;
    default:
      return null;
  }
}
