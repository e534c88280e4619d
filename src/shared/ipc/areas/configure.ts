/**
 * The configure area: a portal's configuration administered offline-first. Today: its modules
 * (spec "Module settings": create, change, activate and deactivate, trash, recover, delete for
 * good) and the module bin as this computer knows it. Every change is validated here and in the
 * engine with the same rules (src/shared/configRules/), queued in the outbox as one operation and
 * replayed exactly once; what is queued shows at once (an overlay over the mirror), and the
 * Outbox lists it with what it will send. contract.ts composes these with every other area's.
 */
import { z } from 'zod';
import { request } from '../contractSpec';
import { MODULE_NAME_MAX, MODULE_PROJECTS_MAX } from '../../configRules/moduleRules';

const PortalId = z.string().regex(/^\d{1,20}$/, 'a portal id (digits)');
/** A module's server id (digits), or the outbox's temporary id of one created here (`tmp-m-…`). */
export const ConfigModuleId = z
  .string()
  .regex(/^(\d{1,20}|tmp-m-[0-9a-f]{16})$/, 'a module id (digits, or tmp-m-…)');
const ProjectId = z.string().regex(/^\d{1,20}$/, 'a project id (digits)');

export const LayoutTypeChoice = z.enum(['public', 'private']);

/** Where a module is. `trashed`: in the module bin (trashed from here; the service lists none). */
export const ModuleState = z.enum(['active', 'inactive', 'trashed']);
export type ModuleState = z.infer<typeof ModuleState>;

/** What an action on a module is called in the outbox. */
export const ModuleAction = z.enum([
  'create',
  'update',
  'activate',
  'deactivate',
  'trash',
  'recover',
  'delete',
]);
export type ModuleAction = z.infer<typeof ModuleAction>;

/** A queued change of a module, as the Configure view marks it. */
export const PendingConfigChange = z.object({
  opId: z.number().int().positive(),
  action: ModuleAction,
  /** One line: "Rename to Assets", "Deactivate". */
  summary: z.string(),
  state: z.enum(['pending', 'sending', 'failed', 'conflict']),
  /** The service's refusal or why the last try did not get through. */
  error: z.string().nullable(),
});
export type PendingConfigChange = z.infer<typeof PendingConfigChange>;

export const ModuleProjectChoice = z.object({
  id: z.string(),
  name: z.string().nullable(),
  selected: z.boolean(),
});

/** A module as the Configure view shows it: the server copy with queued changes laid over. */
export const ConfigModule = z.object({
  id: z.string(),
  /** Null until the service created it (it names the module in every call). */
  apiName: z.string().nullable(),
  singularName: z.string(),
  pluralName: z.string(),
  iconClass: z.string().nullable(),
  isGlobal: z.boolean(),
  isAllProjects: z.boolean(),
  isOverviewNeeded: z.boolean(),
  defaultLayoutType: LayoutTypeChoice.nullable(),
  /** One of the product's own modules (projects, tasks, ...): not renamed, deactivated or deleted. */
  builtIn: z.boolean(),
  state: ModuleState,
  /** Records of it in the mirror (listed ones); for a trashed module, when it was trashed. */
  records: z.number().int().nonnegative(),
  projects: z.array(ModuleProjectChoice),
  /** Created here and not sent yet. */
  localOnly: z.boolean(),
  trashedTime: z.string().nullable(),
  pending: z.array(PendingConfigChange),
});
export type ConfigModule = z.infer<typeof ConfigModule>;

export const ConfigModules = z.object({
  portalId: z.string(),
  modules: z.array(ConfigModule),
  /** Projects the mirror knows (from modules and records), for the project picker. */
  projects: z.array(z.object({ id: z.string(), name: z.string().nullable() })),
});
export type ConfigModules = z.infer<typeof ConfigModules>;

/**
 * The editable settings of a module. Lengths and counts are checked by the shared rules (with
 * words the form shows next to each control), not here, so a bad value is refused in a sentence.
 */
