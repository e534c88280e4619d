/**
 * Where the sync stands for one module, as an empty module's list tells it: from the running
 * runs' progress rows, the rows the last run left, the run log (which survives restarts) and the
 * modules' cursors, in that order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moduleSyncState } from '../../../../src/renderer/src/features/records/moduleSyncState';
import {
  SyncPhase,
  type SyncProgress,
  type SyncRunEntry,
  type SyncStatus,
} from '../../../../src/shared/ipc/areas/sync';

const NOW = Date.parse('2026-11-22T10:00:00.000Z');
const PORTAL = { id: '1000000000001', accountId: 'admin@portaldesk.demo' };
const MODULE = '1000000000002';

function status(parts: Partial<SyncStatus> = {}): SyncStatus {
  return {
    paused: false,
    online: true,
    accounts: [{ accountId: PORTAL.accountId, dc: 'us', label: 'Admin' }],
    running: [],
    progress: [],
    budgets: [],
    lastSynced: [],
    log: [],
    nextAutoSyncAt: null,
    at: NOW,
    ...parts,
  };
}

function run(runId: string, parts: Partial<SyncRunEntry> = {}): SyncRunEntry {
  return {
    runId,
    accountId: PORTAL.accountId,
    dc: 'us',
    startedAt: NOW - 60_000,
    endedAt: null,
    state: 'running',
    message: null,
    calls: 0,
    records: 0,
    outcomes: [],
    ...parts,
  };
}

function row(parts: Partial<SyncProgress>): SyncProgress {
  return {
    runId: 'sync-1',
    accountId: PORTAL.accountId,
    dc: 'us',
    portalId: PORTAL.id,
    moduleId: MODULE,
    module: 'Assets',
    phase: 'records',
    done: 0,
    total: null,
    calls: 0,
    skipped: 0,
    etaMs: null,
    message: null,
    at: NOW - 1000,
    ...parts,
  };
}

const listing = row({ portalId: null, moduleId: null, module: null, phase: 'portals' });
const portalRow = row({ moduleId: null, module: null, phase: 'metadata' });
const state = (s: SyncStatus | null) => moduleSyncState(s, PORTAL, MODULE);

describe('moduleSyncState', () => {
  it('knows nothing before the first status: never synced', () => {
    expect(state(null)).toEqual({ kind: 'never' });
    expect(state(status())).toEqual({ kind: 'never' });
  });

  it('a running run that lists portals or reads the portal has not reached the module yet', () => {
    expect(state(status({ running: [run('sync-1')], progress: [listing] }))).toEqual({
      kind: 'starting',
      phase: 'portals',
      paused: false,
    });
    expect(
      state(
        status({
          paused: true,
          running: [run('sync-1')],
          progress: [{ ...listing, phase: 'done' }, portalRow],
        }),
      ),
    ).toEqual({ kind: 'starting', phase: 'metadata', paused: true });
  });

  it('a running run of another portal only, or of another account, says nothing of this one', () => {
    const elsewhere = row({ portalId: '1000000000009', moduleId: null, phase: 'metadata' });
    expect(
      state(
        status({ running: [run('sync-1')], progress: [{ ...listing, phase: 'done' }, elsewhere] }),
      ),
    ).toEqual({ kind: 'never' });
    expect(
      state(status({ running: [run('sync-1')], progress: [{ ...listing, accountId: 'other' }] })),
    ).toEqual({ kind: 'never' });
  });

  it("the module's pull in a running run: its progress, then complete or failed", () => {
    const pulling = row({ done: 60, total: 500, etaMs: 4000 });
    expect(state(status({ running: [run('sync-1')], progress: [portalRow, pulling] }))).toEqual({
      kind: 'pulling',
      progress: pulling,
      paused: false,
    });
    for (const phase of ['done', 'comments'] as const) {
      expect(
        state(status({ running: [run('sync-1')], progress: [row({ phase, at: NOW - 5 })] })),
      ).toEqual({ kind: 'complete', at: NOW - 5 });
    }
    expect(
      state(
        status({
          running: [run('sync-1')],
          progress: [row({ phase: 'failed', message: 'The service refused the list.' })],
        }),
      ),
    ).toEqual({ kind: 'failed', message: 'The service refused the list.', at: NOW - 1000 });
    expect(
      state(
        status({
          running: [run('sync-1')],
          progress: [{ ...portalRow, phase: 'failed', message: 'Modules could not be read.' }],
        }),
      ),
    ).toEqual({ kind: 'failed', message: 'Modules could not be read.', at: NOW - 1000 });
  });

  it('a run that ended before the module was pulled: stopped, with the run’s reason', () => {
    const cancelled = run('sync-1', {
      endedAt: NOW - 10,
      state: 'cancelled',
      message: 'The sync was cancelled.',
    });
    expect(
      state(status({ progress: [row({ done: 0, total: 500 })], log: [cancelled] })),
    ).toMatchObject({ kind: 'stopped', message: 'The sync was cancelled.' });
    expect(state(status({ progress: [row({ phase: 'done', at: NOW - 7 })] }))).toEqual({
      kind: 'complete',
      at: NOW - 7,
    });
  });

  it('after a restart the log tells: the newest run that reached the portal decides', () => {
    const ok = run('sync-2', {
      endedAt: NOW - 3000,
      state: 'done',
      outcomes: [{ portalId: PORTAL.id, moduleId: null, ok: true, message: null }],
    });
    const failed = run('sync-3', {
      endedAt: NOW - 2000,
      state: 'failed',
      outcomes: [
        { portalId: PORTAL.id, moduleId: MODULE, ok: false, message: 'Too many requests.' },
        { portalId: PORTAL.id, moduleId: null, ok: true, message: null },
      ],
    });
    const cancelledEarly = run('sync-4', { endedAt: NOW - 1000, state: 'cancelled' });
    expect(state(status({ log: [ok] }))).toEqual({ kind: 'complete', at: NOW - 3000 });
    expect(state(status({ log: [cancelledEarly, failed, ok] }))).toEqual({
      kind: 'failed',
      message: 'Too many requests.',
      at: NOW - 2000,
    });
    expect(state(status({ log: [cancelledEarly, ok] }))).toEqual({
      kind: 'complete',
      at: NOW - 3000,
    });
  });

  it('only a cursor: synced then, how it ended unknown', () => {
    expect(
      state(
        status({ lastSynced: [{ portalId: PORTAL.id, moduleId: MODULE, at: NOW - 86_400_000 }] }),
      ),
    ).toEqual({ kind: 'synced', at: NOW - 86_400_000 });
  });

  it('the comment backfill (no run) says nothing about records', () => {
    expect(state(status({ progress: [row({ runId: null, phase: 'comments' })] }))).toEqual({
      kind: 'never',
    });
  });
});

describe('moduleSyncState, for any status', () => {
  const OTHER_PORTAL = '1000000000009';
  const OTHER_MODULE = '1000000000008';
  const runIds = fc.constantFrom('sync-1', 'sync-2', 'sync-3');
  const progressRow = fc.record({
    runId: fc.option(runIds, { nil: null }),
    accountId: fc.constantFrom(PORTAL.accountId, 'other@portaldesk.demo'),
    portalId: fc.constantFrom(PORTAL.id, OTHER_PORTAL, null),
    moduleId: fc.constantFrom(MODULE, OTHER_MODULE, null),
    phase: fc.constantFrom(...SyncPhase.options),
    done: fc.nat(1000),
    total: fc.option(fc.nat(1000), { nil: null }),
    at: fc.integer({ min: NOW - 1e7, max: NOW }),
  });
  const outcome = fc.record({
    portalId: fc.constantFrom(PORTAL.id, OTHER_PORTAL),
    moduleId: fc.constantFrom(MODULE, OTHER_MODULE, null),
    ok: fc.boolean(),
    message: fc.option(fc.constantFrom('Refused.', 'Offline.'), { nil: null }),
  });
  const anyStatus = fc
    .record({
      paused: fc.boolean(),
      running: fc.uniqueArray(runIds),
      rows: fc.array(progressRow, { maxLength: 8 }),
      log: fc.array(
        fc.record({
          runId: runIds,
          endedAt: fc.option(fc.integer({ min: NOW - 1e7, max: NOW }), { nil: null }),
          outcomes: fc.array(outcome, { maxLength: 4 }),
        }),
        { maxLength: 4 },
      ),
      cursors: fc.array(
        fc.record({
          portalId: fc.constantFrom(PORTAL.id, OTHER_PORTAL),
          moduleId: fc.constantFrom(MODULE, OTHER_MODULE),
          at: fc.integer({ min: NOW - 1e7, max: NOW }),
        }),
        { maxLength: 3 },
      ),
    })
    .map((s) =>
      status({
        paused: s.paused,
        running: s.running.map((id) => run(id)),
        progress: s.rows.map((r) => row({ ...r, module: null })),
        log: s.log.map((entry) => run(entry.runId, entry)),
        lastSynced: s.cursors,
      }),
    );

  /** The same status without anything about other portals or other modules of this portal. */
  const withoutOthers = (s: SyncStatus): SyncStatus => ({
    ...s,
    progress: s.progress.filter(
      (p) =>
        p.portalId !== OTHER_PORTAL && !(p.portalId === PORTAL.id && p.moduleId === OTHER_MODULE),
    ),
    log: s.log.map((entry) => ({
      ...entry,
      outcomes: entry.outcomes.filter(
        (o) => o.portalId !== OTHER_PORTAL && o.moduleId !== OTHER_MODULE,
      ),
    })),
    lastSynced: s.lastSynced.filter((c) => c.portalId === PORTAL.id && c.moduleId === MODULE),
  });

  it('what other portals and other modules report never changes the answer', () => {
    fc.assert(
      fc.property(anyStatus, (s) => {
        expect(state(s)).toEqual(state(withoutOthers(s)));
      }),
    );
  });

  it('says "never synced" only when nothing records the module ever being synced', () => {
    fc.assert(
      fc.property(anyStatus, (s) => {
        const known =
          s.lastSynced.some((c) => c.portalId === PORTAL.id && c.moduleId === MODULE) ||
          s.log.some(
            (entry) =>
              entry.endedAt !== null &&
              entry.outcomes.some(
                (o) =>
                  o.portalId === PORTAL.id &&
                  ((o.moduleId === MODULE && !o.ok) || (o.moduleId === null && o.ok)),
              ),
          );
        if (known) expect(state(s).kind).not.toBe('never');
      }),
    );
  });
});
