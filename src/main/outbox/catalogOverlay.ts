/**
 * The record editor's fields as the module's queued configuration leaves them (pure): options
 * renamed by their new name, added ones offered, removed ones not; a deleted field not offered; a
 * renamed field by its new label. The mirror holds the service's configuration until the replay
 * delivers those changes, and record changes go after them (recordsWaitFor.ts), so a record
 * change must name options as they will be. Also the renames as a mapping of the names the
 * mirror's records hold, so the values the editor shows and the bases of new edits follow them.
 *
 * Reads the operations of src/main/configure/ (optionOps.ts, fieldOps.ts, statusOps.ts) by their
 * stored parameters (`fields.<name>.value`); `test/unit/outbox/catalogOverlay.property.test.ts`
 * checks the options against the Configure view's own overlay (overlayOptions).
 *
 * The records workspace reads the same overlays: options (optionsAsQueued, relabelled) and
 * statuses (statusesNamedAsQueued) as the queue leaves them, so the lists, the record panel,
 * export rows and filter choices show what the editor shows.
 *
 * Statuses too: a record change names its status by id (the spec's `status {id}`), so a rename
 * changes no queued value, but the editor and the Outbox name a status as it will be; a status
 * whose removal is queued is not offered (removed first, the service would refuse the change).
 */
import type { EditableField, WaitingStatus } from '../../shared/ipc/areas/outbox';
import type { CatalogStatus } from './outboxRepository';
import type { OutboxOp } from './outboxTypes';

/**
 * The queue of a module's layouts, fields and options (configure/layoutOps names it `layoutsQueue`;
 * outbox.sql spells it `'layouts:' || module_id`).
 */
export const configQueueOf = (moduleId: string) => `layouts:${moduleId}`;

export interface NamedOption {
  id: string;
  name: string;
}

const paramOf = <T>(op: Pick<OutboxOp, 'fields'>, name: string): T | undefined =>
  op.fields[name]?.value as T | undefined;

/** A queued option change as the option overlays read it: what it does and its stored parameters. */
export type OptionChangeOp = Pick<OutboxOp, 'action' | 'fields'>;

const namedOptions = (op: OptionChangeOp): NamedOption[] => {
  const options = paramOf<unknown>(op, 'options');
  return Array.isArray(options)
    ? options.filter(
        (o): o is NamedOption =>
          typeof o === 'object' &&
          o !== null &&
          typeof (o as NamedOption).id === 'string' &&
          typeof (o as NamedOption).name === 'string',
      )
    : [];
};

/**
 * One queued change of a field's options laid over them, in place (pure but for `options`): added
 * ones at the end (`made` builds them), renamed ones by their new name (the same objects, so what
 * a caller keeps on them stays), removed ones out, a moved one at its 1-based place (the end when
 * past it). The Configure view's overlay (configure/optionOps.ts, overlayOptions) and the
 * editor's both lay changes over with it, so the two cannot disagree.
 */
export function applyOptionChange<T extends NamedOption>(
  options: T[],
  op: OptionChangeOp,
  made: (option: NamedOption) => T,
): void {
  const named = namedOptions(op);
  if (op.action === 'option.addOptions') {
    for (const option of named) options.push(made(option));
    return;
  }
  for (const option of named) {
    const index = options.findIndex((candidate) => candidate.id === option.id);
    if (index === -1) continue;
    const shown = options[index]!;
    if (op.action === 'option.renameOptions') shown.name = option.name;
    else if (op.action === 'option.removeOptions') options.splice(index, 1);
    else if (op.action === 'option.moveOption') {
      options.splice(index, 1);
      const position = paramOf<unknown>(op, 'position');
      const place = typeof position === 'number' ? position : options.length + 1;
      options.splice(Math.min(place - 1, options.length), 0, shown);
    }
  }
}

