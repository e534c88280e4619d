import { describe, expect, it } from 'vitest';
import { MirrorWriteError } from '../../../../src/main/store/mirror/mirrorWriteError';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import { Store } from '../../../../src/main/store/store';
import { readEntity } from '@portaldesk/portal-api/domain/readEntity';
import { mapRecord } from '../../../../src/main/sync/mapRecord';
import { tempDir } from '../../../support/tempDir';
import { FIELDS, makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';

const records = (from: number, to: number): MirrorRecord[] =>
  Array.from({ length: to - from }, (_, i) => makeRecord(from + i));

function count(store: Store, sql: string, ...params: unknown[]): number {
  return store.db
    .prepare(sql)
    .pluck()
    .get(...params) as number;
}

describe('the mirror schema', () => {
  it('applies with every migration on a fresh data directory', () => {
    const dir = tempDir();
    const store = Store.open({ dataDir: dir, mode: 'test' });
    try {
      expect(store.schemaVersion).toBeGreaterThanOrEqual(2);
      const tables = store.db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
        .pluck()
        .all() as string[];
      for (const table of [
        'portals',
        'portal_users',
        'modules',
        'layouts',
        'sections',
        'fields',
        'layout_fields',
        'field_options',
        'statuses',
        'status_transitions',
        'records',
        'record_edits',
        'comments',
        'comment_sync',
        'status_timeline',
        'sync_cursors',
        'records_fts',
        'comments_fts',
      ]) {
        expect(tables).toContain(table);
      }
    } finally {
      store.close();
    }
    // And opens again (already migrated) without complaint.
    Store.open({ dataDir: dir, mode: 'test' }).close();
  });
});

describe('record upserts', () => {
  it('report inserted ids, nothing for a repeated page, and updated ids for real changes', () => {
    const { mirror } = mirroredPortal();
    const page = records(0, 50);
    const first = mirror.records.upsertRecords(page);
    expect(first.records?.inserted).toEqual(page.map((r) => r.id));
    expect(first.records?.updated).toEqual([]);

    expect(mirror.records.upsertRecords(page)).toEqual({});

    const changed = page.slice(0, 3).map((r) => ({
      ...r,
      name: `${r.name} (renamed)`,
      lastUpdatedTime: '2027-01-01T00:00:00.000Z',
    }));
    const second = mirror.records.upsertRecords([...changed, ...page.slice(3)]);
    expect(second).toEqual({
      records: { inserted: [], updated: changed.map((r) => r.id), deleted: [] },
    });
  });

  it('never replaces a stored copy with an older one', () => {
    const { mirror, store } = mirroredPortal();
    const record = makeRecord(1);
    const newer = { ...record, name: 'Newer', lastUpdatedTime: '2027-01-02T00:00:00.000Z' };
    mirror.records.upsertRecords([newer]);
    const stale = { ...record, name: 'Stale', lastUpdatedTime: '2027-01-01T00:00:00.000Z' };
    expect(mirror.records.upsertRecords([stale])).toEqual({});
    expect(count(store, "SELECT count(*) FROM records WHERE name = 'Newer'")).toBe(1);
  });

  it('replaces a stored copy with a newer one the service wrote at another offset', () => {
    const { mirror, store } = mirroredPortal();
    const record = makeRecord(1);
    // As a page brings them (the record reader, then the sync's mapping): 10:15 UTC, then 10:30
    // UTC written at -08:00, which sorted before the first as text and was refused as older.
    const pulled = (name: string, lastUpdated: string) => {
      const entity = readEntity({
        id: '1000000000001',
        name,
        status: { id: '1000000000002', name: 'Open' },
        layout: { id: '1000000000003', name: 'Standard' },
        last_updated_time: lastUpdated,
      });
      if (!entity) throw new Error('the record reader refused the page');
      const { createdTime, lastUpdatedTime } = mapRecord(PORTAL, MODULE, entity);
      return { ...record, name, createdTime, lastUpdatedTime };
    };
    mirror.records.upsertRecords([pulled('First', '2026-03-05T15:45:00.000+05:30')]);
    mirror.records.upsertRecords([pulled('Newer', '2026-03-05T02:30:00-08:00')]);
    expect(
      store.db.prepare('SELECT name, last_updated_time FROM records WHERE id = ?').get(record.id),
    ).toEqual({ name: 'Newer', last_updated_time: '2026-03-05T10:30:00.000Z' });
    // And an older one written at yet another offset is still refused.
    mirror.records.upsertRecords([pulled('Stale', '2026-03-05T11:20:00+01:00')]);
    expect(count(store, "SELECT count(*) FROM records WHERE name = 'Newer'")).toBe(1);
  });

  it("stores a custom time stamp's value as its canonical instant, other values as sent", () => {
    const { mirror, store } = mirroredPortal();
    const record = {
      ...makeRecord(1),
      custom: {
        cf_serial: '2026-03-05T02:30:00-08:00',
        cf_audit: '2026-03-05T02:30:00-08:00',
        cf_insured: true,
      },
    };
    mirror.records.upsertRecords([record]);
    expect(store.db.prepare('SELECT custom FROM records WHERE id = ?').pluck().get(record.id)).toBe(
      '{"cf_serial":"2026-03-05T02:30:00-08:00","cf_audit":"2026-03-05T10:30:00.000Z","cf_insured":true}',
    );
    // A list sorted by the time stamp orders instants: 10:15 UTC before 10:30 UTC.
    const earlier = { ...makeRecord(2), custom: { cf_audit: '2026-03-05T10:15:00.000Z' } };
    mirror.records.upsertRecords([earlier]);
    const sorted = mirror.query.queryRecords({
      portalId: PORTAL,
      moduleId: MODULE,
      sort: { field: 'cf_audit', descending: false },
      offset: 0,
      limit: 10,
    });
    expect(sorted.rows.map((r) => r.id)).toEqual([earlier.id, record.id]);
    expect(record.custom.cf_audit).toBe('2026-03-05T02:30:00-08:00');
  });

  it("rewrites a time stamp field's values stored before the field itself", () => {
    const { mirror, store } = mirroredPortal();
    // A first sync stored the records before the module's fields arrived (or the field is new).
    mirror.metadata.replaceFields(
      PORTAL,
      MODULE,
      FIELDS.filter((f) => f.apiName !== 'cf_audit'),
    );
    const record = {
      ...makeRecord(1),
      custom: { cf_audit: '2026-03-05T02:30:00-08:00', cf_serial: '2026-03-05T02:30:00-08:00' },
    };
    mirror.records.upsertRecords([record]);
    const stored = () =>
      store.db.prepare('SELECT custom FROM records WHERE id = ?').pluck().get(record.id);
    expect(stored()).toBe(
      '{"cf_audit":"2026-03-05T02:30:00-08:00","cf_serial":"2026-03-05T02:30:00-08:00"}',
    );
    mirror.metadata.replaceFields(PORTAL, MODULE, FIELDS);
    expect(stored()).toBe(
      '{"cf_audit":"2026-03-05T10:30:00.000Z","cf_serial":"2026-03-05T02:30:00-08:00"}',
    );
  });

  it('refuses records of a module that is not mirrored, storing nothing of the batch', () => {
    const { mirror, store } = mirroredPortal();
    const batch = [makeRecord(1), { ...makeRecord(2), moduleId: 'unknown-module' }];
    expect(() => mirror.records.upsertRecords(batch)).toThrow(MirrorWriteError);
    expect(() => mirror.records.upsertRecords(batch)).toThrow(/mirror the portal's modules first/);
    expect(count(store, 'SELECT count(*) FROM records')).toBe(0);
  });

  it('store people given with a page, keeping facts a later source does not know', () => {
    const { mirror } = mirroredPortal();
    mirror.records.upsertRecords([makeRecord(1)], {
      users: [{ zpuid: '5009', name: 'New Person', email: 'new@example.test', status: 'active' }],
    });
    const changes = mirror.metadata.upsertUsers(PORTAL, [{ zpuid: '5009', name: 'New Person' }]);
    expect(changes).toEqual({});
    const stored = mirror.metadata.users(PORTAL).find((u) => u.zpuid === '5009');
    expect(stored).toMatchObject({ email: 'new@example.test', status: 'active' });
  });
});

describe('a page and its cursor', () => {
  it('commit together', () => {
    const { mirror } = mirroredPortal();
    const changes = mirror.records.upsertRecordPage(records(0, 200), {
      portalId: PORTAL,
      moduleId: MODULE,
      scanIndex: 200,
      fullStartedAt: '2026-03-05T10:00:00.000Z',
    });
    expect(changes.records?.inserted).toHaveLength(200);
    expect(changes.sync_cursors).toEqual({ inserted: [MODULE], updated: [], deleted: [] });
    expect(mirror.records.cursor(PORTAL, MODULE)).toMatchObject({
      scanIndex: 200,
      fullStartedAt: '2026-03-05T10:00:00.000Z',
      highWater: null,
    });
    // A later write keeps the fields it does not give.
    mirror.records.writeCursor({
      portalId: PORTAL,
      moduleId: MODULE,
      highWater: '2026-03-01T00:00:00.000Z',
    });
    expect(mirror.records.cursor(PORTAL, MODULE)).toMatchObject({
      scanIndex: 200,
      highWater: '2026-03-01T00:00:00.000Z',
    });
  });

  it('leave nothing behind when the process dies in the middle of the page', () => {
    const { mirror, store } = mirroredPortal();
    mirror.records.upsertRecordPage(records(0, 200), {
      portalId: PORTAL,
      moduleId: MODULE,
      scanIndex: 200,
    });

    // Page 2 dies at its 120th record, after 119 rows were written inside the transaction.
    const page = records(200, 400);
    const poisoned = {
      ...page[119],
      custom: {
        toJSON: () => {
          throw new Error('killed');
        },
      },
    };
    page[119] = poisoned as unknown as MirrorRecord;
    expect(() =>
      mirror.records.upsertRecordPage(page, { portalId: PORTAL, moduleId: MODULE, scanIndex: 400 }),
    ).toThrow('killed');

    expect(count(store, 'SELECT count(*) FROM records')).toBe(200);
    expect(mirror.records.cursor(PORTAL, MODULE)?.scanIndex).toBe(200);
    // Nothing of the page reached the search index either.
    expect(
      mirror.search.search({ portalId: PORTAL, text: String(1_000_000_000_000 + 250), limit: 5 }),
    ).toEqual([]);
    // The resumed page then lands whole.
    mirror.records.upsertRecordPage(records(200, 400), {
      portalId: PORTAL,
      moduleId: MODULE,
      scanIndex: 400,
    });
    expect(count(store, 'SELECT count(*) FROM records')).toBe(400);
    expect(mirror.records.cursor(PORTAL, MODULE)?.scanIndex).toBe(400);
  });
});

describe('reconciliation', () => {
  it('deletes exactly the server copies whose ids the server no longer lists', () => {
    const { mirror, store } = mirroredPortal();
    const all = records(0, 300);
    mirror.records.upsertRecords(all);
    mirror.comments.replaceRecordComments(PORTAL, all[5]!.id, [
      {
        id: 'c1',
        content: 'gone with its record',
        attachmentIds: [],
        createdBy: '5001',
        createdTime: '2026-01-01T00:00:00.000Z',
        lastUpdatedTime: '2026-01-01T00:00:00.000Z',
      },
    ]);
    store.db
      .prepare(
        `INSERT INTO records (portal_id, module_key, id, name, name_fold, created_time, last_updated_time, local_only)
         VALUES (?, ?, 'local:1', 'Made offline', 'made offline', '2026-03-05T00:00:00.000Z', '2026-03-05T00:00:00.000Z', 1)`,
      )
      .run(PORTAL, mirror.metadata.moduleKey(PORTAL, MODULE));

    const gone = new Set([all[5]!.id, all[17]!.id, all[299]!.id]);
    // The server lists the others, plus ids of other modules and records not pulled yet.
    const listed = [...all.map((r) => r.id).filter((id) => !gone.has(id)), 'not-pulled-yet'];
    const changes = mirror.records.deleteRecordsNotIn(PORTAL, MODULE, listed);

    expect(new Set(changes.records?.deleted)).toEqual(gone);
    expect(count(store, 'SELECT count(*) FROM records WHERE local_only = 0')).toBe(297);
    expect(count(store, "SELECT count(*) FROM records WHERE id = 'local:1'")).toBe(1);
    expect(count(store, 'SELECT count(*) FROM comments')).toBe(0);
    expect(mirror.records.countServerCopies(PORTAL, MODULE)).toBe(297);
    expect(mirror.search.search({ portalId: PORTAL, text: 'gone', limit: 5 })).toEqual([]);
  });

  it('handles 100,000 listed ids in one pass', () => {
    const { mirror } = mirroredPortal();
    mirror.records.upsertRecords(records(0, 1000));
    const listed = Array.from({ length: 100_000 }, (_, i) => String(1_000_000_000_000 + i + 1));
    const started = performance.now();
    const changes = mirror.records.deleteRecordsNotIn(PORTAL, MODULE, listed);
    expect(changes.records?.deleted).toEqual([String(1_000_000_000_000)]);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('deletes records by id and reports only those that were there', () => {
    const { mirror } = mirroredPortal();
    const all = records(0, 10);
    mirror.records.upsertRecords(all);
    const changes = mirror.records.deleteRecords(PORTAL, [all[1]!.id, 'never-there']);
    expect(changes.records?.deleted).toEqual([all[1]!.id]);
    expect(mirror.records.countServerCopies(PORTAL, MODULE)).toBe(9);
  });
});

describe('the local edit overlay', () => {
  function edit(store: Store, recordId: string, field: string, value: unknown, base: unknown) {
    store.db
      .prepare(
        `INSERT INTO record_edits (portal_id, record_id, field, value, base_value, edited_at)
         VALUES (?, ?, ?, ?, ?, '2026-03-05T09:00:00.000Z')`,
      )
      .run(PORTAL, recordId, field, JSON.stringify(value), JSON.stringify(base));
  }

  it('is never touched by pulls, and lists show it over the server copy', () => {
    const { mirror, store } = mirroredPortal();
    const record = { ...makeRecord(7), name: 'Server name' };
    mirror.records.upsertRecords([record]);
    edit(store, record.id, 'name', 'My offline name', 'Server name');
    const overlay = () => store.db.prepare('SELECT * FROM record_edits').all();
    const before = overlay();

    mirror.records.upsertRecords([
      { ...record, name: 'Renamed on the server', lastUpdatedTime: '2027-01-01T00:00:00.000Z' },
    ]);
    mirror.records.deleteRecordsNotIn(PORTAL, MODULE, [record.id]);
    expect(overlay()).toEqual(before);

    const { rows } = mirror.query.queryRecords({
      portalId: PORTAL,
      moduleId: MODULE,
      offset: 0,
      limit: 10,
    });
    expect(rows[0]).toMatchObject({ name: 'My offline name', pendingFields: ['name'] });
    expect(store.db.prepare('SELECT name FROM records WHERE id = ?').pluck().get(record.id)).toBe(
      'Renamed on the server',
    );

    // Deleted on the server: the edit stays for the outbox to report; pulled again, it shows again.
    mirror.records.deleteRecordsNotIn(PORTAL, MODULE, []);
    expect(overlay()).toEqual(before);
    mirror.records.upsertRecords([record]);
    const named = (word: string) =>
      mirror.query.queryRecords({
        portalId: PORTAL,
        moduleId: MODULE,
        offset: 0,
        limit: 10,
        filter: JSON.stringify({
          criteria: [{ field_name: 'name', criteria_condition: 'contains', value: [word] }],
          pattern: '1',
        }),
      });
    // Filters see the edited value, not the server's.
    expect(named('offline').rows).toMatchObject([
      { name: 'My offline name', pendingFields: ['name'] },
    ]);
    expect(named('server').total).toBe(0);
  });
});

describe('trashed records', () => {
  it('leave lists, counts and search, and come back when restored', () => {
    const { mirror } = mirroredPortal();
    const record = { ...makeRecord(3), name: 'Binned projector' };
    mirror.records.upsertRecords([record, makeRecord(4)]);
    const trashed = {
      ...record,
      trashedTime: '2026-03-05T00:00:00.000Z',
      lastUpdatedTime: '2027-01-01T00:00:00.000Z',
    };
    expect(mirror.records.upsertRecords([trashed]).records?.updated).toEqual([record.id]);
    const list = () =>
      mirror.query.queryRecords({ portalId: PORTAL, moduleId: MODULE, offset: 0, limit: 10 });
    expect(list().rows.map((r) => r.id)).toEqual([makeRecord(4).id]);
    expect(list().total).toBe(1);
    expect(mirror.records.countServerCopies(PORTAL, MODULE)).toBe(1);
    expect(mirror.search.search({ portalId: PORTAL, text: 'binned', limit: 5 })).toEqual([]);

    mirror.records.upsertRecords([{ ...record, lastUpdatedTime: '2027-01-02T00:00:00.000Z' }]);
    expect(list().total).toBe(2);
    expect(mirror.search.search({ portalId: PORTAL, text: 'binned', limit: 5 })).toHaveLength(1);
  });
});

describe('metadata', () => {
  it('replaces lists, reporting inserts, real updates and deletions', () => {
    const { mirror } = mirroredPortal();
    const statuses = mirror.metadata.statuses(PORTAL, MODULE);
    expect(statuses.map((s) => s.id)).toEqual(['2001', '2002', '2003', '2004']);
    const changes = mirror.metadata.replaceStatuses(PORTAL, MODULE, [
      {
        id: '2001',
        name: 'Open',
        color: '#2a64d6',
        isClosedType: false,
        isDefault: true,
        position: 1,
        transitions: ['2002', '2003'],
      },
      {
        id: '2002',
        name: 'Reviewing',
        color: '#b7791f',
        isClosedType: false,
        isDefault: false,
        position: 2,
        transitions: ['2003', '2004'],
      },
      {
        id: '2003',
        name: 'Approved',
        color: '#1f8a4c',
        isClosedType: true,
        isDefault: false,
        position: 3,
        transitions: ['2001', '2002'],
      },
      {
        id: '2005',
        name: 'Parked',
        color: null,
        isClosedType: false,
        isDefault: false,
        position: 4,
        transitions: [],
      },
    ]);
    expect(changes).toEqual({
      statuses: { inserted: ['2005'], updated: ['2002', '2003'], deleted: ['2004'] },
    });
  });

  it('deletes a module with everything mirrored of it', () => {
    const { mirror, store } = mirroredPortal();
    mirror.records.upsertRecordPage(records(0, 20), {
      portalId: PORTAL,
      moduleId: MODULE,
      scanIndex: 200,
    });
    const changes = mirror.metadata.replaceModules(PORTAL, []);
    expect(changes.modules?.deleted).toEqual([MODULE]);
    for (const table of ['records', 'fields', 'statuses', 'sync_cursors']) {
      expect(count(store, `SELECT count(*) FROM ${table}`)).toBe(0);
    }
    expect(mirror.search.search({ portalId: PORTAL, text: 'laptop', limit: 5 })).toEqual([]);
  });
});
