/**
 * How the Fields panel words a field: its type's label, the type picker's groups, where a field is
 * used, and why an action cannot apply. Pure.
 */
import {
  CUSTOM_FIELD_TYPES,
  CUSTOM_FIELD_TYPE_NAMES,
  isCustomFieldType,
  type CustomFieldType,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import type { ConfigField } from '../../../../shared/ipc/areas/configure';

/** Ours: the type picker's groups, by what a field holds. */
const GROUPS: readonly { label: string; types: readonly CustomFieldType[] }[] = [
  { label: 'Text', types: ['single_line', 'multi_line', 'email', 'phone', 'url'] },
  { label: 'Numbers', types: ['number', 'decimal', 'percentage', 'currency'] },
  { label: 'Choices', types: ['pick_list', 'multi_select', 'check_box'] },
  { label: 'People', types: ['user_pick_list', 'multi_user'] },
  { label: 'Date and time', types: ['date', 'time', 'timestamp'] },
];

/** Every custom type exactly once: a type added to the package and not grouped goes to Other. */
export const FIELD_TYPE_GROUPS: readonly { label: string; types: readonly CustomFieldType[] }[] =
  (() => {
    const grouped = new Set(GROUPS.flatMap((group) => group.types));
    const other = CUSTOM_FIELD_TYPE_NAMES.filter((type) => !grouped.has(type));
    return other.length > 0 ? [...GROUPS, { label: 'Other', types: other }] : GROUPS;
  })();

/** A type's label ("Single-line"); a system field's own type as the service names it. */
export function typeLabel(type: string): string {
  return isCustomFieldType(type) ? CUSTOM_FIELD_TYPES[type].label : type;
}

export function recordsHoldingText(count: number): string {
  if (count === 0) return 'No mirrored record holds a value of it.';
  return count === 1
    ? '1 mirrored record holds a value of it.'
    : `${count.toLocaleString()} mirrored records hold a value of it.`;
}

export function layoutsText(layouts: readonly { name: string }[]): string {
  if (layouts.length === 0) return 'It is on no layout.';
  const names = layouts.map((layout) => layout.name);
  return `It is on ${layouts.length === 1 ? 'the layout' : 'the layouts'} ${names.join(', ')}.`;
}

export type FieldAction = 'edit' | 'delete';

export const SYSTEM_EDIT_REASON =
  'A system field: only its name can change, and it cannot be deleted.';

/** Why an action cannot apply to the field now, in words; null when it can. */
export function fieldBlockedReason(field: ConfigField, action: FieldAction): string | null {
  if (field.pending.some((change) => change.action === 'deleteField')) {
    return 'Its delete is queued; discard it in the Outbox to keep the field.';
  }
  if (field.system && action === 'delete') return SYSTEM_EDIT_REASON;
  return null;
}
