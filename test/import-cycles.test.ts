import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// ESLint's import-x/no-cycle skips type-only imports, yet a cycle of types still ties modules
// together (and made the ledger one knot once): this walks every import and re-export of the
// production sources, `import type` included, and finds strongly connected components.

const root = resolve(import.meta.dirname, '..');
const ALIASES: Record<string, string> = { '@shared/': join(root, 'src/shared/'), '@core/': join(root, 'src/main/core/') };

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  const alias = Object.keys(ALIASES).find((a) => spec.startsWith(a));
  const base = spec.startsWith('.') ? resolve(dirname(from), spec) : alias ? ALIASES[alias] + spec.slice(alias.length) : null;
  if (!base) return null;
  return [base, `${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile()) ?? null;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?[^'";]*?from\s+['"]([^'"]+)['"]/g)]
      .map((m) => resolveImport(file, m[1]!))
      .filter((p): p is string => p !== null);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one module: the cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(relative(root, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('module structure', () => {
  const graph = importGraph();

  it('reads the sources it should (the walk itself works)', () => {
    expect(graph.size).toBeGreaterThan(100);
    const ledger = graph.get(join(root, 'src/main/core/ledger/ledger.ts'))!;
    expect(ledger.map((p) => relative(root, p))).toContain('src/main/core/sync/journal.ts');
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });
});
