/**
 * The pure rules of a bulk edit: its ETA at the record PATCH budget, and what its undo does to one
 * record depending on what happened to the record's queue since.
 */
import { describe, expect, it } from 'vitest';
import { replayEtaSeconds } from '../../../src/main/bulkEdit/bulkEta';
import { undoStep } from '../../../src/main/bulkEdit/bulkUndo';
import { outboxOp } from '../outbox/outboxOp';

const WINDOW = { limit: 200, windowMs: 120_000 };

describe('replayEtaSeconds', () => {
  it('sends what the window has left at once, then 200 a window of two minutes', () => {
    expect(replayEtaSeconds(0, { ...WINDOW, remaining: 0 })).toBe(0);
    expect(replayEtaSeconds(150, { ...WINDOW, remaining: 150 })).toBe(0);
    expect(replayEtaSeconds(151, { ...WINDOW, remaining: 150 })).toBe(120);
    expect(replayEtaSeconds(350, { ...WINDOW, remaining: 150 })).toBe(120);
    expect(replayEtaSeconds(351, { ...WINDOW, remaining: 150 })).toBe(240);
    // 10,000 PATCHes from a fresh key: 49 more windows after the first 200.
    expect(replayEtaSeconds(10_000, { ...WINDOW, remaining: 200 })).toBe(49 * 120);
  });

  it('refuses a count or limit that is not a whole number', () => {
    expect(() => replayEtaSeconds(1.5, { ...WINDOW, remaining: 1 })).toThrow(RangeError);
    expect(() => replayEtaSeconds(1, { limit: 0, windowMs: 1, remaining: 0 })).toThrow(RangeError);
  });
});

describe('undoStep', () => {
  const written = { value: 'bulk', base: 'server' };
  const previous = { value: 'mine', base: 'server' };

  it('restores while the operation is unsent and the field still holds what the bulk edit wrote', () => {
    const op = outboxOp({ fields: { description: written } });
    const row = { recordId: '3', opSeq: op.seq, coalesced: true, previous, written };
    expect(undoStep(row, 'description', [op])).toEqual({ kind: 'restore' });
  });

  it('keeps a field edited again since, and a change sent, being sent or gone', () => {
    const again = outboxOp({ fields: { description: { value: 'later', base: 'server' } } });
    const row = { recordId: '3', opSeq: again.seq, coalesced: false, previous: null, written };
    expect(undoStep(row, 'description', [again])).toEqual({ kind: 'changedSince' });
    const sending = outboxOp({ state: 'sending', fields: { description: written } });
    expect(undoStep({ ...row, opSeq: sending.seq }, 'description', [sending])).toEqual({
      kind: 'sent',
    });
    const sentOnce = outboxOp({
      sentBody: '{}',
      state: 'failed',
      fields: { description: written },
    });
    expect(undoStep({ ...row, opSeq: sentOnce.seq }, 'description', [sentOnce])).toEqual({
      kind: 'sent',
    });
    expect(undoStep(row, 'description', [])).toEqual({ kind: 'sent' });
  });

  it('queues again an edit the bulk edit dropped as a revert, unless the field was edited since', () => {
    const row = { recordId: '3', opSeq: 41, coalesced: true, previous, written: null };
    expect(undoStep(row, 'description', [])).toEqual({ kind: 'requeue', entry: previous });
    const later = outboxOp({ fields: { description: { value: 'later', base: 'server' } } });
    expect(undoStep(row, 'description', [later])).toEqual({ kind: 'changedSince' });
    // The revert left other fields in the operation: the field is put back into it.
    const kept = outboxOp({ fields: { name: { value: 'n', base: 'o' } } });
    expect(undoStep({ ...row, opSeq: kept.seq }, 'description', [kept])).toEqual({
      kind: 'restore',
    });
  });
});
