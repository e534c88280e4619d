import { describe, expect, it } from 'vitest';
import { recordFilterSetup } from '../../../../src/main/store/mirror/recordFilterSetup';
import { recordFilterSql } from '../../../../src/main/store/mirror/recordFilterSql';
import { compileFilter, type FilterCriterion } from '@portaldesk/portal-api/filter';
import { NOW, STATUSES } from './fixture';

/** Custom fields whose API names are also members of every JavaScript object. */
const FIELDS = [
  { apiName: 'constructor', fieldType: 'single_line', displayName: 'Constructor', isDefault: 0 },
  { apiName: 'toString', fieldType: 'pick_list', displayName: 'To string', isDefault: 0 },
  { apiName: 'valueOf', fieldType: 'multi_select', displayName: 'Value of', isDefault: 0 },
];

describe('filters on custom fields named like object members', () => {
  const setup = recordFilterSetup(FIELDS, STATUSES, [
    { fieldApiName: 'valueOf', valueId: '1', value: 'One' },
  ]);
  const sql = (criterion: FilterCriterion) =>
    recordFilterSql(
      compileFilter({ criteria: [criterion], pattern: '1' }, setup.fields, {
        now: NOW,
        timeZone: 'UTC',
      }),
      setup,
      7,
    );

  it('compare the field itself, never an inherited member', () => {
    const text = sql({ field_name: 'constructor', criteria_condition: 'contains', value: ['x'] });
    expect(text.sql).toContain("json_extract(r.custom, '$.constructor')");
    expect(text.sql).not.toContain('function');
    const list = sql({ field_name: 'toString', criteria_condition: 'is', value: ['x'] });
    expect(list.sql).toContain("json_extract(r.custom, '$.toString')");
    expect(list.sql).not.toContain('json_each');
    const multi = sql({ field_name: 'valueOf', criteria_condition: 'is', value: ['1'] });
    expect(multi.params).toContain('One');
    expect(multi.sql).toContain("v.field = 'valueOf'");
    expect(multi.edited.sql).toContain("json_extract(r.custom, '$.valueOf')");
  });
});
