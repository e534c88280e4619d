import { describe, expect, it } from 'vitest';
import { storeBeforeMigration } from '../../support/storeBeforeMigration';

const NAME = '0012_config_ops.sql';

describe(`migration ${NAME}`, () => {
  it('keeps every queued operation and remap, and numbers new operations after the old ones', () => {
    const { old, migrated } = storeBeforeMigration(NAME);
    old.db.exec(`
      INSERT INTO outbox_ops (portal_id, module_id, record_id, kind, fields, queued_at, updated_at)
        VALUES ('1', '10', '100', 'update', '{"name":{"value":"A","base":"B"}}', 't', 't'),
               ('1', '10', 'tmp-1', 'create', '{}', 't', 't'),
               ('1', '10', '101', 'trash', '{}', 't', 't');
      DELETE FROM outbox_ops WHERE record_id = '101';
      INSERT INTO outbox_remaps VALUES ('1', 'record', 'tmp-0', '99', 't');
    `);
    const rows = old.db.prepare('SELECT * FROM outbox_ops ORDER BY seq').all();
    old.close();

    const store = migrated();
    expect(
      store.db
        .prepare('SELECT * FROM outbox_ops ORDER BY seq')
        .all()
        .map((row) => {
          const { action, ...rest } = row as { action: unknown };
          expect(action).toBeNull();
          return rest;
        }),
    ).toEqual(rows);
    expect(store.db.prepare('SELECT * FROM outbox_remaps').all()).toEqual([
      { portal_id: '1', kind: 'record', temp_id: 'tmp-0', server_id: '99', remapped_at: 't' },
    ]);
    // AUTOINCREMENT: a deleted operation's number is never given again.
    const seq = store.db
      .prepare(
        `INSERT INTO outbox_ops (portal_id, module_id, record_id, kind, action, queued_at, updated_at)
         VALUES ('1', 'tmp-m-0', 'module:tmp-m-0', 'config', 'module.create', 't', 't') RETURNING seq`,
      )
      .pluck()
      .get();
    expect(seq).toBe(4);
    // A config op names its action; a record's never does.
    expect(() =>
      store.db
        .prepare(
          `INSERT INTO outbox_ops (portal_id, module_id, record_id, kind, queued_at, updated_at)
           VALUES ('1', 'm', 'q', 'config', 't', 't')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    store.close();
  });
});
