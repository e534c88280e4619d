/**
 * The users and roles a user field may pick, as outbox operations (pure): adding is one POST and
 * removing one DELETE of the spec's bulk body (`users [{zpuid}]`, `roles [{id}]`), in the module's
 * settings queue (`layouts:<module id>`) so a user field created offline gets its people after it
 * exists. Users and roles keep their own ids (a zpuid, a role id): nothing is temporary but the
 * field's id, which the outbox rewrites when the field is created. Records keep their values.
 */
import type {
  ConfigPerson,
  PeopleAction,
  PendingPeopleChange,
} from '../../shared/ipc/areas/configureChoices';
import type { OutboxOp } from '../outbox/outboxTypes';
import { param } from './layoutOps';

export const peopleOpAction = (action: PeopleAction) => `people.${action}`;

export function peopleActionOf(op: Pick<OutboxOp, 'kind' | 'action'>): PeopleAction | null {
  if (op.kind !== 'config' || !op.action?.startsWith('people.')) return null;
  return op.action.slice('people.'.length) as PeopleAction;
}

/** A user (zpuid) or a role (id) as an operation names it, with its name for the summary. */
export interface PersonItem {
  id: string;
  name: string | null;
}

export const peopleUsersOf = (op: Pick<OutboxOp, 'fields'>) =>
  param<PersonItem[]>(op, 'users') ?? [];
export const peopleRolesOf = (op: Pick<OutboxOp, 'fields'>) =>
  param<PersonItem[]>(op, 'roles') ?? [];

const named = (item: PersonItem) => `“${item.name ?? item.id}”`;

export function peopleSummary(op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>): string {
  const users = peopleUsersOf(op);
  const roles = peopleRolesOf(op);
  const parts = [
    users.length > 0
      ? `${users.length === 1 ? 'user' : 'users'} ${users.map(named).join(', ')}`
      : null,
    roles.length > 0
      ? `${roles.length === 1 ? 'role' : 'roles'} ${roles.map(named).join(', ')}`
      : null,
  ].filter((part) => part !== null);
  const verb = peopleActionOf(op) === 'addPeople' ? 'Add' : 'Remove';
  return `${verb} ${parts.join(' and ')}`;
}

/** The body of the operation's call for `users` and `roles` (by default the operation's own). */
export function peopleBody(
  op: Pick<OutboxOp, 'fields'>,
  module: string,
  users: readonly PersonItem[] = peopleUsersOf(op),
  roles: readonly PersonItem[] = peopleRolesOf(op),
) {
  return {
    module,
    field: String(param(op, 'field_id')),
    ...(users.length > 0 ? { users: users.map((user) => ({ zpuid: user.id })) } : {}),
    ...(roles.length > 0 ? { roles: roles.map((role) => ({ id: role.id })) } : {}),
  };
}

export function peopleRequest(
  op: Pick<OutboxOp, 'kind' | 'action' | 'fields' | 'portalId'>,
  moduleApiName: string | null,
): { method: string; path: string; body: unknown } {
  return {
    method: peopleActionOf(op) === 'addPeople' ? 'POST' : 'DELETE',
    path: `/api/v3/portal/${op.portalId}/settings/options`,
    body: peopleBody(op, moduleApiName ?? '(its API name, once created)'),
  };
}

/** A field's users and roles as the Configure view shows them: the mirror's with queued changes. */
export function overlayPeople(
  mirrored: { users: readonly ConfigPerson[]; roles: readonly ConfigPerson[] },
  ops: readonly OutboxOp[],
): { users: ConfigPerson[]; roles: ConfigPerson[] } {
  const users = mirrored.users.map((user) => ({ ...user, pending: [...user.pending] }));
  const roles = mirrored.roles.map((role) => ({ ...role, pending: [...role.pending] }));
  for (const op of ops) {
    const action = peopleActionOf(op);
    if (action === null) continue;
    const pending: PendingPeopleChange = {
      opId: op.seq,
      action,
      summary: peopleSummary(op),
      state: op.state,
      error: op.error,
    };
    for (const [list, items] of [
      [users, peopleUsersOf(op)],
      [roles, peopleRolesOf(op)],
    ] as const) {
      for (const item of items) {
        const index = list.findIndex((candidate) => candidate.id === item.id);
        if (action === 'addPeople') {
          if (index === -1) list.push({ ...item, localOnly: true, pending: [pending] });
          else list[index]!.pending.push(pending);
        } else if (index !== -1) {
          // A removal the service refused leaves the user or role there, the refusal shown.
          if (op.state === 'failed') list[index]!.pending.push(pending);
          else list.splice(index, 1);
        }
      }
    }
  }
  return { users, roles };
}
