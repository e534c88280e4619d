/**
 * What the Fields form makes of a draft: a new field's settings as sent, an existing field's
 * changes (only what changed; a system field's name only), and what only the form can get wrong
 * (a number typed as text). The type picker offers every custom type once.
 */
import { describe, expect, it } from 'vitest';
import { CUSTOM_FIELD_TYPE_NAMES } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  draftOfField,
  emptyFieldDraft,
  fieldChangesOf,
  fieldDraftProblems,
  firstInvalidField,
  newFieldSettings,
} from '../../../../src/renderer/src/features/configure/fieldDraft';
import { FIELD_TYPE_GROUPS } from '../../../../src/renderer/src/features/configure/fieldFormat';
import type { ConfigField } from '../../../../src/shared/ipc/areas/configure';

function field(overrides: Partial<ConfigField>): ConfigField {
  return {
    id: '5002',
    label: 'Serial number',
    mandatory: false,
    pii: false,
    encrypted: false,
    description: null,
    defaultValue: null,
    hasInfo: false,
    currencyListType: null,
    currencyCode: null,
    precision: null,
    userListType: null,
    apiName: 'serial_number',
    type: 'single_line',
    system: false,
    layouts: [],
    localOnly: false,
    pending: [],
    ...overrides,
  };
}

describe('the Fields form draft', () => {
  it('groups every custom type exactly once', () => {
    const offered = FIELD_TYPE_GROUPS.flatMap((group) => group.types);
    expect([...offered].sort()).toEqual([...CUSTOM_FIELD_TYPE_NAMES].sort());
  });

  it('sends a new field with settings only its type takes, text trimmed, none as null', () => {
    const draft = {
      ...emptyFieldDraft('7001'),
      type: 'number',
      label: ' Units ',
      description: '   ',
      defaultText: ' 12 ',
      // Left from another type chosen first: not sent for a number.
      currencyCode: 'EUR',
      userListType: 'selected_users' as const,
    };
    expect(newFieldSettings(draft)).toEqual({
      label: 'Units',
      mandatory: false,
      pii: false,
      encrypted: false,
      description: null,
      defaultValue: 12,
      hasInfo: false,
      currencyListType: null,
      currencyCode: null,
      precision: null,
      userListType: null,
    });
    // A project's currency needs no code of its own.
    expect(
      newFieldSettings({ ...draft, type: 'currency', currencyListType: 'project_currency' }),
    ).toMatchObject({ currencyListType: 'project_currency', currencyCode: null, precision: 2 });
  });

  it('says what cannot be read as a number, in place of a value', () => {
    const draft = { ...emptyFieldDraft('7001'), type: 'number', label: 'Units' };
    expect(fieldDraftProblems({ ...draft, defaultText: '2.5' }, null, []).defaultValue).toBe(
      'Default value: a whole number for a Number field.',
    );
    expect(
      fieldDraftProblems({ ...draft, type: 'decimal', defaultText: 'abc' }, null, []).defaultValue,
    ).toBe('Default value: a number, such as 12.5.');
    expect(fieldDraftProblems({ ...draft, defaultText: '7' }, null, [])).toEqual({});
    expect(
      firstInvalidField(fieldDraftProblems({ ...draft, label: '', layoutId: '' }, null, [])),
    ).toBe('label');
    expect(fieldDraftProblems({ ...draft, layoutId: '' }, null, [], 'No layout.').layoutId).toBe(
      'No layout.',
    );
  });

  it('sends only what changed of an existing field', () => {
    const price = field({
      type: 'currency',
      currencyListType: 'field_currency',
      currencyCode: 'USD',
      precision: 2,
      defaultValue: 10,
    });
    expect(fieldChangesOf(draftOfField(price), price)).toEqual({});
    expect(fieldChangesOf({ ...draftOfField(price), defaultText: '10.0' }, price)).toEqual({});
    expect(fieldChangesOf({ ...draftOfField(price), currencyCode: 'EUR' }, price)).toEqual({
      currencyCode: 'EUR',
    });
    // Switching to the project's currency keeps the code as it is: it is not sent.
    expect(
      fieldChangesOf({ ...draftOfField(price), currencyListType: 'project_currency' }, price),
    ).toEqual({ currencyListType: 'project_currency' });

    // A check box whose default was never set is not given one unless the box changes.
    const insured = field({ type: 'check_box', defaultValue: null });
    expect(fieldChangesOf(draftOfField(insured), insured)).toEqual({});
    expect(fieldChangesOf({ ...draftOfField(insured), defaultChecked: true }, insured)).toEqual({
      defaultValue: true,
    });
  });

  it('sends a system field its name only', () => {
    const name = field({ id: '5001', label: 'Name', type: 'name', system: true });
    const draft = { ...draftOfField(name), label: 'Asset name', mandatory: true, pii: true };
    expect(fieldChangesOf(draft, name)).toEqual({ label: 'Asset name' });
    expect(fieldDraftProblems(draft, name, [{ id: '5004', label: 'asset NAME' }])).toEqual({
      label: 'Name: “Asset name” is already the name of another field.',
    });
  });
});
