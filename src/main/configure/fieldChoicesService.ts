/**
 * What the `configure.statuses`, `configure.changeStatuses`, `configure.fieldPeople` and
 * `configure.changePeople` requests do: a module's statuses and a user field's users and roles,
 * read from the mirror with their queued changes laid over (statusOps.ts, peopleOps.ts), and each
 * change checked with the shared rules (src/shared/configRules/statusRules.ts, peopleRules.ts)
 * and queued in the module's settings queue of the outbox, which replays it exactly once
 * (sendStatusOp.ts, sendPeopleOp.ts). Nothing here reaches the network.
 */
import { randomBytes } from 'node:crypto';
import type { ConfigFields, ConfigModule } from '../../shared/ipc/areas/configure';
import type {
  ConfigPeople,
  ConfigPerson,
  ConfigStatus,
  ConfigStatuses,
  NewStatus,
  PeopleAction,
  StatusAction,
  StatusChange,
} from '../../shared/ipc/areas/configureChoices';
import {
  statusColorProblem,
  statusNameProblem,
  statusRemovalProblem,
  statusTransitionsProblem,
} from '../../shared/configRules/statusRules';
import {
  peopleAddProblem,
  peopleRemoveProblem,
  PEOPLE_FIELD_TYPES,
} from '../../shared/configRules/peopleRules';
import type { OutboxService } from '../outbox/outboxService';
import type { OutboxOp } from '../outbox/outboxTypes';
import type { Mirror } from '../store/mirror/mirror';
import { layoutsQueue, param, paramFields } from './layoutOps';
import {
  overlayStatuses,
  recordChangesInto,
  statusActionOf,
  statusOpAction,
  TEMP_STATUS_PREFIX,
  type StatusItem,
} from './statusOps';
import { overlayPeople, peopleActionOf, peopleOpAction, type PersonItem } from './peopleOps';

/** The error of a change refused before anything was queued (ConfigureService's ConfigRefused). */
export type Refusal = (message: string) => Error;

export interface FieldChoicesDeps {
  mirror: Mirror;
  outbox: OutboxService;
  module(portalId: string, moduleId: string): ConfigModule;
  fields(portalId: string, moduleId: string): ConfigFields;
  /** The portal's queued configuration changes as the views show them (held ones say so). */
  configOps(portalId: string): OutboxOp[];
  changed(portalId: string): void;
  refusal: Refusal;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

export class FieldChoicesService {
  constructor(private readonly deps: FieldChoicesDeps) {}

  // ---- statuses --------------------------------------------------------------------------------

  /** A module's statuses in order with their use and transitions, queued changes laid over. */
  statuses(portalId: string, moduleId: string): ConfigStatuses {
    const { refusal, mirror } = this.deps;
    const module = this.deps.module(portalId, moduleId);
    if (module.localOnly) {
      throw refusal(
        `${module.pluralName} is not created on the service yet; its statuses can be changed once the Outbox has sent it.`,
      );
    }
    const statusField = this.deps
      .fields(portalId, moduleId)
      .fields.find((field) => field.type === 'status');
    if (!statusField) {
      throw refusal(
        `${module.pluralName} has no status field in the local mirror; sync the portal and try again.`,
      );
    }
    const use = mirror.records.statusUse(portalId, moduleId);
    const transitions = this.deps.outbox.repo.transitions(portalId, moduleId);
    const mirrored: ConfigStatus[] = mirror.metadata.statuses(portalId, moduleId).map((status) => ({
      id: status.id,
      name: status.name,
      color: status.color ?? '',
      closed: status.isClosedType === 1,
      isDefault: status.isDefault === 1,
      transitions: transitions.filter((t) => t.fromId === status.id).map((t) => t.toId),
      records: use.get(status.id)?.records ?? 0,
      timelineUses: use.get(status.id)?.timeline ?? 0,
      localOnly: false,
      pending: [],
    }));
    const ops = this.deps
      .configOps(portalId)
      .filter((op) => op.moduleId === moduleId && statusActionOf(op) !== null);
    return {
      portalId,
      moduleId,
      fieldId: statusField.id,
      module: module.pluralName,
      statuses: overlayStatuses(mirrored, ops),
    };
  }

