import { describe, expect, it } from 'vitest';
import { Mirror } from '../../../src/main/store/mirror/mirror';
import { storeBeforeMigration } from '../../support/storeBeforeMigration';

const NAME = '0009_scan_cursor.sql';

describe(`migration ${NAME}`, () => {
  it('starts a full pull interrupted under the page cursor over, and keeps the other cursors', () => {
    const { old, migrated } = storeBeforeMigration(NAME);
    old.db.exec(`
      INSERT INTO portals (id, account_id, dc, name, timezone, mirrored_at)
        VALUES ('1', 'acc', 'us', 'P', 'UTC', '2026-03-01T00:00:00.000Z');
      INSERT INTO modules (portal_id, id, api_name, singular_name, plural_name)
        VALUES ('1', '10', 'assets', 'Asset', 'Assets'), ('1', '11', 'vendors', 'Vendor', 'Vendors');
      INSERT INTO sync_cursors (portal_id, module_id, high_water, next_page, full_started_at, updated_at)
        VALUES ('1', '10', '2026-03-01T00:00:00.000Z', 5, '2026-03-01T00:00:00.000Z', 'x');
      INSERT INTO sync_cursors (portal_id, module_id, high_water, next_page, full_completed_at, updated_at)
        VALUES ('1', '11', '2026-03-02T00:00:00.000Z', NULL, '2026-03-02T00:00:00.000Z', 'x');
    `);
    old.close();

    const store = migrated();
    const mirror = new Mirror(store.db);
    expect(mirror.records.cursor('1', '10')).toMatchObject({
      scanIndex: 1,
      scanAfter: null,
      highWater: '2026-03-01T00:00:00.000Z',
    });
    expect(mirror.records.cursor('1', '11')).toMatchObject({
      scanIndex: null,
      fullCompletedAt: '2026-03-02T00:00:00.000Z',
    });
    store.close();
  });
});
