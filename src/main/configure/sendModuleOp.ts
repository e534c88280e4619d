/**
 * The replay of a module's configuration change (outbox kind `config`, action `module.*`), exactly
 * once like a record's:
 * - create: sent at most once across crashes (`createOnce`): after a lost answer, the portal's
 *   modules are listed and one with the same names, created no earlier than the send (less 10
 *   minutes of clock skew) and not adopted by another operation, is adopted; the module's queue
 *   then follows its server id;
 * - update: a fresh GET first; a setting already holding my value counts as delivered, one still
 *   at its base is sent, any other is a conflict shown setting by setting;
 * - activate/deactivate are idempotent on the service; trash, recover and delete after a lost
 *   answer are recognised by what the service then says (404, "not in the trash").
 * Each answer is written to the mirror (and the module bin) in the transaction that drops the
 * operation, so the Configure view never shows a change twice or not at all.
 */
import type { Module } from '@portaldesk/portal-api/domain/module';
import type { ApiClient } from '../api/client/apiClient';
import { ApiError } from '../api/client/apiError';
import { collectAll } from '../api/client/paginate';
import { removedBy } from '../outbox/goneOnRemoval';
import { ChangeRefused, isNotFound } from '../outbox/replayFailure';
import { moduleGoneMessage } from '../outbox/moduleGone';
import { createOnce, type Send, type SendContext } from '../outbox/sendContext';
import type { OpFields, OutboxOp } from '../outbox/outboxTypes';
import type { ConflictField } from '../../shared/ipc/areas/outbox';
import { mapModule } from '../sync/mapModule';
import type { ModuleBinRepository } from './moduleBinRepository';
import {
  createBody,
  isTempModule,
  moduleActionOf,
  patchBody,
  SETTING_LABEL,
  sameSetting,
  settingsOf,
  type ModuleSettingKey,
} from './moduleOps';

/** Ours: how far before the send a lost create's module may say it was created (clock skew). */
export const LOST_CREATE_SKEW_MS = 10 * 60_000;

export interface ModuleSendDeps {
  bin: ModuleBinRepository;
  /** Records of a module in the mirror (what goes to the bin with it). */
  recordCount(portalId: string, moduleId: string): number;
  /** A replay changed a portal's configuration. */
  changed(portalId: string): void;
  /** The module's layouts, fields and records should be read (after a create or a recover). */
  refresh(portalId: string): void;
}

const isBadRequest = (error: unknown) => error instanceof ApiError && error.status === 400;

function mirrorModuleOf(ctx: SendContext, portalId: string, moduleId: string) {
  return ctx.mirror.metadata.modules(portalId).find((module) => module.id === moduleId);
}

/** The API name the service addresses the op's module by (mirror first, then the bin). */
function apiNameOf(ctx: SendContext, deps: ModuleSendDeps, op: OutboxOp): string {
  const mirrored = mirrorModuleOf(ctx, op.portalId, op.moduleId);
  if (mirrored) return mirrored.apiName;
  const binned = deps.bin.get(op.portalId, op.moduleId);
  if (binned) return binned.apiName;
  if (isTempModule(op.moduleId)) {
    throw new ChangeRefused(
      'This module was never created on the service (its creation was discarded or refused), so this change cannot go. Discard it.',
    );
  }
  throw new ChangeRefused(
    moduleGoneMessage(op.moduleId, ctx.mirror.metadata.goneModule(op.portalId, op.moduleId)),
  );
}

function storeModule(ctx: SendContext, portalId: string, module: Module): void {
  const mapped = mapModule(module);
  if (mapped) ctx.mirror.metadata.upsertModules(portalId, [mapped]);
}

/** The module a lost create made, if the service lists one: same names, made after the send. */
async function findLostModule(
  ctx: SendContext,
  client: ApiClient,
  op: OutboxOp,
  sentAt: string,
): Promise<Module | null> {
  const body = createBody(op.fields);
  const modules = await collectAll(client.listModules, { portal_id: op.portalId }, ctx.call);
  const adopted = ctx.repo.adoptedIds(op.portalId, 'module');
  const since = Date.parse(sentAt) - LOST_CREATE_SKEW_MS;
  return (
    modules.find(
      (module) =>
        module.id !== null &&
        !adopted.has(module.id) &&
        module.plural_name.trim() === String(body.plural_name).trim() &&
        module.singular_name.trim() === String(body.singular_name).trim() &&
        (module.created_time === null || Date.parse(module.created_time) >= since),
    ) ?? null
  );
}

