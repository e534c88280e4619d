/**
 * The replay of a user field's users and roles change (outbox kind `config`, actions `people.*`),
 * exactly once: an add or a remove whose earlier send may have been applied reads the field's
 * people first and sends only what is still to do (users and roles not there yet, or still
 * there), so a lost answer never sends the same add twice and the service never refuses it as a
 * duplicate; a removal answered "does not exist" (our lost first send, or another admin) is
 * delivered (removeStillThere). After each answer the field's people are read again and stored (its custom options,
 * if any, left alone), with the portal's roles and the people the reply names.
 */
import type { FieldOptions } from '@portaldesk/portal-api/domain/fieldOption';
import { FIRST_PAGE, PER_PAGE_MAX } from '@portaldesk/portal-api/domain/limits';
import type { ApiClient } from '../api/client/apiClient';
import { ChangeRefused } from '../outbox/replayFailure';
import type { SendContext } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import { mapFieldOptions } from '../sync/mapFieldOptions';
import { MentionedUsers } from '../sync/mentionedUsers';
import { param } from './layoutOps';
import {
  peopleActionOf,
  peopleBody,
  peopleRolesOf,
  peopleUsersOf,
  type PersonItem,
} from './peopleOps';
import { removeStillThere } from './settingsReplay';

/** A user or a role of the field, for a removal that sends both in one body. */
interface Person {
  role: boolean;
  item: PersonItem;
}

interface PeopleRead {
  users: FieldOptions['users'];
  roles: FieldOptions['roles'];
  availableRoles: { id: string; name: string | null }[];
}

/** Every page of the field's users and roles (paged by the service as one list). */
async function readPeople(
  ctx: SendContext,
  client: ApiClient,
  op: OutboxOp,
  module: string,
): Promise<PeopleRead> {
  const read: PeopleRead = { users: [], roles: [], availableRoles: [] };
  for (let page = FIRST_PAGE; ; page++) {
    const reply = await client.listFieldOptions(
      {
        portal_id: op.portalId,
        query: { module, field: String(param(op, 'field_id')), page, per_page: PER_PAGE_MAX },
      },
      ctx.call,
    );
    read.users.push(...reply.options.users);
    read.roles.push(...reply.options.roles);
    if (read.availableRoles.length === 0) read.availableRoles = reply.availableRoles;
    if (!reply.pageInfo?.has_next_page || reply.received === 0) return read;
  }
}

export async function sendPeople(
  ctx: SendContext,
  op: OutboxOp,
  client: ApiClient,
  module: string,
): Promise<void> {
  const action = peopleActionOf(op);
  const fieldId = String(param(op, 'field_id'));
  if (fieldId.startsWith('tmp-')) {
    throw new ChangeRefused(
      'This change names a field whose creation was discarded or refused; discard this change too.',
    );
  }
  let users = peopleUsersOf(op);
  let roles = peopleRolesOf(op);
  const send = async (goingUsers: readonly PersonItem[], goingRoles: readonly PersonItem[]) => {
    const body = peopleBody(op, module, goingUsers, goingRoles);
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    const args = { portal_id: op.portalId, body: body as never };
    if (action === 'addPeople') await client.createFieldOptions(args, ctx.call);
    else await client.deleteFieldOptions(args, ctx.call);
  };
  const heldBy = (present: PeopleRead) => (person: Person) =>
    person.role
      ? present.roles.some((role) => role.id === person.item.id)
      : present.users.some((user) => user.zpuid === person.item.id);
  let note: string | undefined;
  if (action === 'addPeople') {
    if (op.sentBody !== null) {
      const held = heldBy(await readPeople(ctx, client, op, module));
      users = users.filter((item) => !held({ role: false, item }));
      roles = roles.filter((item) => !held({ role: true, item }));
    }
    if (users.length > 0 || roles.length > 0) await send(users, roles);
  } else {
    // "Does not exist" is what was asked: delivered, never refused (settingsReplay.ts).
    const asked: Person[] = [
      ...users.map((item) => ({ role: false, item })),
      ...roles.map((item) => ({ role: true, item })),
    ];
    note = await removeStillThere(op, asked, {
      read: async () => heldBy(await readPeople(ctx, client, op, module)),
      send: (going) =>
        send(
          going.filter((person) => !person.role).map((person) => person.item),
          going.filter((person) => person.role).map((person) => person.item),
        ),
      name: (person) =>
        `The ${person.role ? 'role' : 'user'} “${person.item.name ?? person.item.id}”`,
    });
  }
  const after = await readPeople(ctx, client, op, module);
  const mentioned = new MentionedUsers();
  mentioned.addOptions({ custom_options: [], users: after.users, roles: [], statuses: [] });
  ctx.repo.transaction(() => {
    ctx.mirror.metadata.replaceFieldOptions(
      op.portalId,
      fieldId,
      mapFieldOptions({ custom_options: [], users: after.users, roles: after.roles, statuses: [] })
        // Only a user field's people were read: anything else stored for it stays.
        .concat(
          ctx.mirror.metadata
            .moduleOptions(op.portalId, op.moduleId)
            .filter((o) => o.fieldId === fieldId && o.kind === 'custom_option'),
        ),
    );
    ctx.mirror.metadata.upsertUsers(op.portalId, mentioned.list());
    ctx.mirror.metadata.replacePortalRoles(op.portalId, after.availableRoles);
    ctx.delivered(op, note !== undefined ? { note } : {});
  });
}
