/**
 * The replay of a recycle-bin operation (outbox kind `config`, actions `bin.*`), exactly once: a
 * restore or delete reads the bin first and sends only what it still lists (none left: done), so
 * neither an earlier send of ours nor an item deleted for good on the service meanwhile makes the
 * service refuse the rest; a restore says which items it could not bring back. Emptying is the
 * same whether it ran once or twice.
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

/** The queued items the bin no longer lists, by the names the bin kept here. */
function goneNames(
  deps: BinSendDeps,
  portalId: string,
  queued: readonly BinBatch[],
  going: readonly BinBatch[],
): string[] {
  const still = new Set(
    going.flatMap((batch) => batch.items.map((id) => `${batch.module}\u0000${id}`)),
  );
  const kept = new Map(
    deps.bin.items(portalId).map((item) => [`${item.module}\u0000${item.id}`, item]),
  );
  return queued.flatMap((batch) =>
    batch.items
      .filter((id) => !still.has(`${batch.module}\u0000${id}`))
      .map((id) => `“${kept.get(`${batch.module}\u0000${id}`)?.name ?? `${batch.module} ${id}`}”`),
  );
}

/**
 * What the history (and, for a restore, a notice) says of items gone from the service's bin
 * before anything of ours went: a delete for good is what the admin wanted anyway; a restore could
 * not be done, and the bin cannot tell whether another admin deleted or restored them.
 */
function goneNote(restore: boolean, gone: readonly string[], others: boolean): string | undefined {
  if (gone.length === 0) return undefined;
  const one = gone.length === 1;
  const names = gone.join(', ');
  if (!restore) {
    return `${names} ${one ? 'was' : 'were'} already gone from the service's recycle bin; ${others ? 'the others were deleted for good.' : 'nothing was left to delete.'}`;
  }
  return (
    `${names} could not be restored: ${one ? 'it was' : 'they were'} no longer in the service's recycle bin ` +
    `(deleted for good there, or restored by someone else, meanwhile). ${others ? 'The other items were restored. ' : ''}` +
    `Nothing of ${one ? 'it' : 'them'} is kept here; if ${one ? 'it is' : 'they are'} still needed, check the module on the service or make ${one ? 'it' : 'them'} again.`
  );
}

async function sendItems(
  ctx: SendContext,
  deps: BinSendDeps,
  op: OutboxOp,
  client: ApiClient,
  restore: boolean,
): Promise<void> {
  const queued = batchesOf(op);
  // The bin is read before every send, not only after a lost answer: the service refuses the
  // whole request when one item is gone from its bin (deleted for good by someone else), and a
  // Retry would meet the same refusal forever. Only what the bin still lists goes.
  const listed = await collectAll(client.listBin, { portal_id: op.portalId }, ctx.call);
  const batches = stillInBin(queued, listed);
  const gone = goneNames(deps, op.portalId, queued, batches);
  if (batches.length > 0) {
    ctx.repo.markSending(op.seq, JSON.stringify(batches));
    const args = { portal_id: op.portalId, body: batches as never };
    if (restore) await client.restoreFromBin(args, ctx.call);
    else await client.deleteFromBin(args, ctx.call);
  }
  // After our own earlier send the missing items are most likely ours, done: nothing to say.
  const note = op.sentBody === null ? goneNote(restore, gone, batches.length > 0) : undefined;
  ctx.repo.transaction(() => {
    dropItems(deps, op.portalId, queued);
    ctx.delivered(op, note !== undefined ? { note } : undefined);
  });
  if (note !== undefined && restore) ctx.onAttention(note);
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
