/**
 * The order of a record list, as the API sorts (packages/emulator/README.md, "Record order and
 * sort_by"): text ignoring case in natural order (digit runs by value, naturalOrder.ts), statuses
 * in workflow order, users by name, a currency by its code then its amount (currencyOrder.ts),
 * empty values last in both directions, ties by id in the same direction; multi-valued fields
 * cannot be sorted by.
 * id, name (its stored key, records.name_sort) and last_updated_time are index orders, status
 * reads one index range per status (see statusWindowSql), a custom field's key is an index order
 * once its expression index exists (customFieldIndexer.ts; SQLite walks it for NULLS LAST too);
 * the others sort in a temporary B-tree.
 * Pure: SQL over a record row aliased `r`.
 */
import { isCustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import { currencyOrderTerms } from '@portaldesk/portal-api/domain/currencyOrder';
import { NATURAL_SORT_SQL_FUNCTION } from '@portaldesk/portal-api/domain/naturalOrder';
import { instantSql } from '@portaldesk/portal-api/filter';
import { SAFE_API_NAME } from '@portaldesk/portal-api/domain/customFieldFilterKinds';
import { queuedPickListExpr, type OptionRelabel, type SetupField } from './recordFilterSetup';
import { RecordQueryError } from './recordQueryError';

export interface RecordSort {
  /** A system field (id, name, status, ...) or a custom field's api_name. */
  field: string;
  descending: boolean;
}

export interface SortPlan {
  /** The sort key's SQL expression. */
  key: string;
  /**
   * A second key, after `key` in the same direction and never NULL where `key` is not (a
   * currency's amount after its code), so only `key` needs a NULLS clause.
   */
  then?: string;
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
  /**
   * The key over the rows with pending edits, when it is not `key`: a pick list whose options a
   * queued change renames or removes is sorted by the names the lists show, which `key` reads
   * off the server copies (queuedPickListExpr) and the edited rows hold already.
   */
  editedKey?: string;
}

/** Text in natural order: its sort key, NULL for anything but text (naturalOrder.ts). */
const natural = (expr: string) => `${NATURAL_SORT_SQL_FUNCTION}(${expr})`;

const customPlan = (key: string, descending: boolean, then?: string): SortPlan => ({
  key,
  ...(then === undefined ? {} : { then }),
  nullable: true,
  descending,
  custom: true,
});

/** System fields a list can be sorted by, with their key and whether it can be empty. */
function systemKeys(closedExpr: string): Record<string, { key: string; nullable: boolean }> {
  return {
    id: { key: 'r.id', nullable: false },
    // The writers keep name_sort = naturalSortKey(name): an index order, no function call.
    name: { key: 'r.name_sort', nullable: false },
    description: { key: natural('r.description'), nullable: false },
    status: {
      key: '(SELECT s.position FROM statuses s WHERE s.portal_id = r.portal_id AND s.id = r.status_id)',
      nullable: true,
    },
    owner: {
      key: `(SELECT ${natural('u.name')} FROM portal_users u WHERE u.portal_id = r.portal_id AND u.zpuid = r.owner_zpuid)`,
      nullable: true,
    },
    project: { key: natural('r.project_name'), nullable: true },
    // As numbers, the keys records_by_created and records_by_updated hold (migration 0022).
    created_time: { key: instantSql('r.created_time'), nullable: false },
    last_updated_time: { key: instantSql('r.last_updated_time'), nullable: false },
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
  relabel: OptionRelabel = new Map(),
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
      case 'pick_list': {
        const queued = relabel.get(field.apiName);
        if (queued === undefined || queued.size === 0) {
          return customPlan(natural(value), wanted.descending);
        }
        // Not an index order while the changes are queued: the module is sorted (as any field
        // without an index is), in the order of the names shown.
        return {
          key: natural(queuedPickListExpr(value, queued)),
          editedKey: natural(value),
          nullable: true,
          descending: wanted.descending,
        };
      }
      case 'single_line':
      case 'multi_line':
      case 'email':
      case 'phone':
      case 'url':
        return customPlan(natural(value), wanted.descending);
      case 'user_pick_list':
        return customPlan(
          natural(`json_extract(r.custom, '$.${field.apiName}.name')`),
          wanted.descending,
        );
      case 'currency': {
        const { code, amount } = currencyOrderTerms(
          (member) => `json_extract(r.custom, '$.${field.apiName}.${member}')`,
        );
        return customPlan(code, wanted.descending, amount);
      }
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

/** How a statement writes the plan's keys and the id: expressions of the row, or columns. */
export interface OrderTerms {
  key: string;
  /** The plan's `then` as written here; undefined exactly when the plan has none. */
  then: string | undefined;
  id: string;
}

/** The plan's own expressions over a row aliased `r`, each behind `prefix` (`+` keeps SQLite off their index). */
export function planTerms(plan: SortPlan, prefix: '' | '+' = ''): OrderTerms {
  return {
    key: `${prefix}${plan.key}`,
    then: plan.then === undefined ? undefined : `${prefix}${plan.then}`,
    id: `${prefix}r.id`,
  };
}

/**
 * The expression an index must hold for the plan's order (both keys, comma separated, as an
 * index's column list takes them): what a custom field's sort asks the indexer for.
 */
export function sortIndexExpression(plan: SortPlan): string {
  return plan.then === undefined ? plan.key : `${plan.key}, ${plan.then}`;
}

/**
 * ORDER BY terms for the plan, its keys and id written as `terms` says (columns of the row, or the
 * result columns of a compound select). NULLS LAST (or FIRST, reversed) only where the key can be
 * NULL, so index orders stay usable; never on `then`, which is set wherever `key` is (SQLite
 * cannot walk an index for a second NULLS term).
 */
export function orderByTerms(plan: SortPlan, terms: OrderTerms): string {
  const direction = plan.descending ? 'DESC' : 'ASC';
  if (plan.key === 'r.id') return `${terms.id} ${direction}`;
  const nulls = plan.nullable ? (plan.nullsFirst ? ' NULLS FIRST' : ' NULLS LAST') : '';
  const then = terms.then === undefined ? '' : `, ${terms.then} ${direction}`;
  return `${terms.key} ${direction}${nulls}${then}, ${terms.id} ${direction}`;
}
