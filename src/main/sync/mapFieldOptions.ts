import type { FieldOptions } from '@portaldesk/portal-api/domain/fieldOption';
import type { CustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import type { MirrorFieldOption } from '../store/mirror/mirrorTypes';

/**
 * Field types whose options are read with GET settings/options: pick lists and multi-selects
 * (custom_options), user fields (users and roles). The status field's options are the module's
 * statuses, which fields-configuration already returns.
 */
export const OPTION_FIELD_TYPES: ReadonlySet<string> = new Set<CustomFieldType>([
  'pick_list',
  'multi_select',
  'user_pick_list',
  'multi_user',
]);

/** A field's option lists as mirror rows, each list's order kept (position counts from 0). */
export function mapFieldOptions(options: FieldOptions): MirrorFieldOption[] {
  const rows: MirrorFieldOption[] = [];
  options.custom_options.forEach((option, index) =>
    rows.push({
      kind: 'custom_option',
      valueId: option.id,
      value: option.value,
      layoutId: option.layout?.id ?? null,
      position: option.position ?? index,
    }),
  );
  options.users.forEach((user, index) =>
    rows.push({
      kind: 'user',
      valueId: user.zpuid,
      value: user.name,
      layoutId: user.layout?.id ?? null,
      position: index,
    }),
  );
  options.roles.forEach((role, index) =>
    rows.push({
      kind: 'role',
      valueId: role.id,
      value: role.name,
      layoutId: role.layout?.id ?? null,
      position: index,
    }),
  );
  return rows;
}
