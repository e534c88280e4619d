/**
 * The rules a custom field's settings must meet before a change is queued (spec "Fields and
 * options": "display_name (max 250), field_type (max 100)", field_property with context_property
 * {default_value, is_mandatory, has_info, permission} and field_type_properties {currencylist_type
 * `project_currency` or `field_currency`, currency_value, precision_value, userlist_type
 * `all_users`, `selected_users` or `selected_roles`}), plus the service's own as the emulator
 * checks them (packages/emulator/src/settings/fieldProperty.ts, api/fields.ts): a display name
 * unique among the module's fields (case-insensitively), a currency code of three capitals, a
 * precision from 0 to 9, a default value of at most 200 characters, currency settings only on
 * currency fields and user list types only on user fields; the type never changes. Pure.
 */
import {
  CUSTOM_FIELD_TYPES,
  isCustomFieldType,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import { FIELD_DISPLAY_NAME_MAX } from '@portaldesk/portal-api/domain/limits';

/** Ours, as the emulator: a field's description is a multi-line text. */
export const FIELD_DESCRIPTION_MAX = CUSTOM_FIELD_TYPES.multi_line.maxChars;
/** Ours, as the emulator: a default value is a single-line text. */
export const DEFAULT_VALUE_MAX = CUSTOM_FIELD_TYPES.single_line.maxChars;
export const PRECISION_MAX = 9;
export { FIELD_DISPLAY_NAME_MAX };

export interface FieldSettingsInput {
  label: string;
  mandatory: boolean;
  pii: boolean;
  encrypted: boolean;
  description: string | null;
  /** Text, a number or a yes/no, as the field's type takes it; null: none. */
  defaultValue: string | number | boolean | null;
  hasInfo: boolean;
  currencyListType: 'project_currency' | 'field_currency' | null;
  currencyCode: string | null;
  precision: number | null;
  userListType: 'all_users' | 'selected_users' | 'selected_roles' | null;
}

export type FieldSettingKey = keyof FieldSettingsInput | 'type';
export type FieldProblems = Partial<Record<FieldSettingKey, string>>;

const count = (text: string) => [...text].length;

/**
 * What is wrong with a field's settings, by setting. `settings` holds what changes (everything
 * for a new field); `type` is the field's (a new one's chosen type).
 */
export function fieldSettingsProblems(
  type: string,
  settings: Partial<FieldSettingsInput>,
  others: readonly { id: string; label: string }[],
  exceptId: string | null,
  creating: boolean,
): FieldProblems {
  const problems: FieldProblems = {};
  // A new field is of a custom type; an existing system field (name, status, ...) keeps its own
  // type and is checked for what may change of it: its name.
  if (creating && !isCustomFieldType(type)) {
    problems.type = `Type: one of ${Object.keys(CUSTOM_FIELD_TYPES).join(', ')}.`;
    return problems;
  }
  if (settings.label !== undefined || creating) {
    const label = (settings.label ?? '').trim();
    if (label === '') problems.label = 'Name: required.';
    else if (count(label) > FIELD_DISPLAY_NAME_MAX) {
      problems.label = `Name: at most ${FIELD_DISPLAY_NAME_MAX} characters (${count(label)} given).`;
    } else if ([...label].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
      problems.label = 'Name: no control characters (tabs, line breaks).';
    } else {
      const clash = others.find(
        (other) =>
          other.id !== exceptId && other.label.trim().toLowerCase() === label.toLowerCase(),
      );
      if (clash) problems.label = `Name: “${label}” is already the name of another field.`;
    }
  }
  if (settings.description !== undefined && settings.description !== null) {
    if (count(settings.description) > FIELD_DESCRIPTION_MAX) {
      problems.description = `Description: at most ${FIELD_DESCRIPTION_MAX} characters (${count(settings.description)} given).`;
    }
  }
  const fallback = settings.defaultValue;
  if (typeof fallback === 'string' && count(fallback) > DEFAULT_VALUE_MAX) {
    problems.defaultValue = `Default value: at most ${DEFAULT_VALUE_MAX} characters (${count(fallback)} given).`;
  }
  const currency = type === 'currency';
  for (const key of ['currencyListType', 'currencyCode', 'precision'] as const) {
    if (settings[key] !== undefined && settings[key] !== null && !currency) {
      problems[key] = 'Only a currency field has currency settings.';
    }
  }
  const code = settings.currencyCode;
  if (currency && typeof code === 'string' && !/^[A-Z]{3}$/.test(code)) {
    problems.currencyCode = 'Currency: a three-letter code in capitals, such as USD.';
  }
  const precision = settings.precision;
  if (
    currency &&
    typeof precision === 'number' &&
    (!Number.isInteger(precision) || precision < 0 || precision > PRECISION_MAX)
  ) {
    problems.precision = `Decimals: a whole number from 0 to ${PRECISION_MAX}.`;
  }
  if (
    typeof settings.userListType === 'string' &&
    type !== 'user_pick_list' &&
    type !== 'multi_user'
  ) {
    problems.userListType = 'Only a user field chooses whom it lists.';
  }
  return problems;
}

export function firstFieldProblem(problems: FieldProblems): string | null {
  return Object.values(problems)[0] ?? null;
}

/** A delete names what it removes: the field's name typed exactly (spaces trimmed). */
export function fieldDeleteConfirmationProblem(typed: string, label: string): string | null {
  return typed.trim() === label.trim()
    ? null
    : `Type the field's name, ${label}, exactly to delete it and its values.`;
}
