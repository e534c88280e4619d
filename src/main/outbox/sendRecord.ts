/**
 * The sends of a record's own operations: update, create, trash and restore. Each reads what the
 * service holds first where a lost earlier send may have applied it (README, "Exactly once"), and
 * writes the answer to the mirror in the transaction that drops the operation.
 */
import type { Entity } from '@portaldesk/portal-api/domain/entity';
import type { ApiClient } from '../api/client/apiClient';
import { mapRecord } from '../sync/mapRecord';
import { fetchRecordTimeline } from '../sync/timelineFetcher';
import { compareWithServer } from './compareWithServer';
import type { EditCatalog } from './editCatalog';
import { entityValue, findLostCreate } from './findLostCreate';
import type { OpFields, OutboxOp } from './outboxTypes';
import { fieldsConflict } from './replayConflicts';
import { isAbort, isNotFound } from './replayFailure';
import { createBody, updateBody } from './requestBody';
import {
  createOnce,
  learnAuthor,
  listMadeSince,
  moduleArgs,
  recordCall,
  type Outcome,
  type Send,
  type SendContext,
} from './sendContext';

const foundAt = (ctx: SendContext) => new Date(ctx.now()).toISOString();

/** How the Outbox names a field deleted on the service: the mirror no longer knows its label. */
export const goneLabel = (field: string) => `${field} (deleted on the service)`;

/**
 * A status change the service accepted adds an entry to the record's status timeline: read it
 * again (through the scheduler, like every replay call) so an open record shows it before the
 * next sync. The delivery stands if the read fails; the timeline waits for the next read then.
 */
async function readTimeline(
  ctx: SendContext,
  op: OutboxOp,
  catalog: EditCatalog,
  client: ApiClient,
  recordId: string,
): Promise<void> {
  const module = { id: op.moduleId, apiName: catalog.moduleApiName, name: catalog.moduleName };
  try {
    await fetchRecordTimeline(client, ctx.mirror, op.portalId, module, recordId, ctx.call);
  } catch (error) {
    if (isAbort(error)) throw error;
    ctx.warn(
      `The status timeline of record ${recordId} could not be read after its status change was sent: ${String(error)}`,
    );
  }
}

function storeEntity(ctx: SendContext, op: OutboxOp, entity: Entity): void {
  ctx.mirror.records.upsertRecords([mapRecord(op.portalId, op.moduleId, entity)]);
}

/** The record is gone or trashed on the service: the whole operation waits for the user. */
function recordGone(
  ctx: SendContext,
  op: OutboxOp,
  kind: 'deleted' | 'trashed',
  catalog: EditCatalog,
  entity?: Entity,
): Outcome {
  const repo = ctx.repo;
  repo.transaction(() => {
    if (entity) storeEntity(ctx, op, entity);
    repo.markConflict(
      op.seq,
      op.fields,
      fieldsConflict(
        kind,
        op.fields,
        catalog,
        (f) => (entity ? entityValue(entity, f) : null),
        foundAt(ctx),
      ),
    );
    ctx.ledger.refreshOverlay(op.portalId, op.recordId);
  });
  ctx.onAttention(
    kind === 'deleted'
      ? `Record ${op.recordId} was deleted on the service; your change is kept until you choose what to do.`
      : `Record ${op.recordId} was moved to the trash on the service; your change is kept until you choose what to do.`,
  );
  return 'stop';
}

/** The fields an earlier send of the op carried (its body as sent), whose answer was lost. */
function sentFields(op: OutboxOp): Set<string> {
  if (op.sentBody === null) return new Set();
  try {
    const body: unknown = JSON.parse(op.sentBody);
    return new Set(typeof body === 'object' && body !== null ? Object.keys(body) : []);
  } catch {
    return new Set();
  }
}

/**
 * A fresh GET first: a field already holding my value counts as delivered, one still at its base
 * is sent, a compound value changed in other parts there is sent merged, any other is a conflict
 * (compareWithServer).
 */
