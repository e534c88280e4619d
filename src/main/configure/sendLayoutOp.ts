/**
 * The replay of a layout or section change (outbox kind `config`, actions `layout.*`), exactly
 * once: a layout or section created whose answer was lost is looked up by its name (unique in its
 * module or layout, as the service keeps them) before any resend, and one a copy marks
 * `adopt_existing` is looked up before it is first sent (the service's own of that name is taken); a delete answered 404 is
 * delivered, gone as asked (by our lost first send or another admin: deleteOnce, and the history
 * says which); renames and moves send the same values again. A
 * change of a module still being created here waits for it; one whose module, layout or section
 * creation was discarded is refused in words. After each answer the module's fields-configuration
 * is read again (one GET) and stored, so the mirror holds what the service now has.
 */
import type { Layout } from '@portaldesk/portal-api/domain/layout';
import type { ApiClient } from '../api/client/apiClient';
import { collectAll } from '../api/client/paginate';
import { ChangeRefused } from '../outbox/replayFailure';
import { createOnce, type Send, type SendContext } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import {
  copiedSectionId,
  deleteOnce,
  holdConflicts,
  judgeSettings,
  moduleApiName,
  isNamed,
  sameName,
  storeModule,
  type SettingsJudge,
} from './settingsReplay';
import {
  createLayoutBody,
  layoutActionOf,
  param,
  sectionBody,
  tempIdsOf,
  updateLayoutBody,
} from './layoutOps';
import { LOST_CREATE_SKEW_MS } from './sendModuleOp';
import { fieldActionOf } from './fieldOps';
import { sendField } from './sendFieldOp';
import { optionActionOf } from './optionOps';
import { sendOptions } from './sendOptionOp';
import { sendPlaceField } from './sendPlaceField';

export interface LayoutSendDeps {
  changed(portalId: string): void;
}

/** Refuses an op that still names a layout or section whose creation never reached the service. */
function requireServerIds(op: OutboxOp): void {
  const [temp] = tempIdsOf(op);
  if (temp !== undefined) {
    throw new ChangeRefused(
      'This change names a layout or section whose creation was discarded or refused; discard this change too.',
    );
  }
}

async function createLayout(ctx: SendContext, op: OutboxOp, client: ApiClient, module: string) {
  const body = createLayoutBody(op, module);
  if (param(op, 'adopt_existing') === true) {
    // A copy into a module created here: the service gave the module a default layout of its own;
    // one of this name is the copied layout already (a name is unique in its module), not made twice.
    const layouts = await collectAll(
      client.listLayouts,
      { portal_id: op.portalId, query: { module } },
      ctx.call,
    );
    const existing = layouts.find((layout) => sameName(layout.name, body.name));
    if (existing) {
      // Taken as this layout, it gets this layout's type (the service made it with the module's
      // default type); a PATCH with the same type again after a kill changes nothing.
      if (body.type !== undefined && existing.type !== body.type) {
        ctx.repo.markSending(op.seq, JSON.stringify({ module, type: body.type }));
        await client.updateLayout(
          {
            portal_id: op.portalId,
            layout_id: existing.id,
            body: { module, type: body.type } as never,
          },
          ctx.call,
        );
      }
      ctx.repo.rewriteTempId(op.portalId, String(param(op, 'layout_id')), existing.id);
      return;
    }
  }
  const created = await createOnce<Layout>(
    ctx,
    op,
    body,
    async (sentAt) => {
      const layouts = await collectAll(
        client.listLayouts,
        { portal_id: op.portalId, query: { module } },
        ctx.call,
      );
      const since = Date.parse(sentAt) - LOST_CREATE_SKEW_MS;
      return (
        layouts.find(
          (layout) =>
            isNamed(layout.name, body.name) &&
            (layout.created_time === null || Date.parse(layout.created_time) >= since),
        ) ?? null
      );
    },
    () =>
      client.createLayout(
        { portal_id: op.portalId, body: body as never },
        { ...ctx.call, subject: `the new layout "${String(body.name)}"` },
      ),
  );
  ctx.repo.rewriteTempId(op.portalId, String(param(op, 'layout_id')), created.id);
}

async function putSection(ctx: SendContext, op: OutboxOp, client: ApiClient, module: string) {
  const layoutId = String(param(op, 'layout_id'));
  const copied =
    param(op, 'section_copied') === true
      ? await copiedSectionId(ctx, client, op, module, layoutId, String(param(op, 'section_was')))
      : undefined;
  const body = {
    ...sectionBody(op, module),
    ...(copied !== undefined ? { id: copied } : {}),
  };
  const args = { portal_id: op.portalId, layout_id: layoutId, body: body as never };
  if (param(op, 'section_id') !== undefined) {
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    await client.putSection(args, ctx.call);
    return;
  }
  if (param(op, 'adopt_existing') === true) {
    // A copy into a layout created here: sections the service gave it of this name are taken.
    const layout = await client.getLayout(
      { portal_id: op.portalId, layout_id: layoutId, query: { module } },
      ctx.call,
    );
    const existing = (layout.sections ?? []).find((section) => sameName(section.name, body.name));
    if (existing) {
      ctx.repo.rewriteTempId(op.portalId, String(param(op, 'new_section_id')), existing.id);
      return;
    }
  }
  const created = await createOnce(
    ctx,
    op,
    body,
    async () => {
      const layout = await client.getLayout(
        { portal_id: op.portalId, layout_id: layoutId, query: { module } },
        ctx.call,
      );
      return (layout.sections ?? []).find((section) => isNamed(section.name, body.name)) ?? null;
    },
    () => client.putSection(args, ctx.call),
  );
  ctx.repo.rewriteTempId(op.portalId, String(param(op, 'new_section_id')), created.id);
}

