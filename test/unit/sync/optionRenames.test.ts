/**
 * Which options renamed on the service the mirror's records follow at a sync (optionRenames):
 * a rename whose old name no longer names any option, never a guess that could change a value
 * that is right.
 */
import { describe, expect, it } from 'vitest';
import { optionRenames } from '../../../src/main/sync/optionRenames';

const stored = (pairs: [string, string][]) => pairs.map(([valueId, value]) => ({ valueId, value }));
const service = (pairs: [string, string][]) => pairs.map(([id, value]) => ({ id, value }));

describe('optionRenames', () => {
  it('maps the old name of a renamed option to its new one, and nothing else', () => {
    expect(
      optionRenames(
        stored([
          ['1', 'Hardware'],
          ['2', 'Network'],
          ['3', 'Gone'],
        ]),
        service([
          ['1', 'Devices'],
          ['2', 'Network'],
          ['4', 'New'],
        ]),
      ),
    ).toEqual(new Map([['Hardware', 'Devices']]));
  });

  it('leaves out a swap or a chain: a record pulled in the same run may hold the old name in its new meaning', () => {
    expect(
      optionRenames(
        stored([
          ['1', 'A'],
          ['2', 'B'],
          ['3', 'C'],
        ]),
        service([
          ['1', 'B'],
          ['2', 'A'],
          ['3', 'D'],
        ]),
      ),
    ).toEqual(new Map([['C', 'D']]));
  });

  it('knows nothing to relabel before the first sync stored any option', () => {
    expect(optionRenames([], service([['1', 'A']]))).toEqual(new Map());
  });
});
