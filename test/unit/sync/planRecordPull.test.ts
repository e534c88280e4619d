import { describe, expect, it } from 'vitest';
import type { MirrorCursor } from '../../../src/main/store/mirror/mirrorTypes';
import {
  laterInstant,
  planRecordPull,
  RECONCILE_INTERVAL_MS,
  remainingPages,
} from '../../../src/main/sync/planRecordPull';

const NOW = Date.parse('2026-03-05T10:00:00.000Z');

function cursor(patch: Partial<MirrorCursor>): MirrorCursor {
  return {
    portalId: 'p',
    moduleId: 'm',
    highWater: '2026-03-04T08:00:00.000Z',
    scanIndex: null,
    scanAfter: null,
    fullStartedAt: '2026-03-05T07:00:00.000Z',
    fullCompletedAt: '2026-03-05T07:30:00.000Z',
    lastReconciledAt: '2026-03-05T09:00:00.000Z',
    updatedAt: '2026-03-05T09:00:00.000Z',
    ...patch,
  };
}

describe('planning a module pull', () => {
  it('starts a fresh full pull when nothing was pulled yet', () => {
    const start = { kind: 'full', from: { index: 1, after: null }, fresh: true };
    expect(planRecordPull(undefined, NOW)).toEqual(start);
    const never = cursor({ fullCompletedAt: null, fullStartedAt: null, highWater: null });
    expect(planRecordPull(never, NOW)).toEqual(start);
  });

  it('resumes an interrupted full pull after the last record stored, where it stood', () => {
    const killed = cursor({ scanIndex: 1201, scanAfter: '1000000001234', fullCompletedAt: null });
    expect(planRecordPull(killed, NOW)).toEqual({
      kind: 'full',
      from: { index: 1201, after: '1000000001234' },
      fresh: false,
    });
  });

  it('pulls changes since the high-water mark once a full pull completed', () => {
    expect(planRecordPull(cursor({}), NOW)).toEqual({
      kind: 'incremental',
      since: '2026-03-04T08:00:00.000Z',
      reconcile: false,
    });
    expect(planRecordPull(cursor({ highWater: null }), NOW)).toMatchObject({ since: null });
  });

  it('compares every id when the last reconciliation is older than the interval, or asked to', () => {
    const stale = new Date(NOW - RECONCILE_INTERVAL_MS).toISOString();
    expect(planRecordPull(cursor({ lastReconciledAt: stale }), NOW)).toMatchObject({
      reconcile: true,
    });
    const recent = new Date(NOW - RECONCILE_INTERVAL_MS + 1).toISOString();
    expect(planRecordPull(cursor({ lastReconciledAt: recent }), NOW)).toMatchObject({
      reconcile: false,
    });
    // Never reconciled: the completed full pull is the baseline.
    expect(planRecordPull(cursor({ lastReconciledAt: null }), NOW)).toMatchObject({
      reconcile: false,
    });
    const oldPull = new Date(NOW - RECONCILE_INTERVAL_MS - 1).toISOString();
    expect(
      planRecordPull(cursor({ lastReconciledAt: null, fullCompletedAt: oldPull }), NOW),
    ).toMatchObject({ reconcile: true });
    expect(planRecordPull(cursor({}), NOW, { forceReconcile: true })).toMatchObject({
      reconcile: true,
    });
    expect(
      planRecordPull(cursor({ lastReconciledAt: recent }), NOW, { reconcileIntervalMs: 1000 }),
    ).toMatchObject({ reconcile: true });
  });

  it('keeps the later of two instants and counts the pages left', () => {
    expect(laterInstant(null, '2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.000Z');
    expect(laterInstant('2026-01-02T00:00:00.000Z', null)).toBe('2026-01-02T00:00:00.000Z');
    // Compared as instants, not as text.
    expect(laterInstant('2026-01-01T10:00:00.000Z', '2026-01-01T09:00:00.000-02:00')).toBe(
      '2026-01-01T09:00:00.000-02:00',
    );
    expect(remainingPages(null, 0, 200)).toBe(0);
    expect(remainingPages(27_000, 0, 200)).toBe(135);
    expect(remainingPages(27_000, 26_801, 200)).toBe(1);
    expect(remainingPages(100, 400, 200)).toBe(0);
  });
});
