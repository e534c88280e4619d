/**
 * The overview's counts stay index ranges: each count of overview.sql reads a covering index of
 * `records` (and the created counts, the hours of record_created_hours by its key) and never the
 * table (a scan of a million records' rows takes seconds; the ranges
 * answer in tens of milliseconds: bench/overview.bench.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseNamedQueries } from '../../../src/main/store/sqlFile';
import overviewSql from '../../../src/main/overview/overview.sql?raw';
import { mirroredPortal } from '../store/mirror/fixture';

const COUNTS: Record<string, string> = {
  // Any of them: SQLite takes the smallest (records_by_created, whose entries hold no id).
  moduleRecords: 'records_by_\\w+',
  statusRecords: 'records_by_status',
  createdSpan: 'records_by_created',
  updatedSpan: 'records_by_updated',
  createdPerWeek: 'records_by_created',
  updatedPerWeek: 'records_by_updated',
  createdBefore: 'records_by_created',
  updatedBefore: 'records_by_updated',
  createdFrom: 'records_by_created',
  updatedFrom: 'records_by_updated',
};

describe('overview query plans', () => {
  it.each(Object.entries(COUNTS))('%s reads %s, never the rows', (name, index) => {
    const { store } = mirroredPortal();
    const sql = parseNamedQueries(overviewSql, 'overview.sql')[name] as string;
    const statement = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
    const params = sql.includes('@moduleKey')
      ? [
          {
            moduleKey: 1,
            ...(sql.includes('@bounds') ? { bounds: '[]' } : {}),
            ...(sql.includes('@now') ? { now: Date.parse('2026-11-27T00:00:00.000Z') } : {}),
            ...(sql.includes('@at') ? { at: Date.parse('2026-11-27T00:30:00.000Z') } : {}),
            ...(sql.includes('@hour') ? { hour: 493_656 } : {}),
          },
        ]
      : Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1);
    const plan = (statement.all(...params) as { detail: string }[]).map((row) => row.detail);
    const onRecords = plan.filter((detail) => /\brecords\b/.test(detail));
    expect(onRecords.length).toBeGreaterThan(0);
    for (const detail of onRecords) {
      expect(detail).toMatch(new RegExp(`^SEARCH records USING COVERING INDEX ${index} `));
    }
  });

  // The created counts read the hours (migration 0023) and, of records_by_created, only the
  // records of an hour a bound cuts: every range there has both ends.
  it.each(['createdPerWeek', 'createdBefore', 'createdFrom'])(
    '%s reads record_created_hours by its key and records_by_created within an hour',
    (name) => {
      const { store } = mirroredPortal();
      const sql = parseNamedQueries(overviewSql, 'overview.sql')[name] as string;
      const plan = (
        store.db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all({ moduleKey: 1, bounds: '[]', at: 0, hour: 0 }) as { detail: string }[]
      ).map((row) => row.detail);
      const onHours = plan.filter((detail) => /\brecord_created_hours\b/.test(detail));
      expect(onHours).toHaveLength(1);
      expect(onHours[0]).toMatch(
        /^SEARCH record_created_hours USING PRIMARY KEY \(module_key=\? AND hour[<>]/,
      );
      const onRecords = plan.filter((detail) => /\brecords\b/.test(detail));
      expect(onRecords.length).toBeGreaterThan(0);
      for (const detail of onRecords) {
        expect(detail).toBe(
          'SEARCH records USING COVERING INDEX records_by_created (module_key=? AND list_state=? AND <expr>>? AND <expr><?)',
        );
      }
    },
  );
});