  changeStatuses(args: {
    portalId: string;
    moduleId: string;
    add?: NewStatus[] | undefined;
    update?: StatusChange[] | undefined;
    move?: { id: string; position: number } | undefined;
    remove?: string[] | undefined;
  }): ConfigStatuses {
    const { refusal } = this.deps;
    const view = this.statuses(args.portalId, args.moduleId);
    const byId = new Map(view.statuses.map((status) => [status.id, status]));
    const require = (id: string) => {
      const status = byId.get(id);
      if (!status)
        throw refusal(`Status ${id} is not a status of ${view.module}. Nothing was queued.`);
      return status;
    };
    const check = (problem: string | null) => {
      if (problem) throw refusal(`${problem} Nothing was queued.`);
    };

    const removed = (args.remove ?? []).map(require);
    const added: StatusItem[] = (args.add ?? []).map((status) => ({
      id: `${TEMP_STATUS_PREFIX}${randomBytes(8).toString('hex')}`,
      name: status.name.trim(),
      color: status.color,
      closed: status.closed,
      transitions: [...status.transitions],
    }));
    // Each change carries only what it changes, with the name always (summaries, lost answers).
    const updated: StatusItem[] = [];
    const was: Record<string, StatusItem> = {};
    for (const change of args.update ?? []) {
      const before = require(change.id);
      const item: StatusItem = { id: before.id, name: change.name?.trim() ?? before.name };
      if (change.color !== undefined && change.color !== before.color) item.color = change.color;
      if (change.closed !== undefined && change.closed !== before.closed)
        item.closed = change.closed;
      if (change.transitions !== undefined && !sameList(change.transitions, before.transitions)) {
        item.transitions = [...change.transitions];
      }
      if (item.name === before.name && Object.keys(item).length === 2) continue;
      updated.push(item);
      was[before.id] = {
        id: before.id,
        name: before.name,
        color: before.color,
        closed: before.closed,
        transitions: before.transitions,
      };
    }
    if (args.move) {
      require(args.move.id);
      if (args.move.position > view.statuses.length) {
        throw refusal(
          `Place ${args.move.position}: ${view.module} has ${view.statuses.length} statuses. Nothing was queued.`,
        );
      }
    }

    // The statuses as they will be: names judged over the whole list, as the service does.
    const gone = new Set(removed.map((status) => status.id));
    const kept = view.statuses
      .filter((status) => !gone.has(status.id))
      .map((status) => {
        const change = updated.find((item) => item.id === status.id);
        return change ? { id: status.id, name: change.name } : { id: status.id, name: status.name };
      });
    const after = [...kept, ...added.map(({ id, name }) => ({ id, name }))];
    for (const status of after) check(statusNameProblem(status.name, after, status.id));
    for (const item of [...added, ...updated]) {
      if (item.color !== undefined) check(statusColorProblem(item.color));
    }
    // An add's transitions name statuses there before it (the service checks before it creates);
    // a change goes after the adds, so it may name one of them.
    for (const item of added) check(statusTransitionsProblem(item.transitions ?? [], kept, null));
    for (const item of updated) {
      if (item.transitions) check(statusTransitionsProblem(item.transitions, after, item.id));
    }
    for (const status of removed) {
      check(statusRemovalProblem(status, after.length));
    }
    const repo = this.deps.outbox.repo;
    for (const status of removed) {
      const moving = recordChangesInto(
        repo.valueOpsOfModule(args.portalId, args.moduleId),
        new Set([status.id]),
      ).length;
      if (moving === 0) continue;
      const one = moving === 1;
      throw refusal(
        `${one ? 'A record change' : `${moving.toLocaleString('en-US')} record changes`} waiting in the Outbox ${one ? 'moves its record' : 'move their records'} to “${status.name}”; removed first, the status would be gone when ${one ? 'it goes' : 'they go'}, and the service would refuse ${one ? 'it' : 'them'}. Nothing was queued; choose another status there, or send (go online) or discard ${one ? 'it' : 'them'} in the Outbox, then remove “${status.name}”.`,
      );
    }

    const base = { field_id: view.fieldId, field_label: 'Status' };
    repo.transaction(() => {
      const insert = (action: StatusAction, values: Record<string, unknown>) =>
        repo.insertOp({
          portalId: args.portalId,
          moduleId: args.moduleId,
          recordId: layoutsQueue(args.moduleId),
          kind: 'config',
          action: statusOpAction(action),
          fields: paramFields({ ...base, ...values }),
        });
      if (added.length > 0) insert('addStatuses', { statuses: added });
      if (updated.length > 0) insert('updateStatuses', { statuses: updated, was });
      if (args.move) {
        insert('moveStatus', {
          statuses: [{ id: args.move.id, name: byId.get(args.move.id)!.name }],
          position: args.move.position,
        });
      }
      if (removed.length > 0) {
        insert('removeStatuses', { statuses: removed.map(({ id, name }) => ({ id, name })) });
      }
    });
    this.deps.outbox.configQueued(null);
    this.deps.changed(args.portalId);
    return this.statuses(args.portalId, args.moduleId);
  }

