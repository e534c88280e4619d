/**
 * The replay of a custom field's change (outbox kind `config`, actions `field.*`), exactly once:
 * a field created whose answer was lost is looked up by its name (unique in its module, as the
 * service keeps them) before any resend, and later operations naming its temporary id then name
 * the server's; a change sends the same values again; a delete after a lost answer meets a 404,
 * which is what it leaves behind. The module's fields-configuration is stored after each answer
 * (sendLayoutOp.ts, which dispatches here).
 */
import type { Field } from '@portaldesk/portal-api/domain/field';
import type { ApiClient } from '../api/client/apiClient';
import { collectAll } from '../api/client/paginate';
import { ChangeRefused } from '../outbox/replayFailure';
import { createOnce, type SendContext } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import { createFieldBody, fieldActionOf, updateFieldBody } from './fieldOps';
import { param, tempIdsOf } from './layoutOps';
import { deleteOnce, sameName } from './settingsReplay';
import { LOST_CREATE_SKEW_MS } from './sendModuleOp';

const isTemp = (value: unknown) => typeof value === 'string' && value.startsWith('tmp-');

export async function sendField(
  ctx: SendContext,
  op: OutboxOp,
  client: ApiClient,
  module: string,
): Promise<void> {
  const action = fieldActionOf(op);
  if (tempIdsOf(op).length > 0 || (action !== 'createField' && isTemp(param(op, 'field_id')))) {
    throw new ChangeRefused(
      'This change names a layout, section or field whose creation was discarded or refused; discard this change too.',
    );
  }
  if (action === 'createField') {
    const body = createFieldBody(op, module);
    const created = await createOnce<Field>(
      ctx,
      op,
      body,
      async (sentAt) => {
        const fields = await collectAll(
          client.listFields,
          { portal_id: op.portalId, query: { module } },
          ctx.call,
        );
        const since = Date.parse(sentAt) - LOST_CREATE_SKEW_MS;
        return (
          fields.find(
            (field) =>
              sameName(field.display_name, body.display_name) &&
              field.field_type === body.field_type &&
              (field.created_time === null || Date.parse(field.created_time) >= since),
          ) ?? null
        );
      },
      () =>
        client.putField(
          { portal_id: op.portalId, body: body as never },
          { ...ctx.call, subject: `the new field "${String(body.display_name)}"` },
        ),
    );
    ctx.repo.rewriteTempId(op.portalId, String(param(op, 'field_id')), created.id);
    return;
  }
  if (action === 'updateField') {
    const body = updateFieldBody(op, module);
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    await client.putField({ portal_id: op.portalId, body: body as never }, ctx.call);
    return;
  }
  if (action === 'deleteField') {
    await deleteOnce(op, ctx, () =>
      client.deleteField(
        { portal_id: op.portalId, field_id: String(param(op, 'field_id')), query: { module } },
        ctx.call,
      ),
    );
    return;
  }
  throw new ChangeRefused(`PortalDesk does not know how to send "${op.action ?? ''}".`);
}
