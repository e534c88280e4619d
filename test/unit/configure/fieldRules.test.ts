/**
 * The field rules in the cases the emulator's checks draw lines: names (required, 250 characters,
 * unique case-insensitively, control characters ours), currency settings (code, decimals 0–9, only
 * on currency fields), user list types only on user fields, a new field's type, and a system
 * field's rename (checked for its name; its own type is not a custom one).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldSettingsProblems } from '../../../src/shared/configRules/fieldRules';

const others = [{ id: '1', label: 'Serial number' }];

describe('field rules', () => {
  it('checks names by length in characters, blanks and clashes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (label) => {
        const problems = fieldSettingsProblems('single_line', { label }, others, null, true);
        const trimmed = label.trim();
        const length = [...trimmed].length;
        if (trimmed === '') expect(problems.label).toBe('Name: required.');
        else if (length > 250) expect(problems.label).toMatch(`(${length} given)`);
        else if (trimmed.toLowerCase() === 'serial number')
          expect(problems.label).toMatch(/already/);
        else if (![...label].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
          expect(problems.label).toBeUndefined();
        }
      }),
    );
  });

  it('takes currency settings only on currency fields, and user list types only on user fields', () => {
    expect(
      fieldSettingsProblems(
        'currency',
        { label: 'V', currencyCode: 'EUR', precision: 9 },
        [],
        null,
        true,
      ),
    ).toEqual({});
    expect(
      fieldSettingsProblems('currency', { label: 'V', currencyCode: 'eur' }, [], null, true)
        .currencyCode,
    ).toMatch(/three-letter/);
    expect(
      fieldSettingsProblems('currency', { label: 'V', precision: 10 }, [], null, true).precision,
    ).toMatch(/0 to 9/);
    expect(
      fieldSettingsProblems('number', { label: 'V', precision: 2 }, [], null, true).precision,
    ).toMatch(/Only a currency/);
    expect(
      fieldSettingsProblems(
        'multi_user',
        { label: 'V', userListType: 'selected_roles' },
        [],
        null,
        true,
      ),
    ).toEqual({});
    expect(
      fieldSettingsProblems('date', { label: 'V', userListType: 'all_users' }, [], null, true)
        .userListType,
    ).toMatch(/Only a user field/);
  });

  it('refuses a new field of no custom type, and checks a system field rename by its name', () => {
    expect(fieldSettingsProblems('formula', { label: 'V' }, [], null, true).type).toMatch(
      /Type: one of/,
    );
    expect(fieldSettingsProblems('name', { label: 'Title' }, others, '9', false)).toEqual({});
    expect(
      fieldSettingsProblems('name', { label: ' serial NUMBER ' }, others, '9', false).label,
    ).toMatch(/already/);
  });
});