async function sendCreate(
  ctx: SendContext,
  deps: ModuleSendDeps,
  op: OutboxOp,
  client: ApiClient,
): Promise<void> {
  const body = createBody(op.fields);
  const created = await createOnce(
    ctx,
    op,
    body,
    (sentAt) => findLostModule(ctx, client, op, sentAt),
    () =>
      client.createModule(
        { portal_id: op.portalId, body: body as never },
        { ...ctx.call, subject: `the new module "${String(body.plural_name)}"` },
      ),
  );
  if (created.id === null) {
    throw new ChangeRefused('The service created the module but did not say its id.');
  }
  const serverId = created.id;
  ctx.repo.transaction(() => {
    storeModule(ctx, op.portalId, created);
    ctx.delivered(op);
    ctx.repo.remapModule(op.portalId, op.moduleId, serverId);
  });
  deps.refresh(op.portalId);
}

async function sendUpdate(
  ctx: SendContext,
  deps: ModuleSendDeps,
  op: OutboxOp,
  client: ApiClient,
): Promise<'done' | 'stop'> {
  const apiName = apiNameOf(ctx, deps, op);
  const args = { portal_id: op.portalId, module_api_name: apiName };
  const server = await client.getModule(args, ctx.call);
  const theirs = settingsOf({
    singularName: server.singular_name,
    pluralName: server.plural_name,
    iconClass: server.icon_class,
    details: server as unknown as Record<string, unknown>,
  });
  const send: string[] = [];
  const conflicts: ConflictField[] = [];
  for (const [key, entry] of Object.entries(op.fields)) {
    const now = theirs[key as ModuleSettingKey];
    if (sameSetting(key, now, entry.value)) continue; // already so: delivered
    if (sameSetting(key, now, entry.base)) send.push(key);
    else {
      conflicts.push({
        field: key,
        label: SETTING_LABEL[key as ModuleSettingKey] ?? key,
        type: typeof entry.value === 'string' ? 'single_line' : 'setting',
        base: entry.base,
        mine: entry.value,
        theirs: now,
        editable: typeof entry.value === 'string',
      });
    }
  }
  let answer: Module = server;
  if (send.length > 0) {
    const body = patchBody(op.fields, send);
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    answer = await client.updateModule(
      { ...args, body: body as never },
      { ...ctx.call, subject: `the change to module "${server.plural_name}"` },
    );
  }
  ctx.repo.transaction(() => {
    storeModule(ctx, op.portalId, answer);
    if (conflicts.length === 0) {
      ctx.delivered(op);
      return;
    }
    if (send.length > 0) ctx.partlyDelivered(op, { fields: send });
    const rest: OpFields = {};
    for (const conflict of conflicts) rest[conflict.field] = op.fields[conflict.field]!;
    ctx.repo.markConflict(op.seq, rest, {
      kind: 'fields',
      fields: conflicts,
      foundAt: new Date(ctx.now()).toISOString(),
    });
  });
  if (conflicts.length > 0) {
    ctx.onAttention(
      `Module ${server.plural_name} was changed on the service too; your change waits in the Outbox until you choose what to keep.`,
    );
    return 'stop';
  }
  return 'done';
}

async function sendTrash(
  ctx: SendContext,
  deps: ModuleSendDeps,
  op: OutboxOp,
  client: ApiClient,
): Promise<void> {
  const apiName = apiNameOf(ctx, deps, op);
  const mirrored = mirrorModuleOf(ctx, op.portalId, op.moduleId);
  const wasSent = op.sentBody !== null;
  ctx.repo.markSending(op.seq, 'null');
  try {
    await client.trashModule({ portal_id: op.portalId, module_api_name: apiName }, ctx.call);
  } catch (error) {
    // A lost answer (a run before, or the client's own resend): the module left the list because
    // our earlier send trashed it. A first send's 404 stays refused: trashed or deleted for good
    // elsewhere, the list cannot tell, and the module bin here must not offer it.
    if (removedBy(error, wasSent) !== 'ours') throw error;
  }
  ctx.repo.transaction(() => {
    if (mirrored) {
      deps.bin.put(op.portalId, {
        id: mirrored.id,
        apiName: mirrored.apiName,
        singularName: mirrored.singularName,
        pluralName: mirrored.pluralName,
        details: JSON.parse(mirrored.details) as Record<string, unknown>,
        records: deps.recordCount(op.portalId, mirrored.id),
        trashedTime: new Date(ctx.now()).toISOString(),
      });
      ctx.mirror.metadata.deleteModule(op.portalId, mirrored.id);
    }
    ctx.delivered(op);
  });
}

