/**
 * What the replays of layout, section and field changes share (sendLayoutOp.ts, sendFieldOp.ts):
 * the module's API name once the service has it (waiting for a module still being created), the
 * name match of a lost create, the module's fields-configuration stored with the operation's end,
 * and a delete or bulk removal that a lost answer (or another admin) may already have applied.
 */
import type { ApiClient } from '../api/client/apiClient';
import { ChangeRefused, DependencyPending, isNotFound } from '../outbox/replayFailure';
import { DELETED, goneNote, removedBy, splitGone, type RemovalVerb } from '../outbox/goneOnRemoval';
import { moduleGoneMessage } from '../outbox/moduleGone';
import type { SendContext } from '../outbox/sendContext';
import type { OpFields, OutboxOp } from '../outbox/outboxTypes';
import type { ConflictField } from '../../shared/ipc/areas/outbox';
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
      moduleGoneMessage(op.moduleId, ctx.mirror.metadata.goneModule(op.portalId, op.moduleId)),
    );
  }
  return module.apiName;
}

/**
 * Whether a name is taken by another (the service refuses duplicates case-insensitively): right
 * for finding what holds a name, never for deciding a change was already made (`isNamed`).
 */
export const sameName = (a: string, b: unknown) =>
  typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Whether the service holds exactly this name: a rename by case only ("Standard" → "STANDARD")
 * is a change still to send, and a thing named otherwise but for case is not the one we made.
 */
export const isNamed = (a: string, b: unknown) => typeof b === 'string' && a.trim() === b.trim();

export async function storeModule(
  ctx: SendContext,
  client: ApiClient,
  op: OutboxOp,
  module: string,
  end: {
    /** The operation stays (marked in conflict), only the module is stored. */
    keepOp?: boolean;
    /** What the history says of the delivery besides its calls. */
    note?: string | undefined;
  } = {},
): Promise<void> {
  // Read even after a delete's 404: a module gone from the service fails here, refused in words.
  const config = await client.getFieldsConfiguration(
    { portal_id: op.portalId, query: { module } },
    ctx.call,
  );
  ctx.repo.transaction(() => {
    storeFieldsConfiguration(ctx.mirror.metadata, op.portalId, op.moduleId, config);
    if (end.keepOp !== true) ctx.delivered(op, end.note !== undefined ? { note: end.note } : {});
  });
}

/**
 * A delete of one thing (`what`, quoted): a 404 says it is gone, which is what was asked, so it is
 * delivered (goneOnRemoval.ts); the note, if any, says who removed it. The module's read after it
 * (storeModule) refuses a delete whose 404 was for the module itself.
 */
export async function deleteOnce(
  op: OutboxOp,
  ctx: SendContext,
  what: string,
  remove: () => Promise<unknown>,
): Promise<string | undefined> {
  const sentBefore = op.sentBody !== null;
  ctx.repo.markSending(op.seq, 'null');
  try {
    await remove();
    return undefined;
  } catch (error) {
    const by = removedBy(error, sentBefore);
    if (by === null) throw error;
    return goneNote([what], by, false, DELETED);
  }
}

/**
 * A bulk removal (DELETE settings/options) exactly once, by what the service still has: after an
 * earlier send of ours only the items still there go; a 404 (the service refuses the whole
 * request for one item it no longer has: our own lost send, or another admin's) reads again,
 * and the items still there go once more. Returns the history's note on the items found gone.
 */
