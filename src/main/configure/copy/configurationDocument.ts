/**
 * The configuration file: some modules of a portal (settings, layouts with their sections and the
 * fields placed in them, custom fields with their settings, the options of pick lists and
 * multi-selects, the statuses with their transitions) as JSON an admin can keep in version control and copy into any portal. Ids are
 * left out on purpose: they belong to one portal; modules and fields are matched by API name,
 * layouts by name in their module, sections by name in their layout, statuses by name.
 *
 * The JSON Schema below (draft 2020-12) is the file's definition; every file read is checked
 * against it with Ajv before anything else looks at it (readConfigurationDocument.ts). Its limits
 * are the service's (spec "Other resources", "Fields and options") so a file that passes can be
 * planned; what depends on the target (a name already taken there) is the plan's to say.
 */
import {
  CUSTOM_FIELD_TYPE_NAMES,
  MODULE_TEXT_MAX,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  CUSTOM_OPTIONS_MAX,
  FIELD_DISPLAY_NAME_MAX,
  LAYOUT_NAME_MAX,
  SECTION_NAME_MAX,
} from '@portaldesk/portal-api/domain/limits';
import {
  DEFAULT_VALUE_MAX,
  FIELD_DESCRIPTION_MAX,
  PRECISION_MAX,
} from '../../../shared/configRules/fieldRules';
import { OPTION_NAME_MAX } from '../../../shared/configRules/optionRules';
import { STATUS_COLOR_PATTERN, STATUS_NAME_MAX } from '../../../shared/configRules/statusRules';
import { COPY_MODULES_MAX } from '../../../shared/ipc/areas/configCopy';
import type { FieldSettings } from '../../../shared/ipc/areas/configure';

export const CONFIGURATION_FORMAT = 'portaldesk-configuration';
export const CONFIGURATION_VERSION = 1;

/** Ours: more layouts, sections or fields than this in one module is not a configuration. */
const PER_MODULE_MAX = 1000;

export interface DocumentSection {
  name: string;
  /** API names of the fields placed in it, in order (system fields too: `name`, `status`, ...). */
  fields: string[];
}

export interface DocumentLayout {
  name: string;
  type: 'public' | 'private';
  isDefault: boolean;
  sections: DocumentSection[];
}

/** A custom field: its type, its settings as the Configure view shows them, and its options. */
export interface DocumentField extends FieldSettings {
  /** Null for a field created here and not sent yet (it is matched by its name then). */
  apiName: string | null;
  type: string;
  /** Option names in order, for pick lists and multi-selects; null for other types. */
  options: string[] | null;
}

/** A status of the module's status field; transitions name the statuses it leads to. */
export interface DocumentStatus {
  name: string;
  /** `#rrggbb`. */
  color: string;
  closed: boolean;
  transitions: string[];
}

export interface DocumentModule {
  /** Null for a module created here and not sent yet (matched by its plural name then). */
  apiName: string | null;
  singularName: string;
  pluralName: string;
  iconClass: string | null;
  isGlobal: boolean;
  isAllProjects: boolean;
  isOverviewNeeded: boolean;
  defaultLayoutType: 'public' | 'private';
  layouts: DocumentLayout[];
  fields: DocumentField[];
  /** Null when they could not be read (a module not created on the service yet). */
  statuses: DocumentStatus[] | null;
}

export interface ConfigurationDocument {
  format: typeof CONFIGURATION_FORMAT;
  version: typeof CONFIGURATION_VERSION;
  exportedAt: string;
  source: { portalId: string; portalName: string };
  modules: DocumentModule[];
}

const name = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const apiName = { type: 'string', pattern: '^[A-Za-z0-9_]{1,100}$' } as const;
const layoutType = { enum: ['public', 'private'] } as const;

const fieldSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'apiName',
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
    'options',
  ],
  properties: {
    apiName: nullable(apiName),
    type: { enum: CUSTOM_FIELD_TYPE_NAMES },
    label: name(FIELD_DISPLAY_NAME_MAX),
    mandatory: { type: 'boolean' },
    pii: { type: 'boolean' },
    encrypted: { type: 'boolean' },
    description: nullable({ type: 'string', maxLength: FIELD_DESCRIPTION_MAX }),
    defaultValue: {
      anyOf: [
        { type: 'string', maxLength: DEFAULT_VALUE_MAX },
        { type: 'number' },
        { type: 'boolean' },
        { type: 'null' },
      ],
    },
    hasInfo: { type: 'boolean' },
    currencyListType: nullable({ enum: ['project_currency', 'field_currency'] }),
    currencyCode: nullable({ type: 'string', maxLength: 10 }),
    precision: nullable({ type: 'integer', minimum: 0, maximum: PRECISION_MAX }),
    userListType: nullable({ enum: ['all_users', 'selected_users', 'selected_roles'] }),
    options: nullable({
      type: 'array',
      maxItems: CUSTOM_OPTIONS_MAX,
      items: name(OPTION_NAME_MAX),
    }),
  },
} as const;

const layoutSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type', 'isDefault', 'sections'],
  properties: {
    name: name(LAYOUT_NAME_MAX),
    type: layoutType,
    isDefault: { type: 'boolean' },
    sections: {
      type: 'array',
      maxItems: PER_MODULE_MAX,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'fields'],
        properties: {
          name: name(SECTION_NAME_MAX),
          fields: { type: 'array', maxItems: PER_MODULE_MAX, items: apiName },
        },
      },
    },
  },
} as const;

const statusSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'color', 'closed', 'transitions'],
  properties: {
    name: name(STATUS_NAME_MAX),
    color: { type: 'string', pattern: STATUS_COLOR_PATTERN.source },
    closed: { type: 'boolean' },
    transitions: {
      type: 'array',
      maxItems: PER_MODULE_MAX,
      items: name(STATUS_NAME_MAX),
    },
  },
} as const;

const moduleSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'apiName',
    'singularName',
    'pluralName',
    'iconClass',
    'isGlobal',
    'isAllProjects',
    'isOverviewNeeded',
    'defaultLayoutType',
    'layouts',
    'fields',
    'statuses',
  ],
  properties: {
    apiName: nullable(apiName),
    singularName: name(MODULE_TEXT_MAX),
    pluralName: name(MODULE_TEXT_MAX),
    iconClass: nullable({ type: 'string', maxLength: MODULE_TEXT_MAX }),
    isGlobal: { type: 'boolean' },
    isAllProjects: { type: 'boolean' },
    isOverviewNeeded: { type: 'boolean' },
    defaultLayoutType: layoutType,
    layouts: { type: 'array', maxItems: PER_MODULE_MAX, items: layoutSchema },
    fields: { type: 'array', maxItems: PER_MODULE_MAX, items: fieldSchema },
    statuses: nullable({ type: 'array', maxItems: PER_MODULE_MAX, items: statusSchema }),
  },
} as const;

/** The configuration file's JSON Schema (draft 2020-12). */
export const CONFIGURATION_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://portaldesk.invalid/schemas/portaldesk-configuration-1.json',
  title: 'PortalDesk configuration',
  description:
    'Modules of a portal with their settings, layouts, sections, custom fields and options; ids left out, matched by API name.',
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version', 'exportedAt', 'source', 'modules'],
  properties: {
    format: { const: CONFIGURATION_FORMAT },
    version: { const: CONFIGURATION_VERSION },
    exportedAt: { type: 'string', format: 'date-time' },
    source: {
      type: 'object',
      additionalProperties: false,
      required: ['portalId', 'portalName'],
      properties: {
        portalId: { type: 'string', pattern: '^\\d{1,20}$' },
        portalName: { type: 'string', maxLength: 200 },
      },
    },
    modules: { type: 'array', minItems: 1, maxItems: COPY_MODULES_MAX, items: moduleSchema },
  },
} as const;
