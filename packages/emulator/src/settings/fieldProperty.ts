/**
 * The `field_property` object of PUT settings/fields: description, is_pii, is_encrypted,
 * context_property {...} and field_type_properties {...}. Unknown members are refused (a typo
 * would otherwise be stored and silently ignored); type-specific members only on their types.
 */
import { apiErrors } from '../http/apiError';
import { DEFAULT_VALUE_MAX, FIELD_DESCRIPTION_MAX, PRECISION_MAX } from './limits';

/** Ours: the spec names `permission` but not its values. */
export const FIELD_PERMISSIONS = ['read_write', 'read_only', 'hidden'] as const;
/** "currencylist_type (project_currency or field_currency)". */
export const CURRENCY_LIST_TYPES = ['project_currency', 'field_currency'] as const;
/** "userlist_type (all_users, selected_users, selected_roles)". */
export const USER_LIST_TYPES = ['all_users', 'selected_users', 'selected_roles'] as const;

const CONTEXT_BOOLEANS = [
  'is_mandatory',
  'has_info',
  'is_added_to_resolution',
  'is_added_to_public_form',
] as const;

type Json = Record<string, unknown>;

function objectAt(value: unknown, name: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiErrors.invalidParameter(`${name} must be an object.`);
  }
  return value as Json;
}

function refuseUnknown(object: Json, known: readonly string[], name: string): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) {
      throw apiErrors.invalidParameter(
        `${name}.${key} is not a known property; known: ${known.join(', ')}.`,
      );
    }
  }
}

function booleanAt(object: Json, key: string, name: string): void {
  const value = object[key];
  if (value !== undefined && typeof value !== 'boolean') {
    throw apiErrors.invalidParameter(`${name}.${key} must be true or false.`);
  }
}

function oneOf(object: Json, key: string, allowed: readonly string[], name: string): void {
  const value = object[key];
  if (value !== undefined && !allowed.includes(value as string)) {
    throw apiErrors.invalidParameter(`${name}.${key} must be one of ${allowed.join(', ')}.`);
  }
}

function readContext(value: unknown): Json {
  const name = 'field_property.context_property';
  const context = objectAt(value, name);
  refuseUnknown(context, ['default_value', 'permission', ...CONTEXT_BOOLEANS], name);
  for (const key of CONTEXT_BOOLEANS) booleanAt(context, key, name);
  oneOf(context, 'permission', FIELD_PERMISSIONS, name);
  const fallback = context.default_value;
  if (fallback !== undefined && fallback !== null) {
    if (typeof fallback === 'string') {
      if ([...fallback].length > DEFAULT_VALUE_MAX) {
        throw apiErrors.invalidParameter(
          `${name}.default_value is longer than ${DEFAULT_VALUE_MAX} characters.`,
        );
      }
    } else if (typeof fallback !== 'number' && typeof fallback !== 'boolean') {
      throw apiErrors.invalidParameter(
        `${name}.default_value must be a string, a number or a boolean.`,
      );
    }
  }
  return context;
}

function readTypeProperties(value: unknown, fieldType: string): Json {
  const name = 'field_property.field_type_properties';
  const props = objectAt(value, name);
  refuseUnknown(
    props,
    ['currencylist_type', 'currency_value', 'precision_value', 'userlist_type'],
    name,
  );
  const currencyKeys = ['currencylist_type', 'currency_value', 'precision_value'].filter(
    (k) => props[k] !== undefined,
  );
  if (currencyKeys.length > 0 && fieldType !== 'currency') {
    throw apiErrors.invalidParameter(
      `${name}.${currencyKeys[0]} applies to currency fields only, not ${fieldType}.`,
    );
  }
  if (
    props.userlist_type !== undefined &&
    fieldType !== 'user_pick_list' &&
    fieldType !== 'multi_user'
  ) {
    throw apiErrors.invalidParameter(
      `${name}.userlist_type applies to user fields only, not ${fieldType}.`,
    );
  }
  oneOf(props, 'currencylist_type', CURRENCY_LIST_TYPES, name);
  oneOf(props, 'userlist_type', USER_LIST_TYPES, name);
  if (props.currency_value !== undefined && !/^[A-Z]{3}$/.test(String(props.currency_value))) {
    throw apiErrors.invalidParameter(
      `${name}.currency_value must be a 3-letter currency code such as USD.`,
    );
  }
  const precision = props.precision_value;
  if (
    precision !== undefined &&
    (typeof precision !== 'number' ||
      !Number.isInteger(precision) ||
      precision < 0 ||
      precision > PRECISION_MAX)
  ) {
    throw apiErrors.invalidParameter(
      `${name}.precision_value must be a whole number from 0 to ${PRECISION_MAX}.`,
    );
  }
  return props;
}

/** The validated `field_property` as sent, or undefined when absent. */
export function readFieldProperty(value: unknown, fieldType: string): Json | undefined {
  if (value === undefined || value === null) return undefined;
  const property = objectAt(value, 'field_property');
  refuseUnknown(
    property,
    ['description', 'is_pii', 'is_encrypted', 'context_property', 'field_type_properties'],
    'field_property',
  );
  const description = property.description;
  if (description !== undefined && description !== null) {
    if (typeof description !== 'string')
      throw apiErrors.invalidParameter('field_property.description must be a string.');
    if ([...description].length > FIELD_DESCRIPTION_MAX) {
      throw apiErrors.invalidParameter(
        `field_property.description is longer than ${FIELD_DESCRIPTION_MAX} characters.`,
      );
    }
  }
  booleanAt(property, 'is_pii', 'field_property');
  booleanAt(property, 'is_encrypted', 'field_property');
  if (property.context_property !== undefined) readContext(property.context_property);
  if (property.field_type_properties !== undefined)
    readTypeProperties(property.field_type_properties, fieldType);
  return property;
}

/** An update merges member by member; nested objects merge one level down. */
export function mergeFieldProperty(stored: Json, update: Json): Json {
  const merged: Json = { ...stored, ...update };
  for (const key of ['context_property', 'field_type_properties']) {
    if (update[key] !== undefined) {
      merged[key] = { ...((stored[key] as Json | undefined) ?? {}), ...(update[key] as Json) };
    }
  }
  return merged;
}
