/**
 * The order of a record list, as the API sorts (packages/emulator/README.md, "Record order and
 * sort_by"): text ignoring case, statuses in workflow order, users by name, empty values last in
 * both directions, ties by id in the same direction; multi-valued fields cannot be sorted by.
 * id, name and last_updated_time are index orders, status reads one index range per status (see
 * statusWindowSql), a custom field's key is an index order once its expression index exists
 * (customFieldIndexer.ts; SQLite walks it for NULLS LAST too); the others sort in a temporary
 * B-tree.
 * Pure: SQL over a record row aliased `r`.
 */
import { isCustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import { FOLD_SQL_FUNCTION } from '@portaldesk/portal-api/filter';
import { SAFE_API_NAME } from '@portaldesk/portal-api/domain/customFieldFilterKinds';
import type { SetupField } from './recordFilterSetup';
import { RecordQueryError } from './recordQueryError';

export interface RecordSort {
  /** A system field (id, name, status, ...) or a custom field's api_name. */
  field: string;
  descending: boolean;
}

export interface SortPlan {
  /** The sort key's SQL expression. */
  key: string;
  /** The key can be NULL (empty values then go last). */
  nullable: boolean;
  descending: boolean;
  /** Empty values first: the exact reverse of an order, read from its far end. */
  nullsFirst?: boolean;
  /**
   * The status order: `key` is each row's status position, which no index holds, but the rows of
   * one status are an index range in id order, so a window can be read status by status.
   */
  byStatus?: boolean;
  /**
   * A custom field's key: an expression index on it (customFieldIndexDefinition.ts) makes the
   * order an index walk; without one, every window sorts the module.
   */
  custom?: boolean;
}

const fold = (expr: string) => `${FOLD_SQL_FUNCTION}(${expr})`;

const customPlan = (key: string, descending: boolean): SortPlan => ({
  key,
  nullable: true,
  descending,
  custom: true,
});

/** System fields a list can be sorted by, with their key and whether it can be empty. */
function systemKeys(closedExpr: string): Record<string, { key: string; nullable: boolean }> {
  return {
    id: { key: 'r.id', nullable: false },
    // The repository keeps name_fold = foldText(name): an index order, no function call.
    name: { key: 'r.name_fold', nullable: false },
    description: { key: fold('r.description'), nullable: false },
    status: {
      key: '(SELECT s.position FROM statuses s WHERE s.portal_id = r.portal_id AND s.id = r.status_id)',
      nullable: true,
    },
    owner: {
      key: `(SELECT ${fold('u.name')} FROM portal_users u WHERE u.portal_id = r.portal_id AND u.zpuid = r.owner_zpuid)`,
      nullable: true,
    },
    project: { key: fold('r.project_name'), nullable: true },
    created_time: { key: 'r.created_time', nullable: false },
    last_updated_time: { key: 'r.last_updated_time', nullable: false },
    is_closed: { key: closedExpr, nullable: false },
    is_external: { key: 'r.is_external', nullable: false },
  };
}

/**
 * The sort plan; without a sort, id ascending (the API's default order). Throws RecordQueryError,
 * naming the sortable fields, for a field that cannot be sorted by.
 */
export function recordSortPlan(
  sort: RecordSort | undefined,
  fields: readonly SetupField[],
  closedExpr: string,
): SortPlan {
  const wanted = sort ?? { field: 'id', descending: false };
  const system = systemKeys(closedExpr);
  if (Object.hasOwn(system, wanted.field)) {
    const { key, nullable } = system[wanted.field] as { key: string; nullable: boolean };
    return {
      key,
      nullable,
      descending: wanted.descending,
      ...(wanted.field === 'status' ? { byStatus: true } : {}),
    };
  }
  const field = fields.find(
    (f) => f.apiName === wanted.field && f.isDefault !== true && f.isDefault !== 1,
  );
  const sortable = (type: string) => type !== 'multi_select' && type !== 'multi_user';
  if (field && isCustomFieldType(field.fieldType) && SAFE_API_NAME.test(field.apiName)) {
    const value = `json_extract(r.custom, '$.${field.apiName}')`;
    switch (field.fieldType) {
      case 'multi_select':
      case 'multi_user':
        throw new RecordQueryError(
          `Records cannot be sorted by ${field.displayName}: it holds several values. The list keeps its order; choose another field.`,
        );
      case 'single_line':
      case 'multi_line':
      case 'pick_list':
      case 'email':
      case 'phone':
      case 'url':
        return customPlan(fold(value), wanted.descending);
      case 'user_pick_list':
        return customPlan(
          fold(`json_extract(r.custom, '$.${field.apiName}.name')`),
          wanted.descending,
        );
      case 'currency':
        return customPlan(`json_extract(r.custom, '$.${field.apiName}.amount')`, wanted.descending);
      default:
        return customPlan(value, wanted.descending);
    }
  }
  const names = [
    ...Object.keys(system),
    ...fields
      .filter((f) => f.isDefault !== true && f.isDefault !== 1 && sortable(f.fieldType))
      .map((f) => f.apiName),
  ];
  throw new RecordQueryError(
    `Records cannot be sorted by "${wanted.field}". The list keeps its order; sortable fields: ${names.join(', ')}.`,
  );
}

/**
 * ORDER BY terms for the plan. `key` and `id` name the key and id expressions (columns of the
 * row, or the result columns of a compound select). NULLS LAST (or FIRST, reversed) only where
 * the key can be NULL, so index orders stay usable.
 */
export function orderByTerms(plan: SortPlan, key: string, id: string): string {
  const direction = plan.descending ? 'DESC' : 'ASC';
  if (plan.key === 'r.id') return `${id} ${direction}`;
  const nulls = plan.nullable ? (plan.nullsFirst ? ' NULLS FIRST' : ' NULLS LAST') : '';
  return `${key} ${direction}${nulls}, ${id} ${direction}`;
}
