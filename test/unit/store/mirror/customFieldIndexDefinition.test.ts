import { describe, expect, it } from 'vitest';
import {
  customFieldIndexDefinition,
  customFieldIndexModule,
  customFieldIndexScope,
  isCurrentCustomFieldIndex,
  isCustomFieldExpression,
} from '../../../../src/main/store/mirror/customFieldIndexDefinition';
import { customFieldIndexEviction } from '../../../../src/main/store/mirror/customFieldIndexEviction';
import { recordFilterSetup } from '../../../../src/main/store/mirror/recordFilterSetup';
import { recordFilterSql } from '../../../../src/main/store/mirror/recordFilterSql';
import { recordSortPlan, sortIndexExpression } from '../../../../src/main/store/mirror/recordSort';
import { compileFilter, type FilterCriterion } from '@portaldesk/portal-api/filter';
import { FIELDS, NOW, STATUSES, TAGS } from './fixture';

describe('customFieldIndexDefinition', () => {
  it('indexes the query expression itself, partial to its module, in list order', () => {
    const index = customFieldIndexDefinition(7, "pd_fold(json_extract(r.custom, '$.cf_category'))");
    expect(index).toEqual({
      name: expect.stringMatching(/^records_cf_7_cf_category_[0-9a-f]{10}$/),
      moduleKey: 7,
      expression: "pd_fold(json_extract(custom, '$.cf_category'))",
      sql:
        `CREATE INDEX IF NOT EXISTS ${index.name} ON records (module_key, list_state, ` +
        "pd_fold(json_extract(custom, '$.cf_category')), id, status_id) WHERE +module_key = 7",
    });
    expect(customFieldIndexModule(index.name)).toBe(7);
    expect(customFieldIndexModule('records_by_name')).toBeUndefined();
  });

  it('scopes with a literal that no bound module key can meet, and knows an earlier definition', () => {
    expect(customFieldIndexScope(7, 'r')).toBe('+r.module_key = 7');
    expect(() => customFieldIndexScope(-1)).toThrow(/Not a module key/);
    const index = customFieldIndexDefinition(7, "json_extract(r.custom, '$.cf_cost.amount')");
    const stored = index.sql.replace(' IF NOT EXISTS', '');
    expect(isCurrentCustomFieldIndex(index.name, stored)).toBe(true);
    // What the first version wrote: usable by any statement binding `module_key = ?`.
    const earlier = stored.replace('WHERE +module_key = 7', 'WHERE module_key = 7');
    expect(isCurrentCustomFieldIndex(index.name, earlier)).toBe(false);
    // Another module's condition under this module's name is not ours either.
    expect(isCurrentCustomFieldIndex(index.name, stored.replace('= 7', '= 8'))).toBe(false);
    expect(isCurrentCustomFieldIndex(index.name, null)).toBe(false);
  });

  it('gives different names to expressions that differ only in case or member', () => {
    const names = [
      "json_extract(r.custom, '$.cf_a')",
      "json_extract(r.custom, '$.cf_A')",
      "pd_fold(json_extract(r.custom, '$.cf_a'))",
      "json_extract(r.custom, '$.cf_a.amount')",
      "r.custom -> '$.cf_a'",
    ].map((e) => customFieldIndexDefinition(1, e).name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });

  it.each([
    ['a system column', 'r.name_fold'],
    ['SQL after the expression', "json_extract(r.custom, '$.cf_a'); DROP TABLE records; --"],
    ['a quote in the path', "json_extract(r.custom, '$.cf_a'')"],
    ['another member', "json_extract(r.custom, '$.cf_a.secret')"],
    ['another function', "lower(json_extract(r.custom, '$.cf_a'))"],
    ['a second column of another kind', "json_extract(r.custom, '$.cf_a'), r.name"],
    [
      'a currency order with more after it',
      "CASE WHEN json_extract(r.custom, '$.c.amount') IS NULL THEN NULL ELSE coalesce(json_extract(r.custom, '$.c.currency_code'), '') END, json_extract(r.custom, '$.c.amount'), r.id",
    ],
  ])('refuses %s', (_, expression) => {
    expect(isCustomFieldExpression(expression)).toBe(false);
    expect(() => customFieldIndexDefinition(1, expression)).toThrow(/Not a custom field/);
  });
});

describe('the expressions lists report', () => {
  const setup = recordFilterSetup(
    FIELDS,
    STATUSES,
    Object.entries(TAGS).map(([valueId, value]) => ({ fieldApiName: 'cf_tags', valueId, value })),
  );
  const c = (
    field_name: string,
    criteria_condition: string,
    value?: string[],
  ): FilterCriterion => ({
    field_name,
    criteria_condition,
    ...(value ? { value } : {}),
  });
  const indexable = (criteria: FilterCriterion[], pattern = '1') =>
    recordFilterSql(
      compileFilter({ criteria, pattern }, setup.fields, { now: NOW, timeZone: 'UTC' }),
      setup,
      7,
    ).indexable;

  it('names each custom value compared, folded for text conditions, never a system field', () => {
    expect(
      indexable(
        [
          c('cf_category', 'is', ['Network']),
          c('cf_category', 'is_empty'),
          c('cf_cost', 'greater_than', ['10']),
          c('cf_watchers', 'is', ['5001']),
          c('cf_tags', 'is', ['3001']),
          c('name', 'contains', ['x']),
          c('status', 'all_closed'),
        ],
        '1 AND 2 AND 3 AND 4 AND 5 AND 6 AND 7',
      ),
    ).toEqual([
      "pd_fold(json_extract(r.custom, '$.cf_category'))",
      "json_extract(r.custom, '$.cf_category')",
      "json_extract(r.custom, '$.cf_cost.amount')",
      "r.custom -> '$.cf_watchers'",
      // Not the multi-select: its "includes" reads record_multi_values (listLookups.ts).
    ]);
    expect(indexable([c('name', 'is', ['x'])])).toEqual([]);
  });

  it('marks custom sort keys, which are valid index expressions', () => {
    for (const field of ['cf_serial', 'cf_custodian', 'cf_cost', 'cf_purchase', 'cf_insured']) {
      const plan = recordSortPlan({ field, descending: false }, FIELDS, '0');
      expect(plan.custom).toBe(true);
      expect(isCustomFieldExpression(sortIndexExpression(plan))).toBe(true);
    }
    // Text in natural order; a currency by its code, then its amount: one index, two columns.
    expect(recordSortPlan({ field: 'cf_serial', descending: false }, FIELDS, '0').key).toBe(
      "pd_natural_key(json_extract(r.custom, '$.cf_serial'))",
    );
    const cost = recordSortPlan({ field: 'cf_cost', descending: false }, FIELDS, '0');
    expect(customFieldIndexDefinition(3, sortIndexExpression(cost)).sql).toMatch(
      new RegExp(
        String.raw`^CREATE INDEX IF NOT EXISTS records_cf_3_cf_cost_[0-9a-f]{10} ON records \(module_key, list_state, ` +
          String.raw`CASE WHEN json_extract\(custom, '\$\.cf_cost\.amount'\) IS NULL THEN NULL ELSE coalesce\(json_extract\(custom, '\$\.cf_cost\.currency_code'\), ''\) END, ` +
          String.raw`json_extract\(custom, '\$\.cf_cost\.amount'\), id, status_id\) WHERE \+module_key = 3$`,
      ),
    );
    expect(
      recordSortPlan({ field: 'name', descending: false }, FIELDS, '0').custom,
    ).toBeUndefined();
  });
});

describe('customFieldIndexEviction', () => {
  const now = 10_000_000;
  it('drops nothing while there is room', () => {
    expect(customFieldIndexEviction([{ name: 'a', lastUsed: 1 }], now, 2)).toEqual([]);
  });
  it('drops the least recently used; never used since start-up counts as oldest', () => {
    const existing = [
      { name: 'b', lastUsed: now - 3_600_000 },
      { name: 'a', lastUsed: 0 },
      { name: 'c', lastUsed: now - 7_200_000 },
    ];
    expect(customFieldIndexEviction(existing, now, 3)).toEqual(['a']);
    expect(customFieldIndexEviction(existing, now, 2)).toEqual(['a', 'c']);
  });
  it('builds nothing rather than drop an index used within the grace period', () => {
    const existing = [
      { name: 'a', lastUsed: now - 60_000 },
      { name: 'b', lastUsed: now - 120_000 },
    ];
    expect(customFieldIndexEviction(existing, now, 2, 600_000)).toBeNull();
    expect(customFieldIndexEviction(existing, now, 2, 90_000)).toEqual(['b']);
  });
});