export interface CatalogOverlay {
  fields: EditableField[];
  /**
   * Per field API name: the name a mirrored record holds → the name it will hold (null: the
   * option is removed, and the service clears it from its records).
   */
  relabel: Map<string, Map<string, string | null>>;
}

/**
 * `fields` (the editor's, from the mirror) with the module's queued configuration changes laid
 * over in queue order; `idOf` gives a field key's id (the operations name fields by id).
 */
export function overlayCatalogFields(
  fields: readonly EditableField[],
  idOf: (key: string) => string | undefined,
  ops: readonly OutboxOp[],
): CatalogOverlay {
  const byId = new Map<string, EditableField>();
  const shown = fields.map((field) => {
    const copy = { ...field, options: field.options.map((option) => ({ ...option })) };
    const id = idOf(field.key);
    if (id !== undefined) byId.set(id, copy);
    return copy;
  });
  // The name each mirrored option had, by field and option id: the renames' starting points.
  const mirrored = new Map<string, Map<string, string>>();
  for (const [id, field] of byId) mirrored.set(id, namesById(field.options));
  const deleted = new Set<string>();
  for (const op of ops) {
    if (op.kind !== 'config' || op.action === null) continue;
    const fieldId = String(paramOf<unknown>(op, 'field_id'));
    const field = byId.get(fieldId);
    if (!field) continue;
    switch (op.action) {
      case 'option.addOptions':
      case 'option.renameOptions':
      case 'option.removeOptions':
      case 'option.moveOption':
        applyOptionChange(field.options, op, (option) => ({ ...option }));
        break;
      case 'field.updateField': {
        const label = paramOf<unknown>(op, 'label');
        if (typeof label === 'string') field.label = label;
        break;
      }
      case 'field.deleteField':
        deleted.add(fieldId);
        break;
    }
  }
  const relabel = new Map<string, Map<string, string | null>>();
  for (const [id, field] of byId) {
    const names = renamesBetween(mirrored.get(id) ?? new Map(), field.options);
    if (names.size > 0) relabel.set(field.key, names);
  }
  return {
    fields: shown.filter((field) => {
      const id = idOf(field.key);
      return id === undefined || !deleted.has(id);
    }),
    relabel,
  };
}

/**
 * A module's fields (the mirror's) as its queued field changes leave them, in queue order (pure):
 * renamed ones by their new label, deleted ones left out, as overlayCatalogFields leaves the
 * editor's, so the records workspace's columns and the editor name a field alike.
 */
export function fieldsNamedAsQueued<T extends { id: string; displayName: string }>(
  fields: readonly T[],
  ops: readonly Pick<OutboxOp, 'action' | 'fields'>[],
): T[] {
  const byId = new Map(fields.map((field) => [field.id, { ...field }]));
  for (const op of ops) {
    const field = byId.get(String(paramOf<unknown>(op, 'field_id')));
    if (!field) continue;
    if (op.action === 'field.deleteField') byId.delete(field.id);
    else if (op.action === 'field.updateField') {
      const label = paramOf<unknown>(op, 'label');
      if (typeof label === 'string') field.displayName = label;
    }
  }
  return [...byId.values()];
}

const namesById = (options: readonly NamedOption[]) =>
  new Map(options.map((option) => [option.id, option.name]));

/**
 * The names a field's records hold (`before`: option id → the mirror's name) → the names they
 * will hold once `after` (the options as the queue leaves them) is delivered; null for a removed
 * option, which the service clears from its records. Only the names that change. Pure.
 */
function renamesBetween(
  before: ReadonlyMap<string, string>,
  after: readonly NamedOption[],
): Map<string, string | null> {
  const now = namesById(after);
  const names = new Map<string, string | null>();
  for (const [optionId, name] of before) {
    const next = now.get(optionId) ?? null;
    if (next !== name) names.set(name, next);
  }
  return names;
}

/** A pick list's or multi-select's options, by field id and API name. */
export interface FieldOptions {
  fieldId: string;
  apiName: string;
  options: NamedOption[];
}

