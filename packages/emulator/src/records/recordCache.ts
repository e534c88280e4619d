/**
 * Caches behind the record routes, valid for one "data version": SQLite's total_changes() on the
 * emulator's one connection, which every INSERT, UPDATE and DELETE moves, whoever makes it (the
 * settings routes renaming an option, the admin reset, a test writing straight to the table). So
 * no other route has to remember to invalidate anything: a foreign write drops every cache.
 *
 * Writes made by the record routes themselves keep what they cannot have changed (module and
 * portal metadata, other modules' id lists and pages): see `afterOwnWrite`.
 *
 * Records' JSON texts are not kept, and a page body only once it is asked for a second time.
 * Keeping them cost more CPU than it saved where it matters, a full pull, which reads each record
 * and page once: 150,000 kept texts made the garbage collector copy and mark each of them (a page
 * of 200 cost about 13 ms of CPU with them, 4–5 without), and keeping every page body (64 MB)
 * still cost about 0.6 ms a page. Serializing a page afresh costs about 2 ms (bench/README.md,
 * "The emulator's CPU per call"); a page read again and again (a client re-reading its first
 * page, bench:emulator's passes) is served from its kept body from the third read on.
 */
import type Database from 'better-sqlite3';

/**
 * Ordered id lists (one per module, scope, filter, sort and view) kept, least recently used
 * dropped first. A sync of 32 portals of 8 modules pulls 256 modules side by side: fewer than
 * that made every page rebuild its module's list.
 */
const MAX_LISTS = 1024;
/** Metadata entries and lookups kept. */
const MAX_META = 10_000;
/** Compiled filters kept (by module and filter text). */
const MAX_FILTERS = 256;
/** Page bodies kept (those asked for twice), by count and total size; least recently used go. */
const MAX_PAGES = 512;
const MAX_PAGE_BYTES = 64 * 1024 * 1024;
/** Pages asked for once, remembered by key only, so that the second ask keeps the body. */
const MAX_SEEN_PAGES = 8192;

export interface IdList {
  /** The module whose records these are: its own writes drop it. */
  moduleId: number;
  ids: readonly number[];
}

interface PageEntry {
  moduleId: number;
  body: Buffer;
}

export class RecordCaches {
  /** The total_changes() value the caches are valid for. */
  version = -1;
  /** Anything keyed by module id or portal id (metadata); rebuilt on a foreign write. */
  readonly meta = new Map<string, unknown>();
  readonly lists = new Map<string, IdList>();
  /** Filter text → its SQL, for filters whose meaning does not depend on the time. */
  readonly filters = new Map<string, unknown>();
  /** A list's key and window → the page's body, for pages asked for more than once. */
  readonly pages = new Map<string, PageEntry>();
  /** Keys of pages asked for once since their module's lists were last dropped → module id. */
  readonly seenPages = new Map<string, number>();
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
      this.lists.clear();
      this.dropPages(() => true);
      this.version = now;
    }
    return this;
  }

  /**
   * After a write by the record routes that began at data version `before`: if nothing else
   * changed the data in between, only the lists and pages of the module written (`moduleId`;
   * null for writes no list shows, such as comments) go; otherwise all. A record write cannot
   * change another module's list: a list reads only its own module's rows, and the metadata it
   * sorts, filters or shows by (users, projects, statuses) is not written by the record routes.
   */
  afterOwnWrite(before: number, moduleId: number | null): void {
    if (before !== this.version) {
      this.version = -1;
      return;
    }
    if (moduleId !== null) {
      for (const [key, list] of this.lists) {
        if (list.moduleId === moduleId) this.lists.delete(key);
      }
      this.dropPages((pageModuleId) => pageModuleId === moduleId);
    }
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

  list(key: string, build: () => IdList): IdList {
    const found = this.lists.get(key);
    if (found) {
      // Most recently used last, so the lists of modules being paged through stay.
      this.lists.delete(key);
      this.lists.set(key, found);
      return found;
    }
    const list = build();
    if (this.lists.size >= MAX_LISTS) {
      const oldest = this.lists.keys().next();
      if (!oldest.done) this.lists.delete(oldest.value);
    }
    this.lists.set(key, list);
    return list;
  }

  page(key: string): Buffer | undefined {
    const found = this.pages.get(key);
    if (!found) return undefined;
    this.pages.delete(key);
    this.pages.set(key, found);
    return found.body;
  }

  /** A page just written: kept if it was asked for before, else only its key is remembered. */
  offerPage(key: string, moduleId: number, body: Buffer): void {
    if (!this.seenPages.has(key)) {
      if (this.seenPages.size >= MAX_SEEN_PAGES) {
        const oldest = this.seenPages.keys().next();
        if (!oldest.done) this.seenPages.delete(oldest.value);
      }
      this.seenPages.set(key, moduleId);
      return;
    }
    if (body.length > MAX_PAGE_BYTES) return;
    while (this.pages.size >= MAX_PAGES || this.pageBytes + body.length > MAX_PAGE_BYTES) {
      const oldest = this.pages.entries().next();
      if (oldest.done) break;
      this.pages.delete(oldest.value[0]);
      this.pageBytes -= oldest.value[1].body.length;
    }
    this.pages.set(key, { moduleId, body });
    this.pageBytes += body.length;
  }

  private dropPages(which: (moduleId: number) => boolean): void {
    for (const [key, entry] of this.pages) {
      if (!which(entry.moduleId)) continue;
      this.pages.delete(key);
      this.pageBytes -= entry.body.length;
    }
    for (const [key, moduleId] of this.seenPages) {
      if (which(moduleId)) this.seenPages.delete(key);
    }
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