export async function removeStillThere<T>(
  op: OutboxOp,
  asked: readonly T[],
  parts: {
    /** Reads the service: which of the items it still has. */
    read(): Promise<(item: T) => boolean>;
    /** Sends the removal of these items (the body marked as sent first). */
    send(items: readonly T[]): Promise<void>;
    /** The item as the user knows it, quoted. */
    name(item: T): string;
    verb?: RemovalVerb;
  },
): Promise<string | undefined> {
  const sentBefore = op.sentBody !== null;
  let items = asked;
  if (sentBefore) {
    const there = await parts.read();
    items = asked.filter(there);
  }
  const goneBefore = asked.filter((item) => !items.includes(item));
  // Gone before anything went this time: our earlier send, whose answer was lost.
  const earlier = (others: boolean) =>
    goneBefore.length > 0
      ? goneNote(goneBefore.map(parts.name), 'ours', others, parts.verb)
      : undefined;
  if (items.length === 0) return earlier(false);
  try {
    await parts.send(items);
    return earlier(true);
  } catch (error) {
    const by = removedBy(error, sentBefore);
    if (by === null) throw error;
    let there: (item: T) => boolean;
    try {
      there = await parts.read();
    } catch (readError) {
      // The field or module itself is gone: the removal's own refusal says so best.
      throw isNotFound(readError) ? error : readError;
    }
    const split = splitGone(items, there);
    if (split === null) throw error;
    if (split.rest.length > 0) await parts.send(split.rest);
    const others = split.rest.length > 0 || goneBefore.length > 0;
    return goneNote([...goneBefore, ...split.gone].map(parts.name), by, others, parts.verb);
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

/** How an operation's settings are judged against what the service holds now. */
export interface SettingsJudge {
  /** Which of the operation's `fields` are settings (the rest are its parameters). */
  isSetting(key: string): boolean;
  /** The setting's value on the service now. */
  theirs(key: string): unknown;
  same(key: string, a: unknown, b: unknown): boolean;
  label(key: string): string;
  /** A setting that goes whatever the service did meanwhile (making a layout the default). */
  neverConflicts?(key: string): boolean;
}

/**
 * What a change of settings does now that the service was read: a setting already at my value
 * counts as delivered, one still at its base (what the view showed when it was changed) goes, any
 * other is a conflict. An operation queued before bases were kept (`bases_kept` absent) sends as
 * it is. `going` holds the parameters and the settings to send.
 */
export function judgeSettings(
  op: Pick<OutboxOp, 'fields'>,
  judge: SettingsJudge,
): { going: OpFields; sending: number; conflicts: ConflictField[] } {
  const basesKept = op.fields.bases_kept?.value === true;
  const going: OpFields = {};
  const conflicts: ConflictField[] = [];
  let sending = 0;
  for (const [key, entry] of Object.entries(op.fields)) {
    if (!judge.isSetting(key)) {
      going[key] = entry;
      continue;
    }
    const now = judge.theirs(key);
    if (judge.same(key, now, entry.value)) continue; // already so: delivered
    if (!basesKept || judge.neverConflicts?.(key) === true || judge.same(key, now, entry.base)) {
      going[key] = entry;
      sending += 1;
      continue;
    }
    conflicts.push({
      field: key,
      label: judge.label(key),
      type: typeof entry.value === 'string' ? 'single_line' : 'setting',
      base: entry.base,
      mine: entry.value,
      theirs: now,
      editable: typeof entry.value === 'string',
    });
  }
  return { going, sending, conflicts };
}

/**
 * Keeps an operation whose settings conflict, marked: its parameters and the settings in conflict
 * wait in the Outbox until the user chooses (mine or theirs); what was delivered is not kept.
 */
export function holdConflicts(
  ctx: SendContext,
  op: OutboxOp,
  judge: Pick<SettingsJudge, 'isSetting'>,
  conflicts: readonly ConflictField[],
  what: string,
): void {
  const rest: OpFields = {};
  for (const [key, entry] of Object.entries(op.fields)) {
    if (!judge.isSetting(key) || conflicts.some((conflict) => conflict.field === key)) {
      rest[key] = entry;
    }
  }
  ctx.repo.markConflict(op.seq, rest, {
    kind: 'fields',
    fields: [...conflicts],
    foundAt: new Date(ctx.now()).toISOString(),
  });
  ctx.onAttention(
    `${what} was changed on the service too; your change waits in the Outbox until you choose what to keep.`,
  );
}
