/**
 * No module-level mutable state outside src/office/runtime.ts: a module
 * variable outlives the document it was about (a settings change, the next
 * test, a second CLI session) and is shared by every host in the process. What
 * a workbook or a start of the add-in knows belongs to the Runtime; what the
 * evaluations know, to the calculation host.
 *
 * Found here, in every src/**\/*.ts: a module-level `let` or `var`; a
 * module-level `const` holding a WeakMap, WeakSet or LRUCache (they exist to be
 * written to), an instance of any other class (`new X()`, value types such as
 * RegExp, Date, URL aside) or a closure's state (an IIFE's result); a Map, Set,
 * array (typed arrays too) or object literal written from inside a function,
 * directly, through a property chain (`t.byId.set(…)`, `s.n++`), through
 * Object.assign, or through a local alias (one built at load and only read
 * after is a lookup table, not state); a class's `static` field that is not
 * readonly or holds such a collection; a property written on the global object
 * (`window.x = …`). Each must be a row of ALLOWED: the runtime's state, the
 * preview page's entry script, demo handles, and memos that change how fast an
 * answer comes, never what it is.
 *
 * Not found (they need the checker's types, not the syntax tree): a collection
 * a factory made (`const memo = make()`, then `memo.set(…)`), and an array
 * handed to a function that writes it (`add(log, 'x')`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

interface Allowed {
  /** Under src/. */
  file: string;
  name: string;
  why: string;
}

const ALLOWED: readonly Allowed[] = [
  { file: 'office/runtime.ts', name: 'current', why: 'the runtime of this start of the add-in: the one per-document singleton' },
  { file: 'office/runtime.ts', name: 'listeners', why: 'who follows the runtime when settings rebuild it' },
  { file: 'preview/host/index.ts', name: 'workbook', why: "the preview page's entry script: the workbook window it serves, one per page" },
  { file: 'preview/host/index.ts', name: 'connected', why: "the preview page's entry script: resolves Office.onReady once the workbook connects" },
  { file: 'preview/host/index.ts', name: 'runtime', why: "the preview page's entry script: its custom-functions runtime, one per page" },
  { file: 'preview/host/excel-sheet-ids.ts', name: 'idsOf', why: "the preview's Worksheet ids, keyed by the page's workbook document and gone with it" },
  { file: 'taskpane/taskpane.ts', name: 'window.__cryptoAddin', why: "demo and test handle: the pane's runtime, exposed on the pane page's own window" },
  { file: 'preview/workbook/index.ts', name: 'window.__previewWorkbook', why: "demo and test handle: the preview page's workbook, exposed on its own window" },
  { file: 'engine/syntax.ts', name: 'cache', why: 'memo: the syntax tree of a formula text' },
  { file: 'engine/functions.ts', name: 'resolved', why: 'memo: the worksheet function of a name, looked up in formulajs once' },
  { file: 'api/validate.ts', name: 'compiled', why: 'memo: the in-place check compiled from a schema object' },
  { file: 'formulas/currency.ts', name: 'byCode', why: 'memo: a fiat list answer indexed by code, per answer object' },
  { file: 'formulas/coin-entity.ts', name: 'made', why: 'memo: the entity cell built from a quote object' },
  { file: 'taskpane/functions-meta.ts', name: 'loading', why: 'memo: functions.json as served beside the pane (fixed per build)' },
  { file: 'cli/metadata.ts', name: 'cached', why: 'memo: the functions metadata generated from src/functions (fixed per build)' },
  { file: 'cli/calculate.ts', name: 'bindings', why: 'memo: formula text parsed and bound to its function and arguments' },
  { file: 'cli/calculate.ts', name: 'functions', why: "memo: cli/metadata.ts's answer, kept for the synchronous path" },
  { file: 'cli/calculate.ts', name: 'engine', why: 'memo: the engine built from the static metadata (it keeps only names to ids)' },
  { file: 'client/cancellation.ts', name: 'watchers', why: 'one abort listener per signal and its waiters: keyed by the signal, gone with it' },
  { file: 'emulator/market/series.ts', name: 'scratch', why: "the emulator's scratch buffer: filled whole before each read, it carries nothing from one call to the next" },
  { file: 'client/cancellation.ts', name: 'aborted', why: "memo: a signal's ABORTED rejection, per signal" },
];

