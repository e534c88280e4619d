/**
 * Limits of module settings, layouts, sections, fields and options. Those quoted come from the
 * spec's endpoint tables; those marked "ours" fill a gap where the spec says nothing and are
 * listed in packages/emulator/README.md.
 */
import {
  CUSTOM_FIELD_TYPES,
  MODULE_TEXT_MAX,
} from '@portaldesk/portal-api/domain/customFieldTypes';

/** "singular_name, plural_name, icon_class (strings, max 50 each)". */
export const MODULE_NAME_MAX = MODULE_TEXT_MAX;
/** "projects (array size 0-100, max length 10000, ...)". */
export const MODULE_PROJECTS_MAX_ITEMS = 100;
export const MODULE_PROJECTS_MAX_CHARS = 10_000;
/** "module_property (object, max length 1000; ...)". */
export const MODULE_PROPERTY_MAX_CHARS = 1_000;

/** "module (string, req, max 100)" in layout, section, field and option bodies. */
export const MODULE_PARAM_MAX = 100;
/** "name (string, req, max 200)" of a layout. */
export const LAYOUT_NAME_MAX = 200;
/** "name (string, req, max 100)" of a section. */
export const SECTION_NAME_MAX = 100;
/** "position (object, max 1000)": the length of the object's JSON text. */
export const POSITION_MAX_CHARS = 1_000;

/** "display_name (max 250), field_type (max 100), data_type (max 100)". */
export const FIELD_DISPLAY_NAME_MAX = 250;
export const FIELD_TYPE_MAX = 100;
export const DATA_TYPE_MAX = 100;

/** "custom_options (array, max 1000)". */
export const CUSTOM_OPTIONS_MAX_ITEMS = 1_000;
/** Custom field table: pick list "max 50 options", multi-select "max 100 selectable". */
export const PICK_LIST_MAX_OPTIONS = CUSTOM_FIELD_TYPES.pick_list.maxOptions;
export const MULTI_SELECT_MAX_OPTIONS = CUSTOM_FIELD_TYPES.multi_select.maxSelectable;

/** Ours: an option is one pick-list value, so it gets the single-line text limit (200). */
export const OPTION_VALUE_MAX = CUSTOM_FIELD_TYPES.single_line.maxChars;
/** Ours: a status name is as long as a section name. */
export const STATUS_NAME_MAX = 100;
/** Ours: a field's description is as long as a multi-line value (1,000). */
export const FIELD_DESCRIPTION_MAX = CUSTOM_FIELD_TYPES.multi_line.maxChars;
/** Ours: a default value as text is as long as a single-line value (200). */
export const DEFAULT_VALUE_MAX = CUSTOM_FIELD_TYPES.single_line.maxChars;
/** Ours: currency precision 0-9 (a decimal holds at most 17 digits). */
export const PRECISION_MAX = 9;
/** Ours: an api name is cut to this length before a uniqueness suffix. */
export const API_NAME_BASE_MAX = 60;
