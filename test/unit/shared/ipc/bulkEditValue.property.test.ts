/**
 * What a bulk edit's value may be at the contract (src/shared/ipc/areas/bulkEdit.ts). The value is
 * checked once per selected record (up to 50,000), so a value no field takes is refused at the
 * gate, once: a 1 MB value (90,000 option names to add) held the engine about 20 ms per record,
 * 5 s a batch of 250, 17 minutes for a selection of 50,000, to refuse or ignore every one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTITY_LIMITS } from '@portaldesk/portal-api/domain/customFieldTypes';
import { MULTI_SELECT_MAX } from '@portaldesk/portal-api/domain/fieldValueRules';
import { BulkEditArgs } from '../../../../src/shared/ipc/areas/bulkEdit';

const base = {
  portalId: '1000',
  moduleId: '2000',
  selection: { kind: 'filter' as const },
  field: 'cf_tags',
};

const problems = (args: Record<string, unknown>) => {
  const parsed = BulkEditArgs.safeParse({ ...base, ...args });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the value of a bulk edit at the contract', () => {
  it('takes every value a field takes: the longest description, with line breaks', () => {
    const description = 'a\n'.repeat(ENTITY_LIMITS.description / 2);
    expect(problems({ field: 'description', action: 'set', value: description })).toEqual([]);
    // Control characters are six characters of JSON each: still a description.
    const controls = '\u0001'.repeat(ENTITY_LIMITS.description);
    expect(problems({ field: 'description', action: 'set', value: controls })).toEqual([]);
    expect(problems({ action: 'clear' })).toEqual([]);
  });

  it('takes a list of up to the selectable options to add, and names to remove', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('add' as const, 'remove' as const),
        fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: MULTI_SELECT_MAX }),
        (action, names) => {
          expect(problems({ action, value: names })).toEqual([]);
        },
      ),
    );
  });

  it('refuses, once, a value larger than any field takes', () => {
    const huge = 'x'.repeat(7 * ENTITY_LIMITS.description);
    expect(problems({ field: 'description', action: 'set', value: huge })).toEqual([
      expect.stringMatching(/^value: larger than any field takes/),
    ]);
    expect(problems({ action: 'add', value: Array(90_000).fill('Critical') })).toEqual([
      expect.stringMatching(/^value: larger than any field takes \(990,001 characters of JSON/),
    ]);
    const names = Array.from({ length: MULTI_SELECT_MAX + 1 }, (_, i) => `Option ${i}`);
    expect(problems({ action: 'add', value: names })).toEqual([
      expect.stringMatching(/^value: at most 100 options can be added at once \(101 given\)/),
    ]);
    expect(problems({ action: 'remove', value: names })).toEqual([]);
  });

  it('refuses options to add or remove that are not a list of names', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('add' as const, 'remove' as const),
        fc.oneof(
          fc.string(),
          fc.constant(undefined),
          fc.constant([]),
          fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.object()), { minLength: 1 }),
        ),
        (action, value) => {
          expect(problems({ action, value })).toEqual([
            expect.stringMatching(/^value: a list of option names/),
          ]);
        },
      ),
    );
  });

  it('refuses a value JSON cannot carry (a cycle through IPC) in words', () => {
    const cyclic: Record<string, unknown> = { amount: 1 };
    cyclic.self = cyclic;
    expect(problems({ field: 'cf_cost', action: 'set', value: cyclic })).toEqual([
      expect.stringMatching(/^value: not a value any field takes/),
    ]);
  });
});
