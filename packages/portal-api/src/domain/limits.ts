/**
 * Limits of the API's request bodies and lists, each from the spec (001). The limits of record
 * fields, comments, module names and custom field types live in customFieldTypes.ts.
 */

/** "query page (integer, from 1, default 1)" (spec "Limits", Pagination). */
export const FIRST_PAGE = 1;
/** "per_page (integer, default 100, supported 1-200)". */
export const PER_PAGE_MAX = 200;
export const PER_PAGE_DEFAULT = 100;

/** Layout "name (string, max 200)". */
export const LAYOUT_NAME_MAX = 200;
/** Section "name (string, max 100)". */
export const SECTION_NAME_MAX = 100;
/** Field "display_name (string, max 250)". */
export const FIELD_DISPLAY_NAME_MAX = 250;
/** Field "field_type (string, max 100)" and "data_type (string, max 100)". */
export const FIELD_TYPE_MAX = 100;
/** Settings bodies' "module (string, req, max 100)". */
export const MODULE_PARAM_MAX = 100;
/** "position (object, max 1000)": measured on its JSON text. */
export const POSITION_JSON_MAX = 1000;
/** Options "custom_options (array, max 1000)". */
export const CUSTOM_OPTIONS_MAX = 1000;
/** Module "projects (array size 0-100, max length 10000)". */
export const MODULE_PROJECTS_MAX = 100;
/** Trash "items (array of record ids, size 0-100)" (spec "Limits", Trash batch). */
export const TRASH_BATCH_MAX = 100;
/** Module "module_property (object, max length 1000)". */
export const MODULE_PROPERTY_JSON_MAX = 1000;
