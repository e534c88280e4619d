/**
 * The replay of a recycle-bin operation (outbox kind `config`, actions `bin.*`), exactly once: a
 * restore or delete whose earlier send may have reached the service reads the bin first and sends
 * only what it still lists (none left: done); emptying is the same whether it ran once or twice.
 * Each answer takes the items out of the bin as kept here, in the transaction that drops the op.
 */
import type { ApiClient } from '../api/client/apiClient';
import { collectAll } from '../api/client/paginate';
import { ChangeRefused } from '../outbox/replayFailure';
import type { Send, SendContext } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import { batchesOf, binActionOf, stillInBin, type BinBatch } from './binOps';
import type { PortalBinRepository } from './portalBinRepository';

export interface BinSendDeps {
  bin: PortalBinRepository;
  changed(portalId: string): void;
}

function dropItems(deps: BinSendDeps, portalId: string, batches: readonly BinBatch[]): void {
  for (const batch of batches) {
    for (const id of batch.items) deps.bin.remove(portalId, batch.module, id);
  }
}

async function sendItems(
  ctx: SendContext,
  deps: BinSendDeps,
  op: OutboxOp,
  client: ApiClient,
  restore: boolean,
): Promise<void> {
  let batches = batchesOf(op);
  if (op.sentBody !== null) {
    // The earlier send may have been applied: send only what the bin still lists.
    const listed = await collectAll(client.listBin, { portal_id: op.portalId }, ctx.call);
    batches = stillInBin(batches, listed);
  }
  if (batches.length > 0) {
    ctx.repo.markSending(op.seq, JSON.stringify(batches));
    const args = { portal_id: op.portalId, body: batches as never };
    if (restore) await client.restoreFromBin(args, ctx.call);
    else await client.deleteFromBin(args, ctx.call);
  }
  ctx.repo.transaction(() => {
    dropItems(deps, op.portalId, batchesOf(op));
    ctx.delivered(op);
  });
}

/** The outbox's send for `config` operations of the recycle bin. */
export function binSend(deps: BinSendDeps): Send {
  return async (ctx, op, client) => {
    switch (binActionOf(op)) {
      case 'restore':
        await sendItems(ctx, deps, op, client, true);
        break;
      case 'delete':
        await sendItems(ctx, deps, op, client, false);
        break;
      case 'empty':
        ctx.repo.markSending(op.seq, 'null');
        await client.emptyBin({ portal_id: op.portalId }, ctx.call);
        ctx.repo.transaction(() => {
          deps.bin.clear(op.portalId);
          ctx.delivered(op);
        });
        break;
      default:
        throw new ChangeRefused(`PortalDesk does not know how to send "${op.action ?? ''}".`);
    }
    deps.changed(op.portalId);
    return 'done';
  };
}
