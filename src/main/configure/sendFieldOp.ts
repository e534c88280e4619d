/**
 * The replay of a custom field's change (outbox kind `config`, actions `field.*`), exactly once:
 * a field created whose answer was lost is looked up by its name (unique in its module, as the
 * service keeps them) before any resend, and later operations naming its temporary id then name
 * the server's; a change sends the same values again; a delete answered 404 is delivered (gone,
 * by our lost first send or another admin: settingsReplay.ts, deleteOnce). The module's fields-configuration is stored after each answer
 * (sendLayoutOp.ts, which dispatches here).
 */
import type { Field } from '@portaldesk/portal-api/domain/field';
import type { ApiClient } from '../api/client/apiClient';
import { collectAll } from '../api/client/paginate';
import { ChangeRefused } from '../outbox/replayFailure';
import { createOnce, type SendContext } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import {
  createFieldBody,
  FIELD_SETTING_LABEL,
  fieldActionOf,
  isFieldSetting,
  settingsOfProperty,
  updateFieldBody,
} from './fieldOps';
import type { FieldSettings } from '../../shared/ipc/areas/configure';
import { param, tempIdsOf } from './layoutOps';
import {
  deleteOnce,
  holdConflicts,
  judgeSettings,
  isNamed,
  type SettingsJudge,
} from './settingsReplay';
import { LOST_CREATE_SKEW_MS } from './sendModuleOp';

const isTemp = (value: unknown) => typeof value === 'string' && value.startsWith('tmp-');

export async function sendField(
  ctx: SendContext,
  op: OutboxOp,
  client: ApiClient,
  module: string,
): Promise<{ note?: string | undefined } | 'conflict'> {
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
              isNamed(field.display_name, body.display_name) &&
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
    return {};
  }
  if (action === 'updateField') {
    return (await sendFieldUpdate(ctx, op, client, module)) === 'conflict' ? 'conflict' : {};
  }
  if (action === 'deleteField') {
    const fieldId = String(param(op, 'field_id'));
    // Read before the answer: storing the module's fields afterwards forgets the field. A field
    // made here had no API name when its deletion was queued; the mirror has it since its create.
    const apiName =
      ctx.mirror.metadata.fields(op.portalId, op.moduleId).find((f) => f.id === fieldId)?.apiName ??
      param<string | null>(op, 'field_api_name');
    const label = param<string>(op, 'field_label') ?? apiName ?? fieldId;
    const note = await deleteOnce(op, ctx, `The field “${label}”`, () =>
      client.deleteField(
        { portal_id: op.portalId, field_id: fieldId, query: { module } },
        ctx.call,
      ),
    );
    // The service takes the field's values from its records without a new last_updated_time, so
    // no pull brings it: cleared here too, or a new field of that API name would show them.
    if (apiName) ctx.mirror.records.clearFieldValues(op.portalId, op.moduleId, apiName);
    return { note };
  }
  throw new ChangeRefused(`PortalDesk does not know how to send "${op.action ?? ''}".`);
}

/**
 * A change of a field's settings, never over a change made on the service unseen: the field is
 * read first (the module's fields-configuration, one GET); a setting already at my value counts
 * as delivered, one still at its base (what the Configure view showed when it was changed) is
 * sent, any other is a conflict, setting by setting, resolved in the Outbox (mine or theirs), as
 * for a module's settings. A change queued without bases (before they were kept) is sent as is.
 */
async function sendFieldUpdate(
  ctx: SendContext,
  op: OutboxOp,
  client: ApiClient,
  module: string,
): Promise<'done' | 'conflict'> {
  const fieldId = String(param(op, 'field_id'));
  const config = await client.getFieldsConfiguration(
    { portal_id: op.portalId, query: { module } },
    ctx.call,
  );
  const server = config.fields.find((field) => String(field.id) === fieldId);
  if (!server) {
    throw new ChangeRefused(
      `“${String(param(op, 'field_label'))}” is no longer a field of this module on the service (deleted there?); discard this change.`,
    );
  }
  const theirs = settingsOfProperty(
    server.display_name,
    server.is_mandatory === true,
    (server.field_property ?? {}) as Record<string, unknown>,
  );
  const judge: SettingsJudge = {
    isSetting: isFieldSetting,
    theirs: (key) => theirs[key as keyof FieldSettings],
    same: (_key, a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null),
    label: (key) => FIELD_SETTING_LABEL[key as keyof FieldSettings],
  };
  const { going, sending, conflicts } = judgeSettings(op, judge);
  if (sending > 0) {
    const body = updateFieldBody({ fields: going }, module);
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    await client.putField(
      { portal_id: op.portalId, body: body as never },
      { ...ctx.call, subject: `the change to field "${server.display_name}"` },
    );
  }
  if (conflicts.length === 0) return 'done';
  holdConflicts(ctx, op, judge, conflicts, `Field ${server.display_name}`);
  return 'conflict';
}
