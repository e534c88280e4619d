/**
 * The overview's counts stay index ranges: each count of overview.sql reads a covering index of
 * `records` and never the table (a scan of a million records' rows takes seconds; the ranges
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
});
