import { describe, expect, it } from 'vitest';
import { Mirror } from '../../../src/main/store/mirror/mirror';
import { appMigrations } from '../../../src/main/store/store';
import { storeBeforeMigration } from '../../support/storeBeforeMigration';

// Found by name: its number is the one free when it lands.
const migration = appMigrations.find((m) => m.name.endsWith('_canonical_times.sql'));

describe('migration canonical_times', () => {
  it('rewrites the times stored as the service sent them, so lists, pulls and comments compare instants', () => {
    expect(migration).toBeDefined();
    const { old, migrated } = storeBeforeMigration(migration!.name);
    old.db.exec(`
      INSERT INTO portals (id, account_id, dc, name, timezone, mirrored_at)
        VALUES ('1', 'acc', 'us', 'P', 'UTC', '2026-03-01T00:00:00.000Z');
      INSERT INTO modules (portal_id, id, api_name, singular_name, plural_name)
        VALUES ('1', '10', 'assets', 'Asset', 'Assets');
    `);
    const insert = old.db.prepare(
      `INSERT INTO records (portal_id, module_key, id, name, name_fold, name_sort, created_time,
         last_updated_time, trashed_time)
       VALUES ('1', (SELECT module_key FROM modules), ?, ?, lower(?), lower(?), ?, ?, NULL)`,
    );
    // Stored as sent: 10:30 UTC at -08:00 sorted before 10:15 UTC as text.
    insert.run(
      '101',
      'West',
      'West',
      'West',
      '2026-03-05T02:30:00-08:00',
      '2026-03-05T02:30:00-08:00',
    );
    insert.run('102', 'Utc', 'Utc', 'Utc', '2026-03-05T10:15:00.000Z', '2026-03-05T10:15:00.000Z');
    insert.run(
      '103',
      'East',
      'East',
      'East',
      '2026-03-05T15:50:00.5+05:30',
      '2026-03-05T15:50:00.5+05:30',
    );
    old.db.exec(`
      INSERT INTO comment_sync (portal_id, record_id, synced_at, record_updated_at, comment_count)
        VALUES ('1', '101', '2026-03-06T00:00:00.000Z', '2026-03-05T02:30:00-08:00', 0);
      INSERT INTO comments (portal_id, record_id, id, content, attachments, created_by, created_time, last_updated_time)
        VALUES ('1', '101', '7', 'hi', '[]', NULL, '2026-03-05T03:00:00-08:00', '2026-03-05T03:00:00-08:00');
      INSERT INTO status_timeline (portal_id, record_id, id, changed_time)
        VALUES ('1', '101', '8', '2026-03-05T03:00:00-08:00');
    `);
    // A time stamp field and a text field whose value looks like a time: only the first changes.
    old.db.exec(`
      INSERT INTO fields (portal_id, id, module_id, api_name, display_name, field_type, data_type)
        VALUES ('1', 'f1', '10', 'cf_stamp', 'Stamp', 'timestamp', 'datetime'),
               ('1', 'f2', '10', 'cf_note', 'Note', 'single_line', 'string');
      UPDATE records SET custom = '{"cf_note":"2026-03-05T02:30:00-08:00","cf_flag":true,"cf_cost":{"amount":1.5,"currency_code":"EUR"},"cf_stamp":"2026-03-05T02:30:00-08:00","cf_tags":["A","B"],"cf_none":null,"cf_n":7}'
        WHERE id = '101';
      UPDATE records SET custom = '{"cf_stamp":"2026-03-05T10:15:00.000Z"}' WHERE id = '102';
    `);
    old.db.exec(`
      INSERT INTO backups (account_id, portal_id, stage, requested_time, completed_time, created_at)
        VALUES ('acc', '1', 'completed', '2026-03-05T02:30:00-08:00', NULL, '2026-03-05T10:30:00.000Z');
      INSERT INTO outbox_ops (portal_id, module_id, record_id, kind, fields, queued_at, updated_at)
        VALUES ('1', '10', '101', 'restore',
          '{"trashed_time":{"value":null,"base":"2026-03-05T02:30:00-08:00"}}',
          '2026-03-06T00:00:00.000Z', '2026-03-06T00:00:00.000Z');
    `);
    old.close();

    const store = migrated();
    const times = store.db
      .prepare('SELECT id, created_time AS c, last_updated_time AS u FROM records ORDER BY id')
      .all();
    expect(times).toEqual([
      { id: '101', c: '2026-03-05T10:30:00.000Z', u: '2026-03-05T10:30:00.000Z' },
      { id: '102', c: '2026-03-05T10:15:00.000Z', u: '2026-03-05T10:15:00.000Z' },
      { id: '103', c: '2026-03-05T10:20:00.500Z', u: '2026-03-05T10:20:00.500Z' },
    ]);
    expect(
      store.db
        .prepare(
          `SELECT (SELECT record_updated_at FROM comment_sync) AS synced,
                  (SELECT created_time FROM comments) AS comment,
                  (SELECT changed_time FROM status_timeline) AS changed`,
        )
        .get(),
    ).toEqual({
      synced: '2026-03-05T10:30:00.000Z',
      comment: '2026-03-05T11:00:00.000Z',
      changed: '2026-03-05T11:00:00.000Z',
    });
    expect(
      store.db
        .prepare(
          `SELECT (SELECT requested_time FROM backups) AS requested,
                  (SELECT completed_time FROM backups) AS completed,
                  (SELECT fields FROM outbox_ops) AS fields`,
        )
        .get(),
    ).toEqual({
      requested: '2026-03-05T10:30:00.000Z',
      completed: null,
      fields: '{"trashed_time":{"value":null,"base":"2026-03-05T10:30:00.000Z"}}',
    });
    expect(
      store.db
        .prepare("SELECT id, custom FROM records WHERE id IN ('101', '102') ORDER BY id")
        .all(),
    ).toEqual([
      {
        id: '101',
        custom:
          '{"cf_note":"2026-03-05T02:30:00-08:00","cf_flag":true,"cf_cost":{"amount":1.5,"currency_code":"EUR"},"cf_stamp":"2026-03-05T10:30:00.000Z","cf_tags":["A","B"],"cf_none":null,"cf_n":7}',
      },
      { id: '102', custom: '{"cf_stamp":"2026-03-05T10:15:00.000Z"}' },
    ]);
    // The list by last update orders instants now; its comments still count as mirrored.
    const mirror = new Mirror(store.db);
    const listed = mirror.query.queryRecords({
      portalId: '1',
      moduleId: '10',
      sort: { field: 'last_updated_time', descending: false },
      offset: 0,
      limit: 10,
    });
    expect(listed.rows.map((r) => r.name)).toEqual(['Utc', 'East', 'West']);
    expect(listed.rows.find((r) => r.name === 'West')?.commentsMirrored).toBe(true);
    store.close();
  });
});
