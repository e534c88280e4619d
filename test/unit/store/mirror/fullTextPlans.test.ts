/**
 * A full-text flush reads only what it indexes: every statement of mirrorFullText.sql reaches
 * `records` and `comments` by row_key (a search), never by a scan of the table or of one of its
 * indexes. A flush runs at every step of 1,000 new rows during a sync (the writer thread's
 * flushStep); namesAddQueued, left to SQLite's choice, scanned the whole records_by_name index at
 * each of them, even with the queue empty: ~50 ms a step at 1.3 million records, more than half
 * of the writer thread's time in bench:scale (bench/README.md, issue 18).
 *
 * The plans are taken on an empty store and on one with rows, queued changes and statistics
 * (ANALYZE, as `PRAGMA optimize` may leave them), since SQLite's choice of join order follows
 * both.
 */
import { describe, expect, it } from 'vitest';
import { parseNamedQueries } from '../../../../src/main/store/sqlFile';
import fullTextSql from '../../../../src/main/store/queries/mirrorFullText.sql?raw';
import type { Store } from '../../../../src/main/store/store';
import { makeRecord, mirroredPortal } from './fixture';

const statements = Object.entries(parseNamedQueries(fullTextSql, 'mirrorFullText.sql'));

/** The plan's lines that read the records or comments table or one of their indexes. */
function readsOfRows(store: Store, sql: string): string[] {
  const plan = store.db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...(sql.includes(':through') ? [{ through: 1 }] : [])) as { detail: string }[];
  return plan
    .map((row) => row.detail)
    .filter((detail) => /^(SCAN|SEARCH) (records|comments|r|c)\b/.test(detail));
}

function storeWithRows(): Store {
  const { store, mirror } = mirroredPortal();
  mirror.records.upsertRecords(Array.from({ length: 300 }, (_, i) => makeRecord(i)));
  mirror.fullText.flush();
  // Queued changes: renamed rows (their old text waits in records_fts_queue).
  mirror.records.upsertRecords(
    Array.from({ length: 20 }, (_, i) => ({ ...makeRecord(i), name: `Renamed ${i}` })),
  );
  store.db.exec('ANALYZE');
  return store;
}

describe('full-text flush plans', () => {
  const stores = { empty: () => mirroredPortal().store, 'with rows and statistics': storeWithRows };

  for (const [state, open] of Object.entries(stores)) {
    it.each(statements)(`%s searches records and comments by key (${state})`, (_name, sql) => {
      const store = open();
      for (const detail of readsOfRows(store, sql)) {
        // "SEARCH records" alone: max(row_key), the last entry of the table's b-tree.
        expect(detail).toMatch(/^SEARCH \w+( USING INTEGER PRIMARY KEY \(rowid.*)?$/);
      }
    });
  }

  it('the store with rows has queued changes for those plans to meet', () => {
    const store = storeWithRows();
    const queued = store.db.prepare('SELECT count(*) FROM records_fts_queue').pluck().get();
    expect(queued).toBe(20);
  });
});
