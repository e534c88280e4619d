import type { FieldOptions } from '@portaldesk/portal-api/domain/fieldOption';
import { FIRST_PAGE, PER_PAGE_MAX } from '@portaldesk/portal-api/domain/limits';
import { mapFieldOptions, OPTION_FIELD_TYPES } from './mapFieldOptions';
import type { FieldsConfiguration } from '@portaldesk/portal-api/domain/fieldsConfiguration';
import type { MetadataRepository } from '../store/mirror/metadataRepository';
import { mapFieldsConfiguration } from './mapFieldsConfiguration';
import { MentionedUsers } from './mentionedUsers';
import { optionRenames } from './optionRenames';
import { callOptions, countedCall, type ModuleRef, type RunContext } from './syncContext';
import type { ProgressScope } from './syncProgressTracker';

/** Types whose record values hold option names (custom_options), which a rename relabels. */
const RELABELLED_TYPES: ReadonlySet<string> = new Set(['pick_list', 'multi_select']);

/** Every page of one field's options (users and roles are paged as one list). */
async function readFieldOptions(
  ctx: RunContext,
  scope: ProgressScope,
  portalId: string,
  module: ModuleRef,
  fieldId: string,
): Promise<FieldOptions & { availableRoles: { id: string; name: string | null }[] }> {
  const list = countedCall(ctx, scope, ctx.client.listFieldOptions);
  const all: FieldOptions & { availableRoles: { id: string; name: string | null }[] } = {
    custom_options: [],
    users: [],
    roles: [],
    statuses: [],
    availableRoles: [],
  };
  for (let page = FIRST_PAGE; ; page++) {
    const reply = await list(
      {
        portal_id: portalId,
        query: { module: module.apiName, field: fieldId, page, per_page: PER_PAGE_MAX },
      },
      callOptions(ctx),
    );
    all.custom_options.push(...reply.options.custom_options);
    all.users.push(...reply.options.users);
    all.roles.push(...reply.options.roles);
    all.statuses.push(...reply.options.statuses);
    // Every page names the same roles the portal offers: the first page's are kept.
    if (all.availableRoles.length === 0) all.availableRoles = reply.availableRoles;
    if (!reply.pageInfo?.has_next_page || reply.received === 0) return all;
  }
}

/**
 * A module's fields, layouts (with their sections and placements) and statuses as one
 * fields-configuration reply gives them, each list replacing the stored one. Also what a replayed
 * layout change stores (src/main/configure/sendLayoutOp.ts).
 */
export function storeFieldsConfiguration(
  metadata: MetadataRepository,
  portalId: string,
  moduleId: string,
  config: FieldsConfiguration,
): void {
  metadata.replaceFieldsConfiguration(portalId, moduleId, mapFieldsConfiguration(config));
}

/**
 * A module's layouts (with sections), fields and statuses from one fields-configuration call,
 * then the options of each pick-list, multi-select and user field (one call each). Each list
 * replaces the stored one, the records' values following a field deleted there or an option
 * renamed there (optionRenames); a reply that cannot be read fails the module's settings and
 * leaves the stored ones as they were.
 */
export async function syncModuleSettings(
  ctx: RunContext,
  scope: ProgressScope,
  portalId: string,
  module: ModuleRef,
): Promise<void> {
  const config = await countedCall(
    ctx,
    scope,
    ctx.client.getFieldsConfiguration,
  )({ portal_id: portalId, query: { module: module.apiName } }, callOptions(ctx));
  const metadata = ctx.writer.metadata;
  // A field deleted there took its values from the module's records without a new
  // last_updated_time: no record pull brings that, so the server copies here follow now.
  const listed = new Set(config.fields.map((field) => field.id));
  const gone = ctx.mirror.metadata.fields(portalId, module.id).filter((f) => !listed.has(f.id));
  await metadata.replaceFieldsConfiguration(portalId, module.id, mapFieldsConfiguration(config));
  for (const field of gone) {
    await ctx.writer.records.clearFieldValues(portalId, module.id, field.apiName);
  }

  const withOptions = config.fields.filter((field) => OPTION_FIELD_TYPES.has(field.field_type));
  const stored = ctx.mirror.metadata
    .moduleOptions(portalId, module.id)
    .filter((option) => option.kind === 'custom_option');
  const users = new MentionedUsers();
  await Promise.all(
    withOptions.map(async (field) => {
      const options = await readFieldOptions(ctx, scope, portalId, module, field.id);
      // The records first: once the options are replaced, the old names are known no more.
      const relabel = optionRenames(
        stored.filter((option) => option.fieldId === field.id),
        options.custom_options,
      );
      if (relabel.size > 0 && RELABELLED_TYPES.has(field.field_type)) {
        const choice = { apiName: field.api_name, multi: field.field_type === 'multi_select' };
        await ctx.writer.records.relabelOptions(portalId, module.id, choice, relabel);
        ctx.optionsRenamed({ portalId, moduleId: module.id, field: choice, relabel: [...relabel] });
      }
      await metadata.replaceFieldOptions(portalId, field.id, mapFieldOptions(options));
      await metadata.replacePortalRoles(portalId, options.availableRoles);
      users.addOptions(options);
    }),
  );
  await metadata.upsertUsers(portalId, users.list());
}
