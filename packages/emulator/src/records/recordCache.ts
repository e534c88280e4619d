/**
 * Caches behind the record routes, valid for one "data version": SQLite's total_changes() on the
 * emulator's one connection, which every INSERT, UPDATE and DELETE moves, whoever makes it (the
 * settings routes renaming an option, the admin reset, a test writing straight to the table). So
 * no other route has to remember to invalidate anything: a foreign write drops every cache.
 *
 * Writes made by the record routes themselves keep what they cannot have changed (module and
 * portal metadata, other records' serialized forms): see `afterOwnWrite`.
 */
import type Database from 'better-sqlite3';

/** Serialized records kept; past this the oldest are dropped (insertion order). */
const MAX_FRAGMENTS = 150_000;
/** Ordered id lists (one per module, scope, filter, sort and view) kept. */
const MAX_LISTS = 64;
/** Metadata entries and lookups kept. */
const MAX_META = 10_000;
/** Compiled filters kept (by module and filter text). */
const MAX_FILTERS = 256;
/** Whole page bodies kept, and their total size. */
const MAX_PAGES = 512;
const MAX_PAGE_BYTES = 64 * 1024 * 1024;

export interface IdList {
  ids: readonly number[];
}

export class RecordCaches {
  /** The total_changes() value the caches are valid for. */
  version = -1;
  /** Anything keyed by module id or portal id (metadata); rebuilt on a foreign write. */
  readonly meta = new Map<string, unknown>();
  /** Record id → its JSON text. */
  readonly fragments = new Map<number, string>();
  readonly lists = new Map<string, IdList>();
  /** Filter text → its SQL, for filters whose meaning does not depend on the time. */
  readonly filters = new Map<string, unknown>();
  readonly pages = new Map<string, Buffer>();
  private pageBytes = 0;

  constructor(private readonly totalChanges: Database.Statement) {}

  current(): number {
    return this.totalChanges.get() as number;
  }

  /** Drops everything if the database changed since the caches were filled. */
  sync(): this {
    const now = this.current();
    if (now !== this.version) {
      this.meta.clear();
      this.filters.clear();
      this.fragments.clear();
      this.dropLists();
      this.version = now;
    }
    return this;
  }

  /**
   * After a write by the record routes that began at data version `before`: if nothing else
   * changed the data in between, only the touched records' forms and the lists go; otherwise all.
   */
  afterOwnWrite(before: number, touched: readonly number[]): void {
    if (before !== this.version) {
      this.version = -1;
      return;
    }
    for (const id of touched) this.fragments.delete(id);
    this.dropLists();
    this.version = this.current();
  }

  memo<T>(key: string, build: () => T): T {
    if (this.meta.has(key)) return this.meta.get(key) as T;
    const value = build();
    // Lookups of names that do not exist are kept too; a flood of them must not grow unbounded.
    if (this.meta.size >= MAX_META) this.meta.clear();
    this.meta.set(key, value);
    return value;
  }

  putFilter(key: string, value: unknown): void {
    if (this.filters.size >= MAX_FILTERS) this.filters.clear();
    this.filters.set(key, value);
  }

  putFragment(id: number, json: string): void {
    if (this.fragments.size >= MAX_FRAGMENTS) {
      const oldest = this.fragments.keys().next();
      if (!oldest.done) this.fragments.delete(oldest.value);
    }
    this.fragments.set(id, json);
  }

  list(key: string, build: () => IdList): IdList {
    const found = this.lists.get(key);
    if (found) return found;
    const list = build();
    if (this.lists.size >= MAX_LISTS) {
      const oldest = this.lists.keys().next();
      if (!oldest.done) this.lists.delete(oldest.value);
    }
    this.lists.set(key, list);
    return list;
  }

  page(key: string): Buffer | undefined {
    return this.pages.get(key);
  }

  putPage(key: string, body: Buffer): void {
    while (
      this.pages.size > 0 &&
      (this.pages.size >= MAX_PAGES || this.pageBytes + body.length > MAX_PAGE_BYTES)
    ) {
      const oldest = this.pages.entries().next();
      if (oldest.done) break;
      this.pages.delete(oldest.value[0]);
      this.pageBytes -= oldest.value[1].length;
    }
    this.pages.set(key, body);
    this.pageBytes += body.length;
  }

  private dropLists(): void {
    this.lists.clear();
    this.pages.clear();
    this.pageBytes = 0;
  }
}

const byDatabase = new WeakMap<Database.Database, RecordCaches>();

/** The caches of this database, checked against its data version. */
export function recordCaches(db: Database.Database): RecordCaches {
  let caches = byDatabase.get(db);
  if (!caches) {
    caches = new RecordCaches(db.prepare('SELECT total_changes()').pluck());
    byDatabase.set(db, caches);
  }
  return caches.sync();
}
