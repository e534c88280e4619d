/**
 * A module's statuses as outbox operations (pure): one operation per kind of change (the spec's
 * bulk bodies: POST to add, PATCH to change or move, DELETE to remove), in the module's settings
 * queue (`layouts:<module id>`) behind the layout and field changes queued before them. A status
 * added here has a temporary id (`tmp-st-…`) until the add answers; later operations naming it
 * (a move, a change, another status's transitions) are then rewritten by the outbox. Statuses are
 * shared by every layout, so no body carries a layout_id.
 */
import type {
  ConfigStatus,
  PendingStatusChange,
  StatusAction,
} from '../../shared/ipc/areas/configureChoices';
import type { OutboxOp } from '../outbox/outboxTypes';
import { statusIdOf } from '../outbox/ledgerReads';
import { param } from './layoutOps';

export const TEMP_STATUS_PREFIX = 'tmp-st-';
export const statusOpAction = (action: StatusAction) => `status.${action}`;

export function statusActionOf(op: Pick<OutboxOp, 'kind' | 'action'>): StatusAction | null {
  if (op.kind !== 'config' || !op.action?.startsWith('status.')) return null;
  return op.action.slice('status.'.length) as StatusAction;
}

/**
 * A status as an operation names it. `name` always (for summaries and the lost-add match); the
 * settings only when the operation sets them.
 */
export interface StatusItem {
  id: string;
  name: string;
  color?: string;
  closed?: boolean;
  transitions?: string[];
}

export const statusItemsOf = (op: Pick<OutboxOp, 'fields'>) =>
  param<StatusItem[]>(op, 'statuses') ?? [];

const quote = (s: unknown) => `“${String(s)}”`;

function changeWords(item: StatusItem, was: StatusItem | undefined): string {
  const words: string[] = [];
  if (was && item.name !== was.name) words.push(`rename ${quote(was.name)} to ${quote(item.name)}`);
  if (item.color !== undefined) words.push(`colour ${item.color}`);
  if (item.closed !== undefined) words.push(item.closed ? 'closed type' : 'open type');
  if (item.transitions !== undefined) {
    words.push(
      `${item.transitions.length} ${item.transitions.length === 1 ? 'transition' : 'transitions'}`,
    );
  }
  return `${quote(was?.name ?? item.name)}: ${words.join(', ')}`;
}

export function statusSummary(op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>): string {
  const items = statusItemsOf(op);
  const names = items.map((item) => quote(item.name)).join(', ');
  switch (statusActionOf(op)) {
    case 'addStatuses':
      return `Add ${items.length === 1 ? 'status' : 'statuses'} ${names}`;
    case 'updateStatuses': {
      const was = param<Record<string, StatusItem>>(op, 'was') ?? {};
      return `Change ${items.map((item) => changeWords(item, was[item.id])).join('; ')}`;
    }
    case 'moveStatus':
      return `Move status ${names} to place ${String(param(op, 'position'))}`;
    case 'removeStatuses':
      return `Remove ${items.length === 1 ? 'status' : 'statuses'} ${names}`;
    default:
      return op.action ?? 'Statuses change';
  }
}

const ref = (id: string) => ({ id });

/**
 * A status as the spec's body item carries it (`{id, name, color, is_closed_type, transitions}`).
 * A change sends its name only when it renames (`was` is the name before), so a colour changed
 * here never undoes a rename made on the service meanwhile.
 */
function bodyItem(item: StatusItem, withId: boolean, was?: StatusItem) {
  return {
    ...(withId ? { id: item.id } : {}),
    ...(!withId || was === undefined || was.name !== item.name ? { name: item.name } : {}),
    ...(item.color !== undefined ? { color: item.color } : {}),
    ...(item.closed !== undefined ? { is_closed_type: item.closed } : {}),
    ...(item.transitions !== undefined ? { transitions: item.transitions.map(ref) } : {}),
  };
}

/** The body of the operation's call for `items` (by default the operation's own). */
export function statusBody(
  op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>,
  module: string,
  items: readonly StatusItem[] = statusItemsOf(op),
) {
  const field = String(param(op, 'field_id'));
  switch (statusActionOf(op)) {
    case 'addStatuses':
      return { module, field, statuses: items.map((item) => bodyItem(item, false)) };
    case 'updateStatuses': {
      const was = param<Record<string, StatusItem>>(op, 'was') ?? {};
      return {
        module,
        field,
        statuses: items.map((item) => bodyItem(item, true, was[item.id])),
      };
    }
    case 'moveStatus':
      return {
        module,
        field,
        statuses: items.map((item) => ref(item.id)),
        position: { exact_position: param<number>(op, 'position') },
      };
    default:
      return { module, field, statuses: items.map((item) => ref(item.id)) };
  }
}

