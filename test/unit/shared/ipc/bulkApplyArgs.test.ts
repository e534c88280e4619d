/**
 * bulkEdit.apply takes only the id of a preview the engine holds (src/main/bulkEdit/heldPreviews.ts):
 * anything else a caller sends is refused by the contract before the engine looks at it.
 */
import { describe, expect, it } from 'vitest';
import { BulkApplyArgs } from '../../../../src/shared/ipc/areas/bulkEdit';

const ID = '0123456789abcdef';

describe('BulkApplyArgs', () => {
  it('takes a preview id of sixteen lower-case hex digits, and nothing more', () => {
    expect(BulkApplyArgs.parse({ previewId: ID })).toEqual({ previewId: ID });
  });

  it.each([
    ['a huge string', { previewId: 'a'.repeat(1024 * 1024) }],
    ['a number', { previewId: 123 }],
    ['null', { previewId: null }],
    ['upper-case hex', { previewId: ID.toUpperCase() }],
    ['seventeen digits', { previewId: `${ID}0` }],
    ['no id', {}],
    [
      'an extra key (the old request: a selection)',
      { previewId: ID, selection: { kind: 'ids', ids: [] } },
    ],
    ['a prototype key', JSON.parse(`{"previewId":"${ID}","__proto__":{"polluted":1}}`) as unknown],
    ['not an object', [ID]],
  ])('refuses %s', (_, args) => {
    expect(BulkApplyArgs.safeParse(args).success).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
