/**
 * splitItems reads a multi-select's or multi-user's cell ("a, b, c") as the names it joins. A
 * cell comes from a file anyone may send: its cost must grow with the cell's length times the
 * longest name, not with the cube of its items (a 6,000-character cell of "a, a, …" held the
 * engine's thread for 37 seconds). The split it finds is the one the plain search over every
 * way to cut the cell finds (fast-check, against that search written here).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitItems } from '../../../src/shared/recordValues/parseCell';

/** Every cut tried, the last item longest first: the reading splitItems must keep. */
function splitByEveryCut(text: string, names: ReadonlySet<string>): string[] | null {
  const pieces = text.split(', ');
  const best: (string[] | undefined)[] = [[]];
  for (let end = 1; end <= pieces.length; end++) {
    for (let start = 0; start < end; start++) {
      const before = best[start];
      if (before === undefined) continue;
      const item = pieces.slice(start, end).join(', ');
      if (names.has(item)) {
        best[end] = [...before, item];
        break;
      }
    }
  }
  return best[pieces.length] ?? null;
}

const word = fc.string({ unit: fc.constantFrom('a', 'b', ',', ' '), maxLength: 6 });

describe('splitItems', () => {
  it('finds the split every cut finds, whatever the names hold', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { maxLength: 6 }),
        fc.array(fc.oneof(word, fc.constantFrom('a', 'a, b', 'b, a, b')), { maxLength: 8 }),
        (names, items) => {
          const known = new Set([...names, 'a', 'a, b', 'b, a, b']);
          const text = items.join(', ');
          expect(splitItems(text, known)).toEqual(splitByEveryCut(text, known));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads a cell of thousands of items in time that grows with its length', () => {
    // 20,000 items (60 KB): the search over every cut needed hours for this cell.
    const items = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? 'a, b' : 'c'));
    const text = items.join(', ');
    const started = performance.now();
    const read = splitItems(text, new Set(['a', 'a, b', 'c']));
    const unread = splitItems(`${text}, x`, new Set(['a', 'a, b', 'c']));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(read).toEqual(items);
    expect(unread).toBeNull();
  });
});
