/**
 * The replay of a module's statuses change (outbox kind `config`, actions `status.*`), exactly
 * once: an add or a remove whose earlier send may have been applied reads the module's statuses
 * first and sends only what is still to do (names not there yet, ids still there), so a lost
 * answer never adds a status twice, and a removal answered "does not exist" (our lost first send,
 * or another admin) is delivered (removeStillThere); changes and moves send the same values again. After each
 * answer the statuses are read again and stored, the records of a status made closed or open
 * follow it (the service changes them without a new last_updated_time), and the ids of statuses
 * added here replace their temporary ones in later operations.
 */
import type { Status } from '@portaldesk/portal-api/domain/fieldOption';
import { FIRST_PAGE, PER_PAGE_MAX } from '@portaldesk/portal-api/domain/limits';
import type { ApiClient } from '../api/client/apiClient';
import { ChangeRefused } from '../outbox/replayFailure';
import type { SendContext } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import { mapStatus } from '../sync/mapFieldsConfiguration';
import { param } from './layoutOps';
import { isNamed, removeStillThere } from './settingsReplay';
import { statusActionOf, statusBody, statusItemsOf, tempStatusIdsOf } from './statusOps';

/** Every page of the module's statuses, as the options call lists them for the status field. */
async function readStatuses(
  ctx: SendContext,
  client: ApiClient,
  op: OutboxOp,
  module: string,
): Promise<Status[]> {
  const all: Status[] = [];
  for (let page = FIRST_PAGE; ; page++) {
    const reply = await client.listFieldOptions(
      {
        portal_id: op.portalId,
        query: { module, field: String(param(op, 'field_id')), page, per_page: PER_PAGE_MAX },
      },
      ctx.call,
    );
    all.push(...reply.options.statuses);
    if (!reply.pageInfo?.has_next_page || reply.received === 0) return all;
  }
}

export async function sendStatuses(
  ctx: SendContext,
  op: OutboxOp,
  client: ApiClient,
  module: string,
): Promise<void> {
  const action = statusActionOf(op);
  const [temp] = tempStatusIdsOf(op);
  if (temp !== undefined) {
    throw new ChangeRefused(
      'This change names a status whose addition was discarded or refused; discard this change too.',
    );
  }
  let items = statusItemsOf(op);
  const send = async (going: typeof items) => {
    const body = statusBody(op, module, going);
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    const args = { portal_id: op.portalId, body: body as never };
    if (action === 'addStatuses') await client.createFieldOptions(args, ctx.call);
    else if (action === 'removeStatuses') await client.deleteFieldOptions(args, ctx.call);
    else await client.updateFieldOptions(args, ctx.call);
  };
  let note: string | undefined;
  if (action === 'removeStatuses') {
    // "Does not exist" is what was asked: delivered, never refused (settingsReplay.ts).
    note = await removeStillThere(op, items, {
      read: async () => {
        const present = await readStatuses(ctx, client, op, module);
        return (item) => present.some((status) => status.id === item.id);
      },
      send: (going) => send([...going]),
      name: (item) => `The status “${item.name}”`,
    });
  } else {
    if (op.sentBody !== null && action === 'addStatuses') {
      const present = await readStatuses(ctx, client, op, module);
      items = items.filter((item) => !present.some((status) => isNamed(item.name, status.name)));
    }
    if (items.length > 0) await send(items);
  }
  const after = await readStatuses(ctx, client, op, module);
  ctx.repo.transaction(() => {
    if (action === 'addStatuses') {
      for (const item of statusItemsOf(op)) {
        const made = after.find((status) => isNamed(item.name, status.name));
        if (made) ctx.repo.rewriteTempId(op.portalId, item.id, made.id);
      }
    }
    if (action === 'updateStatuses') {
      for (const item of statusItemsOf(op)) {
        // What the service now holds, which a later change there may have set otherwise.
        const served = after.find((status) => status.id === item.id);
        if (item.closed === undefined || !served) continue;
        ctx.mirror.records.followStatusClosedType(
          op.portalId,
          op.moduleId,
          served.id,
          served.is_closed_type,
        );
      }
    }
    ctx.mirror.metadata.replaceStatuses(op.portalId, op.moduleId, after.map(mapStatus));
    ctx.delivered(op, note !== undefined ? { note } : {});
  });
}
