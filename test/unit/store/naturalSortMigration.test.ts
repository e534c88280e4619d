import { describe, expect, it } from 'vitest';
import { naturalSortKey } from '@portaldesk/portal-api/domain/naturalOrder';
import { Mirror } from '../../../src/main/store/mirror/mirror';
import { appMigrations } from '../../../src/main/store/store';
import { storeBeforeMigration } from '../../support/storeBeforeMigration';

// Found by name: its number is the one free when it lands.
const migration = appMigrations.find((m) => m.name.endsWith('_natural_sort.sql'));

describe('migration natural_sort', () => {
  it('gives the records stored before it their name sort key, and the lists that order', () => {
    expect(migration).toBeDefined();
    const { old, migrated } = storeBeforeMigration(migration!.name);
    old.db.exec(`
      INSERT INTO portals (id, account_id, dc, name, timezone, mirrored_at)
        VALUES ('1', 'acc', 'us', 'P', 'UTC', '2026-03-01T00:00:00.000Z');
      INSERT INTO modules (portal_id, id, api_name, singular_name, plural_name)
        VALUES ('1', '10', 'assets', 'Asset', 'Assets');
    `);
    const names = ['Laptop #1014', 'laptop #148', 'Laptop #2', 'LAPTOP #0148', 'Dock 10'];
    const insert = old.db.prepare(
      `INSERT INTO records (portal_id, module_key, id, name, name_fold, created_time, last_updated_time)
       VALUES ('1', (SELECT module_key FROM modules), ?, ?, lower(?), 'x', 'x')`,
    );
    names.forEach((name, i) => insert.run(String(100 + i), name, name));
    old.close();

    const store = migrated();
    const stored = store.db
      .prepare('SELECT name, name_sort AS sort FROM records ORDER BY id')
      .all() as { name: string; sort: string }[];
    expect(stored).toEqual(names.map((name) => ({ name, sort: naturalSortKey(name) })));
    const mirror = new Mirror(store.db);
    const listed = mirror.query.queryRecords({
      portalId: '1',
      moduleId: '10',
      sort: { field: 'name', descending: false },
      offset: 0,
      limit: 10,
    });
    expect(listed.rows.map((r) => r.name)).toEqual([
      'Dock 10',
      'Laptop #2',
      'laptop #148',
      'LAPTOP #0148',
      'Laptop #1014',
    ]);
    expect(
      store.db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT row_key FROM records WHERE module_key = 1 AND list_state = 0
           ORDER BY name_sort, id LIMIT 5`,
        )
        .all()
        .map((step) => (step as { detail: string }).detail)
        .join(' '),
    ).toMatch(/USING COVERING INDEX records_by_name_sort/);
    store.close();
  });
});
