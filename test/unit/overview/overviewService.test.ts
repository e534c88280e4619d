/**
 * The overview's answer around the counts: statuses named in their module's order (unknown ones
 * and "No status" after), the portal's own budgets only, its outbox per state and its newest
 * completed backup; a portal not in the mirror is refused in words.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { EndpointBudgetReport } from '../../../src/main/api/requestScheduler';
import { MirrorOverviewReader, namedStatuses } from '../../../src/main/overview/mirrorOverview';
import {
  OverviewService,
  PortalNotMirrored,
  keyPortal,
} from '../../../src/main/overview/overviewService';
import { busyEndpoints } from '../../../src/renderer/src/features/sync/endpointCharts';
import { PORTAL, STATUSES, makeRecord, mirroredPortal } from '../store/mirror/fixture';

const NOW = Date.parse('2026-03-05T10:00:00Z');

function budget(key: string, spent: number, current = spent, previous = 0): EndpointBudgetReport {
  return {
    key,
    limit: 200,
    windowMs: 120_000,
    spent,
    remaining: 200 - spent,
    nextSlotAt: NOW,
    blockedUntil: null,
    queued: 0,
    inFlight: 0,
    calls: { stepMs: 10_000, inWindow: [], current, previous },
  };
}

describe('overview service', () => {
  it('names statuses in the module order, unknown and empty ones after', () => {
    const known = STATUSES.map((s) => ({
      id: s.id,
      moduleId: 'm',
      name: s.name,
      color: s.color ?? null,
    }));
    expect(
      namedStatuses(known, [
        { statusId: '2003', records: 4 },
        { statusId: '9999', records: 2 },
        { statusId: null, records: 1 },
        { statusId: '8888', records: 0 },
      ]),
    ).toEqual([
      { statusId: '2001', name: 'Open', color: '#2a64d6', records: 0 },
      { statusId: '2002', name: 'In Review', color: '#b7791f', records: 0 },
      { statusId: '2003', name: 'Approved', color: '#1f8a4c', records: 4 },
      { statusId: '2004', name: 'Rejected', color: '#c53030', records: 0 },
      { statusId: '9999', name: 'Status 9999 (not in the mirror)', color: null, records: 2 },
      { statusId: null, name: 'No status', color: null, records: 1 },
    ]);
  });

  it("reads a key's portal from its ` portal=<id>` ending", () => {
    expect(keyPortal('us GET /api/v3/portal/{portal_id}/bin portal=123')).toBe('123');
    expect(keyPortal('us GET /x/record comments portal=77')).toBe('77');
    expect(keyPortal('us GET /api/v3/portals')).toBeUndefined();
  });

  it("answers with the portal's budgets, outbox and newest completed backup", async () => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords([makeRecord(1), makeRecord(2)]);
    const insertOp = store.db.prepare(
      "INSERT INTO outbox_ops (portal_id, module_id, record_id, kind, state, queued_at, updated_at) VALUES (?, 'm', 'r', 'update', ?, 'x', 'x')",
    );
    for (const state of ['pending', 'pending', 'failed', 'conflict']) insertOp.run(PORTAL, state);
    insertOp.run('other-portal', 'pending');
    const insertBackup = store.db.prepare(
      "INSERT INTO backups (account_id, portal_id, export_id, stage, completed_time, created_at) VALUES ('a', ?, ?, ?, ?, 'x')",
    );
    insertBackup.run(PORTAL, 'e1', 'ready', '2026-03-01T09:00:00.000Z');
    insertBackup.run(PORTAL, 'e2', 'on_service', '2026-03-03T09:00:00+05:30');
    insertBackup.run(PORTAL, 'e3', 'failed', '2026-03-04T09:00:00.000Z');
    insertBackup.run('other-portal', 'e4', 'ready', '2026-03-05T09:00:00.000Z');
    const budgets = [
      budget(`us GET /a portal=${PORTAL}`, 5),
      budget(`us GET /b portal=${PORTAL}`, 40),
      budget(`us GET /idle portal=${PORTAL}`, 0),
      budget('us GET /c portal=other-portal', 100),
      budget('us GET /api/v3/portals', 2),
    ];
    const overview = await new OverviewService(
      new MirrorOverviewReader(store.db),
      () => budgets,
      () => NOW,
    ).portal(PORTAL);
    expect(overview.modules.map((m) => [m.name, m.records])).toEqual([['Assets', 2]]);
    // The Outbox view lists every portal's operations together: how many, to tell the two apart.
    expect(overview.outbox).toEqual({
      pending: 2,
      sending: 0,
      failed: 1,
      conflict: 1,
      allPortals: 5,
    });
    expect(overview.budgets.map((b) => b.key)).toEqual([
      `us GET /b portal=${PORTAL}`,
      `us GET /a portal=${PORTAL}`,
    ]);
    expect(overview.lastBackup).toEqual({
      completedTime: '2026-03-03T09:00:00+05:30',
      stage: 'on_service',
    });
    expect(overview.timeZone).toBe('Asia/Kolkata');
    expect(overview.at).toBe(NOW);
  });

  it('keeps every endpoint of the portal the Sync view draws a calls chart for', async () => {
    const { store } = mirroredPortal();
    // A sync a few minutes ago: its calls have left the current window (nothing spent, nothing
    // current) but fill the previous one, which the Sync view's chart draws.
    const budgets = [
      budget(`us GET /entities portal=${PORTAL}`, 0, 0, 150),
      budget(`us GET /fields portal=${PORTAL}`, 0, 0, 3),
      budget(`us GET /layouts portal=${PORTAL}`, 0, 0, 0),
      budget('us GET /entities portal=other-portal', 0, 0, 9),
    ];
    const overview = await new OverviewService(
      new MirrorOverviewReader(store.db),
      () => budgets,
      () => NOW,
    ).portal(PORTAL);
    const drawnBySync = busyEndpoints(budgets)
      .filter((b) => keyPortal(b.key) === PORTAL)
      .map((b) => b.key);
    expect(drawnBySync).toHaveLength(2);
    expect(busyEndpoints(overview.budgets).map((b) => b.key)).toEqual(drawnBySync);

    // Blocked by the service, or with calls waiting: in use too, though no call left lately.
    const blocked = { ...budget(`us GET /bin portal=${PORTAL}`, 0), blockedUntil: NOW + 60_000 };
    const waiting = { ...budget(`us GET /comments portal=${PORTAL}`, 0), queued: 4 };
    const idle = budget(`us GET /layouts portal=${PORTAL}`, 0);
    const later = await new OverviewService(
      new MirrorOverviewReader(store.db),
      () => [blocked, waiting, idle],
      () => NOW,
    ).portal(PORTAL);
    expect(later.budgets.map((b) => b.key).sort()).toEqual([blocked.key, waiting.key].sort());
  });

  it('tells of a failed backup attempt made after the last backup, with its reason', async () => {
    const { store } = mirroredPortal();
    const read = async () =>
      (
        await new OverviewService(
          new MirrorOverviewReader(store.db),
          () => [],
          () => NOW,
        ).portal(PORTAL)
      ).lastFailure;
    const insert = store.db.prepare(
      'INSERT INTO backups (account_id, portal_id, export_id, stage, completed_time, created_at, problem) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    expect(await read()).toBeNull();
    // Only a failed attempt: no backup, and why.
    insert.run(
      'a',
      PORTAL,
      null,
      'failed',
      null,
      '2026-03-01T08:00:00.000Z',
      'The service did not start the backup: 500.',
    );
    expect(await read()).toEqual({
      at: '2026-03-01T08:00:00.000Z',
      problem: 'The service did not start the backup: 500.',
    });
    // A backup made after it: the failure is past.
    insert.run(
      'a',
      PORTAL,
      'e1',
      'ready',
      '2026-03-02T09:00:00.000Z',
      '2026-03-02T08:00:00.000Z',
      null,
    );
    expect(await read()).toBeNull();
    // A later attempt failed (another portal's failure is not this one's).
    insert.run(
      'a',
      PORTAL,
      'e2',
      'failed',
      '2026-03-04T09:00:00.000Z',
      '2026-03-04T08:00:00.000Z',
      'The download was cut.',
    );
    insert.run('a', 'other-portal', 'e3', 'failed', null, '2026-03-05T08:00:00.000Z', 'x');
    expect(await read()).toEqual({
      at: '2026-03-04T08:00:00.000Z',
      problem: 'The download was cut.',
    });
  });

  it('refuses a portal the mirror does not hold, saying what to do', async () => {
    const { store } = mirroredPortal();
    const service = new OverviewService(new MirrorOverviewReader(store.db), () => []);
    await expect(service.portal('404')).rejects.toThrow(PortalNotMirrored);
    await expect(service.portal('404')).rejects.toThrow(/Sign in to it and let its first sync run/);
  });
});

describe("the mirror's overview reading", () => {
  it('reads while another connection holds the write lock (a sync storing a page), taking none', () => {
    const { store, mirror } = mirroredPortal({ forFile: true });
    mirror.records.upsertRecords([makeRecord(1), makeRecord(2)]);
    const writer = new Database(store.file);
    try {
      writer.exec('BEGIN IMMEDIATE');
      // No waiting: a reading that asked for the write lock would fail at once.
      store.db.pragma('busy_timeout = 0');
      const overview = new MirrorOverviewReader(store.db).read(PORTAL, NOW);
      expect(overview?.modules.map((m) => m.records)).toEqual([2]);
    } finally {
      writer.close();
    }
  });
});