const ModuleSettings = z
  .object({
    singularName: z.string(),
    pluralName: z.string(),
    iconClass: z.string().nullable(),
    isAllProjects: z.boolean(),
    isOverviewNeeded: z.boolean(),
    defaultLayoutType: LayoutTypeChoice,
    /** The projects it is on when not on all (project ids). */
    projects: z.array(ProjectId).max(MODULE_PROJECTS_MAX * 10),
  })
  .strict();

export const CreateModuleArgs = ModuleSettings.extend({
  portalId: PortalId,
  /** Global (every project) or per project; fixed once created. */
  isGlobal: z.boolean(),
}).strict();
export type CreateModuleArgs = z.infer<typeof CreateModuleArgs>;

export const UpdateModuleArgs = z
  .object({
    portalId: PortalId,
    moduleId: ConfigModuleId,
    changes: ModuleSettings.partial()
      .strict()
      .refine((changes) => Object.keys(changes).length > 0, 'change at least one setting'),
  })
  .strict();
export type UpdateModuleArgs = z.infer<typeof UpdateModuleArgs>;

const ModuleRef = z.object({ portalId: PortalId, moduleId: ConfigModuleId }).strict();

/** A layout's or a section's server id (digits), or a temporary one of one created here. */
export const ConfigLayoutId = z
  .string()
  .regex(/^(\d{1,20}|tmp-l-[0-9a-f]{16})$/, 'a layout id (digits, or tmp-l-…)');
export const ConfigSectionId = z
  .string()
  .regex(/^(\d{1,20}|tmp-s-[0-9a-f]{16})$/, 'a section id (digits, or tmp-s-…)');

/** What a queued change of a layout or a section does. */
export const LayoutAction = z.enum([
  'createLayout',
  'updateLayout',
  'deleteLayout',
  'putSection',
  'deleteSection',
  'removeField',
  'placeField',
]);
export type LayoutAction = z.infer<typeof LayoutAction>;

export const PendingLayoutChange = PendingConfigChange.extend({ action: LayoutAction });
export type PendingLayoutChange = z.infer<typeof PendingLayoutChange>;

/** A field as a section places it. */
export const PlacedField = z.object({
  key: z.string(),
  label: z.string(),
  type: z.string(),
  /** A system field (name, status, ...): it cannot be taken off a layout. */
  system: z.boolean(),
});
export type PlacedField = z.infer<typeof PlacedField>;

export const ConfigSection = z.object({
  id: z.string(),
  name: z.string(),
  fields: z.array(PlacedField),
  localOnly: z.boolean(),
});
export type ConfigSection = z.infer<typeof ConfigSection>;

export const ConfigLayout = z.object({
  id: z.string(),
  name: z.string(),
  type: LayoutTypeChoice.nullable(),
  isDefault: z.boolean(),
  /** Created here and not sent yet. */
  localOnly: z.boolean(),
  sections: z.array(ConfigSection),
  pending: z.array(PendingLayoutChange),
});
export type ConfigLayout = z.infer<typeof ConfigLayout>;

export const ConfigLayouts = z.object({
  portalId: z.string(),
  moduleId: z.string(),
  /** The module's plural name. */
  module: z.string(),
  layouts: z.array(ConfigLayout),
});
export type ConfigLayouts = z.infer<typeof ConfigLayouts>;

const LayoutRef = ModuleRef.extend({ layoutId: ConfigLayoutId }).strict();

/** A field's server id (digits), or a temporary one of one created here. */
export const ConfigFieldId = z
  .string()
  .regex(/^(\d{1,20}|tmp-f-[0-9a-f]{16})$/, 'a field id (digits, or tmp-f-…)');

