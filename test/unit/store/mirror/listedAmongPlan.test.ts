/**
 * `records.listed` (RecordQuery.listedAmong) prunes a selection of up to 5,000 records after each
 * refresh during a sync: it must find each asked record by (portal, id) and test the filter on
 * it, whatever the filter. With a multi-select's "includes" written in its statement-wide form,
 * SQLite folded the option's rows into every id's lookup (`portal_id=? AND id=? AND rowid=?`):
 * 1.8 s for 5,000 ids over 6,000 rows, minutes at a million (found by review).
 */
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { RecordQuery } from '../../../../src/main/store/mirror/recordQuery';
import { makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';
import { preparedDuring } from './preparedDuring';

function listedStatements(db: Database.Database, run: () => void): string[] {
  return preparedDuring(db, run).filter((sql) =>
    sql.includes('FROM (SELECT value AS id FROM json_each(?)) w'),
  );
}

const filters = {
  'a multi-select includes': { field_name: 'cf_tags', criteria_condition: 'is', value: ['3001'] },
  'a name contains': { field_name: 'name', criteria_condition: 'contains', value: ['sset'] },
  'a status': { field_name: 'status', criteria_condition: 'is', value: ['2001'] },
};

describe('records.listed', () => {
  it.each(Object.entries(filters))('finds each asked record by its id under %s', (_, criterion) => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords(Array.from({ length: 300 }, (_, i) => makeRecord(i, 5)));
    const ids = Array.from({ length: 50 }, (_, i) => makeRecord(i * 3).id);
    const query = new RecordQuery(store.db, mirror.metadata);
    const filter = JSON.stringify({ criteria: [criterion], pattern: '1' });
    const statements = listedStatements(store.db, () =>
      query.listedAmong({ portalId: PORTAL, moduleId: MODULE, filter }, ids),
    );
    expect(statements).toHaveLength(1);
    const sql = statements[0]!;
    const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null);
    const plan = (
      store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]
    )
      .map((step) => step.detail)
      .join('\n');
    expect(plan).toMatch(
      /SEARCH r USING INDEX sqlite_autoindex_records_1 \(portal_id=\? AND id=\?\)/,
    );
    expect(plan).not.toMatch(/rowid=\?/);
    expect(plan).not.toMatch(/SCAN r\b/);
  });
});
