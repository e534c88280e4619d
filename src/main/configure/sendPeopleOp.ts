/**
 * The replay of a user field's users and roles change (outbox kind `config`, actions `people.*`),
 * exactly once: an add or a remove whose earlier send may have been applied reads the field's
 * people first and sends only what is still to do (users and roles not there yet, or still
 * there), so a lost answer never sends the same add twice and the service never refuses it as a
 * duplicate. After each answer the field's people are read again and stored (its custom options,
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
import { peopleActionOf, peopleBody, peopleRolesOf, peopleUsersOf } from './peopleOps';

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
  if (op.sentBody !== null) {
    const present = await readPeople(ctx, client, op, module);
    const held = (list: { id: string }[], id: string) => list.some((item) => item.id === id);
    const userIds = present.users.map((user) => ({ id: user.zpuid }));
    const adding = action === 'addPeople';
    users = users.filter((user) => held(userIds, user.id) !== adding);
    roles = roles.filter((role) => held(present.roles, role.id) !== adding);
  }
  if (users.length > 0 || roles.length > 0) {
    const body = peopleBody(op, module, users, roles);
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    const args = { portal_id: op.portalId, body: body as never };
    if (action === 'addPeople') await client.createFieldOptions(args, ctx.call);
    else await client.deleteFieldOptions(args, ctx.call);
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
    ctx.delivered(op);
  });
}
