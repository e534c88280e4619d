/**
 * The portal's recycle bin (pure): its queued restores, deletes and empties as outbox operations
 * (kind `config`, actions `bin.restore`, `bin.delete`, `bin.empty`, one queue per portal named
 * `bin`), the `{module, items}` batches they send (at most 100 ids each, as the spec allows), the
 * list as the view shows it (queued work marked, filtered, sorted), and the days an item has left.
 */
import type { BinItem } from '@portaldesk/portal-api/domain/binItem';
import {
  BIN_BATCH_MAX,
  BIN_KEEP_DAYS,
  type BinEntry,
  type BinListArgs,
  type BinModule,
} from '../../shared/ipc/areas/bin';
import type { OpFields, OutboxOp } from '../outbox/outboxTypes';

export const BIN_QUEUE = 'bin';
export const BIN_MODULE_ID = 'bin';
export type BinAction = 'restore' | 'delete' | 'empty';
export const binOpAction = (action: BinAction) => `bin.${action}`;

const DAY_MS = 86_400_000;

export function binActionOf(op: Pick<OutboxOp, 'kind' | 'action'>): BinAction | null {
  if (op.kind !== 'config' || !op.action?.startsWith('bin.')) return null;
  return op.action.slice('bin.'.length) as BinAction;
}

export interface BinBatch {
  module: string;
  items: string[];
}

/** Items grouped by module, in batches of at most 100 ids, in the order given. */
export function binBatches(items: readonly { module: string; id: string }[]): BinBatch[] {
  const byModule = new Map<string, string[]>();
  for (const item of items) {
    const ids = byModule.get(item.module) ?? [];
    if (!ids.includes(item.id)) ids.push(item.id);
    byModule.set(item.module, ids);
  }
  const batches: BinBatch[] = [];
  for (const [module, ids] of byModule) {
    for (let at = 0; at < ids.length; at += BIN_BATCH_MAX) {
      batches.push({ module, items: ids.slice(at, at + BIN_BATCH_MAX) });
    }
  }
  return batches;
}

/** An operation's batches (`fields.items.value`). */
export function batchesOf(op: Pick<OutboxOp, 'fields'>): BinBatch[] {
  const value = op.fields.items?.value;
  return Array.isArray(value) ? (value as BinBatch[]) : [];
}

export const binFields = (batches: readonly BinBatch[]): OpFields => ({
  items: { value: batches, base: null },
});

/** The batches still worth sending: only ids the bin still lists (after a lost answer). */
export function stillInBin(batches: readonly BinBatch[], listed: readonly BinItem[]): BinBatch[] {
  const present = new Set(listed.map((item) => `${item.module}\u0000${item.id}`));
  return batches
    .map((batch) => ({
      module: batch.module,
      items: batch.items.filter((id) => present.has(`${batch.module}\u0000${id}`)),
    }))
    .filter((batch) => batch.items.length > 0);
}

/**
 * Days left of the item's 30 at `now`, counted up (30 just after trashing, 1 on its last day, 0
 * once past), or null when the service gave no time to count from.
 */
export function daysLeft(item: BinItem, now: number): number | null {
  const until =
    item.restorable_until !== null
      ? Date.parse(item.restorable_until)
      : item.trashed_time !== null
        ? Date.parse(item.trashed_time) + BIN_KEEP_DAYS * DAY_MS
        : Number.NaN;
  if (Number.isNaN(until)) return null;
  return Math.max(0, Math.ceil((until - now) / DAY_MS));
}

/**
 * Whether the item may still be restored at `now`: the service said so when the bin was read,
 * and its 30 days (spec: "restore ... within 30 days of trashing") have not run out since. A bin
 * read offline a day ago must not offer, or queue, a restore the service can only refuse.
 */
export function restorableAt(item: BinItem, now: number): boolean {
  return item.is_restorable && daysLeft(item, now) !== 0;
}

/**
 * ASCII letters folded to lower case, nothing else: how the service compares names (SQLite's
 * NOCASE and LIKE fold only A to Z), so a list filtered or sorted here is the service's own.
 */
const fold = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Ids are digits: compared as numbers (longer is larger), as the service orders them. */
const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** The listing the view shows: queued work marked, then the filter and the sort. */
export function binEntries(
  items: readonly BinItem[],
  ops: readonly OutboxOp[],
  args: Pick<BinListArgs, 'sort' | 'filter'>,
  now: number,
): BinEntry[] {
  const pending = new Map<string, 'restore' | 'delete'>();
  for (const op of ops) {
    const action = binActionOf(op);
    if (action !== 'restore' && action !== 'delete') continue;
    for (const batch of batchesOf(op)) {
      for (const id of batch.items) pending.set(`${batch.module}\u0000${id}`, action);
    }
  }
  // As given (not trimmed): the service's `search_term` is matched as sent.
  const search = args.filter?.search;
  const entries = items
    .filter((item) => args.filter?.module === undefined || item.module === args.filter.module)
    .filter((item) => !search || fold(item.name).includes(fold(search)))
    .map((item): BinEntry => ({
      id: item.id,
      name: item.name,
      module: item.module,
      project: item.project ? { id: item.project.id, name: item.project.name ?? null } : null,
      trashedTime: item.trashed_time,
      trashedBy: item.trashed_by?.name ?? item.trashed_by?.zpuid ?? null,
      restorableUntil: item.restorable_until,
      daysLeft: item.is_restorable ? daysLeft(item, now) : 0,
      restorable: restorableAt(item, now),
      pending: pending.get(`${item.module}\u0000${item.id}`) ?? null,
    }));
  const direction = args.sort.descending ? -1 : 1;
  const key = (entry: BinEntry) =>
    args.sort.by === 'name' ? fold(entry.name) : (entry.trashedTime ?? '');
  return entries.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    // Code-unit order after folding ASCII letters, ties by id, all in the chosen direction: the
    // service's `ORDER BY name COLLATE NOCASE, id`.
    const order = ka < kb ? -1 : ka > kb ? 1 : byId(a.id, b.id);
    return direction * order;
  });
}

/** One line for the Outbox. */
export function binSummary(op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>): string {
  const count = batchesOf(op).reduce((sum, batch) => sum + batch.items.length, 0);
  const items = `${count} item${count === 1 ? '' : 's'}`;
  switch (binActionOf(op)) {
    case 'restore':
      return `Restore ${items} from the recycle bin`;
    case 'delete':
      return `Delete ${items} in the recycle bin for good`;
    case 'empty':
      return 'Empty the recycle bin';
    default:
      return op.action ?? 'Recycle bin';
  }
}

/** What an operation will send. */
export function binRequest(op: Pick<OutboxOp, 'kind' | 'action' | 'fields' | 'portalId'>): {
  method: string;
  path: string;
  body: unknown;
} {
  const base = `/api/v3/portal/${op.portalId}`;
  const body = batchesOf(op);
  switch (binActionOf(op)) {
    case 'restore':
      return { method: 'POST', path: `${base}/bin/restore`, body };
    case 'delete':
      return { method: 'DELETE', path: `${base}/bin`, body };
    default:
      return { method: 'DELETE', path: `${base}/empty-bin`, body: null };
  }
}

export const isBinModule = (module: string): module is BinModule =>
  ['projects', 'phases', 'tasklists', 'tasks', 'issues'].includes(module);
