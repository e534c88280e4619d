/**
 * A custom field's settings as the Fields form edits them, and what of them goes to the engine:
 * everything for a new field, only what changed for an existing one (the parts of a compound
 * setting not touched are not sent), only the name for a system field. Validated with the shared
 * rules the engine checks again before queuing, plus what only the form can get wrong (a number
 * typed as text, no layout to place it on). Pure.
 */
import {
  fieldSettingsProblems,
  type FieldProblems,
  type FieldSettingsInput,
} from '../../../../shared/configRules/fieldRules';
import type { ConfigField, FieldSettings } from '../../../../shared/ipc/areas/configure';
import { isCustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';

export type CurrencyListType = NonNullable<FieldSettings['currencyListType']>;
export type UserListType = NonNullable<FieldSettings['userListType']>;

/** How a type's default value is typed in. `none`: a user field has no default here. */
export type DefaultKind = 'text' | 'whole' | 'number' | 'check' | 'none';

export function defaultKindOf(type: string): DefaultKind {
  switch (type) {
    case 'number':
      return 'whole';
    case 'decimal':
    case 'percentage':
    case 'currency':
      return 'number';
    case 'check_box':
      return 'check';
    // A default person is not a value the form can name offline.
    case 'user_pick_list':
    case 'multi_user':
      return 'none';
    default:
      return 'text';
  }
}

export const isUserType = (type: string) => type === 'user_pick_list' || type === 'multi_user';

export interface FieldDraft {
  type: string;
  label: string;
  mandatory: boolean;
  pii: boolean;
  encrypted: boolean;
  /** '' for none. */
  description: string;
  /** As typed ('' for none), for text and number kinds. */
  defaultText: string;
  /** A check box's default. */
  defaultChecked: boolean;
  hasInfo: boolean;
  currencyListType: CurrencyListType;
  /** As typed ('' for none). */
  currencyCode: string;
  /** As typed ('' for none). */
  precision: string;
  userListType: UserListType;
  /** New fields only: where it is placed ('' for none chosen). */
  layoutId: string;
  /** '' for no particular section. */
  sectionId: string;
}

/** The form's controls in screen order: a submit with problems focuses the first invalid one. */
export const FIELD_CONTROL_ORDER = [
  'type',
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
  'layoutId',
  'sectionId',
  'form',
] as const;
export type FieldControlKey = (typeof FIELD_CONTROL_ORDER)[number];
export type FieldDraftProblems = Partial<Record<FieldControlKey, string>>;

/** Ours: two decimals unless chosen otherwise, as most currencies have. */
const DEFAULT_PRECISION = '2';

export function emptyFieldDraft(layoutId: string): FieldDraft {
  return {
    type: 'single_line',
    label: '',
    mandatory: false,
    pii: false,
    encrypted: false,
    description: '',
    defaultText: '',
    defaultChecked: false,
    hasInfo: false,
    currencyListType: 'project_currency',
    currencyCode: '',
    precision: DEFAULT_PRECISION,
    userListType: 'all_users',
    layoutId,
    sectionId: '',
  };
}

export function draftOfField(field: ConfigField): FieldDraft {
  const fallback = field.defaultValue;
  return {
    type: field.type,
    label: field.label,
    mandatory: field.mandatory,
    pii: field.pii,
    encrypted: field.encrypted,
    description: field.description ?? '',
    defaultText:
      typeof fallback === 'string' || typeof fallback === 'number' ? String(fallback) : '',
    defaultChecked: fallback === true,
    hasInfo: field.hasInfo,
    currencyListType: field.currencyListType ?? 'project_currency',
    currencyCode: field.currencyCode ?? '',
    precision: field.precision === null ? '' : String(field.precision),
    userListType: field.userListType ?? 'all_users',
    layoutId: '',
    sectionId: '',
  };
}

/** A number typed in, or why it is not one; '' is none. */
function parsedNumber(text: string, whole: boolean): number | null | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { problem: 'Default value: a number, such as 12.5.' };
  if (whole && !Number.isInteger(value)) {
    return { problem: 'Default value: a whole number for a Number field.' };
  }
  return value;
}

function parsedPrecision(text: string): number | null | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : { problem: 'Decimals: a whole number from 0 to 9.' };
}

const isProblem = (value: unknown): value is { problem: string } =>
  typeof value === 'object' && value !== null && 'problem' in value;

/** The default value the draft holds, as the field's type takes it. */
function defaultOf(draft: FieldDraft): FieldSettings['defaultValue'] | { problem: string } {
  const kind = defaultKindOf(draft.type);
  if (kind === 'check') return draft.defaultChecked;
  if (kind === 'none') return null;
  if (kind === 'text') return draft.defaultText.trim() === '' ? null : draft.defaultText.trim();
  return parsedNumber(draft.defaultText, kind === 'whole');
}

const textOrNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** What the draft holds as settings, with what could not be read as its type. */
function settingsOf(draft: FieldDraft): {
  settings: FieldSettings;
  unreadable: FieldDraftProblems;
} {
  const unreadable: FieldDraftProblems = {};
  const fallback = defaultOf(draft);
  if (isProblem(fallback)) unreadable.defaultValue = fallback.problem;
  const currency = draft.type === 'currency';
  const precision = currency ? parsedPrecision(draft.precision) : null;
  if (isProblem(precision)) unreadable.precision = precision.problem;
  const fieldCurrency = currency && draft.currencyListType === 'field_currency';
  return {
    settings: {
      label: draft.label.trim(),
      mandatory: draft.mandatory,
      pii: draft.pii,
      encrypted: draft.encrypted,
      description: textOrNull(draft.description),
      defaultValue: isProblem(fallback) ? null : fallback,
      hasInfo: draft.hasInfo,
      currencyListType: currency ? draft.currencyListType : null,
      // The code names the field's own currency; a project's currency needs none.
      currencyCode: fieldCurrency ? textOrNull(draft.currencyCode) : null,
      precision: isProblem(precision) ? null : precision,
      userListType: isUserType(draft.type) ? draft.userListType : null,
    },
    unreadable,
  };
}

/** A new field's settings as sent. */
export function newFieldSettings(draft: FieldDraft): FieldSettings {
  return settingsOf(draft).settings;
}

/**
 * What the draft changes of `field`: only those settings are sent. A system field changes its
 * name only; a currency field's list type, code and decimals are compared one by one. A setting
 * counts as changed only when its control differs from what the form showed and its value from
 * the field's: the form trims what it reads, so a description or default the service holds with
 * spaces around it (or as "") would otherwise be sent back altered, untouched.
 */
export function fieldChangesOf(draft: FieldDraft, field: ConfigField): Partial<FieldSettings> {
  const { settings } = settingsOf(draft);
  const shown = draftOfField(field);
  const touched = (...controls: (keyof FieldDraft)[]) =>
    controls.some((control) => draft[control] !== shown[control]);
  const changes: Partial<FieldSettings> = {};
  if (touched('label') && settings.label !== field.label) changes.label = settings.label;
  if (field.system) return changes;
  for (const key of ['mandatory', 'pii', 'encrypted', 'hasInfo', 'description'] as const) {
    if (touched(key) && settings[key] !== field[key])
      Object.assign(changes, { [key]: settings[key] });
  }
  const kind = defaultKindOf(field.type);
  if (kind === 'check') {
    // An unset default and an unchecked one look alike: only a change of the box is sent.
    if (draft.defaultChecked !== (field.defaultValue === true)) {
      changes.defaultValue = draft.defaultChecked;
    }
  } else if (
    kind !== 'none' &&
    touched('defaultText') &&
    settings.defaultValue !== field.defaultValue
  ) {
    changes.defaultValue = settings.defaultValue;
  }
  if (field.type === 'currency') {
    if (touched('currencyListType') && settings.currencyListType !== field.currencyListType) {
      changes.currencyListType = settings.currencyListType;
    }
    // The code is edited only while the field's own currency is chosen; hidden, it is kept.
    if (
      draft.currencyListType === 'field_currency' &&
      touched('currencyCode', 'currencyListType') &&
      settings.currencyCode !== field.currencyCode
    ) {
      changes.currencyCode = settings.currencyCode;
    }
    if (touched('precision') && settings.precision !== field.precision) {
      changes.precision = settings.precision;
    }
  }
  if (
    isUserType(field.type) &&
    touched('userListType') &&
    settings.userListType !== field.userListType
  ) {
    changes.userListType = settings.userListType;
  }
  return changes;
}

/**
 * Problems by control, in the shared rules' words. `field` null: a new field, with
 * `noLayoutReason` saying why no layout can be chosen when none can.
 */
export function fieldDraftProblems(
  draft: FieldDraft,
  field: ConfigField | null,
  others: readonly { id: string; label: string }[],
  noLayoutReason: string | null = null,
): FieldDraftProblems {
  const { settings, unreadable } = settingsOf(draft);
  const checked: Partial<FieldSettingsInput> = field ? fieldChangesOf(draft, field) : settings;
  // The rules refuse a type that is not a custom one before reading the name; a system field's
  // own type (name, status, ...) may not be, and only its name can change: checked as a text's.
  const ruleType =
    field === null
      ? draft.type
      : field.system && !isCustomFieldType(field.type)
        ? 'single_line'
        : field.type;
  const problems: FieldProblems = fieldSettingsProblems(
    ruleType,
    checked,
    others,
    field?.id ?? null,
    field === null,
  );
  const shown: FieldDraftProblems = { ...problems };
  // What could not be read as a number is said in place of what the rules made of it.
  Object.assign(shown, unreadable);
  if (field === null && draft.layoutId === '') {
    shown.layoutId = noLayoutReason ?? 'Place it on: choose a layout.';
  }
  return shown;
}

/** The first control, in screen order, with a problem. */
export function firstInvalidField(problems: FieldDraftProblems): FieldControlKey | null {
  return FIELD_CONTROL_ORDER.find((key) => problems[key] !== undefined) ?? null;
}
