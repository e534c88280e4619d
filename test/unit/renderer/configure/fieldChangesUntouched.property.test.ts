/**
 * The Fields form sends only what the user changed: a setting whose control was not touched is
 * never sent, whatever the service holds in it (a description with spaces around it or "", a
 * default written as text, a label ending in a space). Generated fields as the service may hold
 * them; the form opened on each, then saved unchanged or with one control changed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUSTOM_FIELD_TYPE_NAMES } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  draftOfField,
  fieldChangesOf,
} from '../../../../src/renderer/src/features/configure/fieldDraft';
import type { ConfigField } from '../../../../src/shared/ipc/areas/configure';

const spacedText = fc
  .tuple(
    fc.constantFrom('', ' ', '\n', '  '),
    fc.constantFrom('', 'Serial', 'As printed', '12', '0.50'),
    fc.constantFrom('', ' ', '\n', '\t'),
  )
  .map(([before, text, after]) => before + text + after);

const serviceField: fc.Arbitrary<ConfigField> = fc.record({
  id: fc.constant('5002'),
  label: fc.constantFrom('Serial number', 'Serial number ', ' Cost'),
  mandatory: fc.boolean(),
  pii: fc.boolean(),
  encrypted: fc.boolean(),
  description: fc.oneof(fc.constant(null), spacedText),
  defaultValue: fc.oneof(
    fc.constant(null),
    spacedText,
    fc.constantFrom(0, 12, 0.5, 1e-7),
    fc.boolean(),
  ),
  hasInfo: fc.boolean(),
  currencyListType: fc.constantFrom(null, 'project_currency' as const, 'field_currency' as const),
  currencyCode: fc.constantFrom(null, 'USD', ' eur', ''),
  precision: fc.constantFrom(null, 0, 2, 3),
  userListType: fc.constantFrom(null, 'all_users' as const, 'selected_users' as const),
  apiName: fc.constant('cf_serial'),
  type: fc.constantFrom(...CUSTOM_FIELD_TYPE_NAMES),
  system: fc.constant(false),
  layouts: fc.constant([]),
  localOnly: fc.constant(false),
  pending: fc.constant([]),
});

describe('the Fields form sends only what the user changed', () => {
  it('saving unchanged sends nothing', () => {
    fc.assert(
      fc.property(serviceField, (field) => {
        expect(fieldChangesOf(draftOfField(field), field)).toEqual({});
      }),
      { numRuns: 2_000 },
    );
  });

  it('changing one box sends that setting alone', () => {
    fc.assert(
      fc.property(
        serviceField,
        fc.constantFrom('mandatory', 'pii', 'encrypted', 'hasInfo') as fc.Arbitrary<
          'mandatory' | 'pii' | 'encrypted' | 'hasInfo'
        >,
        (field, key) => {
          const draft = { ...draftOfField(field), [key]: !field[key] };
          expect(fieldChangesOf(draft, field)).toEqual({ [key]: !field[key] });
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('a description typed anew is sent as typed (trimmed)', () => {
    const field = {
      ...fc.sample(serviceField, { numRuns: 1, seed: 1 })[0]!,
      description: ' old ',
    };
    expect(fieldChangesOf({ ...draftOfField(field), description: ' new ' }, field)).toEqual({
      description: 'new',
    });
  });
});
