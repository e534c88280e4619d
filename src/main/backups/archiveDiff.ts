/**
 * A backup's records against the mirror's, per module: which are only in one of them, which
 * changed and in which fields. Both sides are read the way a sync reads the service (the archive's
 * records in the API's shape through readEntity and mapRecord), and each field is compared by what
 * it means (sameFieldValue: ids for statuses and users, code and amount for currencies, instants
 * for time stamps), so a difference is a change, not a change of spelling. Pure.
 */
import { sameFieldValue } from '../../shared/fieldValues/sameFieldValue';
import type { ModuleDiff } from '../../shared/ipc/areas/backups';
import type { ServerCopy } from '../store/mirror/recordRepository';

/** What is compared of a record, on either side: the mirror's server copy without its module. */
export type RecordFacts = Omit<ServerCopy, 'module'>;

/** The record's own fields: key, the word shown, the type they compare as. */
const SYSTEM_FIELDS = [
  ['name', 'Name', 'name'],
  ['description', 'Description', 'description'],
  ['statusId', 'Status', 'status'],
  ['layoutId', 'Layout', 'id'],
  ['projectId', 'Project', 'id'],
  ['ownerZpuid', 'Owner', 'user_pick_list'],
  ['isClosed', 'Closed', 'flag'],
  ['isExternal', 'External', 'flag'],
] as const;

/** Ours: examples kept per module and kind. */
export const EXAMPLES_PER_KIND = 5;

export interface FieldNames {
  /** A custom field's type and label by api name; unknown fields compare as they are. */
  custom(apiName: string): { type: string; label: string } | undefined;
}

/** The labels of the fields whose values differ, the record's own first. */
export function changedFields(
  archived: RecordFacts,
  mirrored: RecordFacts,
  names: FieldNames,
): string[] {
  const changed: string[] = [];
  for (const [key, label, type] of SYSTEM_FIELDS) {
    if (!sameFieldValue(type, archived[key], mirrored[key])) changed.push(label);
  }
  const keys = new Set([...Object.keys(archived.custom), ...Object.keys(mirrored.custom)]);
  for (const key of [...keys].sort()) {
    const field = names.custom(key);
    const a = Object.hasOwn(archived.custom, key) ? archived.custom[key] : undefined;
    const b = Object.hasOwn(mirrored.custom, key) ? mirrored.custom[key] : undefined;
    if (!sameFieldValue(field?.type ?? 'unknown', a, b)) changed.push(field?.label ?? key);
  }
  return changed;
}

/** Counts one module's records as they are compared, keeping a few examples of each kind. */
export class ModuleDiffTally {
  private added = 0;
  private removed = 0;
  private changed = 0;
  private unchanged = 0;
  private archived = 0;
  private readonly fields = new Map<string, number>();
  private readonly examples: ModuleDiff['examples'] = [];

  constructor(
    readonly module: string,
    private readonly label: string,
    private readonly mirrored: number,
  ) {}

  private example(example: ModuleDiff['examples'][number]): void {
    if (this.examples.filter((kept) => kept.change === example.change).length < EXAMPLES_PER_KIND) {
      this.examples.push(example);
    }
  }

  /** A record of the backup: `fields` are the changed ones, null when the mirror lacks it. */
  archivedRecord(id: string, name: string, fields: string[] | null): void {
    this.archived++;
    if (fields === null) {
      this.removed++;
      this.example({ id, name, change: 'removed', fields: [] });
    } else if (fields.length === 0) {
      this.unchanged++;
    } else {
      this.changed++;
      for (const field of fields) this.fields.set(field, (this.fields.get(field) ?? 0) + 1);
      this.example({ id, name, change: 'changed', fields });
    }
  }

  /** A record of the mirror the backup does not hold. */
  mirrorOnly(id: string, name: string): void {
    this.added++;
    this.example({ id, name, change: 'added', fields: [] });
  }

  result(): ModuleDiff {
    return {
      module: this.module,
      label: this.label,
      archived: this.archived,
      mirrored: this.mirrored,
      added: this.added,
      removed: this.removed,
      changed: this.changed,
      unchanged: this.unchanged,
      fields: [...this.fields]
        .map(([field, records]) => ({ field, records }))
        .sort((a, b) => b.records - a.records || a.field.localeCompare(b.field)),
      examples: this.examples,
    };
  }
}