  // ---- users and roles -------------------------------------------------------------------------

  /** A user field's users and roles, with the portal's people and roles to choose from. */
  fieldPeople(portalId: string, moduleId: string, fieldId: string): ConfigPeople {
    const { refusal, mirror } = this.deps;
    const view = this.deps.fields(portalId, moduleId);
    const field = view.fields.find((candidate) => candidate.id === fieldId);
    if (!field) {
      throw refusal(
        `Field ${fieldId} is not among ${view.module}'s fields here. Nothing was queued.`,
      );
    }
    if (!PEOPLE_FIELD_TYPES.has(field.type)) {
      throw refusal(
        `${field.label} is a ${field.type} field; only user pick lists and multi-user fields have users and roles.`,
      );
    }
    const members = mirror.metadata
      .users(portalId)
      .map((user) => ({ id: user.zpuid, name: user.name }));
    const offeredRoles = mirror.metadata.portalRoles(portalId);
    const stored = field.localOnly
      ? []
      : mirror.metadata
          .moduleOptions(portalId, moduleId)
          .filter((option) => option.fieldId === fieldId);
    const person = (id: string, name: string | null): ConfigPerson => ({
      id,
      name,
      localOnly: false,
      pending: [],
    });
    const mirrored = {
      users: stored
        .filter((option) => option.kind === 'user')
        .map((option) =>
          person(
            option.valueId,
            option.value ?? members.find((m) => m.id === option.valueId)?.name ?? null,
          ),
        ),
      roles: stored
        .filter((option) => option.kind === 'role')
        .map((option) =>
          person(
            option.valueId,
            option.value ?? offeredRoles.find((r) => r.id === option.valueId)?.name ?? null,
          ),
        ),
    };
    const ops = this.deps
      .configOps(portalId)
      .filter((op) => peopleActionOf(op) !== null && param(op, 'field_id') === fieldId);
    return {
      portalId,
      moduleId,
      fieldId,
      field: field.label,
      type: field.type,
      userListType: field.userListType,
      ...overlayPeople(mirrored, ops),
      members,
      offeredRoles,
    };
  }

  changePeople(args: {
    portalId: string;
    moduleId: string;
    fieldId: string;
    addUsers?: string[] | undefined;
    addRoles?: string[] | undefined;
    removeUsers?: string[] | undefined;
    removeRoles?: string[] | undefined;
  }): ConfigPeople {
    const { refusal } = this.deps;
    const view = this.fieldPeople(args.portalId, args.moduleId, args.fieldId);
    const add = { users: args.addUsers ?? [], roles: args.addRoles ?? [] };
    const remove = { users: args.removeUsers ?? [], roles: args.removeRoles ?? [] };
    const problem =
      peopleRemoveProblem(remove, view) ??
      peopleAddProblem(add, {
        members: view.members,
        offeredRoles: view.offeredRoles,
        // What the field holds once the removals in the same change went (they go after the adds
        // are checked on the service, but a user removed and added again changes nothing).
        users: view.users,
        roles: view.roles,
      });
    if (problem) throw refusal(`${problem} Nothing was queued.`);
    const named = (list: readonly { id: string; name: string | null }[], id: string) => ({
      id,
      name: list.find((item) => item.id === id)?.name ?? null,
    });
    const base = { field_id: view.fieldId, field_label: view.field };
    const repo = this.deps.outbox.repo;
    repo.transaction(() => {
      const insert = (action: PeopleAction, users: PersonItem[], roles: PersonItem[]) => {
        if (users.length === 0 && roles.length === 0) return;
        repo.insertOp({
          portalId: args.portalId,
          moduleId: args.moduleId,
          recordId: layoutsQueue(args.moduleId),
          kind: 'config',
          action: peopleOpAction(action),
          fields: paramFields({ ...base, users, roles }),
        });
      };
      insert(
        'addPeople',
        add.users.map((id) => named(view.members, id)),
        add.roles.map((id) => named(view.offeredRoles, id)),
      );
      insert(
        'removePeople',
        remove.users.map((id) => named(view.users, id)),
        remove.roles.map((id) => named(view.roles, id)),
      );
    });
    this.deps.outbox.configQueued(null);
    this.deps.changed(args.portalId);
    return this.fieldPeople(args.portalId, args.moduleId, args.fieldId);
  }
}
