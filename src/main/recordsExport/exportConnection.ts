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
