/**
 * The page caches of an export's thread and of each of its helper threads: each opens the store
 * read-only (openReadOnlyConnection). An export reads each row once: the writers' large page cache
 * would only fill with them (the bench's resident memory grew 765 MB with it at 200,000 rows),
 * and the OS caches the file anyway.
 */

/** The export thread's page cache (KiB). */
export const EXPORT_PAGE_CACHE_KIB = 16_384;
/** Each helper thread's page cache (KiB). */
export const HELPER_PAGE_CACHE_KIB = 8_192;

/**
 * How much of the store's file the export's and its helpers' connections read through memory-mapped
 * I/O (SQLite's mmap_size; its build caps it at 2 GiB). An export reads a million rows in the
 * view's order, which is not the file's: nearly every row is a page SQLite does not hold, and
 * read() copying each page in cost about 1.2 µs of a helper's system time a row, a fifth of its
 * work (bench/README.md, "Rows read for their columns"). Mapped, the page is read where the OS
 * already holds it.
 *
 * Why it is safe here: the connections only read (`query_only`), they live for one export, and
 * the store's file never shrinks while the app runs (no VACUUM, auto_vacuum off), so no mapped
 * page can vanish under a reader (SQLite's own caution about mmap). The pages are the OS's file
 * cache, shared and given back under memory pressure: they count in the process's resident
 * memory, not in what it allocates (bench:export reports both).
 */
export const EXPORT_MAP_BYTES = 2 * 1024 ** 3;
