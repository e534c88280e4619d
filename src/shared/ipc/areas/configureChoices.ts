/**
 * The configure area's statuses and people (issue 16, "Options: ... statuses, roles and users of
 * a field"): a module's statuses (the status system field) and the users and roles a user field
 * may pick, read with their queued changes laid over and changed offline-first through the same
 * outbox as every other configuration change. Lengths, colours, membership and the rest are
 * checked by the shared rules (src/shared/configRules/statusRules.ts, peopleRules.ts) so a bad
 * value is refused in words; the schemas here only bound what crosses the bridge.
 */
import { z } from 'zod';
import { request } from '../contractSpec';
import { ConfigFieldId, ConfigModuleId, PendingConfigChange } from './configure';

const PortalId = z.string().regex(/^\d{1,20}$/, 'a portal id (digits)');
const ModuleRef = z.object({ portalId: PortalId, moduleId: ConfigModuleId }).strict();
const FieldRef = ModuleRef.extend({ fieldId: ConfigFieldId }).strict();

/** A status's server id (digits), or the temporary id of one added here (`tmp-st-…`). */
export const ConfigStatusId = z
  .string()
  .regex(/^(\d{1,20}|tmp-st-[0-9a-f]{16})$/, 'a status id (digits, or tmp-st-…)');
const Zpuid = z.string().regex(/^\d{1,20}$/, 'a user id (digits)');
const RoleId = z.string().regex(/^\d{1,20}$/, 'a role id (digits)');

export const StatusAction = z.enum([
  'addStatuses',
  'updateStatuses',
  'moveStatus',
  'removeStatuses',
]);
export type StatusAction = z.infer<typeof StatusAction>;
export const PendingStatusChange = PendingConfigChange.extend({ action: StatusAction });
export type PendingStatusChange = z.infer<typeof PendingStatusChange>;

export const ConfigStatus = z.object({
  id: z.string(),
  name: z.string(),
  /** `#rrggbb`. */
  color: z.string(),
  /** A closed type: records in it count as closed. */
  closed: z.boolean(),
  /** The status new records start in: it cannot be removed. */
  isDefault: z.boolean(),
  /** The statuses a record in this one may move to (ids, in the module's order). */
  transitions: z.array(z.string()),
  /** Mirrored records (trashed ones included) in this status. */
  records: z.number().int().nonnegative(),
  /** Entries of mirrored status timelines naming it (the service keeps those statuses too). */
  timelineUses: z.number().int().nonnegative(),
  localOnly: z.boolean(),
  pending: z.array(PendingStatusChange),
});
export type ConfigStatus = z.infer<typeof ConfigStatus>;

export const ConfigStatuses = z.object({
  portalId: z.string(),
  moduleId: z.string(),
  /** The status field's id (the options calls name it). */
  fieldId: z.string(),
  /** The module's plural name. */
  module: z.string(),
  statuses: z.array(ConfigStatus),
});
export type ConfigStatuses = z.infer<typeof ConfigStatuses>;

const NewStatus = z
  .object({
    name: z.string(),
    color: z.string().max(100),
    closed: z.boolean(),
    transitions: z.array(ConfigStatusId).max(1000),
  })
  .strict();
export type NewStatus = z.infer<typeof NewStatus>;

export const StatusChange = NewStatus.partial()
  .extend({ id: ConfigStatusId })
  .strict()
  .refine((change) => Object.keys(change).length > 1, 'change at least one setting');
export type StatusChange = z.infer<typeof StatusChange>;

export const PeopleAction = z.enum(['addPeople', 'removePeople']);
export type PeopleAction = z.infer<typeof PeopleAction>;
export const PendingPeopleChange = PendingConfigChange.extend({ action: PeopleAction });
export type PendingPeopleChange = z.infer<typeof PendingPeopleChange>;

/** A user or a role a user field may pick. */
export const ConfigPerson = z.object({
  /** The user's zpuid, or the role's id. */
  id: z.string(),
  name: z.string().nullable(),
  localOnly: z.boolean(),
  pending: z.array(PendingPeopleChange),
});
export type ConfigPerson = z.infer<typeof ConfigPerson>;

export const ConfigPeople = z.object({
  portalId: z.string(),
  moduleId: z.string(),
  fieldId: z.string(),
  field: z.string(),
  /** user_pick_list or multi_user. */
  type: z.string(),
  /** The field's userlist_type (all_users, selected_users, selected_roles), when known. */
  userListType: z.string().nullable(),
  users: z.array(ConfigPerson),
  roles: z.array(ConfigPerson),
  /** The portal's people as the mirror knows them: whom a user field may name. */
  members: z.array(z.object({ id: z.string(), name: z.string().nullable() })),
  /** The roles the service offers (read with a user field's options). */
  offeredRoles: z.array(z.object({ id: z.string(), name: z.string().nullable() })),
});
export type ConfigPeople = z.infer<typeof ConfigPeople>;

export const configureChoiceRequests = {
  'configure.statuses': request(
    ModuleRef,
    ConfigStatuses,
    "A module's statuses in order with their transitions and how many mirrored records are in each, queued changes laid over.",
  ),
  'configure.changeStatuses': request(
    ModuleRef.extend({
      /** New statuses, added at the end in this order (the spec's bulk create). */
      add: z.array(NewStatus).max(1000).optional(),
      /** Renamed, recoloured, closed or opened, transitions changed (one bulk update). */
      update: z.array(StatusChange).max(1000).optional(),
      /** One status moved to a 1-based place. */
      move: z
        .object({ id: ConfigStatusId, position: z.number().int().min(1).max(1000) })
        .strict()
        .optional(),
      /** Statuses removed: only unused ones that are not the default (the preview says so). */
      remove: z.array(ConfigStatusId).max(1000).optional(),
    })
      .strict()
      .refine(
        (args) =>
          [args.add, args.update, args.remove].some((list) => list && list.length > 0) ||
          args.move !== undefined,
        'change at least one status',
      ),
    ConfigStatuses,
    "Queue changes of a module's statuses: add, change, move, remove (each kind one bulk call).",
  ),
  'configure.fieldPeople': request(
    FieldRef,
    ConfigPeople,
    'The users and roles a user field may pick, with the portal people and roles to choose from.',
  ),
  'configure.changePeople': request(
    FieldRef.extend({
      addUsers: z.array(Zpuid).max(1000).optional(),
      addRoles: z.array(RoleId).max(1000).optional(),
      /** Records keep the values they hold. */
      removeUsers: z.array(Zpuid).max(1000).optional(),
      removeRoles: z.array(RoleId).max(1000).optional(),
    })
      .strict()
      .refine(
        (args) =>
          [args.addUsers, args.addRoles, args.removeUsers, args.removeRoles].some(
            (list) => list && list.length > 0,
          ),
        'add or remove at least one user or role',
      ),
    ConfigPeople,
    "Queue adding or removing a user field's users and roles (one bulk call each way).",
  ),
} as const;