export function statusRequest(
  op: Pick<OutboxOp, 'kind' | 'action' | 'fields' | 'portalId'>,
  moduleApiName: string | null,
): { method: string; path: string; body: unknown } {
  const action = statusActionOf(op);
  return {
    method: action === 'addStatuses' ? 'POST' : action === 'removeStatuses' ? 'DELETE' : 'PATCH',
    path: `/api/v3/portal/${op.portalId}/settings/options`,
    body: statusBody(op, moduleApiName ?? '(its API name, once created)'),
  };
}

/** Temporary status ids an operation still names (its statuses and their transitions). */
export function tempStatusIdsOf(op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>): string[] {
  const ids = new Set<string>();
  const adding = statusActionOf(op) === 'addStatuses';
  for (const item of statusItemsOf(op)) {
    if (!adding && item.id.startsWith(TEMP_STATUS_PREFIX)) ids.add(item.id);
    for (const to of item.transitions ?? []) if (to.startsWith(TEMP_STATUS_PREFIX)) ids.add(to);
  }
  return [...ids];
}

/** A module's statuses as the Configure view shows them: the mirror's with queued changes applied. */
export function overlayStatuses(
  mirrored: readonly ConfigStatus[],
  ops: readonly OutboxOp[],
): ConfigStatus[] {
  const statuses = mirrored.map((status) => ({
    ...status,
    transitions: [...status.transitions],
    pending: [...status.pending],
  }));
  for (const op of ops) {
    const action = statusActionOf(op);
    if (action === null) continue;
    const pending: PendingStatusChange = {
      opId: op.seq,
      action,
      summary: statusSummary(op),
      state: op.state,
      error: op.error,
    };
    const items = statusItemsOf(op);
    if (action === 'addStatuses') {
      for (const item of items) {
        statuses.push({
          id: item.id,
          name: item.name,
          color: item.color ?? '',
          closed: item.closed ?? false,
          isDefault: false,
          transitions: [...(item.transitions ?? [])],
          records: 0,
          timelineUses: 0,
          localOnly: true,
          pending: [pending],
        });
      }
      continue;
    }
    for (const item of items) {
      const index = statuses.findIndex((candidate) => candidate.id === item.id);
      if (index === -1) continue;
      const shown = statuses[index]!;
      shown.pending.push(pending);
      if (action === 'updateStatuses') {
        shown.name = item.name;
        if (item.color !== undefined) shown.color = item.color;
        if (item.closed !== undefined) shown.closed = item.closed;
        if (item.transitions !== undefined) shown.transitions = [...item.transitions];
      } else if (action === 'removeStatuses') {
        // A removal the service refused leaves the status there, its refusal shown against it.
        if (op.state === 'failed') continue;
        statuses.splice(index, 1);
        // The service forgets transitions to a removed status with it.
        for (const other of statuses) {
          other.transitions = other.transitions.filter((to) => to !== item.id);
        }
      } else if (action === 'moveStatus') {
        statuses.splice(index, 1);
        const position = param<number>(op, 'position') ?? statuses.length + 1;
        statuses.splice(Math.min(position - 1, statuses.length), 0, shown);
      }
    }
  }
  // Transitions in the module's order, as the service lists them.
  const order = new Map(statuses.map((status, index) => [status.id, index]));
  for (const status of statuses) {
    status.transitions.sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity));
  }
  return statuses;
}

/**
 * The module's record changes (`ops`: valueOpsOfModule, any state) that move a record into one of
 * `ids`. The usage beside a status counts the mirror's records only, and record changes go after
 * the module's configuration (recordsWaitFor.ts): removed first, the status would be gone when
 * such a change goes, and the service would refuse it whole. Pure.
 */
export function recordChangesInto(ops: readonly OutboxOp[], ids: ReadonlySet<string>): OutboxOp[] {
  return ops.filter((op) => {
    if (!Object.hasOwn(op.fields, 'status')) return false;
    const id = statusIdOf(op.fields.status!.value);
    return id !== null && ids.has(id);
  });
}
