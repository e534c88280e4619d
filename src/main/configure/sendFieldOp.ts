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
import type { OpFields, OutboxOp } from '../outbox/outboxTypes';
import {
  createFieldBody,
  fieldActionOf,
  settingsOfOp,
  settingsOfProperty,
  updateFieldBody,
} from './fieldOps';
import type { FieldSettings } from '../../shared/ipc/areas/configure';
import type { ConflictField } from '../../shared/ipc/areas/outbox';
import { param, tempIdsOf } from './layoutOps';
import { deleteOnce, sameName } from './settingsReplay';
import { LOST_CREATE_SKEW_MS } from './sendModuleOp';

const isTemp = (value: unknown) => typeof value === 'string' && value.startsWith('tmp-');

export async function sendField(
  ctx: SendContext,
  op: OutboxOp,
  client: ApiClient,
  module: string,
): Promise<'done' | 'conflict'> {
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
    return 'done';
  }
  if (action === 'updateField') return sendFieldUpdate(ctx, op, client, module);
  if (action === 'deleteField') {
    await deleteOnce(op, ctx, () =>
      client.deleteField(
        { portal_id: op.portalId, field_id: String(param(op, 'field_id')), query: { module } },
        ctx.call,
      ),
    );
    return 'done';
  }
  throw new ChangeRefused(`PortalDesk does not know how to send "${op.action ?? ''}".`);
}

const SETTING_LABEL: Record<keyof FieldSettings, string> = {
  label: 'Name',
  mandatory: 'Mandatory',
  pii: 'Personal data',
  encrypted: 'Encrypted',
  description: 'Description',
  defaultValue: 'Default value',
  hasInfo: 'Info',
  currencyListType: 'Currency list',
  currencyCode: 'Currency',
  precision: 'Decimals',
  userListType: 'Users offered',
};

const sameValue = (a: unknown, b: unknown) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

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
  const settings = settingsOfOp(op);
  const basesKept = param(op, 'bases_kept') === true;
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
  const send: Partial<FieldSettings> = {};
  const conflicts: ConflictField[] = [];
  for (const [key, value] of Object.entries(settings) as [keyof FieldSettings, unknown][]) {
    const entry = op.fields[key]!;
    const now = theirs[key];
    if (sameValue(now, value)) continue; // already so: delivered
    if (!basesKept || sameValue(now, entry.base)) {
      (send as Record<string, unknown>)[key] = value;
      continue;
    }
    conflicts.push({
      field: key,
      label: SETTING_LABEL[key],
      type: typeof value === 'string' ? 'single_line' : 'setting',
      base: entry.base,
      mine: value,
      theirs: now,
      editable: typeof value === 'string',
    });
  }
  if (Object.keys(send).length > 0) {
    // The parameters and the settings that go; the others are delivered or wait.
    const going: OpFields = {};
    for (const [key, entry] of Object.entries(op.fields)) {
      if (!(key in settings) || key in send) going[key] = entry;
    }
    const body = updateFieldBody({ fields: going }, module);
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    await client.putField(
      { portal_id: op.portalId, body: body as never },
      { ...ctx.call, subject: `the change to field "${server.display_name}"` },
    );
  }
  if (conflicts.length === 0) return 'done';
  // What waits: the operation's parameters and the settings in conflict, nothing delivered.
  const rest: OpFields = {};
  for (const [key, entry] of Object.entries(op.fields)) {
    if (!(key in settings) || conflicts.some((conflict) => conflict.field === key)) {
      rest[key] = entry;
    }
  }
  ctx.repo.markConflict(op.seq, rest, {
    kind: 'fields',
    fields: conflicts,
    foundAt: new Date(ctx.now()).toISOString(),
  });
  ctx.onAttention(
    `Field ${server.display_name} was changed on the service too; your change waits in the Outbox until you choose what to keep.`,
  );
  return 'conflict';
}