interface Found {
  name: string;
  line: number;
  kind: string;
}

const ALWAYS_STATE = new Set(['WeakMap', 'WeakSet', 'LRUCache']);
const COLLECTIONS = new Set(['Map', 'Set']);
/** Arrays by another name: written by index like any array. */
const TYPED_ARRAYS = new Set(['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']);
const WRITES = new Set(['add', 'set', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

const isFunction = (n: ts.Node): boolean => ts.isFunctionLike(n) || ts.isClassStaticBlockDeclaration(n);
const insideFunction = (n: ts.Node): boolean => {
  for (let p = n.parent; p && !ts.isSourceFile(p); p = p.parent) if (isFunction(p)) return true;
  return false;
};

/** 'WeakMap', 'Map', 'array'...: what a const's initializer makes, when it is a collection. */
function collectionOf(init: ts.Expression | undefined): string | null {
  if (!init) return null;
  if (ts.isArrayLiteralExpression(init)) return 'array';
  if (ts.isObjectLiteralExpression(init)) return 'object';
  if (ts.isCallExpression(init) && ts.isParenthesizedExpression(init.expression)) return 'instance';
  if (ts.isNewExpression(init) && ts.isIdentifier(init.expression) && !ALWAYS_STATE.has(init.expression.text) && !COLLECTIONS.has(init.expression.text) && init.expression.text !== 'Array' && !TYPED_ARRAYS.has(init.expression.text)) return VALUE_TYPES.has(init.expression.text) ? null : 'instance';
  if (!ts.isNewExpression(init) || !ts.isIdentifier(init.expression)) return null;
  const made = init.expression.text;
  return ALWAYS_STATE.has(made) || COLLECTIONS.has(made) ? made : made === 'Array' || TYPED_ARRAYS.has(made) ? 'array' : null;
}

/** `a.b[c].d` → "a". */
const rootOf = (e: ts.Expression): string | null => {
  while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return ts.isIdentifier(e) ? e.text : null;
};
/** Value types a `new` makes that nobody writes to. */
const VALUE_TYPES = new Set(['RegExp', 'Date', 'URL', 'TextEncoder', 'TextDecoder', 'Error', 'Promise']);

/** Names written from inside a function: `NAME.set(...)` and the like, `NAME[i] = ...`, `NAME.length = 0`, `NAME[i]++`. */
function writtenInFunctions(source: ts.SourceFile): Set<string> {
  const written = new Set<string>();
  /** `const w = NAME` inside a function: writes through w are writes to NAME (a local alias, as a hot loop keeps one). */
  const aliasOf = new Map<string, string>();
  const visit = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isIdentifier(n.initializer) && insideFunction(n)) aliasOf.set(n.name.text, n.initializer.text);
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && WRITES.has(n.expression.name.text) && insideFunction(n)) {
      const root = rootOf(n.expression.expression);
      if (root) written.add(root);
    }
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ts.isIdentifier(n.expression.expression) && n.expression.expression.text === 'Object' && n.expression.name.text === 'assign' && n.arguments[0] && insideFunction(n)) {
      const root = rootOf(n.arguments[0]);
      if (root) written.add(root);
    }
    const assigned = ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment
      ? n.left
      : (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)
        ? n.operand
        : null;
    if (assigned && (ts.isElementAccessExpression(assigned) || ts.isPropertyAccessExpression(assigned)) && insideFunction(n)) {
      const root = rootOf(assigned.expression);
      if (root) written.add(root);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  for (const name of [...written]) if (aliasOf.has(name)) written.add(aliasOf.get(name)!);
  return written;
}

/**
 * The module-level state of one file. `elsewhere`: names written from inside
 * functions in other files (an exported table may be written by its importers).
 */
