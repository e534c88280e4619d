/**
 * A name's `is` filter seeks its names in records_by_name_sort, the one index over names since
 * migration 0029 dropped records_by_name (whose place in every upsert cost a pull about a tenth of
 * its CPU a record, bench/README.md, issue 18). The filter compares the sort key as well as the
 * folded name; without the key SQLite has no index for the names and reads the whole module.
 */
import { describe, expect, it } from 'vitest';
import { plansOf } from './windowPlans';

const nameIs = (...names: string[]) =>
  JSON.stringify({
    criteria: [{ field_name: 'name', criteria_condition: 'is', value: names }],
    pattern: '1',
  });

const SEEK =
  /^SEARCH r USING (COVERING )?INDEX records_by_name_sort \(module_key=\? AND list_state=\? AND name_sort=\?\)/;

describe("a name's is filter", () => {
  it.each([[['Laptop 7']], [['Laptop 7', 'cisco SWITCH #10']]])(
    'seeks %j in records_by_name_sort, whatever the order',
    (names) => {
      for (const sort of [
        undefined,
        { field: 'last_updated_time', descending: true },
        { field: 'name', descending: false },
      ]) {
        const statements = plansOf({ filter: nameIs(...names), sort, offset: 0, limit: 50 });
        expect(statements.length).toBeGreaterThan(0);
        for (const { plan } of statements) expect(plan).toMatch(SEEK);
      }
    },
  );
});
