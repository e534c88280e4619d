/**
 * The replay of a field's options change (outbox kind `config`, actions `option.*`), exactly once:
 * an add or a remove whose earlier send may have been applied reads the field's options first and
 * sends only what is still to do (names not there yet, ids still there); a removal answered "does
 * not exist" (our lost first send, or another admin) is delivered (removeStillThere); a rename is checked
 * against the service's names first (renamesStillToSend); moves send the same values again. After each answer the field's options are read again and stored, and the
 * ids of options added here replace their temporary ones in later operations.
 */
import type { FieldOptions } from '@portaldesk/portal-api/domain/fieldOption';
import { FIRST_PAGE, PER_PAGE_MAX } from '@portaldesk/portal-api/domain/limits';
import type { ApiClient } from '../api/client/apiClient';
import { ChangeRefused } from '../outbox/replayFailure';
import type { SendContext } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import { mapFieldOptions } from '../sync/mapFieldOptions';
import { param } from './layoutOps';
import { isNamed, removeStillThere } from './settingsReplay';
import { optionActionOf, optionBody, optionsOf, TEMP_OPTION_PREFIX } from './optionOps';

async function readOptions(
  ctx: SendContext,
  client: ApiClient,
  op: OutboxOp,
  module: string,
): Promise<FieldOptions['custom_options']> {
  const all: FieldOptions['custom_options'] = [];
  for (let page = FIRST_PAGE; ; page++) {
    const reply = await client.listFieldOptions(
      {
        portal_id: op.portalId,
        query: { module, field: String(param(op, 'field_id')), page, per_page: PER_PAGE_MAX },
      },
      ctx.call,
    );
    all.push(...reply.options.custom_options);
    if (!reply.pageInfo?.has_next_page || reply.received === 0) return all;
  }
}

const quote = (text: string) => `“${text}”`;

/**
 * Renames never overwrite one made on the service unseen: the options are read first; an option
 * already named mine is delivered, one still named as it was when renamed here is sent, and one
 * renamed or removed there meanwhile refuses the whole change, in words, before anything goes.
 */
async function renamesStillToSend(
  ctx: SendContext,
  client: ApiClient,
  op: OutboxOp,
  module: string,
) {
  const present = await readOptions(ctx, client, op, module);
  const was = param<Record<string, string>>(op, 'was') ?? {};
  const send = [];
  for (const option of optionsOf(op)) {
    const now = present.find((candidate) => candidate.id === option.id);
    if (!now) {
      throw new ChangeRefused(
        `${quote(was[option.id] ?? option.name)} is no longer an option on the service (removed there meanwhile); the rename to ${quote(option.name)} was not sent. Discard this change.`,
      );
    }
    // Exactly mine, not mine but for case: a rename by case only ("Hardware" → "hardware") is a
    // change the service takes, so only the very name counts as delivered.
    if (now.value === option.name) continue;
    const before = was[option.id];
    if (before !== undefined && now.value !== before) {
      throw new ChangeRefused(
        `${quote(before)} was renamed to ${quote(now.value)} on the service meanwhile; your rename to ${quote(option.name)} was not sent, so theirs is kept. Discard this change, or rename it again from what the service has.`,
      );
    }
    send.push(option);
  }
  return send;
}

export async function sendOptions(
  ctx: SendContext,
  op: OutboxOp,
  client: ApiClient,
  module: string,
): Promise<void> {
  const action = optionActionOf(op);
  const fieldId = String(param(op, 'field_id'));
  if (fieldId.startsWith('tmp-')) {
    throw new ChangeRefused(
      'This change names a field whose creation was discarded or refused; discard this change too.',
    );
  }
  let options = optionsOf(op);
  if (
    action !== 'addOptions' &&
    options.some((option) => option.id.startsWith(TEMP_OPTION_PREFIX))
  ) {
    throw new ChangeRefused(
      'This change names an option whose addition was discarded or refused; discard this change too.',
    );
  }
  const send = async (going: typeof options) => {
    const body = optionBody(
      { ...op, fields: { ...op.fields, options: { value: going, base: null } } },
      module,
    );
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    const args = { portal_id: op.portalId, body: body as never };
    if (action === 'addOptions') await client.createFieldOptions(args, ctx.call);
    else if (action === 'removeOptions') await client.deleteFieldOptions(args, ctx.call);
    else await client.updateFieldOptions(args, ctx.call);
  };
  let note: string | undefined;
  if (action === 'removeOptions') {
    // "Does not exist" is what was asked: delivered, never refused (settingsReplay.ts).
    note = await removeStillThere(op, options, {
      read: async () => {
        const present = await readOptions(ctx, client, op, module);
        return (option) => present.some((p) => p.id === option.id);
      },
      send: (going) => send([...going]),
      name: (option) => quote(option.name),
    });
  } else {
    if (op.sentBody !== null && action === 'addOptions') {
      const present = await readOptions(ctx, client, op, module);
      options = options.filter((option) => !present.some((p) => isNamed(option.name, p.value)));
    }
    if (action === 'renameOptions') options = await renamesStillToSend(ctx, client, op, module);
    if (options.length > 0) await send(options);
  }
  const after = await readOptions(ctx, client, op, module);
  const field = ctx.mirror.metadata.fields(op.portalId, op.moduleId).find((f) => f.id === fieldId);
  ctx.repo.transaction(() => {
    // The service relabels or clears the records holding a renamed or removed option without a
    // new last_updated_time: the mirror's copies follow here, or no pull would ever bring it.
    if (field && (action === 'renameOptions' || action === 'removeOptions')) {
      const was = param<Record<string, string>>(op, 'was') ?? {};
      // One mapping applied once: renamed one after the other, a swap (A→B, B→A) would leave
      // every record that held either holding the same name.
      const relabel = new Map<string, string | null>();
      for (const option of optionsOf(op)) {
        const from = action === 'renameOptions' ? was[option.id] : option.name;
        if (from === undefined) continue;
        relabel.set(from, action === 'renameOptions' ? option.name : null);
      }
      ctx.mirror.records.relabelOptions(
        op.portalId,
        op.moduleId,
        { apiName: field.apiName, multi: field.fieldType === 'multi_select' },
        relabel,
      );
    }
    if (action === 'addOptions') {
      for (const option of optionsOf(op)) {
        const made = after.find((p) => isNamed(option.name, p.value));
        if (made) ctx.repo.rewriteTempId(op.portalId, option.id, made.id);
      }
    }
    ctx.mirror.metadata.replaceFieldOptions(
      op.portalId,
      fieldId,
      mapFieldOptions({ custom_options: after, users: [], roles: [], statuses: [] }).concat(
        ctx.mirror.metadata
          .moduleOptions(op.portalId, op.moduleId)
          .filter((o) => o.fieldId === fieldId && o.kind !== 'custom_option'),
      ),
    );
    ctx.delivered(op, note !== undefined ? { note } : {});
  });
}