/** Fields' options as the module's queued option changes leave them, and what records show. */
export interface OptionsAsQueued {
  /** Per field API name: its options renamed, added, removed and moved as the queue leaves them. */
  options: Map<string, NamedOption[]>;
  /** Per field API name: as CatalogOverlay's `relabel` (a name records hold → its next, or null). */
  relabel: Map<string, Map<string, string | null>>;
}

/**
 * The mirror's options of a module's choice fields with its queued option changes laid over in
 * queue order (pure), by the editor's own applyOptionChange: what the records workspace reads
 * (lists, their filter choices, the record panel, export rows) names options as the record
 * editor offers them, and shows a record's values as `relabel` leaves them (relabelled).
 */
export function optionsAsQueued(
  fields: readonly FieldOptions[],
  ops: readonly OptionChangeOp[],
): OptionsAsQueued {
  const byId = new Map(
    fields.map((field) => [
      field.fieldId,
      { field, options: field.options.map((o) => ({ ...o })) },
    ]),
  );
  for (const op of ops) {
    if (op.action === null || !op.action.startsWith('option.')) continue;
    const entry = byId.get(String(paramOf<unknown>(op, 'field_id')));
    if (entry) applyOptionChange(entry.options, op, (option) => ({ ...option }));
  }
  const options = new Map<string, NamedOption[]>();
  const relabel = new Map<string, Map<string, string | null>>();
  for (const { field, options: shown } of byId.values()) {
    options.set(field.apiName, shown);
    const names = renamesBetween(namesById(field.options), shown);
    if (names.size > 0) relabel.set(field.apiName, names);
  }
  return { options, relabel };
}

/**
 * A stored value of a pick list or multi-select as the queued option changes leave it: renamed
 * options by their new name, removed ones cleared (a multi-select keeps its other items). Pure.
 */
export function relabelled(
  value: unknown,
  names: ReadonlyMap<string, string | null> | undefined,
): unknown {
  if (!names) return value;
  const one = (item: unknown) =>
    typeof item === 'string' && names.has(item) ? names.get(item)! : item;
  if (Array.isArray(value)) return value.map(one).filter((item) => item !== null);
  return one(value);
}

interface QueuedStatus {
  id: string;
  name: string;
  color?: string;
  closed?: boolean;
}

const queuedStatuses = (op: StatusChangeOp): QueuedStatus[] => {
  const statuses = paramOf<unknown>(op, 'statuses');
  return Array.isArray(statuses)
    ? statuses.filter(
        (s): s is QueuedStatus =>
          typeof s === 'object' &&
          s !== null &&
          typeof (s as QueuedStatus).id === 'string' &&
          typeof (s as QueuedStatus).name === 'string',
      )
    : [];
};

/** What the overlays read and set of a status: the mirror's rows and the overview's have these. */
export interface NamedStatus {
  id: string;
  name: string;
  color: string | null;
}

/** A queued operation as the status overlays read it (its stored parameters, its state). */
export type StatusChangeOp = Pick<OutboxOp, 'kind' | 'action' | 'state' | 'fields'>;

/**
 * A module's statuses (the mirror's) named as its queued status changes leave them, in queue
 * order (pure): renamed, recoloured. What the records workspace reads (lists, the table's
 * export, the status filter's choices, the record panel, the overview) names statuses so, as the
 * record editor does (overlayCatalogStatuses is this and more), and the Outbox's lines and the
 * Configure view (configure/statusOps.ts, overlayStatuses) say the same names. Which statuses
 * there are, their order and their closed types stay the mirror's until the changes are
 * delivered: lists filter and sort by them as the service will until then (a status made closed
 * closes its records after the replay, as the service does), and a filter names statuses by id.
 */
