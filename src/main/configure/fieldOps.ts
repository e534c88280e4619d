/**
 * Custom fields as outbox operations (pure). A field's changes queue with its module's layouts
 * (`layouts:<module id>`), so a field placed on a layout or section made offline goes after their
 * creation; a field created here has a temporary id (`tmp-f-…`) until its creation answers, when
 * later operations naming it are rewritten. Parameters are in `fields` by name, as for layouts;
 * settings by the form's names (label, mandatory, ...), turned into the spec's `field_property`
 * when sent.
 */
import type {
  ConfigField,
  FieldAction,
  FieldSettings,
  PendingFieldChange,
} from '../../shared/ipc/areas/configure';
import {
  CUSTOM_FIELD_TYPES,
  isCustomFieldType,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import { isOpen, type OutboxOp } from '../outbox/outboxTypes';
import { param } from './layoutOps';

export const TEMP_FIELD_PREFIX = 'tmp-f-';
export const fieldOpAction = (action: FieldAction) => `field.${action}`;

export function fieldActionOf(op: Pick<OutboxOp, 'kind' | 'action'>): FieldAction | null {
  if (op.kind !== 'config' || !op.action?.startsWith('field.')) return null;
  return op.action.slice('field.'.length) as FieldAction;
}

/** A field's settings, in the order the Configure view and the Outbox show them. */
export const FIELD_SETTING_KEYS = [
  'label',
  'mandatory',
  'pii',
  'encrypted',
  'description',
  'defaultValue',
  'hasInfo',
  'currencyListType',
  'currencyCode',
  'precision',
  'userListType',
] as const satisfies readonly (keyof FieldSettings)[];

/** Each setting in words, for a plan's or a conflict's lines. */
export const FIELD_SETTING_LABEL: Record<keyof FieldSettings, string> = {
  label: 'Name',
  mandatory: 'Mandatory',
  pii: 'Personal data',
  encrypted: 'Encrypted',
  description: 'Description',
  defaultValue: 'Default value',
  hasInfo: 'Info',
  currencyListType: 'Currency list',
  currencyCode: 'Currency',
  precision: 'Decimals',
  userListType: 'Users offered',
};

export const isFieldSetting = (key: string): key is keyof FieldSettings =>
  (FIELD_SETTING_KEYS as readonly string[]).includes(key);

/** A field's settings alone, from anything that carries them (a view, a file's field). */
export function fieldSettingsOf(field: FieldSettings): FieldSettings {
  return Object.fromEntries(FIELD_SETTING_KEYS.map((key) => [key, field[key]])) as FieldSettings;
}

/** The settings an operation carries (what it sets). */
export function settingsOfOp(op: Pick<OutboxOp, 'fields'>): Partial<FieldSettings> {
  const settings: Partial<Record<keyof FieldSettings, unknown>> = {};
  for (const key of FIELD_SETTING_KEYS) {
    if (op.fields[key] !== undefined) settings[key] = op.fields[key]!.value;
  }
  return settings as Partial<FieldSettings>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field's settings from its stored `field_property` (the API's, as the mirror keeps it). */
export function settingsOfProperty(
  label: string,
  mandatory: boolean,
  property: Record<string, unknown>,
): FieldSettings {
  const context = isObject(property.context_property) ? property.context_property : {};
  const types = isObject(property.field_type_properties) ? property.field_type_properties : {};
  const fallback = context.default_value;
  const oneOf = <T extends string>(value: unknown, allowed: readonly T[]): T | null =>
    allowed.includes(value as T) ? (value as T) : null;
  return {
    label,
    mandatory,
    pii: property.is_pii === true,
    encrypted: property.is_encrypted === true,
    // None is sent as '' (fieldProperty), so '' is none: read back, it must equal the null the
    // view showed, or a later change based on it meets the service's '' as a conflict.
    description:
      typeof property.description === 'string' && property.description !== ''
        ? property.description
        : null,
    defaultValue:
      typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean'
        ? fallback
        : null,
    hasInfo: context.has_info === true,
    currencyListType: oneOf(types.currencylist_type, ['project_currency', 'field_currency']),
    currencyCode: typeof types.currency_value === 'string' ? types.currency_value : null,
    precision: typeof types.precision_value === 'number' ? types.precision_value : null,
    userListType: oneOf(types.userlist_type, ['all_users', 'selected_users', 'selected_roles']),
  };
}

/**
 * The spec's `field_property` of the settings given (only what they name). `clearing`: a change,
 * where a default value set to none is sent as `default_value: null` (the service merges the
 * property member by member, so leaving it out would keep the old default).
 */
export function fieldProperty(
  settings: Partial<FieldSettings>,
  clearing = false,
): Record<string, unknown> {
  const property: Record<string, unknown> = {};
  if (settings.description !== undefined) property.description = settings.description ?? '';
  if (settings.pii !== undefined) property.is_pii = settings.pii;
  if (settings.encrypted !== undefined) property.is_encrypted = settings.encrypted;
  const context: Record<string, unknown> = {};
  if (settings.mandatory !== undefined) context.is_mandatory = settings.mandatory;
  if (settings.hasInfo !== undefined) context.has_info = settings.hasInfo;
  if (settings.defaultValue !== undefined && (settings.defaultValue !== null || clearing)) {
    context.default_value = settings.defaultValue;
  }
  if (Object.keys(context).length > 0) property.context_property = context;
  const types: Record<string, unknown> = {};
  if (settings.currencyListType) types.currencylist_type = settings.currencyListType;
  if (settings.currencyCode) types.currency_value = settings.currencyCode;
  if (settings.precision !== undefined && settings.precision !== null) {
    types.precision_value = settings.precision;
  }
  if (settings.userListType) types.userlist_type = settings.userListType;
  if (Object.keys(types).length > 0) property.field_type_properties = types;
  return property;
}

/** The PUT settings/fields body of a create. */
export function createFieldBody(op: Pick<OutboxOp, 'fields'>, module: string) {
  const type = String(param(op, 'type'));
  const settings = settingsOfOp(op);
  const section = param<string | null>(op, 'section_id');
  return {
    module,
    layout_id: String(param(op, 'layout_id')),
    ...(section ? { section_id: section } : {}),
    display_name: settings.label,
    field_type: type,
    ...(isCustomFieldType(type) ? { data_type: CUSTOM_FIELD_TYPES[type].dataType } : {}),
    field_property: fieldProperty(settings),
  };
}

/** The PUT settings/fields body of a change: the name and what of `field_property` changes. */
export function updateFieldBody(op: Pick<OutboxOp, 'fields'>, module: string) {
  const settings = settingsOfOp(op);
  const { label, ...rest } = settings;
  const property = fieldProperty(rest, true);
  return {
    module,
    id: String(param(op, 'field_id')),
    ...(label !== undefined ? { display_name: label } : {}),
    ...(Object.keys(property).length > 0 ? { field_property: property } : {}),
  };
}

const quote = (s: unknown) => `“${String(s)}”`;

export function fieldSummary(op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>): string {
  const settings = settingsOfOp(op);
  switch (fieldActionOf(op)) {
    case 'createField': {
      const type = String(param(op, 'type'));
      const label = isCustomFieldType(type) ? CUSTOM_FIELD_TYPES[type].label : type;
      return `Create field ${quote(settings.label)} (${label.toLowerCase()})`;
    }
    case 'updateField': {
      const names = Object.keys(settings).map((key) =>
        key === 'label' ? `rename to ${quote(settings.label)}` : key,
      );
      const text = `Change field ${quote(param(op, 'field_label'))}: ${names.join(', ')}`;
      return text;
    }
    case 'deleteField':
      return `Delete field ${quote(param(op, 'field_label'))} and its values`;
    default:
      return op.action ?? 'Field change';
  }
}

export function fieldRequest(
  op: Pick<OutboxOp, 'kind' | 'action' | 'fields' | 'portalId'>,
  moduleApiName: string | null,
): { method: string; path: string; body: unknown } {
  const base = `/api/v3/portal/${op.portalId}/settings/fields`;
  const module = moduleApiName ?? '(its API name, once created)';
  switch (fieldActionOf(op)) {
    case 'createField':
      return { method: 'PUT', path: base, body: createFieldBody(op, module) };
    case 'updateField':
      return { method: 'PUT', path: base, body: updateFieldBody(op, module) };
    default:
      return {
        method: 'DELETE',
        path: `${base}/${String(param(op, 'field_id'))}?module=${module}`,
        body: null,
      };
  }
}

/**
 * The creation a change of a field made here folds into: its `field.createField` not sent yet
 * (waiting, or refused: folded, it goes out again), with no change of the field queued after it
 * (folding past one would undo the order the user made them in). Otherwise none: the change is
 * queued after it. So a creation refused for its name is put right by renaming the field.
 */
export function creationToFold(queue: readonly OutboxOp[], fieldId: string): OutboxOp | undefined {
  const ofField = queue.filter(
    (op) => fieldActionOf(op) !== null && param(op, 'field_id') === fieldId,
  );
  const create = ofField[0];
  if (!create || fieldActionOf(create) !== 'createField' || !isOpen(create)) return undefined;
  return ofField.length === 1 ? create : undefined;
}

/** A module's fields as the Configure view shows them: the mirror's with queued changes applied. */
export function overlayFields(
  mirrored: readonly ConfigField[],
  ops: readonly OutboxOp[],
  layoutName: (layoutId: string) => string,
): ConfigField[] {
  const fields = mirrored.map((field) => ({ ...field, pending: [...field.pending] }));
  for (const op of ops) {
    const action = fieldActionOf(op);
    if (action === null) continue;
    const pending: PendingFieldChange = {
      opId: op.seq,
      action,
      summary: fieldSummary(op),
      state: op.state,
      error: op.error,
    };
    if (action === 'createField') {
      const settings = settingsOfOp(op);
      const layoutId = String(param(op, 'layout_id'));
      fields.push({
        ...settingsOfProperty(String(settings.label ?? ''), false, {}),
        ...settings,
        id: String(param(op, 'field_id')),
        apiName: null,
        type: String(param(op, 'type')),
        system: false,
        layouts: [{ id: layoutId, name: layoutName(layoutId) }],
        localOnly: true,
        pending: [pending],
      });
      continue;
    }
    const field = fields.find((candidate) => candidate.id === param(op, 'field_id'));
    if (!field) continue;
    field.pending.push(pending);
    if (action === 'updateField') Object.assign(field, settingsOfOp(op));
    else fields.splice(fields.indexOf(field), 1);
  }
  return fields;
}