/** The outbox's send for `config` operations of layouts, sections and fields. */
export function layoutSend(deps: LayoutSendDeps): Send {
  return async (ctx, op, client) => {
    const module = moduleApiName(ctx, op);
    if (optionActionOf(op) !== null) {
      await sendOptions(ctx, op, client, module);
      deps.changed(op.portalId);
      return 'done';
    }
    if (fieldActionOf(op) !== null) {
      const outcome = await sendField(ctx, op, client, module);
      // A conflict keeps its operation (marked); the module is stored all the same.
      const conflict = outcome === 'conflict';
      await storeModule(ctx, client, op, module, conflict ? { keepOp: true } : outcome);
      deps.changed(op.portalId);
      return conflict ? 'stop' : 'done';
    }
    const action = layoutActionOf(op);
    if (action !== 'createLayout') requireServerIds(op);
    const layout = { portal_id: op.portalId, layout_id: String(param(op, 'layout_id')) };
    /** What the history says besides the calls: who deleted what a delete found gone. */
    let note: string | undefined;
    switch (action) {
      case 'createLayout':
        if (String(param(op, 'reference_id') ?? '').startsWith('tmp-')) requireServerIds(op);
        await createLayout(ctx, op, client, module);
        break;
      case 'updateLayout':
        if ((await sendLayoutUpdate(ctx, op, client, module)) === 'conflict') {
          await storeModule(ctx, client, op, module, { keepOp: true });
          deps.changed(op.portalId);
          return 'stop';
        }
        break;
      case 'deleteLayout':
        note = await deleteOnce(op, ctx, layoutNamed(ctx, op, layout.layout_id), () =>
          client.deleteLayout({ ...layout, query: { module } }, ctx.call),
        );
        break;
      case 'putSection':
        await putSection(ctx, op, client, module);
        break;
      case 'deleteSection': {
        const sectionId =
          param(op, 'section_copied') === true
            ? await copiedSectionId(
                ctx,
                client,
                op,
                module,
                layout.layout_id,
                String(param(op, 'section_name')),
              )
            : String(param(op, 'section_id'));
        note = await deleteOnce(
          op,
          ctx,
          `The section “${String(param(op, 'section_name') ?? sectionId)}”`,
          () =>
            client.deleteSection({ ...layout, section_id: sectionId, query: { module } }, ctx.call),
        );
        break;
      }
      case 'removeField':
        note = await deleteOnce(
          op,
          ctx,
          `“${String(param(op, 'field_label') ?? param(op, 'field'))}” (on this layout)`,
          () =>
            client.removeLayoutField(
              { ...layout, field_api_name: String(param(op, 'field')), query: { module } },
              ctx.call,
            ),
        );
        break;
      case 'placeField':
        await sendPlaceField(ctx, op, client, module);
        break;
      default:
        throw new ChangeRefused(`PortalDesk does not know how to send "${op.action ?? ''}".`);
    }
    await storeModule(ctx, client, op, module, { note });
    deps.changed(op.portalId);
    return 'done';
  };
}

/** A layout as the mirror names it, for the history's words. */
function layoutNamed(ctx: SendContext, op: OutboxOp, layoutId: string): string {
  const name = ctx.mirror.metadata
    .layouts(op.portalId, op.moduleId)
    .find((candidate) => candidate.id === layoutId)?.name;
  return name === undefined ? `The layout ${layoutId}` : `The layout “${name}”`;
}

const LAYOUT_SETTING_LABEL: Record<string, string> = { name: 'Name', type: 'Type' };

/**
 * A layout's rename or type change, never over one made on the service unseen: the layout is read
 * first and each setting judged (settingsReplay.ts, judgeSettings); a conflict is resolved in the
 * Outbox (mine or theirs). Making it the default never conflicts: whichever layout the service
 * made the default meanwhile, mine asks for this one.
 */
async function sendLayoutUpdate(
  ctx: SendContext,
  op: OutboxOp,
  client: ApiClient,
  module: string,
): Promise<'done' | 'conflict'> {
  const layoutId = String(param(op, 'layout_id'));
  const server = await client.getLayout(
    { portal_id: op.portalId, layout_id: layoutId, query: { module } },
    ctx.call,
  );
  const theirs: Record<string, unknown> = {
    name: server.name,
    type: server.type,
    is_default: server.is_default === true,
  };
  const judge: SettingsJudge = {
    isSetting: (key) => key in theirs,
    theirs: (key) => theirs[key],
    same: (key, a, b) => (key === 'name' ? isNamed(String(b), a) : a === b),
    label: (key) => LAYOUT_SETTING_LABEL[key] ?? key,
    neverConflicts: (key) => key === 'is_default',
  };
  const { going, sending, conflicts } = judgeSettings(op, judge);
  if (sending > 0) {
    const body = updateLayoutBody({ fields: going }, module);
    ctx.repo.markSending(op.seq, JSON.stringify(body));
    await client.updateLayout(
      { portal_id: op.portalId, layout_id: layoutId, body: body as never },
      { ...ctx.call, subject: `the change to layout "${server.name}"` },
    );
  }
  if (conflicts.length === 0) return 'done';
  holdConflicts(ctx, op, judge, conflicts, `Layout ${server.name}`);
  return 'conflict';
}