export function statusesNamedAsQueued<T extends NamedStatus>(
  statuses: readonly T[],
  ops: readonly StatusChangeOp[],
): T[] {
  const shown = statuses.map((status) => ({ ...status }));
  for (const op of ops) {
    if (op.kind !== 'config' || op.action !== 'status.updateStatuses') continue;
    for (const item of queuedStatuses(op)) {
      const status = shown.find((candidate) => candidate.id === item.id);
      if (!status) continue;
      status.name = item.name;
      if (item.color !== undefined) status.color = item.color;
    }
  }
  return shown;
}

/**
 * A module's statuses (the mirror's) as its queued status changes leave them, in queue order
 * (pure): named as statusesNamedAsQueued names them, made closed or open; removed ones out, but
 * for a removal the service refused (the status stays, as the Configure view shows it:
 * configure/statusOps.ts, overlayStatuses). Statuses added here are not among them: their ids
 * are temporary until the add answers, and a record change cannot wait on another queue's answer
 * for an id (the editor shows them apart, not selectable: queuedStatusAdds).
 */
export function overlayCatalogStatuses<T extends NamedStatus & { isClosedType: number }>(
  statuses: readonly T[],
  ops: readonly StatusChangeOp[],
): T[] {
  let shown = statusesNamedAsQueued(statuses, ops);
  for (const op of ops) {
    if (op.kind !== 'config') continue;
    if (op.action === 'status.updateStatuses') {
      for (const item of queuedStatuses(op)) {
        const status = shown.find((candidate) => candidate.id === item.id);
        if (status && item.closed !== undefined) status.isClosedType = item.closed ? 1 : 0;
      }
    } else if (op.action === 'status.removeStatuses' && op.state !== 'failed') {
      const removed = new Set(queuedStatuses(op).map((item) => item.id));
      shown = shown.filter((status) => !removed.has(status.id));
    }
  }
  return shown;
}

/**
 * The statuses added here and not delivered yet (queued adds, named as later queued renames
 * leave them; one whose removal is queued too is gone), each with why a record cannot be set to
 * it yet: its id is temporary until the add answers, the service knows a record's status by id
 * only, and the outbox rewrites temporary status ids in configuration changes, never in record
 * changes. The editor shows them, not selectable, with these words (README, "a status added
 * here and the record editor"). Pure.
 */
export function queuedStatusAdds(ops: readonly StatusChangeOp[]): WaitingStatus[] {
  let added: (NamedStatus & { refused: boolean })[] = [];
  for (const op of ops) {
    if (op.kind !== 'config') continue;
    if (op.action === 'status.addStatuses') {
      for (const item of queuedStatuses(op)) {
        added.push({
          id: item.id,
          name: item.name,
          color: item.color ?? null,
          refused: op.state === 'failed',
        });
      }
    } else if (op.action === 'status.removeStatuses' && op.state !== 'failed') {
      const removed = new Set(queuedStatuses(op).map((item) => item.id));
      added = added.filter((status) => !removed.has(status.id));
    }
  }
  return statusesNamedAsQueued(added, ops).map((status) => ({
    id: status.id,
    name: status.name,
    reason: status.refused
      ? `“${status.name}” was not added: the service refused its addition (retry or discard it in the Outbox), and a record can be set to it only once it is added.`
      : `“${status.name}” is added in the Outbox and not sent yet: the service gives it its id when it is sent, and a record can be set to it after that.`,
  }));
}

/**
 * A status value as a queued record change keeps it (`{id, name, …}`, the name and colour the
 * editor showed then) named by `statuses` (the catalog's: as the queue leaves them), since the
 * service knows it by its id only. Other values as they are. Pure.
 */
export function statusValueNamed(value: unknown, statuses: readonly CatalogStatus[]): unknown {
  if (typeof value !== 'object' || value === null || !('id' in value)) return value;
  const id = String((value as { id: unknown }).id);
  const status = statuses.find((candidate) => candidate.id === id);
  if (!status) return value;
  return {
    ...value,
    name: status.name,
    color: status.color,
    is_closed_type: status.isClosedType === 1,
  };
}
