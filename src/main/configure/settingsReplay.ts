/**
 * What the replays of layout, section and field changes share (sendLayoutOp.ts, sendFieldOp.ts):
 * the module's API name once the service has it (waiting for a module still being created), the
 * name match of a lost create, the module's fields-configuration stored with the operation's end,
 * and a delete that a lost answer may already have applied.
 */
import type { ApiClient } from '../api/client/apiClient';
import { ChangeRefused, DependencyPending, isNotFound } from '../outbox/replayFailure';
import type { SendContext } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import { storeFieldsConfiguration } from '../sync/syncModuleSettings';
import { isTempModule, moduleQueue } from './moduleOps';

/** The API name of the op's module, once the service has the module. */
export function moduleApiName(ctx: SendContext, op: OutboxOp): string {
  if (isTempModule(op.moduleId)) {
    const creation = ctx.repo.opsOfRecord(op.portalId, moduleQueue(op.moduleId))[0];
    if (!creation) {
      throw new ChangeRefused(
        "This layout change's module was never created (its creation was discarded); discard this change too.",
      );
    }
    throw new DependencyPending(
      creation.state === 'failed'
        ? `Waits for its module to be created, which the service refused (${creation.error ?? 'see the Outbox'}).`
        : 'Waits for its module to be created first.',
    );
  }
  const module = ctx.mirror.metadata.modules(op.portalId).find((m) => m.id === op.moduleId);
  if (!module) {
    throw new ChangeRefused(
      `Module ${op.moduleId} is no longer in the mirror (trashed or deleted?); this layout change cannot go. Discard it.`,
    );
  }
  return module.apiName;
}

export const sameName = (a: string, b: unknown) =>
  typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

export async function storeModule(
  ctx: SendContext,
  client: ApiClient,
  op: OutboxOp,
  module: string,
  /** The operation stays (marked in conflict), only the module is stored. */
  keepOp = false,
): Promise<void> {
  const config = await client.getFieldsConfiguration(
    { portal_id: op.portalId, query: { module } },
    ctx.call,
  );
  ctx.repo.transaction(() => {
    storeFieldsConfiguration(ctx.mirror.metadata, op.portalId, op.moduleId, config);
    if (!keepOp) ctx.repo.deleteOp(op.seq);
  });
}

/** A delete whose earlier send may have been applied: a 404 now is what it left behind. */
export async function deleteOnce(op: OutboxOp, ctx: SendContext, remove: () => Promise<unknown>) {
  const wasSent = op.sentBody !== null;
  ctx.repo.markSending(op.seq, 'null');
  try {
    await remove();
  } catch (error) {
    if (!(wasSent && isNotFound(error))) throw error;
  }
}

/**
 * The service's id of a section of a layout copied here (`reference`): on screen, and so in the
 * operations queued before the copy was made, it had the original layout's section id; the copy
 * the service made has its own, found by its name (unique in a layout) now that the layout exists.
 */
export async function copiedSectionId(
  ctx: SendContext,
  client: ApiClient,
  op: OutboxOp,
  module: string,
  layoutId: string,
  name: string,
): Promise<string> {
  const layout = await client.getLayout(
    { portal_id: op.portalId, layout_id: layoutId, query: { module } },
    ctx.call,
  );
  const copy = (layout.sections ?? []).find((section) => sameName(section.name, name));
  if (!copy) {
    throw new ChangeRefused(
      `The section “${name}” is no longer on this layout on the service; discard this change.`,
    );
  }
  return copy.id;
}
