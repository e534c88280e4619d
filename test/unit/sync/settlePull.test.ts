import { describe, expect, it } from 'vitest';
import { nextSettleStep, type SettleFacts } from '../../../src/main/sync/settlePull';

const T0 = '2026-03-05T10:00:00.000Z';
const T1 = '2026-03-05T10:05:00.000Z';

/** A full pull that just ended with nothing changed on the server. */
const afterFullPull = (patch: Partial<SettleFacts> = {}): SettleFacts => ({
  startNewest: T0,
  newest: T0,
  caughtUp: false,
  serverCount: 100,
  mirrorCount: 100,
  knownGap: 0,
  reconciled: false,
  reconcileDue: false,
  ...patch,
});

describe('settling a pull', () => {
  it('is done when nothing changed since the pull began and the counts agree', () => {
    expect(nextSettleStep(afterFullPull())).toBe('done');
  });

  it('first pulls what changed while the pull ran, or while it was stopped', () => {
    expect(nextSettleStep(afterFullPull({ newest: T1 }))).toBe('catch-up');
    expect(nextSettleStep(afterFullPull({ startNewest: null, newest: T1 }))).toBe('catch-up');
    // Once caught up, the counts decide.
    expect(nextSettleStep(afterFullPull({ newest: T1, caughtUp: true }))).toBe('done');
    // The newest record trashed since: nothing later to pull.
    expect(nextSettleStep(afterFullPull({ newest: '2026-03-05T09:00:00.000Z' }))).toBe('done');
  });

  it('compares every id when the counts differ, even by records trashed on pages already read', () => {
    expect(nextSettleStep(afterFullPull({ mirrorCount: 105 }))).toBe('reconcile');
    expect(nextSettleStep(afterFullPull({ mirrorCount: 95 }))).toBe('reconcile');
  });

  it('is never done while the counts differ after every id was compared', () => {
    expect(nextSettleStep(afterFullPull({ mirrorCount: 101, reconciled: true }))).toBe('unsettled');
    expect(nextSettleStep(afterFullPull({ mirrorCount: 100, reconciled: true }))).toBe('done');
  });

  it('counts records the server sends malformed as the known gap', () => {
    expect(nextSettleStep(afterFullPull({ mirrorCount: 98, knownGap: 2 }))).toBe('done');
    expect(nextSettleStep(afterFullPull({ mirrorCount: 99, knownGap: 2 }))).toBe('reconcile');
  });

  it('compares every id when it is due, whatever the counts say', () => {
    const incremental = { caughtUp: true, serverCount: 5, mirrorCount: 5, knownGap: 0 };
    expect(nextSettleStep({ ...incremental, reconciled: false, reconcileDue: true })).toBe(
      'reconcile',
    );
    expect(nextSettleStep({ ...incremental, reconciled: true, reconcileDue: true })).toBe('done');
    expect(nextSettleStep({ ...incremental, reconciled: false, reconcileDue: false })).toBe('done');
  });
});