async function sendRecover(
  ctx: SendContext,
  deps: ModuleSendDeps,
  op: OutboxOp,
  client: ApiClient,
): Promise<void> {
  const apiName = apiNameOf(ctx, deps, op);
  const args = { portal_id: op.portalId, module_api_name: apiName };
  const wasSent = op.sentBody !== null;
  ctx.repo.markSending(op.seq, 'null');
  let module: Module;
  try {
    module = await client.recoverModule(args, ctx.call);
  } catch (error) {
    // The service answers 404 only for a module it has neither listed nor in its bin: deleted for
    // good there. Kept in the bin here, it could be neither recovered nor deleted, for good.
    if (isNotFound(error)) {
      const name = nameOf(ctx, deps, op);
      dropPurgedModule(ctx, deps, op);
      throw new ChangeRefused(
        `${name} was deleted for good on the service meanwhile, so it cannot be recovered; it has left the module bin here, with its mirrored records. Discard this change.`,
      );
    }
    // A lost answer: "not in the trash" because our earlier send recovered it.
    if (!(wasSent && isBadRequest(error))) throw error;
    module = await client.getModule(args, ctx.call);
  }
  ctx.repo.transaction(() => {
    storeModule(ctx, op.portalId, module);
    deps.bin.remove(op.portalId, op.moduleId);
    ctx.delivered(op);
  });
  deps.refresh(op.portalId);
}

async function sendDelete(
  ctx: SendContext,
  deps: ModuleSendDeps,
  op: OutboxOp,
  client: ApiClient,
): Promise<void> {
  const apiName = apiNameOf(ctx, deps, op);
  const wasSent = op.sentBody !== null;
  let note: string | undefined;
  ctx.repo.markSending(op.seq, 'null');
  try {
    await client.deleteTrashedModule(
      { portal_id: op.portalId, module_api_name: apiName },
      ctx.call,
    );
  } catch (error) {
    // Gone from the service, by our earlier send (its answer lost) or deleted for good there
    // meanwhile (a 404 is never a module still in the bin): either way what the admin asked for.
    const by = removedBy(error, wasSent);
    if (by === null) throw error;
    note =
      by === 'ours'
        ? undefined
        : `${nameOf(ctx, deps, op)} was already deleted for good on the service; it has left the module bin here.`;
  }
  ctx.repo.transaction(() => {
    leaveHere(ctx, deps, op);
    ctx.delivered(op, note !== undefined ? { note } : undefined);
  });
}

/** The module's name as the bin (or the mirror) knows it, quoted, for a message. */
function nameOf(ctx: SendContext, deps: ModuleSendDeps, op: OutboxOp): string {
  const name =
    deps.bin.get(op.portalId, op.moduleId)?.pluralName ??
    mirrorModuleOf(ctx, op.portalId, op.moduleId)?.pluralName ??
    op.moduleId;
  return `“${name}”`;
}

/** A module the service no longer has at all leaves the bin and the mirror here. */
function leaveHere(ctx: SendContext, deps: ModuleSendDeps, op: OutboxOp): void {
  deps.bin.remove(op.portalId, op.moduleId);
  ctx.mirror.metadata.deleteModule(op.portalId, op.moduleId);
}

/** leaveHere in a transaction of its own (a recover that found the module gone). */
function dropPurgedModule(ctx: SendContext, deps: ModuleSendDeps, op: OutboxOp): void {
  ctx.repo.transaction(() => leaveHere(ctx, deps, op));
}

async function sendActive(
  ctx: SendContext,
  deps: ModuleSendDeps,
  op: OutboxOp,
  client: ApiClient,
  active: boolean,
): Promise<void> {
  const args = { portal_id: op.portalId, module_api_name: apiNameOf(ctx, deps, op) };
  ctx.repo.markSending(op.seq, 'null');
  // Idempotent on the service: a resend after a lost answer does no harm.
  const module = active
    ? await client.activateModule(args, ctx.call)
    : await client.deactivateModule(args, ctx.call);
  ctx.repo.transaction(() => {
    storeModule(ctx, op.portalId, module);
    ctx.delivered(op);
  });
}

/** The outbox's send for `config` operations of modules. */
export function moduleSend(deps: ModuleSendDeps): Send {
  return async (ctx, op, client) => {
    let outcome: 'done' | 'stop' = 'done';
    switch (moduleActionOf(op)) {
      case 'create':
        await sendCreate(ctx, deps, op, client);
        break;
      case 'update':
        outcome = await sendUpdate(ctx, deps, op, client);
        break;
      case 'activate':
        await sendActive(ctx, deps, op, client, true);
        break;
      case 'deactivate':
        await sendActive(ctx, deps, op, client, false);
        break;
      case 'trash':
        await sendTrash(ctx, deps, op, client);
        break;
      case 'recover':
        await sendRecover(ctx, deps, op, client);
        break;
      case 'delete':
        await sendDelete(ctx, deps, op, client);
        break;
      default:
        throw new ChangeRefused(`PortalDesk does not know how to send "${op.action ?? ''}".`);
    }
    deps.changed(op.portalId);
    return outcome;
  };
}