export const FieldAction = z.enum(['createField', 'updateField', 'deleteField']);
export type FieldAction = z.infer<typeof FieldAction>;
export const PendingFieldChange = PendingConfigChange.extend({ action: FieldAction });
export type PendingFieldChange = z.infer<typeof PendingFieldChange>;

export const CurrencyListType = z.enum(['project_currency', 'field_currency']);
export const UserListType = z.enum(['all_users', 'selected_users', 'selected_roles']);

/**
 * A custom field's settings (the spec's field_property, in words). Lengths and codes are checked
 * by the shared rules (src/shared/configRules/fieldRules.ts) so a bad value is refused in words.
 */
export const FieldSettings = z
  .object({
    label: z.string(),
    mandatory: z.boolean(),
    pii: z.boolean(),
    encrypted: z.boolean(),
    description: z.string().nullable(),
    defaultValue: z.union([z.string(), z.number(), z.boolean()]).nullable(),
    hasInfo: z.boolean(),
    currencyListType: CurrencyListType.nullable(),
    currencyCode: z.string().max(10).nullable(),
    precision: z.number().int().nullable(),
    userListType: UserListType.nullable(),
  })
  .strict();
export type FieldSettings = z.infer<typeof FieldSettings>;

export const ConfigField = FieldSettings.extend({
  id: z.string(),
  /** Null until the service created it. */
  apiName: z.string().nullable(),
  type: z.string(),
  /** A system field (name, status, ...): only its name can change; it cannot be deleted. */
  system: z.boolean(),
  /** The layouts it is placed on. */
  layouts: z.array(z.object({ id: z.string(), name: z.string() })),
  localOnly: z.boolean(),
  pending: z.array(PendingFieldChange),
});
export type ConfigField = z.infer<typeof ConfigField>;

export const ConfigFields = z.object({
  portalId: z.string(),
  moduleId: z.string(),
  module: z.string(),
  fields: z.array(ConfigField),
});
export type ConfigFields = z.infer<typeof ConfigFields>;

const FieldRef = ModuleRef.extend({ fieldId: ConfigFieldId }).strict();

/** An option's server id (digits), or a temporary one of one added here. */
export const ConfigOptionId = z
  .string()
  .regex(/^(\d{1,20}|tmp-o-[0-9a-f]{16})$/, 'an option id (digits, or tmp-o-…)');

export const OptionAction = z.enum(['addOptions', 'renameOptions', 'moveOption', 'removeOptions']);
export type OptionAction = z.infer<typeof OptionAction>;
export const PendingOptionChange = PendingConfigChange.extend({ action: OptionAction });
export type PendingOptionChange = z.infer<typeof PendingOptionChange>;

export const ConfigOption = z.object({
  id: z.string(),
  name: z.string(),
  /** Mirrored records (trashed ones included) whose value holds it. */
  records: z.number().int().nonnegative(),
  localOnly: z.boolean(),
  pending: z.array(PendingOptionChange),
});
export type ConfigOption = z.infer<typeof ConfigOption>;

export const ConfigOptions = z.object({
  portalId: z.string(),
  moduleId: z.string(),
  fieldId: z.string(),
  /** The field's name and type (pick_list or multi_select). */
  field: z.string(),
  type: z.string(),
  /** The most options the field may hold (50 for a pick list, as the spec says; 100 otherwise). */
  max: z.number().int().positive(),
  options: z.array(ConfigOption),
});
export type ConfigOptions = z.infer<typeof ConfigOptions>;