export const sendUpdate: Send = async (ctx, op, client) => {
  const repo = ctx.repo;
  const { catalog, args } = recordCall(ctx, op);
  let server: Entity;
  try {
    server = await client.getEntity(args, ctx.call);
  } catch (error) {
    if (isNotFound(error)) return recordGone(ctx, op, 'deleted', catalog);
    throw error;
  }
  if (server.trashed_time !== null) return recordGone(ctx, op, 'trashed', catalog, server);
  // A field a sync found deleted on the service: the service would refuse the whole change for
  // it, so it waits alone, as a conflict whose only way out is the service's (resolveConflict).
  const gone = Object.keys(op.fields).filter((field) => !catalog.types.has(field));
  const present: OpFields = {};
  for (const [field, entry] of Object.entries(op.fields)) {
    if (!gone.includes(field)) present[field] = entry;
  }
  const compared = compareWithServer(present, catalog.types, (f) => entityValue(server, f));
  compared.conflicts.push(...gone);
  let answer = server;
  if (compared.send.length > 0) {
    const body = updateBody(compared.fields, catalog.types, compared.send);
    repo.markSending(op.seq, JSON.stringify(body));
    try {
      answer = await client.updateEntity(
        { ...args, body },
        { ...ctx.call, subject: `the change to record "${server.name}"` },
      );
    } catch (error) {
      if (isNotFound(error)) return recordGone(ctx, op, 'deleted', catalog);
      throw error;
    }
  }
  const delivered = [...compared.send, ...compared.applied];
  // Fields an earlier send of ours applied, its answer lost: delivered by us, so told now.
  const sentBefore = sentFields(op);
  const appliedByUs = compared.applied.filter((field) => sentBefore.has(field));
  const told = [...compared.send, ...appliedByUs];
  const rest: OpFields = {};
  for (const field of compared.conflicts) rest[field] = op.fields[field]!;
  repo.transaction(() => {
    storeEntity(ctx, op, answer);
    if (compared.conflicts.length > 0) {
      if (delivered.length > 0) ctx.partlyDelivered(op, { fields: delivered });
      const conflict = fieldsConflict(
        'fields',
        rest,
        catalog,
        (f) => (gone.includes(f) ? null : entityValue(server, f)),
        foundAt(ctx),
      );
      for (const field of conflict.fields) {
        if (gone.includes(field.field)) field.label = goneLabel(field.field);
      }
      repo.markConflict(op.seq, rest, conflict);
    } else {
      ctx.delivered(op);
    }
    ctx.ledger.refreshOverlay(op.portalId, op.recordId);
  });
  if (told.includes('status')) await readTimeline(ctx, op, catalog, client, answer.id);
  if (told.length > 0) {
    ctx.onReplayed({
      portalId: op.portalId,
      moduleId: op.moduleId,
      recordId: answer.id,
      kind: 'update',
      data: { record: answer, fields: delivered },
    });
  }
  if (compared.conflicts.length > 0) {
    const count = compared.conflicts.length - gone.length;
    const fields = count === 1 ? '1 field' : `${count} fields`;
    const deleted = gone.length === 1 ? '1 field' : `${gone.length} fields`;
    ctx.onAttention(
      [
        count > 0
          ? `${fields} of record "${answer.name}" ${count === 1 ? 'was' : 'were'} changed on the service since your edit; choose which value to keep in the Outbox.`
          : '',
        gone.length > 0
          ? `${deleted} you changed in record "${answer.name}" ${gone.length === 1 ? 'was' : 'were'} deleted on the service (${gone.join(', ')}); your value is kept in the Outbox until you take the service's version${delivered.length > 0 ? ', the rest of your change was sent' : ''}.`
          : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
    return 'stop';
  }
  return 'done';
};

/** Sent once (createOnce); a lost answer is looked for among the newest records of its name. */
export const sendCreate: Send = async (ctx, op, client) => {
  const catalog = ctx.catalog(op);
  const args = moduleArgs(op, catalog);
  const body = createBody(op.fields, catalog.types);
  const entity = await createOnce(
    ctx,
    op,
    body,
    async (sentAt) => {
      const name = String(op.fields.name?.value ?? '');
      const candidates = await listMadeSince(
        ctx,
        client.listEntities,
        {
          ...args,
          query: {
            filter: {
              criteria: [{ field_name: 'name', criteria_condition: 'is', value: [name] }],
              pattern: '1',
            },
            sort_by: 'DESC(created_time)',
          },
        },
        (entity) => entity.created_time,
        sentAt,
      );
      return findLostCreate(
        candidates,
        op.fields,
        catalog.types,
        sentAt,
        ctx.repo.adoptedIds(op.portalId, 'record'),
        ctx.repo.authorOf(op.portalId),
      );
    },
    () =>
      client.createEntity(
        { ...args, body: body as never },
        { ...ctx.call, subject: 'the new record' },
      ),
    (made) => learnAuthor(ctx, op.portalId, made.owner?.zpuid),
  );
  return created(ctx, op, entity);
};

/** The record made: its temporary id is remapped everywhere, the queue follows it. */
function created(ctx: SendContext, op: OutboxOp, entity: Entity): Outcome {
  const repo = ctx.repo;
  repo.transaction(() => {
    storeEntity(ctx, op, entity);
    ctx.delivered(op, { recordId: entity.id });
    ctx.mirror.localEdits.moveEdits(op.portalId, op.recordId, entity.id);
    repo.remapRecord(op.portalId, op.recordId, entity.id);
    ctx.mirror.localEdits.deleteLocalRecord(op.portalId, op.recordId);
    ctx.ledger.refreshOverlay(op.portalId, entity.id);
  });
  ctx.onRemap({ portalId: op.portalId, kind: 'record', from: op.recordId, to: entity.id });
  ctx.onReplayed({
    portalId: op.portalId,
    moduleId: op.moduleId,
    recordId: entity.id,
    kind: 'create',
    data: { record: entity },
  });
  return 'done';
}

/** Trash or restore: the GET tells whether it happened already; trashing what is gone is done. */
export const sendTrash: Send = async (ctx, op, client) => {
  const repo = ctx.repo;
  const { catalog, args } = recordCall(ctx, op);
  const restore = op.kind === 'restore';
  let server: Entity;
  try {
    server = await client.getEntity(args, ctx.call);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    if (restore) return recordGone(ctx, op, 'deleted', catalog);
    // Trashing what is gone: done; the mirror drops it.
    repo.transaction(() => {
      ctx.delivered(op, {
        note: 'The record was already gone from the service: nothing to trash.',
      });
      ctx.mirror.localEdits.deleteServerCopy(op.portalId, op.recordId);
    });
    return 'done';
  }
  let answer = server;
  const sentBefore = op.sentBody !== null;
  const toSend = (server.trashed_time !== null) === restore;
  if (toSend) {
    repo.markSending(op.seq, JSON.stringify({ [op.kind]: op.recordId }));
    answer = restore
      ? await client.restoreEntity(args, ctx.call)
      : await client.trashEntity(args, ctx.call);
  }
  repo.transaction(() => {
    storeEntity(ctx, op, answer);
    ctx.delivered(op);
  });
  // Done now, or by our earlier send whose answer was lost: told once either way.
  if (toSend || sentBefore) {
    ctx.onReplayed({
      portalId: op.portalId,
      moduleId: op.moduleId,
      recordId: op.recordId,
      kind: restore ? 'update' : 'delete',
      data: { record: answer },
    });
  }
  return 'done';
};

/**
 * A record in the recycle bin deleted for good. Sent at most once in effect: after a lost answer
 * the resend meets a 404, which is what our delete leaves behind, so it counts as done.
 */
export const sendDeleteForever: Send = async (ctx, op, client) => {
  const repo = ctx.repo;
  const { args } = recordCall(ctx, op);
  repo.markSending(op.seq, JSON.stringify({ delete: op.recordId }));
  try {
    await client.deleteEntity(args, ctx.call);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  repo.transaction(() => {
    ctx.delivered(op);
    ctx.mirror.localEdits.deleteServerCopy(op.portalId, op.recordId);
  });
  ctx.onReplayed({
    portalId: op.portalId,
    moduleId: op.moduleId,
    recordId: op.recordId,
    kind: 'delete',
    data: { record: { id: op.recordId, deleted_for_good: true } },
  });
  return 'done';
};