function moduleState(fileName: string, text: string, elsewhere: ReadonlySet<string> = new Set()): Found[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const written = writtenInFunctions(source);
  const found: Found[] = [];
  const at = (n: ts.Node) => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;
  const names = (d: ts.VariableDeclaration): string[] => (ts.isIdentifier(d.name) ? [d.name.text] : d.name.elements.flatMap((e) => (ts.isBindingElement(e) && ts.isIdentifier(e.name) ? [e.name.text] : [])));
  const visit = (n: ts.Node, topLevel: boolean): void => {
    if (isFunction(n)) return; // a function's own variables are its calls', not the module's
    if (ts.isVariableDeclarationList(n)) {
      const isVar = (n.flags & ts.NodeFlags.BlockScoped) === 0;
      const isLet = (n.flags & ts.NodeFlags.Let) !== 0;
      const exported = ts.isVariableStatement(n.parent) && (n.parent.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      for (const d of n.declarations) {
        if (isVar || (isLet && topLevel)) for (const name of names(d)) found.push({ name, line: at(d), kind: isVar ? 'var' : 'let' });
        else if (topLevel && !isLet && ts.isIdentifier(d.name)) {
          const kind = collectionOf(d.initializer);
          const name = d.name.text;
          if (kind && (ALWAYS_STATE.has(kind) || kind === 'instance' || written.has(name) || (exported && elsewhere.has(name)))) found.push({ name, line: at(d), kind: `const ${kind}` });
        }
      }
    }
    if (ts.isPropertyDeclaration(n) && (n.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) {
      const readonly = (n.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
      const owner = ts.isClassLike(n.parent) && n.parent.name ? `${n.parent.name.text}.` : '';
      if (!readonly || collectionOf(n.initializer)) found.push({ name: `${owner}${n.name.getText(source)}`, line: at(n), kind: readonly ? 'static collection' : 'static' });
    }
    // Only the file's own statements are top level: a `let` in a block is the block's (a `var` is still the module's).
    ts.forEachChild(n, (c) => visit(c, ts.isSourceFile(n) || (topLevel && (ts.isVariableStatement(n) || ts.isVariableDeclarationList(n)))));
  };
  visit(source, true);
  found.push(...globalWrites(source, at));
  return found;
}

/** The names of the global object: a property written on one is state every module shares. */
const GLOBALS = new Set(['globalThis', 'window', 'self']);

/** `window.x = …`, `globalThis.x ??= …`, anywhere in the file (a function's writes outlive its call). */
function globalWrites(source: ts.SourceFile, at: (n: ts.Node) => number): Found[] {
  const found: Found[] = [];
  const visit = (n: ts.Node): void => {
    const left = ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment ? n.left : null;
    if (left && (ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) && ts.isIdentifier(left.expression) && GLOBALS.has(left.expression.text)) {
      found.push({ name: left.getText(source).replace(/\s+/g, ''), line: at(n), kind: 'global' });
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every src file's state, as "file name" keys with their kind and line. */
function srcState(): Map<string, string> {
  const texts = new Map(sourceFiles(SRC).map((f) => [relative(SRC, f).split('\\').join('/'), readFileSync(f, 'utf8')]));
  const writtenBy = new Map([...texts].map(([f, t]) => [f, writtenInFunctions(ts.createSourceFile(f, t, ts.ScriptTarget.Latest, true))]));
  const state = new Map<string, string>();
  for (const [file, text] of texts) {
    const elsewhere = new Set([...writtenBy].filter(([f]) => f !== file).flatMap(([, names]) => [...names]));
    for (const s of moduleState(file, text, elsewhere)) state.set(`${file} ${s.name}`, `${s.kind}, line ${s.line}`);
  }
  assert.ok(texts.size > 100, `read ${texts.size} files`);
  return state;
}

test('src/ keeps module-level mutable state only where ALLOWED says, and each row names state that is there', () => {
  const state = srcState();
  const allowed = new Set(ALLOWED.map((a) => `${a.file} ${a.name}`));
  const unlisted = [...state].filter(([key]) => !allowed.has(key)).map(([key, where]) => `${key} (${where})`);
  assert.deepEqual(unlisted, [], 'module-level state: move it to its owner (the Runtime, the host), or add a row to ALLOWED saying why it changes no answer');
  assert.deepEqual([...allowed].filter((key) => !state.has(key)), [], 'rows of ALLOWED with nothing left to allow');
  assert.equal(allowed.size, ALLOWED.length, 'one row each');
  for (const a of ALLOWED) assert.ok(a.why.length > 10, `${a.file} ${a.name}: say why`);
});

test('the scan finds module-level let and var, state kept in collections and static fields; not locals or load-time tables', () => {
  const found = (text: string, elsewhere?: Set<string>) => moduleState('x.ts', text, elsewhere).map((s) => `${s.name} ${s.kind}`);
  assert.deepEqual(found('let counter = 0;\nexport let a = 1, b = 2;\nvar v;\n'), ['counter let', 'a let', 'b let', 'v var']);
  assert.deepEqual(found('if (x) { var hoisted = 1; let scoped = 2; }\nfor (let i = 0; i < 2; i++) {}\n'), ['hoisted var']);
  assert.deepEqual(found('function f() { let n = 0; const m = new Map(); m.set(1, 2); return n; }\nconst g = () => { var w = 1; return w; };\n'), []);
  assert.deepEqual(found('const seen = new WeakMap<object, number>();\nconst lru: LRUCache<string, number> = new LRUCache({ max: 9 });\n'), ['seen const WeakMap', 'lru const LRUCache']);
  assert.deepEqual(found("const NAMES = new Set(['a', 'b']);\nconst ROUTES = new Map();\nROUTES.set('/', 1);\nexport const has = (n: string) => NAMES.has(n) || ROUTES.has(n);\n"), []);
  assert.deepEqual(found('const memo: Map<string, number> = new Map();\nexport function f(k: string) { memo.set(k, 1); }\nconst log: string[] = [];\nexport const g = () => void log.push("x");\nconst tally = [0];\nexport const t = () => tally[0]++;\n'), ['memo const Map', 'log const array', 'tally const array']);
  assert.deepEqual(found('export const TABLE = new Set<string>();\n', new Set(['TABLE'])), ['TABLE const Set'], 'an exported table its importers write');
  assert.deepEqual(found('const buf = new Float64Array(8);\nexport const f = (x: number) => { buf[0] = x; return buf[0]; };\nconst ZEROS = new Uint8Array(4);\n'), ['buf const array'], 'a typed array written from a function; one only read is a table');
  assert.deepEqual(found('const acc = [0];\nexport const f = () => { const a = acc; a[0]++; };\n'), ['acc const array'], 'written through a local alias');
  // The blind spots of review-arch F2 (each was module-level state the scan did not report):
  assert.deepEqual(found('const state = { n: 0 };\nexport function f() { state.n++; }\n'), ['state const object'], 'an object literal written');
  assert.deepEqual(found('class Counter { n = 0 }\nconst c = new Counter();\nexport function f() { c.n++; }\n'), ['c const instance'], 'an instance of a project class');
  assert.deepEqual(found('export const next = (() => { let n = 0; return () => ++n; })();\n'), ['next const instance'], "a closure's state in an IIFE");
  assert.deepEqual(found('const cfg = { a: 1 };\nexport function f(o: object) { Object.assign(cfg, o); }\n'), ['cfg const object'], 'Object.assign');
  assert.deepEqual(found('const tbl = { byId: new Map<number, number>() };\nexport function f() { tbl.byId.set(1, 2); }\n'), ['tbl const object'], 'a nested collection');
  assert.deepEqual(found('export function f() { globalThis.x = 1; }\nwindow.y = 2;\n'), ['globalThis.x global', 'window.y global'], 'the global object');
  // ...and what stays a table or a value: an object literal only read, value types, a class's own field writes
  assert.deepEqual(found("const LIMITS = { max: 5 };\nconst RE = new RegExp('a');\nconst ORIGIN = new URL('http://x');\nexport const f = (o: { n: number }) => { o.n++; return LIMITS.max + (RE.test('a') ? 1 : 0) + ORIGIN.port.length; };\n"), []);
  // Still not found (they need types; the header says so): a factory's collection, an array handed to a mutator.
  assert.deepEqual(found('const memo = make();\nexport function f() { memo.set(1, 2); }\nconst log: string[] = [];\nexport const g = () => add(log, "x");\n'), []);
  assert.deepEqual(found('class A { static count = 0; static readonly MAX = 5; static readonly cache = new Map(); private n = 0; }\n'), ['A.count static', 'A.cache static collection']);
});
