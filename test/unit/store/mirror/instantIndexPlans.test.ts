/**
 * Lists sorted or filtered by a record's created or last-updated time walk the index that holds
 * that time (migration 0022 holds them as numbers, `instantSql`): the sort and the filter must
 * write the index's own expression, or SQLite reads and sorts every row of the module (seconds
 * at a million records) where a window should read a screenful. Each statement a window prepares
 * that reads `records` for the order or the range is explained here.
 */
import { describe, expect, it } from 'vitest';
import { plansOf } from './windowPlans';

const between = (field: string) =>
  JSON.stringify({
    criteria: [
      { field_name: field, criteria_condition: 'between', value: ['2025-01-01', '2025-03-31'] },
    ],
    pattern: '1',
  });

const INDEXES = [
  // Its entries end with the id, the order's tie-break: the walk reads no row.
  ['last_updated_time', 'records_by_updated', 'COVERING INDEX'],
  // No id in it (it stays small for the overview's weekly walk): ties are sorted per time.
  ['created_time', 'records_by_created', 'INDEX'],
] as const;

describe('lists by created and last-updated time', () => {
  it.each(INDEXES)('sorted by %s, walk %s', (field, index, how) => {
    for (const descending of [false, true]) {
      const walks = plansOf({ sort: { field, descending }, offset: 0, limit: 50 }).filter(
        ({ sql }) => sql.includes('ORDER BY'),
      );
      expect(walks).toHaveLength(1);
      expect(walks[0]!.plan).toMatch(new RegExp(`^SEARCH r USING ${how} ${index} `));
      expect(walks[0]!.plan).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    }
  });

  it.each(INDEXES)('filtered to a range of %s, seek it in %s', (field, index) => {
    const statements = plansOf({ filter: between(field), offset: 0, limit: 50 });
    const range = `${index} \\(module_key=\\? AND list_state=\\? AND <expr>>\\? AND <expr><\\?\\)`;
    const count = statements.filter(({ sql }) => sql.startsWith('SELECT count(*)'));
    expect(count).toHaveLength(1);
    expect(count[0]!.plan).toMatch(new RegExp(`^SEARCH r USING COVERING INDEX ${range}`));
    for (const { plan } of statements)
      expect(plan).toMatch(new RegExp(`USING (COVERING )?INDEX ${range}`));
  });
});
