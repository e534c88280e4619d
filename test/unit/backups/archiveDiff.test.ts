import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changedFields,
  EXAMPLES_PER_KIND,
  ModuleDiffTally,
  type FieldNames,
  type RecordFacts,
} from '../../../src/main/backups/archiveDiff';

const names: FieldNames = {
  custom: (apiName) =>
    ({
      cf_tags: { type: 'multi_select', label: 'Tags' },
      cf_owner: { type: 'user_pick_list', label: 'Custodian' },
      cf_price: { type: 'currency', label: 'Price' },
      cf_when: { type: 'timestamp', label: 'When' },
    })[apiName],
};

const facts = fc.record({
  id: fc.string({ minLength: 1, maxLength: 8 }),
  name: fc.string({ maxLength: 10 }),
  description: fc.string({ maxLength: 10 }),
  statusId: fc.option(fc.string({ minLength: 1, maxLength: 4 })),
  layoutId: fc.option(fc.string({ minLength: 1, maxLength: 4 })),
  projectId: fc.option(fc.string({ minLength: 1, maxLength: 4 })),
  ownerZpuid: fc.option(fc.string({ minLength: 1, maxLength: 4 })),
  isClosed: fc.boolean(),
  isExternal: fc.boolean(),
  custom: fc.record(
    {
      cf_tags: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }),
      cf_note: fc.string({ maxLength: 5 }),
    },
    { requiredKeys: [] },
  ),
}) satisfies fc.Arbitrary<RecordFacts>;

describe('changedFields', () => {
  it('finds nothing between a record and itself, and exactly the one field changed', () => {
    fc.assert(
      fc.property(facts, fc.string({ minLength: 1, maxLength: 6 }), (record, other) => {
        expect(changedFields(record, structuredClone(record), names)).toEqual([]);
        const renamed = { ...record, name: record.name + other };
        expect(changedFields(record, renamed, names)).toEqual(['Name']);
        const closed = { ...record, isClosed: !record.isClosed };
        expect(changedFields(record, closed, names)).toEqual(['Closed']);
      }),
      { numRuns: 300 },
    );
  });

  it('compares by meaning: option order, a user by zpuid, a currency by code and amount, an instant', () => {
    const base: RecordFacts = {
      id: '1',
      name: 'A',
      description: '',
      statusId: '9',
      layoutId: '3',
      projectId: null,
      ownerZpuid: 'u1',
      isClosed: false,
      isExternal: false,
      custom: {
        cf_tags: ['x', 'y'],
        cf_owner: { zpuid: 'u2', name: 'Priya' },
        cf_price: { currency_code: 'EUR', amount: '12.50', formatted_amount: '€12.50' },
        cf_when: '2026-11-26T10:00:00+01:00',
      },
    };
    const sameMeaning: RecordFacts = {
      ...base,
      custom: {
        cf_tags: ['y', 'x'],
        cf_owner: { zpuid: 'u2', name: null },
        cf_price: { currency_code: 'EUR', amount: '12.50' },
        cf_when: '2026-11-26T09:00:00Z',
      },
    };
    expect(changedFields(base, sameMeaning, names)).toEqual([]);
    const priced = {
      ...base,
      custom: { ...base.custom, cf_price: { currency_code: 'USD', amount: '12.50' } },
    };
    expect(changedFields(base, priced, names)).toEqual(['Price']);
    // A field only one side has, empty on the other, is no change; a value is.
    expect(
      changedFields({ ...base, custom: {} }, { ...base, custom: { cf_note: '' } }, names),
    ).toEqual([]);
    expect(
      changedFields({ ...base, custom: {} }, { ...base, custom: { cf_note: 'x' } }, names),
    ).toEqual(['cf_note']);
  });
});

describe('ModuleDiffTally', () => {
  it('counts each kind, fields by records, and keeps a few examples of each', () => {
    const tally = new ModuleDiffTally('assets', 'Assets', 12);
    for (let i = 0; i < 8; i++)
      tally.archivedRecord(`c${i}`, `Changed ${i}`, i % 2 ? ['Name'] : ['Name', 'Tags']);
    tally.archivedRecord('u', 'Same', []);
    tally.archivedRecord('r', 'Gone', null);
    tally.mirrorOnly('n', 'New');
    const result = tally.result();
    expect(result).toMatchObject({
      archived: 10,
      mirrored: 12,
      added: 1,
      removed: 1,
      changed: 8,
      unchanged: 1,
    });
    expect(result.fields).toEqual([
      { field: 'Name', records: 8 },
      { field: 'Tags', records: 4 },
    ]);
    expect(result.examples.filter((e) => e.change === 'changed')).toHaveLength(EXAMPLES_PER_KIND);
    expect(result.examples.filter((e) => e.change !== 'changed').map((e) => e.id)).toEqual([
      'r',
      'n',
    ]);
  });
});
