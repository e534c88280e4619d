import type Database from 'better-sqlite3';

/**
 * What a mirror write changed, per table: the ids inserted, updated (a stored value really
 * differed) and deleted. `Object.keys(changes)` are the tables touched, so a later event can tell
 * the UI which queries to refresh; an idempotent re-upsert reports nothing.
 */
export type MirrorTable =
  | 'portals'
  | 'portal_users'
  | 'modules'
  | 'layouts'
  | 'sections'
  | 'layout_fields'
  | 'fields'
  | 'field_options'
  | 'statuses'
  | 'records'
  | 'comments'
  | 'comment_sync'
  | 'status_timeline'
  | 'sync_cursors';

export interface TableChanges {
  inserted: string[];
  updated: string[];
  deleted: string[];
}

export type MirrorChanges = Partial<Record<MirrorTable, TableChanges>>;

/** Collects the changes of one write; `result()` leaves out tables nothing happened to. */
export class ChangeLog {
  private readonly tables = new Map<MirrorTable, TableChanges>();

  private of(table: MirrorTable): TableChanges {
    let changes = this.tables.get(table);
    if (!changes) {
      changes = { inserted: [], updated: [], deleted: [] };
      this.tables.set(table, changes);
    }
    return changes;
  }

  /** Takes an array, not rest arguments: a reconciliation can delete 100,000 ids. */
  add(table: MirrorTable, kind: keyof TableChanges, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const list = this.of(table)[kind];
    for (const id of ids) list.push(id);
  }

  /** An upsert's outcome: `changed` false (nothing differed) records nothing. */
  upserted(table: MirrorTable, id: string, existed: boolean, changed: boolean): void {
    if (changed) this.of(table)[existed ? 'updated' : 'inserted'].push(id);
  }

  result(): MirrorChanges {
    const out: MirrorChanges = {};
    for (const [table, changes] of this.tables) {
      if (changes.inserted.length + changes.updated.length + changes.deleted.length > 0) {
        out[table] = changes;
      }
    }
    return out;
  }
}

/**
 * One mirror write: `work` in one transaction that begins IMMEDIATE (it waits for another
 * connection's write lock instead of failing half-way, see README.md), and what it logged.
 */
export function writeChanges(db: Database.Database, work: (log: ChangeLog) => void): MirrorChanges {
  const log = new ChangeLog();
  db.transaction(() => work(log)).immediate();
  return log.result();
}

/** Merges the changes of several writes (e.g. the pages of one pull), in order. */
export function mergeChanges(...all: MirrorChanges[]): MirrorChanges {
  const log = new ChangeLog();
  for (const changes of all) {
    for (const [table, c] of Object.entries(changes) as [MirrorTable, TableChanges][]) {
      log.add(table, 'inserted', c.inserted);
      log.add(table, 'updated', c.updated);
      log.add(table, 'deleted', c.deleted);
    }
  }
  return log.result();
}
