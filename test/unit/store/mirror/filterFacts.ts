/**
 * What the filter language reads of a record (packages/portal-api/src/filter/evaluate.ts's `record(key)`),
 * from a record in the API's shapes: the in-memory side of the tests that hold the mirror's SQL
 * against `evaluate`. Custom fields by their type, as recordFilterSetup binds them: a currency by
 * its amount, a user by zpuid, a multi-select by option ids, a multi-user list by zpuids.
 */
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';

export interface FactsOf {
  /** Ids of the module's statuses of a closed type. */
  closedIds: ReadonlySet<string>;
  /** A custom field's type by api_name (undefined: not a field of the module). */
  typeOf(apiName: string): string | undefined;
  /** A multi-select option's id by its name. */
  optionId(name: string): string | undefined;
}

export function filterFacts(record: MirrorRecord, facts: FactsOf): (key: string) => unknown {
  const custom = record.custom;
  return (key) => {
    switch (key) {
      case 'name':
        return record.name;
      case 'description':
        return record.description;
      case 'status':
        return record.statusId;
      case 'owner':
        return record.ownerZpuid;
      case 'created_time':
        return record.createdTime;
      case 'last_updated_time':
        return record.lastUpdatedTime;
      case 'is_closed':
        // The module's closed statuses decide; a record without a status keeps its own flag.
        return record.statusId === null ? record.isClosed : facts.closedIds.has(record.statusId);
      case 'is_external':
        return record.isExternal;
    }
    const value = custom[key];
    switch (facts.typeOf(key)) {
      case 'currency':
        return (value as { amount: number } | null | undefined)?.amount;
      case 'user_pick_list':
        return (value as { zpuid: string } | null | undefined)?.zpuid;
      case 'multi_select':
        return (value as string[] | null | undefined)?.map((name) => facts.optionId(name));
      case 'multi_user':
        return (value as { zpuid: string }[] | null | undefined)?.map((user) => user.zpuid);
      default:
        return value;
    }
  };
}
