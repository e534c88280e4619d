import type { FieldKind } from '../filter';
import type { CustomFieldType } from './customFieldTypes';

/**
 * The filter kind of each custom field type's stored value: the emulator's choice (its README,
 * "Filter fields of records"), which the app's mirror shares so offline and online filters agree.
 */
export const CUSTOM_FIELD_FILTER_KIND: Record<CustomFieldType, FieldKind> = {
  single_line: 'text',
  multi_line: 'text',
  email: 'text',
  phone: 'text',
  url: 'text',
  time: 'text',
  pick_list: 'picklist',
  multi_select: 'multipicklist',
  user_pick_list: 'user',
  // A list of users: `is` means "holds any of them", as for multi pick lists.
  multi_user: 'multipicklist',
  date: 'date',
  timestamp: 'datetime',
  check_box: 'boolean',
  currency: 'number',
  percentage: 'number',
  number: 'number',
  decimal: 'number',
};

/** Api names that are safe inside a JSON path written into SQL text. */
export const SAFE_API_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
