/**
 * No import loop in src/ and packages/: every file's imports (type-only ones too: a loop of types
 * is still two files that cannot be understood or moved apart) form a graph without cycles. Read
 * with the TypeScript compiler's own import scanner, resolved as relative paths, and our
 * packages' names (`@portaldesk/portal-api/filter`) as their exports map them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../support/sourceFiles';

const ROOTS = [path.join(process.cwd(), 'src'), path.join(process.cwd(), 'packages')];
const EXTENSIONS = ['.ts', '.tsx', '.mts'];
/** Our workspace packages: name → folder of their sources (both export `./*` as `./src/*`). */
const PACKAGES: Record<string, string> = {
  '@portaldesk/portal-api': path.join(process.cwd(), 'packages', 'portal-api', 'src'),
  '@portaldesk/emulator': path.join(process.cwd(), 'packages', 'emulator', 'src'),
};

/** Where a specifier points before extensions: a relative path, or one of our packages. */
function basePath(from: string, specifier: string): string | null {
  const bare = specifier.replace(/\?.*$/, '');
  if (bare.startsWith('.')) return path.resolve(path.dirname(from), bare);
  for (const [name, folder] of Object.entries(PACKAGES)) {
    if (bare === name) return path.join(folder, 'index');
    if (bare.startsWith(`${name}/`)) return path.join(folder, bare.slice(name.length + 1));
  }
  return null;
}

/** The file a specifier names, or null (a third-party package, an asset, a file outside). */
function resolveImport(from: string, specifier: string): string | null {
  const base = basePath(from, specifier);
  if (base === null) return null;
  for (const candidate of [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
  ]) {
    if (
      existsSync(candidate) &&
      statSync(candidate).isFile() &&
      EXTENSIONS.some((e) => candidate.endsWith(e))
    ) {
      return candidate;
    }
  }
  return null;
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(
      file,
      importedFiles.flatMap(({ fileName }) => resolveImport(file, fileName) ?? []),
    );
  }
  return graph;
}

/** Strongly connected components of more than one file (or a file importing itself): Tarjan. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

describe('imports in src/ and packages/', () => {
  it('run in no loop', () => {
    const files = ROOTS.flatMap((root) => sourceFiles(root, EXTENSIONS, ['node_modules']));
    const loops = cycles(importGraph(files)).map((component) =>
      component.map((file) => path.relative(process.cwd(), file)).sort(),
    );
    expect(loops).toEqual([]);
  });

  it('follow our packages by name', () => {
    const from = path.join(process.cwd(), 'src', 'main', 'engine.ts');
    expect(resolveImport(from, '@portaldesk/portal-api/filter')).toBe(
      path.join(PACKAGES['@portaldesk/portal-api']!, 'filter', 'index.ts'),
    );
    expect(resolveImport(from, '@portaldesk/emulator')).toBe(
      path.join(PACKAGES['@portaldesk/emulator']!, 'index.ts'),
    );
    expect(resolveImport(from, 'zod')).toBeNull();
  });

  it('and a loop is found where there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
      ['e', ['e']],
    ]);
    expect(cycles(graph).map((c) => c.sort())).toEqual([['a', 'b', 'c'], ['e']]);
  });
});
