/**
 * No import loop in src/: every file's imports (type-only ones too: a loop of types is still two
 * files that cannot be understood or moved apart) form a graph without cycles. Read with the
 * TypeScript compiler's own import scanner, resolved as relative paths.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../support/sourceFiles';

const SRC = path.join(process.cwd(), 'src');
const EXTENSIONS = ['.ts', '.tsx', '.mts'];

/** The file a relative specifier names, or null (a package, an asset, a file outside the tree). */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier.replace(/\?.*$/, ''));
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

describe('imports in src/', () => {
  it('run in no loop', () => {
    const loops = cycles(importGraph(sourceFiles(SRC, EXTENSIONS))).map((component) =>
      component.map((file) => path.relative(process.cwd(), file)).sort(),
    );
    expect(loops).toEqual([]);
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
