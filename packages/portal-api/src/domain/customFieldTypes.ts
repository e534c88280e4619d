/**
 * The custom field value types of the spec ("Custom field value types"), with their limits. The
 * spec names the types but not their `field_type` identifiers ("not shown"); ours are the
 * snake_case keys below, used by the emulator and the app alike.
 */
export const CUSTOM_FIELD_TYPES = {
  single_line: { label: 'Single-line', dataType: 'string', maxChars: 200 },
  multi_line: { label: 'Multi-line', dataType: 'text', maxChars: 1000 },
  pick_list: { label: 'Pick list', dataType: 'picklist', maxOptions: 50 },
  multi_select: { label: 'Multi-select', dataType: 'multiselect', maxSelectable: 100 },
  user_pick_list: { label: 'User pick list', dataType: 'user' },
  multi_user: { label: 'Multi-user', dataType: 'multiuser', maxUsers: 500 },
  date: { label: 'Date', dataType: 'date' },
  time: { label: 'Time', dataType: 'time' },
  timestamp: { label: 'Time stamp', dataType: 'datetime' },
  check_box: { label: 'Check box', dataType: 'boolean' },
  currency: { label: 'Currency', dataType: 'currency', maxChars: 100 },
  percentage: { label: 'Percentage', dataType: 'percent', maxChars: 20 },
  number: { label: 'Number', dataType: 'long', maxDigits: 19 },
  decimal: { label: 'Decimal', dataType: 'double', maxDigits: 17 },
  email: { label: 'Email', dataType: 'email', maxChars: 200 },
  phone: { label: 'Phone', dataType: 'phone', maxChars: 15 },
  url: { label: 'URL', dataType: 'url', maxChars: 200 },
} as const;

export type CustomFieldType = keyof typeof CUSTOM_FIELD_TYPES;
export const CUSTOM_FIELD_TYPE_NAMES = Object.keys(CUSTOM_FIELD_TYPES) as CustomFieldType[];

export function isCustomFieldType(value: unknown): value is CustomFieldType {
  return typeof value === 'string' && Object.hasOwn(CUSTOM_FIELD_TYPES, value);
}

/** Limits of the custom-module record's fixed fields ("Custom-module record (entity)"). */
export const ENTITY_LIMITS = { name: 200, description: 80_000 } as const;
/** "content (string, max 65535)". */
export const COMMENT_CONTENT_MAX = 65_535;
/** Module names and icon ("singular_name, plural_name, icon_class (strings, max 50)"). */
export const MODULE_TEXT_MAX = 50;
