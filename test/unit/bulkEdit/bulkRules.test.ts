/**
 * The pure rules of a bulk edit: its ETA at the record PATCH budget, what its undo does to one
 * record depending on what happened to the record's queue since, and the previews held for Queue.
 */
import { describe, expect, it } from 'vitest';
import { replayEtaSeconds } from '../../../src/main/bulkEdit/bulkEta';
import { undoStep } from '../../../src/main/bulkEdit/bulkUndo';
import {
  HeldPreviews,
  PREVIEW_HELD_MS,
  PREVIEWS_HELD_MAX,
  selectionDifference,
} from '../../../src/main/bulkEdit/heldPreviews';
import { opStatus } from '../../../src/main/outbox/outboxTypes';
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
  const unsent = { recordId: '3', opBefore: null, opAfter: null };

  it('restores while the operation is unsent and the field still holds what the bulk edit wrote', () => {
    const op = outboxOp({ fields: { description: written } });
    const row = { ...unsent, opSeq: op.seq, coalesced: true, previous, written };
    expect(undoStep(row, 'description', [op])).toEqual({ kind: 'restore', status: null });
  });

  it('keeps a field edited again since, and a change sent, being sent or gone', () => {
    const again = outboxOp({ fields: { description: { value: 'later', base: 'server' } } });
    const row = { ...unsent, opSeq: again.seq, coalesced: false, previous: null, written };
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
    const row = { ...unsent, opSeq: 41, coalesced: true, previous, written: null };
    expect(undoStep(row, 'description', [])).toEqual({
      kind: 'requeue',
      entry: previous,
      status: null,
    });
    const later = outboxOp({ fields: { description: { value: 'later', base: 'server' } } });
    expect(undoStep(row, 'description', [later])).toEqual({ kind: 'changedSince' });
    // The revert left other fields in the operation: the field is put back into it.
    const kept = outboxOp({ fields: { name: { value: 'n', base: 'o' } } });
    expect(undoStep({ ...row, opSeq: kept.seq }, 'description', [kept])).toEqual({
      kind: 'restore',
      status: null,
    });
  });

  it('gives the operation its status back only while it has the one the fold left', () => {
    const folded = outboxOp({
      fields: { description: written },
      error: 'The service did not answer.',
      attempts: 2,
      edits: 2,
      updatedAt: '2025-01-06T10:00:00.000Z',
    });
    const opBefore = {
      ...opStatus(folded),
      nextAttemptAt: 1_736_157_600_000,
      edits: 1,
      updatedAt: '2025-01-06T09:30:00.000Z',
    };
    const row = { ...unsent, opSeq: folded.seq, coalesced: true, previous, written };
    const fold = { ...row, opBefore, opAfter: opStatus(folded) };
    expect(undoStep(fold, 'description', [folded])).toEqual({ kind: 'restore', status: opBefore });
    // A send tried since: its refusal stays.
    const refused = { ...folded, state: 'failed' as const, error: 'Refused.', attempts: 3 };
    expect(undoStep(fold, 'description', [refused])).toEqual({ kind: 'restore', status: null });
    // Dropped by a revert: queued again as it was.
    const reverted = { ...fold, written: null, opAfter: null };
    expect(undoStep(reverted, 'description', [])).toEqual({
      kind: 'requeue',
      entry: previous,
      status: opBefore,
    });
  });
});

describe('held previews', () => {
  const held = (changes: string[]) => ({
    args: {
      portalId: '1',
      moduleId: '2',
      selection: { kind: 'ids' as const, ids: changes },
      field: 'name',
      action: 'clear' as const,
    },
    selected: [...changes].sort(),
    changes,
    unchanged: 0,
    failed: 0,
  });

  it('gives a preview back once, within its lifetime, and keeps only the newest few', () => {
    let now = 0;
    const previews = new HeldPreviews(() => now);
    const first = previews.hold(held(['1']));
    expect(first).toMatch(/^[a-f0-9]{16}$/);
    expect(previews.take(first)?.changes).toEqual(['1']);
    expect(previews.take(first)).toBeUndefined();
    const old = previews.hold(held(['2']));
    now += PREVIEW_HELD_MS + 1;
    expect(previews.take(old)).toBeUndefined();
    const ids = Array.from({ length: PREVIEWS_HELD_MAX + 1 }, (_, i) =>
      previews.hold(held([`${i}`])),
    );
    expect(previews.take(ids[0]!)).toBeUndefined();
    expect(previews.take(ids.at(-1)!)?.changes).toEqual([`${PREVIEWS_HELD_MAX}`]);
  });

  it('counts the records that joined and left a sorted selection', () => {
    expect(selectionDifference(['1', '2', '3'], ['1', '2', '3'])).toEqual({ joined: 0, left: 0 });
    expect(selectionDifference(['1', '3'], ['1', '2', '3', '4'])).toEqual({ joined: 2, left: 0 });
    expect(selectionDifference(['1', '2', '5'], ['2', '4'])).toEqual({ joined: 1, left: 2 });
    expect(selectionDifference([], ['7'])).toEqual({ joined: 1, left: 0 });
  });
});
