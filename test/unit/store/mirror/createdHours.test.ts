/**
 * record_created_hours (migrations/0023_created_hours.sql) held against a count of the records
 * made in JavaScript from their rows: the listed records (list_state 0 or 1) per module and UTC
 * hour of their created_time, after every kind of write the app makes to `records`, and after
 * random pulls whose pages hold a record twice, move it between hours and into and out of the
 * recycle bin, mixed with local edits, offline trash and restore, deletions and reconciliation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import { makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';

const HOUR = 3_600_000;

/** The table as the migration defines it, counted from the rows in JavaScript. */
function expectedHours(db: Database.Database): string[] {
  const rows = db.prepare('SELECT module_key, list_state, created_time FROM records').all() as {
    module_key: number;
    list_state: number;
    created_time: string;
  }[];
  const counts = new Map<string, number>();
  for (const row of rows) {
    if (row.list_state === 2) continue;
    // A time kept as sent past year 9999 (no number in SQLite either) is in no hour.
    if (!/^\d{4}-/.test(row.created_time)) continue;
    const at = Date.parse(row.created_time);
    if (Number.isNaN(at)) continue;
    const key = JSON.stringify([row.module_key, Math.floor(at / HOUR)]);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key}:${n}`).sort();
}

/** The table's rows that count something (an hour whose records all left keeps a 0). */
function storedHours(db: Database.Database): string[] {
  const rows = db
    .prepare('SELECT module_key, hour, records FROM record_created_hours')
    .raw()
    .all() as [number, number, number][];
  for (const [, , records] of rows) expect(records).toBeGreaterThanOrEqual(0);
  return rows
    .filter(([, , records]) => records > 0)
    .map(([moduleKey, hour, records]) => `${JSON.stringify([moduleKey, hour])}:${records}`)
    .sort();
}

function agreeing(db: Database.Database) {
  return (after: string) =>
    expect({ after, hours: storedHours(db) }).toEqual({ after, hours: expectedHours(db) });
}

const at = (record: MirrorRecord, created: string, updated: string): MirrorRecord => ({
  ...record,
  createdTime: created,
  lastUpdatedTime: updated,
});

describe('record_created_hours', () => {
  it('counts the listed records per created hour, after every kind of write', () => {
    const { store, mirror } = mirroredPortal();
    const db = store.db;
    const agree = agreeing(db);
    const records = Array.from({ length: 40 }, (_, i) => makeRecord(i, 9));
    // A page holding a record twice (a list that shifted between two pages), the second copy
    // created in another hour and taken out of the recycle bin.
    mirror.records.upsertRecords([
      ...records.slice(0, 3),
      { ...records[3]!, trashedTime: '2026-12-01T00:00:00.000Z' },
      ...records.slice(4),
      at(records[3]!, '1969-12-31T23:59:59.999Z', '2027-01-01T00:00:00.000Z'),
    ]);
    agree('a pull');
    expect(storedHours(db).length).toBeGreaterThan(5);

    const later = '2027-02-01T00:00:00.000Z';
    mirror.records.upsertRecords([
      at(records[0]!, '2026-03-01T10:00:00.000Z', later),
      at(records[1]!, '2026-03-01T10:59:59.999Z', later),
      { ...records[4]!, lastUpdatedTime: later, trashedTime: later },
    ]);
    agree('changed and trashed copies');
    mirror.records.upsertRecords([{ ...records[4]!, lastUpdatedTime: '2027-03-01T00:00:00.000Z' }]);
    agree('a copy back from the bin');

    const edit = db.prepare(
      `INSERT INTO record_edits (portal_id, record_id, field, value, edited_at)
       VALUES (?, ?, 'name', '"x"', '2027-01-01T00:00:00.000Z')`,
    );
    edit.run(PORTAL, records[5]!.id);
    agree('a pending edit');
    mirror.records.deleteRecords(PORTAL, [records[5]!.id]);
    mirror.records.upsertRecords([records[5]!]);
    agree('a record pulled again under its pending edit');
    db.prepare('DELETE FROM record_edits WHERE record_id = ?').run(records[5]!.id);
    agree('the edit reverted');

    mirror.localEdits.setTrashed(PORTAL, records[6]!.id, later);
    agree('trashed offline');
    mirror.localEdits.setTrashed(PORTAL, records[6]!.id, null);
    agree('restored offline');

    const moduleKey = mirror.metadata.moduleKey(PORTAL, MODULE)!;
    const values = {
      name: 'Made offline',
      description: '',
      statusId: null,
      isClosed: false,
      isExternal: false,
      custom: {},
    };
    mirror.localEdits.insertLocalRecord(PORTAL, moduleKey, 'local-1', null, values, later);
    agree('a record created offline');
    mirror.localEdits.updateLocalRecord(PORTAL, 'local-1', values, later);
    agree('a record created offline, changed');
    mirror.localEdits.deleteLocalRecord(PORTAL, 'local-1');
    agree('a record created offline, deleted');

    mirror.localEdits.deleteServerCopy(PORTAL, records[7]!.id);
    mirror.records.deleteRecords(PORTAL, [records[8]!.id]);
    mirror.records.deleteRecordsNotIn(
      PORTAL,
      MODULE,
      records.slice(10).map((r) => r.id),
    );
    agree('deletions and a reconciliation');

    mirror.metadata.replaceModules(PORTAL, []);
    agree("the module's removal");
    expect(db.prepare('SELECT count(*) FROM record_created_hours').pluck().get()).toBe(0);
  });

  // Times a few hours apart around 1970 (whose hours are negative before it) and today, at an
  // hour's first and last millisecond as well as inside it.
  const created = fc
    .tuple(
      fc.constantFrom(Date.UTC(1969, 11, 31, 22), Date.UTC(2026, 10, 27, 8)),
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom(0, 1, HOUR / 2, HOUR - 1),
    )
    .map(([base, hours, ms]) => new Date(base + hours * HOUR + ms).toISOString());
  const copy = fc.record({
    ordinal: fc.integer({ min: 0, max: 11 }),
    created,
    trashed: fc.boolean(),
    // Older copies than the stored one are not taken (an unchanged or stale page).
    age: fc.integer({ min: -1, max: 2 }),
  });
  const action = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.array(copy, { minLength: 1, maxLength: 8 }).map((page) => ({ page })),
    },
    fc.record({ edit: fc.integer({ min: 0, max: 11 }), on: fc.boolean() }),
    fc.record({ trash: fc.integer({ min: 0, max: 11 }), on: fc.boolean() }),
    fc.record({ remove: fc.integer({ min: 0, max: 11 }) }),
    fc.record({ keep: fc.array(fc.integer({ min: 0, max: 11 }), { maxLength: 12 }) }),
  );

  it('agrees with the rows after random writes, pages holding a record twice included', () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 12 }), (actions) => {
        const { store, mirror } = mirroredPortal();
        const db = store.db;
        const agree = agreeing(db);
        const base = Array.from({ length: 12 }, (_, i) => makeRecord(i, 4));
        let clock = Date.UTC(2027, 0, 1);
        for (const [step, a] of actions.entries()) {
          if ('page' in a) {
            clock += 4 * 60_000;
            mirror.records.upsertRecords(
              a.page.map((c) => ({
                ...at(base[c.ordinal]!, c.created, new Date(clock + c.age * 60_000).toISOString()),
                trashedTime: c.trashed ? new Date(clock).toISOString() : null,
              })),
            );
          } else if ('edit' in a) {
            const id = base[a.edit]!.id;
            if (a.on) {
              db.prepare(
                `INSERT OR REPLACE INTO record_edits (portal_id, record_id, field, value, edited_at)
                 SELECT portal_id, id, 'name', '"x"', '2027-01-01T00:00:00.000Z' FROM records
                 WHERE portal_id = ? AND id = ?`,
              ).run(PORTAL, id);
            } else {
              db.prepare('DELETE FROM record_edits WHERE record_id = ?').run(id);
            }
          } else if ('trash' in a) {
            mirror.localEdits.setTrashed(
              PORTAL,
              base[a.trash]!.id,
              a.on ? '2027-01-02T00:00:00.000Z' : null,
            );
          } else if ('remove' in a) {
            mirror.records.deleteRecords(PORTAL, [base[a.remove]!.id]);
          } else {
            mirror.records.deleteRecordsNotIn(
              PORTAL,
              MODULE,
              a.keep.map((i) => base[i]!.id),
            );
          }
          agree(`step ${step}: ${JSON.stringify(a)}`);
        }
        store.close();
      }),
      { numRuns: 80 },
    );
  });
});
