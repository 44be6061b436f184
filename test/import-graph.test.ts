/**
 * No import cycle in src/ (issue #20): each module can be read, and tested,
 * from its imports down. Type-only imports count too: a cycle of types is
 * still two files that cannot be understood apart.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Relative imports and re-exports of a file, as file paths. */
function importsOf(file: string, files: ReadonlySet<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'|^\s*import\s+'(\.{1,2}\/[^']+)'/gm)].map((m) => m[1] ?? m[2]);
  return specs.map((s) => {
    const p = resolve(dirname(file), s.replace(/\.js$/, ''));
    return files.has(`${p}.ts`) ? `${p}.ts` : join(p, 'index.ts');
  });
}

/** Every cycle found by a depth-first walk, as the files around it. */
function cycles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f, known).filter((d) => known.has(d))]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (f: string): void => {
    state.set(f, 'open');
    stack.push(f);
    for (const d of graph.get(f) ?? []) {
      if (state.get(d) === 'open') found.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return found;
}

test('src/ has no import cycle, type-only imports included', () => {
  const files = sourceFiles(SRC);
  assert.ok(files.length > 100, `read ${files.length} files`);
  const found = cycles(files).map((c) => c.map((f) => relative(SRC, f)).join(' -> '));
  assert.deepEqual(found, []);
});

test('the check finds a cycle of type-only imports, and none in a chain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
  try {
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b + 1;\n");
    writeFileSync(join(dir, 'b.ts'), "import type { C } from './c';\nexport const b: C = 1;\n");
    writeFileSync(join(dir, 'c.ts'), 'export type C = number;\n');
    assert.deepEqual(cycles(sourceFiles(dir)), [], 'a -> b -> c is a chain');
    writeFileSync(join(dir, 'c.ts'), "import type { a } from './a';\nexport type C = typeof a;\n");
    assert.deepEqual(cycles(sourceFiles(dir)).map((c) => c.map((f) => relative(dir, f)).join(' -> ')), ['a.ts -> b.ts -> c.ts -> a.ts']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
