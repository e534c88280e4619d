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
} as const;

export const configureEvents = {
  /** A portal's configuration changed here or by a replay; the Configure view reads again. */
  'configure.changed': z.object({ portalId: z.string() }),
} as const;