export const configureRequests = {
  'configure.modules': request(
    z.object({ portalId: PortalId }).strict(),
    ConfigModules,
    "A portal's modules (active, inactive, and those trashed from here) with queued changes laid over.",
  ),
  'configure.createModule': request(
    CreateModuleArgs,
    ConfigModule,
    'Queue a new module; it shows at once under a temporary id and is created when replayed.',
  ),
  'configure.updateModule': request(
    UpdateModuleArgs,
    ConfigModule,
    "Queue a change of a module's names, icon, projects, overview or default layout type.",
  ),
  'configure.setModuleActive': request(
    ModuleRef.extend({ active: z.boolean() }).strict(),
    ConfigModule,
    'Queue activating or deactivating a module (its records stay readable).',
  ),
  'configure.trashModule': request(
    ModuleRef,
    // Null: the module was created here and never sent, so it is simply gone (nothing is sent).
    ConfigModule.nullable(),
    'Queue moving a module to the module bin (its records are kept by the service).',
  ),
  'configure.recoverModule': request(
    ModuleRef,
    ConfigModule,
    'Queue restoring a module from the module bin.',
  ),
  'configure.deleteModule': request(
    ModuleRef.extend({
      /** The module's plural name typed by the user: a permanent delete must name what it removes. */
      confirmName: z.string().max(MODULE_NAME_MAX * 4),
    }).strict(),
    z.object({ queued: z.literal(true) }),
    'Queue deleting a module from the module bin for good, with its records.',
  ),
  'configure.layouts': request(
    ModuleRef,
    ConfigLayouts,
    "A module's layouts with their sections and placed fields, queued changes laid over.",
  ),
  'configure.createLayout': request(
    ModuleRef.extend({
      name: z.string(),
      type: LayoutTypeChoice,
      /** Copy this layout's sections and fields (the spec's `reference`). */
      referenceId: ConfigLayoutId.nullable(),
    }).strict(),
    ConfigLayouts,
    'Queue a new layout of a module, empty or copied from another.',
  ),
  'configure.updateLayout': request(
    LayoutRef.extend({
      changes: z
        .object({ name: z.string(), type: LayoutTypeChoice, makeDefault: z.literal(true) })
        .partial()
        .strict()
        .refine((changes) => Object.keys(changes).length > 0, 'change at least one setting'),
    }).strict(),
    ConfigLayouts,
    'Queue renaming a layout, changing its type, or making it the default.',
  ),
  'configure.deleteLayout': request(
    LayoutRef,
    ConfigLayouts,
    'Queue deleting a layout (not the default one, not the last one).',
  ),
  'configure.putSection': request(
    LayoutRef.extend({
      /** Absent: a new section. */
      sectionId: ConfigSectionId.optional(),
      name: z.string(),
      /** 1-based place among the layout's sections; absent keeps it (or adds at the end). */
      position: z.number().int().min(1).max(1000).optional(),
    }).strict(),
    ConfigLayouts,
    'Queue adding, renaming or moving a section of a layout.',
  ),
  'configure.deleteSection': request(
    LayoutRef.extend({ sectionId: ConfigSectionId }).strict(),
    ConfigLayouts,
    'Queue deleting a section (its fields move to the section before it).',
  ),
  'configure.removeLayoutField': request(
    LayoutRef.extend({
      fieldKey: z.string().regex(/^[A-Za-z0-9_]{1,100}$/, 'a field key'),
    }).strict(),
    ConfigLayouts,
    'Queue taking a field off a layout (records keep their values).',
  ),
  'configure.placeField': request(
    LayoutRef.extend({
      /** The field as sections list it: its API name, or the temporary id of one created here. */
      fieldKey: z
        .string()
        .regex(/^([A-Za-z0-9_]{1,100}|tmp-f-[0-9a-f]{16})$/, 'a field key (API name or tmp-f-…)'),
      /** `place`: a field not on the layout yet; `move`: one on it (within or across sections). */
      mode: z.enum(['place', 'move']),
      /** The section of this layout it goes to (its own, for a move within it). */
      sectionId: ConfigSectionId,
      /** Its 1-based place among the section's other fields once there. */
      position: z.number().int().min(1).max(1000),
    }).strict(),
    ConfigLayouts,
    'Queue placing a field of the module on a layout, or moving it within or across its sections.',
  ),
  'configure.fields': request(
    ModuleRef,
    ConfigFields,
    "A module's fields with their settings and the layouts they are on, queued changes laid over.",
  ),
  'configure.createField': request(
    ModuleRef.extend({
      /** A custom field type (packages/portal-api/src/domain/customFieldTypes.ts). */
      type: z.string().max(100),
      settings: FieldSettings,
      /** Where it goes: a layout (a new one's temporary id too) and optionally one of its sections. */
      layoutId: ConfigLayoutId,
      sectionId: ConfigSectionId.nullable(),
    }).strict(),
    ConfigFields,
    'Queue a new custom field, placed on a layout.',
  ),
  'configure.updateField': request(
    FieldRef.extend({
      changes: FieldSettings.partial()
        .strict()
        .refine((changes) => Object.keys(changes).length > 0, 'change at least one setting'),
    }).strict(),
    ConfigFields,
    "Queue a change of a field's name or settings (its type never changes).",
  ),
  'configure.fieldUsage': request(
    FieldRef,
    z.object({
      layouts: z.array(z.object({ id: z.string(), name: z.string() })),
      /** Mirrored records (trashed ones included) holding a value of it. */
      records: z.number().int().nonnegative(),
    }),
    'Where a field is used before it is deleted: its layouts, and how many mirrored records hold a value.',
  ),
  'configure.deleteField': request(
    FieldRef.extend({
      /** The field's name typed by the user: a delete removes its values from every record. */
      confirmName: z.string().max(1000),
    }).strict(),
    ConfigFields,
    'Queue deleting a custom field; its value leaves every record.',
  ),
  'configure.integrationServices': request(
    z.object({ portalId: PortalId }).strict(),
    z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        type: z.string().nullable(),
        enabled: z.boolean(),
        modules: z.number().int().nullable(),
      }),
    ),
    'The services the portal is integrated with (read from the service; read-only).',
  ),
  'configure.integrationModules': request(
    z.object({ portalId: PortalId, serviceId: z.string().regex(/^\d{1,20}$/) }).strict(),
    z.array(z.object({ id: z.string(), apiName: z.string(), name: z.string() })),
    "An integrated service's modules (read from the service; read-only).",
  ),
  'configure.integrationFields': request(
    z
      .object({
        portalId: PortalId,
        serviceId: z.string().regex(/^\d{1,20}$/),
        moduleId: z.string().regex(/^\d{1,20}$/),
      })
      .strict(),
    z.array(
      z.object({
        id: z.string(),
        apiName: z.string(),
        label: z.string(),
        type: z.string().nullable(),
      }),
    ),
    "An integrated module's fields (read from the service; read-only).",
  ),
  'configure.fieldOptions': request(
    FieldRef,
    ConfigOptions,
    "A pick list's or multi-select's options in order, with how many mirrored records use each.",
  ),
  'configure.changeOptions': request(
    FieldRef.extend({
      /** New options' names, added at the end in this order (the spec's bulk create). */
      add: z.array(z.string()).max(1000).optional(),
      rename: z
        .array(z.object({ id: ConfigOptionId, name: z.string() }).strict())
        .max(1000)
        .optional(),
      /** One option moved to a 1-based place. */
      move: z
        .object({ id: ConfigOptionId, position: z.number().int().min(1).max(1000) })
        .strict()
        .optional(),
      /** Options removed; records holding one lose it (the preview says how many). */
      remove: z.array(ConfigOptionId).max(1000).optional(),
    })
      .strict()
      .refine(
        (args) =>
          [args.add, args.rename, args.remove].some((list) => list && list.length > 0) ||
          args.move !== undefined,
        'change at least one option',
      ),
    ConfigOptions,
    "Queue changes of a field's options: add, rename, move, remove (each kind one bulk call).",
  ),
} as const;

export const configureEvents = {
  /** A portal's configuration changed here or by a replay; the Configure view reads again. */
  'configure.changed': z.object({ portalId: z.string() }),
} as const;
