import { describe, expect, it } from 'vitest';
import { Mirror } from '../../../src/main/store/mirror/mirror';
import { storeBeforeMigration } from '../../support/storeBeforeMigration';

const NAME = '0017_list_lookups.sql';

describe(`migration ${NAME}`, () => {
  it("fills the lookups from a store's records: listed copies' options, every indexed name", () => {
    const { old, migrated } = storeBeforeMigration(NAME);
    old.db.exec(`
      INSERT INTO portals (id, account_id, dc, name, timezone, mirrored_at)
        VALUES ('1', 'acc', 'us', 'P', 'UTC', '2026-03-01T00:00:00.000Z');
      INSERT INTO modules (portal_id, id, api_name, singular_name, plural_name)
        VALUES ('1', '10', 'assets', 'Asset', 'Assets');
      INSERT INTO records (portal_id, module_key, id, name, name_fold, created_time,
                           last_updated_time, custom, trashed_time, list_state)
      VALUES
        ('1', 1, 'r1', 'Dell Laptop', 'dell laptop', 'x', 'x',
         '{"cf_tags":["Critical","Leased","Critical",3],"cf_watchers":[{"zpuid":"5001"}]}', NULL, 0),
        ('1', 1, 'r2', 'ThinkPad', 'thinkpad', 'x', 'x', '{"cf_tags":["Leased"]}', NULL, 0),
        ('1', 1, 'r3', 'Trashed laptop', 'trashed laptop', 'x', 'x', '{"cf_tags":["Leased"]}', 'x', 2),
        ('1', 1, 'r4', 'Not indexed yet laptop', 'not indexed yet laptop', 'x', 'x', '{}', NULL, 0);
      -- An edit pending on r2: its list_state moves to 1 (the record_edits trigger).
      INSERT INTO record_edits (portal_id, record_id, field, value, edited_at)
        VALUES ('1', 'r2', 'name', '"Laptop"', 'x');
      -- The full-text index holds rows through r3; r4 waits for the next flush, and so does r1,
      -- renamed since (queued by 0002's trigger).
      INSERT INTO records_fts (rowid, name, description, portal_id)
        SELECT row_key, name, description, portal_id FROM records WHERE row_key <= 3;
      UPDATE fts_progress SET indexed_through = 3 WHERE name = 'records';
      UPDATE records SET name = 'Dell Tower laptop', name_fold = 'dell tower laptop' WHERE id = 'r1';
    `);
    old.close();

    const store = migrated();
    expect(
      store.db
        .prepare('SELECT field, value, row_key FROM record_multi_values ORDER BY row_key, value')
        .raw()
        .all(),
    ).toEqual([
      ['cf_tags', 'Critical', 1],
      ['cf_tags', 'Leased', 1],
    ]);
    const laptops = () =>
      store.db
        .prepare(
          `SELECT rowid FROM record_name_trigrams WHERE record_name_trigrams MATCH '"laptop"' ORDER BY rowid`,
        )
        .pluck()
        .all();
    // Queued and new rows are not in the trigrams until the flush (lists read them from records).
    expect(laptops()).toEqual([3]);
    const mirror = new Mirror(store.db);
    mirror.fullText.flush();
    expect(laptops()).toEqual([1, 3, 4]);
    // Renamed again, then deleted: each leaves the trigrams by the name they hold.
    store.db.prepare(`UPDATE records SET name = 'Desk', name_fold = 'desk' WHERE id = 'r1'`).run();
    store.db.prepare(`DELETE FROM records WHERE id = 'r3'`).run();
    mirror.fullText.flush();
    expect(laptops()).toEqual([4]);
    expect(
      store.db
        .prepare(`SELECT rowid FROM record_name_trigrams WHERE record_name_trigrams MATCH '"desk"'`)
        .pluck()
        .all(),
    ).toEqual([1]);
    store.close();
  });
});
