/**
 * Whether two bulk selections name the same records, two ways: `sameBulkSelection` against the
 * selections' records written out (sorted ids, the filter). Generated selections, many sharing
 * ids and filters, so equal ones are common.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bulkSelectionFrom,
  sameBulkSelection,
} from '../../../../src/renderer/src/features/records/bulkSelection';
import type { BulkSelection } from '../../../../src/shared/ipc/areas/bulkEdit';
import type { Picked } from '../../../../src/renderer/src/features/records/rowSelection';

const id = fc.constantFrom('1100000000001', '1100000000002', '1100000000003', '1100000000004');
const ids = fc.uniqueArray(id, { maxLength: 4 });
const filter = fc.constantFrom(undefined, '{"a":1}', '{"a":2}');
const picked: fc.Arbitrary<Picked> = fc.oneof(
  ids.map((chosen) => ({ kind: 'rows' as const, ids: chosen })),
  ids.map((except) => ({ kind: 'every' as const, except })),
);
const selection = fc
  .tuple(fc.boolean(), filter, picked)
  .map(([whole, text, chosen]) => bulkSelectionFrom(whole, text, chosen));

/** The records a selection names, written out. */
const written = (s: BulkSelection) =>
  s.kind === 'ids'
    ? `ids ${[...s.ids].sort().join(',')}`
    : `filter ${s.filter ?? '(none)'} less ${[...(s.except ?? [])].sort().join(',')}`;

describe('sameBulkSelection', () => {
  it('is true exactly when both name the same records, in any order', () => {
    fc.assert(
      fc.property(selection, selection, (a, b) => {
        expect(sameBulkSelection(a, b)).toBe(written(a) === written(b));
        expect(sameBulkSelection(a, b)).toBe(sameBulkSelection(b, a));
      }),
      { numRuns: 500 },
    );
  });

  it('does not care in which order the rows were picked', () => {
    fc.assert(
      fc.property(ids, (chosen) => {
        const forward = bulkSelectionFrom(false, undefined, { kind: 'rows', ids: chosen });
        const back = bulkSelectionFrom(false, undefined, {
          kind: 'rows',
          ids: [...chosen].reverse(),
        });
        expect(sameBulkSelection(forward, back)).toBe(true);
      }),
    );
  });
});
